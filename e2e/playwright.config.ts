import { defineConfig } from '@playwright/test';
// The layer table lets e2e/ import everything, but the lint rule knows only the layers, not scripts/.
// eslint-disable-next-line layers/boundaries -- the one Chromium the tests, the benchmarks and `npm test`'s set-up look for
import { chromiumPath } from '../scripts/systemPackages.mjs';

/**
 * End-to-end tests: Debian's Chromium (never a downloaded browser) against browser mode, with the
 * real service and real pseudo-terminal shoes. One worker: the specs share the machine's two cores.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './harness/globalSetup.ts',
  workers: 1,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '../test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'off',
  },
});

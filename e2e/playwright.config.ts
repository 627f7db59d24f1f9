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
      // Scrollbars drawn as a dealer's PC draws them (15 px classic bars, measured: a scrolling
      // 200 px box shows 185 px): Playwright's headless default hides them, and a box narrower than
      // its content by a scrollbar's width (the card grid, issue 41) then passes unseen.
      ignoreDefaultArgs: ['--hide-scrollbars'],
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'off',
  },
});

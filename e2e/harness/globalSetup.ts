import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// The layer table lets e2e/ import everything, but the lint rule knows only the layers, not scripts/.
// eslint-disable-next-line layers/boundaries -- the one Chromium the tests, the benchmarks and `npm test`'s set-up look for
import { chromiumPath } from '../../scripts/systemPackages.mjs';

/** Builds the console once for all specs; each spec then starts its own server on it. */
export default function globalSetup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (!existsSync(chromiumPath())) {
    throw new Error(`Chromium is missing at ${chromiumPath()}: \`npm test\` installs it where it may (scripts/systemPackages.mjs), else: sudo apt-get install -y chromium`);
  }
  const build = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

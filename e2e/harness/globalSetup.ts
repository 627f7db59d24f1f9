import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Builds the console once for all specs; each spec then starts its own server on it. */
export default function globalSetup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (!existsSync('/usr/bin/chromium') && !process.env.CHROMIUM_PATH) {
    throw new Error('Chromium is missing: install it with `apt-get install -y chromium` (.ci/run does this)');
  }
  const build = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

// `npm start`: build when the sources changed since the last build (scripts/buildStamp.mjs), then
// launch the desktop app in Electron. Where the Electron runtime is not installed (its binary
// cannot be downloaded on some machines), say so in one line and start browser mode instead
// (station/web/start.ts, as `npm run web` does, without its build), which prints the address to open.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './buildStamp.mjs';
import { electronExecutable, noRuntimeLine } from './electron-runtime.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const electron = electronExecutable();

if (electron === null) console.error(noRuntimeLine());

const cli = fileURLToPath(new URL('../node_modules/electron-vite/bin/electron-vite.js', import.meta.url));
const built = buildIfStale({ root }, () => spawnSync(process.execPath, [cli, 'build', ...(electron === null ? ['--logLevel', 'warn'] : [])], { cwd: root, stdio: 'inherit' }).status);
if (typeof built === 'number') process.exit(built);
if (built === 'current') console.log('Chip Race Console: the build is up to date with the sources; not rebuilt.');

if (electron === null) {
  const web = spawn(process.execPath, ['--import', 'tsx', 'station/web/start.ts'], { cwd: root, stdio: 'inherit' });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => web.kill(signal));
  web.on('close', (code) => process.exit(code ?? 0));
} else {
  // Chromium refuses to run as root on Linux unless its own process sandbox is off.
  const args = ['.'];
  if (process.platform === 'linux' && process.getuid?.() === 0) args.push('--no-sandbox');

  const app = spawn(electron, args, { cwd: root, stdio: 'inherit' });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(signal, () => app.kill(signal));
  }
  app.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

// `npm start`: build, then launch the desktop app in Electron. Where the Electron runtime is not
// installed (its binary cannot be downloaded on some machines), say so in one line and start
// browser mode instead (`npm run web`), which prints the address to open.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { electronExecutable, noRuntimeLine } from './electron-runtime.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const electron = electronExecutable();

if (electron === null) {
  console.error(noRuntimeLine());
  const web = spawn('npm', ['run', '--silent', 'web'], { cwd: root, stdio: 'inherit' });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => web.kill(signal));
  web.on('close', (code) => process.exit(code ?? 0));
} else {
  launchElectron(electron);
}

/** @param {string} electron */
function launchElectron(electron) {

const cli = fileURLToPath(new URL('../node_modules/electron-vite/bin/electron-vite.js', import.meta.url));
const build = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// Chromium refuses to run as root on Linux unless its own process sandbox is off.
const args = ['.'];
if (process.platform === 'linux' && process.getuid?.() === 0) args.push('--no-sandbox');

const app = spawn(electron, args, { cwd: root, stdio: 'inherit' });
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => app.kill(signal));
}
app.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

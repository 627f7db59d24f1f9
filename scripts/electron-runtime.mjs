// Finds the Electron executable WITHOUT `require('electron')`: since Electron 45 that require
// tries to download the binary when it is missing, which cannot work on machines without access
// to Electron's download host.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The installed `electron` package's folder, or null when it is not installed.
 * @returns {string | null}
 */
export function electronPackageDir() {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/**
 * Path of a usable Electron executable, or null when the runtime is absent. Follows the electron
 * package's own lookup: `path.txt` names the executable inside `dist/` (or inside
 * `ELECTRON_OVERRIDE_DIST_PATH` when that is set).
 * @param {string | null} packageDir the electron package folder
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | null}
 */
export function electronExecutable(packageDir = electronPackageDir(), env = process.env) {
  if (packageDir === null) return null;
  const pathFile = path.join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const overrideDist = env['ELECTRON_OVERRIDE_DIST_PATH'];
  const executable = overrideDist
    ? path.join(overrideDist, relative || 'electron')
    : relative
      ? path.join(packageDir, 'dist', relative)
      : null;
  return executable !== null && existsSync(executable) ? executable : null;
}

export const NO_RUNTIME_MESSAGE =
  'Chip Race Console: the Electron runtime is not available on this machine, so the desktop app cannot start here; starting browser mode instead.';

/**
 * The Node.js the electron package's downloader asks for (its `engines.node`, ">= 22.12.0"), when
 * this Node is older: the one reason the console itself (20.19 is enough for it) cannot fetch
 * Electron's binary here, said where browser mode starts instead (npm's EBADENGINE notes at
 * install say the same for electron, @electron/get and @electron-internal/extract-zip). Null when
 * this Node is enough, or the range is not the plain ">= x.y.z" this reads.
 * @param {string | null} packageDir the electron package folder
 * @param {string} node this Node's version ("20.20.2")
 * @returns {string | null}
 */
export function downloaderNodeWanted(packageDir = electronPackageDir(), node = process.versions.node) {
  if (packageDir === null) return null;
  let range = '';
  try {
    range = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).engines?.node ?? '';
  } catch {
    return null;
  }
  const wanted = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  if (wanted === null) return null;
  const want = wanted.slice(1, 4).map(Number);
  const have = node.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    if ((have[index] ?? 0) !== want[index]) return (have[index] ?? 0) < (want[index] ?? 0) ? want.join('.') : null;
  }
  return null;
}

/**
 * The one line `npm start` says when it starts browser mode: NO_RUNTIME_MESSAGE, with the Node.js
 * Electron's downloader needs where this one is older.
 * @param {string | null} wanted downloaderNodeWanted()
 * @param {string} node this Node's version
 * @returns {string}
 */
export function noRuntimeLine(wanted = downloaderNodeWanted(), node = process.versions.node) {
  return wanted === null ? NO_RUNTIME_MESSAGE : `${NO_RUNTIME_MESSAGE} (Electron's downloader needs Node.js ${wanted} or later; this is ${node}.)`;
}

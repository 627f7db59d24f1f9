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

// `npm start` builds only when the built app (out/) is not what the sources make: issue 41, a
// rebuild of 8–10 s at every start. After a build it writes a stamp (out/.build-stamp.json)
// holding two fingerprints: the sources' (every file's path and bytes, of the folders the build
// reads and its configuration and lock file) and the output's (every built file's path, size and
// time). The next start skips the build only when both still match: a source edited, a package
// installed, or out/ built by another command (`npm run build`, another checkout) all rebuild.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SHIPPED_FOLDERS } from './shippedFolders.mjs';

/** The files outside those folders that change what the build makes. */
export const BUILD_FILES = ['electron.vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.node.json', 'tsconfig.web.json'];

export const STAMP_FILE = '.build-stamp.json';

/**
 * @typedef {{ root: string, folders?: readonly string[], files?: readonly string[], outDir?: string }} BuildInputs
 * folders and files relative to root; outDir (default `out`) too.
 */

/**
 * Every file under `dir`, relative to `root`, sorted; tests (`*.test.ts`) are left out: the
 * build never reads them.
 * @param {string} root
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(root, dir) {
  const absolute = path.join(root, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.test\.ts$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * The sources' fingerprint: SHA-256 of each file's path and bytes, in path order.
 * @param {BuildInputs} inputs
 * @returns {string}
 */
export function sourcesFingerprint({ root, folders = SHIPPED_FOLDERS, files = BUILD_FILES }) {
  const hash = createHash('sha256');
  const paths = [...folders.flatMap((folder) => filesUnder(root, folder)), ...files.filter((file) => existsSync(path.join(root, file)))];
  for (const file of paths) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * The output's fingerprint: each built file's path, size and modification time (the stamp left
 * out), or null when nothing is built.
 * @param {BuildInputs} inputs
 * @returns {string | null}
 */
export function outputFingerprint({ root, outDir = 'out' }) {
  const files = filesUnder(root, outDir).filter((file) => path.basename(file) !== STAMP_FILE);
  if (files.length === 0) return null;
  const hash = createHash('sha256');
  for (const file of files) {
    const stat = statSync(path.join(root, file));
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\0`);
  }
  return hash.digest('hex');
}

/**
 * Whether out/ is what the sources make now, by the stamp the last build through here left.
 * @param {BuildInputs} inputs
 * @returns {boolean}
 */
export function isBuildCurrent(inputs) {
  const stampPath = path.join(inputs.root, inputs.outDir ?? 'out', STAMP_FILE);
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
  } catch {
    return false;
  }
  const output = outputFingerprint(inputs);
  return output !== null && stamp?.output === output && stamp?.sources === sourcesFingerprint(inputs);
}

/**
 * Builds unless out/ is current; after a build that succeeded, stamps it. Returns 'current' (no
 * build), 'built', or the failed build's exit status.
 * @param {BuildInputs} inputs
 * @param {() => number | null} build runs the build, returns its exit status
 * @returns {'current' | 'built' | number}
 */
export function buildIfStale(inputs, build) {
  if (isBuildCurrent(inputs)) return 'current';
  // The sources are read before the build: an edit made while it runs leaves a stamp that no
  // longer matches, so the next start builds again.
  const sources = sourcesFingerprint(inputs);
  const status = build();
  if (status !== 0) return status ?? 1;
  const output = outputFingerprint(inputs);
  if (output !== null) writeFileSync(path.join(inputs.root, inputs.outDir ?? 'out', STAMP_FILE), `${JSON.stringify({ sources, output })}\n`);
  return 'built';
}

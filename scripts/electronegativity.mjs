// Electronegativity (Doyensec's Electron security scanner) over the app's own sources, offline.
//
//   node scripts/electronegativity.mjs OUTPUT.csv [DIR]
//
// Scans the app's shipped sources (or DIR as it is), writes the scanner's CSV report to OUTPUT.csv
// and prints one JSON line: how many checks ran,
// how many findings the scanner returned, and the files it could not parse. It never judges:
// the scanner always "succeeds", so the gate (scripts/electronegativity.test.ts) reads the report.
//
// Why not the scanner's own command line: its index.js needs commander 2 (options as properties)
// but declares no dependency on it, so it breaks on whatever commander is hoisted. Its runner is
// the same code without the argument parsing. It also fetches translations and Electron release
// data over the network, which CI does not have: `got` is replaced by a function that fails at
// once, the fallback the scanner already takes offline (built-in English texts, no release data).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { SHIPPED_FOLDERS } from './shippedFolders.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [output, given] = process.argv.slice(2);
if (output === undefined) {
  process.stderr.write('usage: node scripts/electronegativity.mjs OUTPUT.csv [DIR]\n');
  process.exit(2);
}

/** What ships in the app: the main process, preload, renderer and the code they bundle. Not tests. */
const SCANNED = [...SHIPPED_FOLDERS, 'package.json', 'electron.vite.config.ts'];
/** @param {string} path */
const shipped = (path) => {
  const name = relative(root, path);
  return !/\.(test|spec)\.ts$/.test(name) && !name.split(sep).includes('testing') && !name.split(sep).includes('node_modules');
};

const input = given ?? mkdtempSync(join(tmpdir(), 'electronegativity-'));
if (given === undefined) for (const entry of SCANNED) cpSync(join(root, entry), join(input, entry), { recursive: true, filter: shipped });

const load = createRequire(import.meta.url);
const scanner = dirname(load.resolve('@doyensec/electronegativity/package.json'));
const gotPath = createRequire(join(scanner, 'package.json')).resolve('got');
const offline = Object.assign(() => Promise.reject(new Error('offline: no network in this scan')), {});
Object.assign(offline, { get: offline, head: offline, default: offline });
load.cache[gotPath] = /** @type {NodeJS.Module} */ (/** @type {unknown} */ ({ id: gotPath, filename: gotPath, loaded: true, exports: offline }));
const run = load(join(scanner, 'dist', 'runner.js'));

// The scanner logs progress with console.log; keep stdout for the one JSON line.
const log = console.log;
console.log = (...args) => process.stderr.write(`${args.join(' ')}\n`);
/** @type {{ globalChecks: number, atomicChecks: number, issues: unknown[], errors: { file: string, message: string, tolerable: boolean }[] }} */
let result;
try {
  result = await run(
    { input, output, isSarif: false, customScan: [], excludeFromScan: [], isRelative: true, isVerbose: true, parserPlugins: [] },
    false,
  );
} finally {
  console.log = log;
}

// The report is written without being awaited (a header, then the rows appended): wait until it
// holds as many rows as findings were returned. (The test runs this with one libuv thread, so the
// two writes cannot overtake each other.)
const rows = () => (existsSync(output) ? readFileSync(output, 'utf8').split(/\r?\n/).filter((line) => line.trim() !== '').length - 1 : -1);
const deadline = Date.now() + 10_000;
while (rows() !== result.issues.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));

process.stdout.write(
  `${JSON.stringify({
    checks: result.globalChecks + result.atomicChecks,
    findings: result.issues.length,
    unparsed: result.errors.filter((error) => !error.tolerable).map((error) => `${relative(input, error.file)}: ${error.message}`),
  })}\n`,
);
if (given === undefined) rmSync(input, { recursive: true, force: true });

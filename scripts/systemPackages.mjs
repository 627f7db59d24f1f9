// The first step of `npm test` and `npm run bench` (package.json): the system packages the tests and
// benchmarks run, Debian's, are there, or are installed now, or the run stops here in one line saying
// the one command to run, instead of failing minutes later in the first test that needs one.
// - chromium: Playwright and the benchmarks drive Debian's Chromium (never `npx playwright install`:
//   a browser build of Playwright's own cannot be downloaded on every machine);
// - socat: the serial tests' real pseudo-terminal pairs (hardware/testing/ptyPair.ts);
// - postgresql: the floor's tests start throwaway servers with its initdb and pg_ctl
//   (floor/testing/postgres.ts).
// Plain Node ESM and no npm package: on a fresh machine this runs before anything else is needed.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresBinDir } from '../floor/testing/postgresBin.mjs';

/** Where Debian's `chromium` package puts the browser. */
export const DEBIAN_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The Chromium the end-to-end tests and the benchmarks launch: CHROMIUM_PATH, else Debian's.
 * @param {NodeJS.ProcessEnv} env
 */
export function chromiumPath(env = process.env) {
  return env['CHROMIUM_PATH'] ?? DEBIAN_CHROMIUM_PATH;
}

/**
 * The file a command name runs, searched on PATH as spawn searches it, or null when it is on none.
 * @param {string} command
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | null}
 */
export function onPath(command, env = process.env) {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, command);
    try {
      const stat = statSync(file);
      if (stat.isFile() && (stat.mode & 0o111) !== 0) return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/**
 * Each package by its Debian name, in the order an install command names them, with how the
 * tests find what it installs.
 * @type {readonly { name: string, present: (env: NodeJS.ProcessEnv) => boolean }[]}
 */
export const SYSTEM_PACKAGES = [
  { name: 'chromium', present: (env) => existsSync(chromiumPath(env)) },
  { name: 'socat', present: (env) => onPath('socat', env) !== null },
  { name: 'postgresql', present: (env) => postgresBinDir(env) !== null },
];

/**
 * The Debian names of the packages this machine lacks.
 * @param {NodeJS.ProcessEnv} env
 */
export function missingPackages(env = process.env) {
  return SYSTEM_PACKAGES.filter((pkg) => !pkg.present(env)).map((pkg) => pkg.name);
}

/**
 * @typedef {{ action: 'nothing' }
 *   | { action: 'install', message: string, commands: string[][] }
 *   | { action: 'stop', message: string }} SetUpPlan
 */

/**
 * What to do about the missing packages (a pure decision, so each case can be tested without a
 * machine in that state): nothing; install them with apt-get when this process may (it is root, or
 * sudo asks no password); else stop with one line naming them and the command to run.
 * @param {{ missing: readonly string[], root: boolean, sudo: boolean, aptGet: boolean }} machine
 * @returns {SetUpPlan}
 */
export function setUpPlan({ missing, root, sudo, aptGet }) {
  if (missing.length === 0) return { action: 'nothing' };
  const names = missing.join(' ');
  const what = `The tests and benchmarks need system packages missing here: ${missing.join(', ')}.`;
  if (!aptGet) {
    return { action: 'stop', message: `${what} This system has no apt-get: install them with its own package manager (Debian's names: ${names}).` };
  }
  if (root || sudo) {
    // sudo clears the environment, so apt-get's non-interactive mode goes through env(1) on the
    // command line (for root too: one form of the command).
    const asAdmin = [...(root ? [] : ['sudo', '-n']), 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'];
    return {
      action: 'install',
      message: `${what} Installing them: apt-get update && apt-get install -y ${names}`,
      commands: [
        [...asAdmin, 'update'],
        [...asAdmin, 'install', '-y', ...missing],
      ],
    };
  }
  return { action: 'stop', message: `${what} Install them with: sudo apt-get install -y ${names}` };
}

/** Whether sudo runs a command here without asking for a password (`sudo -n` fails instead of asking). */
function sudoWithoutPassword() {
  if (onPath('sudo') === null) return false;
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

/** @returns {number} the exit code */
function setUp() {
  const missing = missingPackages();
  if (missing.length === 0) return 0;
  const root = process.getuid?.() === 0;
  const plan = setUpPlan({ missing, root, sudo: !root && sudoWithoutPassword(), aptGet: onPath('apt-get') !== null });
  if (plan.action === 'nothing') return 0;
  console.error(plan.message);
  if (plan.action === 'stop') return 1;
  for (const [program, ...args] of plan.commands) {
    // No standard input: apt-get must never wait for an answer (CI has none to give).
    const run = spawnSync(/** @type {string} */ (program), args, { stdio: ['ignore', 'inherit', 'inherit'] });
    if (run.status !== 0) {
      console.error(`Installing the system packages failed: ${[program, ...args].join(' ')} (${run.error?.message ?? `exit ${run.status ?? run.signal}`})`);
      return 1;
    }
  }
  const still = missingPackages();
  if (still.length > 0) {
    console.error(`Still missing after apt-get install: ${still.join(', ')}`);
    return 1;
  }
  return 0;
}

/** Whether this file is the program node was started with (not a module the tests or benchmarks import). */
function isMain() {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isMain()) process.exitCode = setUp();

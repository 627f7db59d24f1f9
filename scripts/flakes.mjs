#!/usr/bin/env node
// The flake finder (issue 42): runs the named test files N times in a row while K CPU hogs
// (`while :; do :; done`, each a process of its own) keep the machine busy, and says which runs
// failed, which tests, and how (each failure's first lines). A test that passes alone and fails
// here waits on timing it does not control: find the cause, never re-run to green.
//
//   npm run flakes -- [--runs N] [--hogs K] [--sensitive] [file ...]
//
// Files ending in .spec.ts run in Playwright (e2e/playwright.config.ts: it builds the app once),
// the others in vitest. --sensitive adds the files that wait on the floor link, the followers and
// the clocks (SENSITIVE below): `npm run flakes -- --runs 20 --hogs 2 --sensitive` is issue 42's
// acceptance run; CI runs them three times under two hogs (.ci/run). Exit 1 if any run failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The suites that wait on the floor link, the followers and the clocks: each has failed once under load before (issue 42). */
export const SENSITIVE = ['system/link.test.ts', 'system/floorClock.test.ts', 'station/service/followers.test.ts', 'system/floorBreakEnds.test.ts', 'station/service/clock.test.ts', 'e2e/clock.spec.ts'];

/**
 * @typedef {{ runs: number, hogs: number, files: string[] }} FlakeOptions
 * @typedef {{ test: string, how: string }} Failure
 * @typedef {{ status?: string, error?: { message?: string } }} PlaywrightResult
 * @typedef {{ title: string, specs?: { title: string, tests?: { status?: string, results?: PlaywrightResult[] }[] }[], suites?: PlaywrightSuite[] }} PlaywrightSuite
 */

/**
 * Reads `--runs N --hogs K --sensitive file...`; a bad argument throws the sentence to say.
 * @param {readonly string[]} argv
 * @returns {FlakeOptions}
 */
export function readArguments(argv) {
  /** @type {FlakeOptions} */
  const options = { runs: 5, hogs: 2, files: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument === '--runs' || argument === '--hogs') {
      const value = Number(argv[(index += 1)]);
      const least = argument === '--runs' ? 1 : 0;
      if (!Number.isSafeInteger(value) || value < least || value > 1000) throw new Error(`flakes: ${argument} takes a whole number from ${least} to 1000, not ${JSON.stringify(argv[index] ?? '')}`);
      if (argument === '--runs') options.runs = value;
      else options.hogs = value;
    } else if (argument === '--sensitive') options.files.push(...SENSITIVE);
    else if (argument.startsWith('-')) throw new Error(`flakes: no option ${argument} (--runs N, --hogs K, --sensitive)`);
    else options.files.push(argument);
  }
  options.files = [...new Set(options.files)];
  if (options.files.length === 0) throw new Error('flakes: name the test files to run (or --sensitive)');
  return options;
}

/**
 * The failures a vitest JSON report names: each test's full name and its message's first lines.
 * @param {{ testResults?: { name: string, status?: string, message?: string, assertionResults?: { fullName: string, status: string, failureMessages?: string[] }[] }[] }} report
 * @returns {Failure[]}
 */
export function vitestFailures(report) {
  /** @type {Failure[]} */
  const failures = [];
  for (const file of report.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    for (const test of tests) if (test.status === 'failed') failures.push({ test: `${file.name.split('/').slice(-2).join('/')} › ${test.fullName}`, how: firstLines((test.failureMessages ?? []).join('\n')) });
    // A file that failed outside its tests (an import, a hook, a timeout in beforeAll).
    if (file.status === 'failed' && !tests.some((test) => test.status === 'failed')) failures.push({ test: file.name.split('/').slice(-2).join('/'), how: firstLines(file.message ?? 'failed') });
  }
  return failures;
}

/**
 * The failures a Playwright JSON report names.
 * @param {{ suites?: PlaywrightSuite[], errors?: { message?: string }[] }} report
 * @returns {Failure[]}
 */
export function playwrightFailures(report) {
  /** @type {Failure[]} */
  const failures = [];
  /** @type {(suite: PlaywrightSuite, path: string[]) => void} */
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const last = test.results?.at(-1);
        if (test.status === 'unexpected' || last?.status === 'failed' || last?.status === 'timedOut') failures.push({ test: [...path, spec.title].join(' › '), how: firstLines(last?.error?.message ?? last?.status ?? 'failed') });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  for (const error of report.errors ?? []) failures.push({ test: 'the run', how: firstLines(error.message ?? String(error)) });
  return failures;
}

/** @param {string} text */
function firstLines(text) {
  // eslint-disable-next-line no-control-regex -- the reporters' colours
  return text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((line) => line.trim()).filter(Boolean).slice(0, 3).join(' / ');
}

/**
 * One run of the files of one runner, its JSON report read back: the failures, or the runner's own failure.
 * @param {'vitest' | 'playwright'} kind
 * @param {string[]} files
 * @param {string} root
 * @param {string} scratch
 * @returns {{ seconds: number, failures: Failure[] }}
 */
function runOnce(kind, files, root, scratch) {
  const report = join(scratch, `${kind}.json`);
  rmSync(report, { force: true });
  const command =
    kind === 'vitest'
      ? ['vitest', 'run', '--reporter=json', `--outputFile=${report}`, ...files]
      : ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=json', ...files];
  const started = performance.now();
  const ran = spawnSync('npx', command, { cwd: root, encoding: 'utf8', env: { ...process.env, ...(kind === 'playwright' ? { PLAYWRIGHT_JSON_OUTPUT_NAME: report } : {}) }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  let failures;
  try {
    const parsed = JSON.parse(readFileSync(report, 'utf8'));
    failures = kind === 'vitest' ? vitestFailures(parsed) : playwrightFailures(parsed);
  } catch {
    failures = [{ test: `${kind} itself`, how: firstLines(`${ran.stderr ?? ''}\n${ran.stdout ?? ''}`) || `exit ${ran.status}` }];
  }
  if (ran.status !== 0 && failures.length === 0) failures.push({ test: `${kind} itself`, how: `exit ${ran.status}: ${firstLines(ran.stderr ?? '')}` });
  return { seconds, failures };
}

/**
 * K processes each spinning one core, ended with this script (and by a signal).
 * @param {number} count
 */
function startHogs(count) {
  const hogs = Array.from({ length: count }, () => spawn('bash', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
  const stop = () => hogs.forEach((hog) => hog.kill('SIGKILL'));
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  return stop;
}

async function main() {
  let options;
  try {
    options = readArguments(process.argv.slice(2));
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(2);
  }
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const scratch = mkdtempSync(join(tmpdir(), 'flakes-'));
  const byRunner = { vitest: options.files.filter((file) => !file.endsWith('.spec.ts')), playwright: options.files.filter((file) => file.endsWith('.spec.ts')) };
  const stopHogs = startHogs(options.hogs);
  const started = performance.now();
  console.log(`flakes: ${options.files.join(', ')}: ${options.runs} runs with ${options.hogs} CPU hog${options.hogs === 1 ? '' : 's'}`);
  /** @type {Map<string, { run: number, how: string }[]>} */
  const failed = new Map();
  let failedRuns = 0;
  for (let run = 1; run <= options.runs; run += 1) {
    const said = [];
    let runFailed = false;
    for (const kind of /** @type {const} */ (['vitest', 'playwright'])) {
      const files = byRunner[kind];
      if (files.length === 0) continue;
      const { seconds, failures } = runOnce(kind, files, root, scratch);
      said.push(`${kind} ${seconds.toFixed(0)} s${failures.length > 0 ? `, ${failures.length} failed` : ''}`);
      for (const failure of failures) {
        runFailed = true;
        const seen = failed.get(failure.test) ?? [];
        seen.push({ run, how: failure.how });
        failed.set(failure.test, seen);
        console.log(`  run ${run}: FAILED ${failure.test}: ${failure.how}`);
      }
    }
    if (runFailed) failedRuns += 1;
    console.log(`flakes: run ${run} of ${options.runs}: ${runFailed ? 'FAILED' : 'passed'} (${said.join('; ')})`);
  }
  stopHogs();
  rmSync(scratch, { recursive: true, force: true });
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  if (failedRuns === 0) {
    console.log(`flakes: all ${options.runs} runs passed with ${options.hogs} CPU hogs, in ${minutes} min`);
    return;
  }
  console.log(`flakes: ${failedRuns} of ${options.runs} runs failed with ${options.hogs} CPU hogs, in ${minutes} min:`);
  for (const [test, runs] of failed) console.log(`  ${test}: failed in run${runs.length === 1 ? '' : 's'} ${runs.map((entry) => entry.run).join(', ')}; first: ${runs[0]?.how}`);
  process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

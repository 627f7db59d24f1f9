// The flake finder's own parts (scripts/flakes.mjs): what it takes on its command line, and what it
// reads out of vitest's and Playwright's JSON reports (the shapes below are those the two wrote for
// a test failing on purpose, trimmed). Its whole run was tried on such a test: it said the run
// FAILED, named the test and the assertion, and exited 1.
import { describe, expect, it } from 'vitest';
import { playwrightFailures, readArguments, SENSITIVE, vitestFailures } from './flakes.mjs';

describe('the flake finder', () => {
  it('takes runs, hogs, the sensitive suites and files, and refuses anything else with a clear message', () => {
    expect(readArguments(['--runs', '20', '--hogs', '2', 'a.test.ts'])).toEqual({ runs: 20, hogs: 2, files: ['a.test.ts'] });
    expect(readArguments(['--sensitive', 'system/link.test.ts']).files).toEqual(SENSITIVE);
    expect(readArguments(['x.test.ts'])).toMatchObject({ runs: 5, hogs: 2 });
    expect(() => readArguments([])).toThrow('name the test files');
    expect(() => readArguments(['--runs', '0', 'a'])).toThrow('--runs takes a whole number from 1 to 1000, not "0"');
    expect(() => readArguments(['--hogs', 'two', 'a'])).toThrow('--hogs takes a whole number from 0 to 1000, not "two"');
    expect(() => readArguments(['--runs'])).toThrow('not ""');
    expect(() => readArguments(['--retry', 'a'])).toThrow('no option --retry');
  });

  it('names each failed vitest test with the first lines of how, and a file that failed outside its tests', () => {
    const report = {
      testResults: [
        { name: '/w/system/link.test.ts', status: 'failed', message: '', assertionResults: [{ fullName: 'the link sends', status: 'failed', failureMessages: ['\u001b[31mAssertionError: expected 0 to be greater than 0\u001b[39m\n    at /w/system/link.test.ts:535:3\n    at x\n    at y'] }, { fullName: 'the link waits', status: 'passed', failureMessages: [] }] },
        { name: '/w/station/service/clock.test.ts', status: 'failed', message: 'Hook timed out in 120000ms', assertionResults: [] },
        { name: '/w/station/a.test.ts', status: 'passed', message: '', assertionResults: [{ fullName: 'ok', status: 'passed', failureMessages: [] }] },
      ],
    };
    expect(vitestFailures(report)).toEqual([
      { test: 'system/link.test.ts › the link sends', how: 'AssertionError: expected 0 to be greater than 0 / at /w/system/link.test.ts:535:3 / at x' },
      { test: 'service/clock.test.ts', how: 'Hook timed out in 120000ms' },
    ]);
  });

  it('names each failed or timed-out Playwright test by its suites, and an error of the run itself', () => {
    const report = {
      suites: [{ title: 'clock.spec.ts', specs: [{ title: 'the clock reaches the break', tests: [{ status: 'unexpected', results: [{ status: 'failed', error: { message: 'Error: expect(locator).toHaveText(expected)\nExpected: /14:5x/\nReceived: "15:00"\nmore' } }] }] }], suites: [{ title: 'inner', specs: [{ title: 'waits', tests: [{ status: 'unexpected', results: [{ status: 'timedOut' }] }] }] }] }],
      errors: [{ message: 'globalSetup: the build failed' }],
    };
    expect(playwrightFailures(report)).toEqual([
      { test: 'clock.spec.ts › the clock reaches the break', how: 'Error: expect(locator).toHaveText(expected) / Expected: /14:5x/ / Received: "15:00"' },
      { test: 'clock.spec.ts › inner › waits', how: 'timedOut' },
      { test: 'the run', how: 'globalSetup: the build failed' },
    ]);
  });
});

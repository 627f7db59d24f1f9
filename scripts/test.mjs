#!/usr/bin/env node
// `npm test`: the system packages the tests need, then lint, types, the unit and integration tests
// (vitest) and the screens (Playwright), in that order, stopping at the first that fails, as the
// `&&` chain it replaces did; then how long each step took and the whole (issue 42: the clean-clone
// run's figures in docs/performance.md are read off this line). Arguments go to nobody: the steps are fixed.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** @type {readonly { name: string, command: readonly string[] }[]} */
export const STEPS = [
  { name: 'system packages', command: ['node', 'scripts/systemPackages.mjs'] },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  { name: 'types', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'vitest', command: ['vitest', 'run'] },
  { name: 'Playwright', command: ['npm', 'run', '--silent', 'e2e'] },
];

/**
 * The closing line: each step's minutes, the whole, and the step that failed.
 * @param {readonly { name: string, ms: number }[]} took
 * @param {string | null} failed
 */
export function tookLine(took, failed) {
  const minutes = (/** @type {number} */ ms) => `${(ms / 60_000).toFixed(1)} min`;
  const total = took.reduce((sum, step) => sum + step.ms, 0);
  return `npm test: ${took.map((step) => `${step.name} ${minutes(step.ms)}`).join(', ')}; ${minutes(total)} in all${failed === null ? '' : `; ${failed} FAILED`}`;
}

function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  /** @type {{ name: string, ms: number }[]} */
  const took = [];
  for (const step of STEPS) {
    const started = performance.now();
    const [program = 'node', ...rest] = step.command;
    const ran = spawnSync(program, rest, { cwd: root, stdio: 'inherit' });
    took.push({ name: step.name, ms: performance.now() - started });
    const status = ran.status ?? 1;
    if (status !== 0) {
      console.log(tookLine(took, step.name));
      process.exit(status);
    }
  }
  console.log(tookLine(took, null));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();

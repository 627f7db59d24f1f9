import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** Runs one of the engine's command-line entries as users do (`npm run --silent NAME -- FILE`) or directly. */
export function commandLine(script: 'race' | 'points' | 'plan') {
  const folder = mkdtempSync(join(tmpdir(), `${script}-cli-`));
  const fileWith = (name: string, content: string): string => {
    const path = join(folder, name);
    writeFileSync(path, content);
    return path;
  };
  const runDirect = (...args: string[]) => spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'engine', 'cli', `${script}.ts`), ...args], { cwd: root, encoding: 'utf8' });
  return {
    folder,
    fileWith,
    runNpm(...args: string[]) {
      return spawnSync('npm', ['run', '--silent', script, '--', ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    },
    runDirect,
    /** A direct run as a refusal is checked: its exit status, its output, how many lines it wrote to stderr, and those lines. */
    refusedRun(...args: string[]) {
      const run = runDirect(...args);
      return { status: run.status, stdout: run.stdout, lines: run.stderr.split('\n').length, stderr: run.stderr };
    },
    /** The refusals every entry makes alike: a missing file, broken JSON (`brokenJson`), no file or two named. */
    fileRefusals(brokenJson: string): Array<[string, () => string[], RegExp]> {
      return [
        ['a missing file', () => [join(folder, 'missing.json')], /missing\.json: no such file/],
        ['invalid JSON', () => [fileWith('broken.json', brokenJson)], /broken\.json: not valid JSON/],
        ['no file named', () => [], new RegExp(`usage: npm run --silent ${script} -- FILE`)],
        ['two files named', () => ['a.json', 'b.json'], /usage/],
      ];
    },
  };
}


import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** Runs one of the engine's command-line entries as users do (`npm run --silent NAME -- FILE`) or directly. */
export function commandLine(script: 'race' | 'points' | 'plan') {
  const folder = mkdtempSync(join(tmpdir(), `${script}-cli-`));
  return {
    folder,
    fileWith(name: string, content: string): string {
      const path = join(folder, name);
      writeFileSync(path, content);
      return path;
    },
    runNpm(...args: string[]) {
      return spawnSync('npm', ['run', '--silent', script, '--', ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    },
    runDirect(...args: string[]) {
      return spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'engine', 'cli', `${script}.ts`), ...args], { cwd: root, encoding: 'utf8' });
    },
  };
}

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import process from 'node:process';
import ts from 'typescript';

/** The user a test drops to when it needs someone who is not root: `nobody` (65534:65534, no groups). */
export const NOBODY = 65534;

/** A child's script and the project modules it imports, as plain JavaScript outside the checkout. */
export interface ScratchScript {
  /** The folder holding them: anyone may enter it and read what it holds. */
  readonly dir: string;
  /** The script itself: `node <path>` runs it. */
  readonly path: string;
  dispose(): void;
}

/**
 * Writes `modules` (the project's TypeScript files, each importing only Node's own modules) as
 * plain JavaScript (`<name>.mjs`, so the script imports `./<name>.mjs`) and `script` beside
 * them, in a new folder under the system's temporary folder that anyone may enter. A child that
 * runs as another user (`nobody`) runs from there: it may not reach the checkout, which can lie
 * in a folder only its owner may enter (a clone under /root or a 0700 home), nor tsx in its
 * node_modules.
 */
export function scratchScript(modules: readonly string[], script: string): ScratchScript {
  const dir = mkdtempSync(join(tmpdir(), 'chip-race-child-'));
  chmodSync(dir, 0o755);
  for (const module of modules) {
    const source = readFileSync(module, 'utf8');
    const imported = ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName).filter((name) => !name.startsWith('node:'));
    // Anything else would be looked for next to the copy, where it is not.
    if (imported.length > 0) throw new Error(`${module} imports ${imported.join(', ')}: only modules that import nothing but node:… can run from a scratch folder`);
    const output = join(dir, basename(module).replace(/\.ts$/, '.mjs'));
    writeFileSync(output, ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText, { mode: 0o644 });
  }
  const path = join(dir, 'child.mjs');
  writeFileSync(path, script, { mode: 0o644 });
  return { dir, path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs `node <script> ...args` as `nobody` (this process must be root), from the script's own
 * folder: nothing of the checkout is needed, wherever it lies.
 */
export function spawnAsNobody(script: ScratchScript, args: readonly string[]): SpawnSyncReturns<string> {
  const user = [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
  return spawnSync('setpriv', [...user, process.execPath, script.path, ...args], { cwd: script.dir, encoding: 'utf8' });
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Where the documentation's text is found: README.md and docs/*.md. Its own module so that the
// throwaway server's helpers (postgres.ts, ca.ts) read their blocks here while readme.ts, which
// runs blocks against a throwaway server, imports them: no import cycle.

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

/** The documentation a command block may live in: README.md and every page of docs/ (paths from the project's folder). */
export function documentationFiles(): string[] {
  const pages = readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/${file}`);
  return ['README.md', ...pages];
}

/**
 * The one match of `pattern` across the documentation (README.md, docs/*.md), and the file it is in.
 * `what` names it in the error when it is in none, or in more than one place (a block moved and
 * left behind too: the tests would not know which the reader follows).
 */
export function findInDocumentation(what: string, pattern: RegExp): { readonly file: string; readonly match: RegExpExecArray } {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  const found: { file: string; match: RegExpExecArray }[] = [];
  for (const file of documentationFiles()) {
    for (const match of readFileSync(join(PROJECT_ROOT, file), 'utf8').matchAll(global)) found.push({ file, match });
  }
  const files = documentationFiles().join(', ');
  if (found.length === 0) throw new Error(`no ${what} in the documentation (${files})`);
  if (found.length > 1) throw new Error(`${what} is in the documentation ${found.length} times, once is expected: ${found.map(({ file }) => file).join(', ')}`);
  return found[0] as { file: string; match: RegExpExecArray };
}

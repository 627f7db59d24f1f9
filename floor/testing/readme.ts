import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ThrowawayPostgres } from './postgres';

/**
 * The documentation's command blocks as the tests run them, word for word: a block is found by its
 * marker (`<!-- NAME:begin … -->` or `<!-- NAME: … -->`, then a ```sh fence) in README.md or a page
 * of docs/, so a test runs what a director reads. Only what a test machine cannot be is changed,
 * and said here: the throwaway server's port (the set-up's server listens on the default one), and
 * `sudo -u postgres` (the throwaway server's superuser is reached through libpq's variables instead).
 */

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

/** The shell lines of the documentation's block NAME. */
export function readmeBlock(name: string): string {
  const { match } = findInDocumentation(`${name} block (<!-- ${name}:begin --> … <!-- ${name}:end -->)`, new RegExp(`<!-- ${name}:[^\\n]*-->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n`));
  return match[1] as string;
}

/** A README line pointed at the throwaway server: its port after the README's 127.0.0.1 (the default port there). */
export function onServer(command: string, server: ThrowawayPostgres): string {
  return command.replaceAll('@127.0.0.1/', `@127.0.0.1:${server.port}/`);
}

/** The environment of a README line run as PostgreSQL's superuser (`sudo -u postgres`): the throwaway server's, by libpq's variables. */
export function asPostgresEnvironment(server: ThrowawayPostgres): NodeJS.ProcessEnv {
  const superuser = new URL(server.url);
  return { PGHOST: '127.0.0.1', PGPORT: String(server.port), PGUSER: decodeURIComponent(superuser.username), PGPASSWORD: decodeURIComponent(superuser.password), PGDATABASE: 'postgres' };
}

export interface ShellResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs README lines with sh in the project's folder (where the README says to run them), `sudo -u postgres ` dropped. */
export function runReadmeLines(lines: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<ShellResult> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-e', '-c', lines.replace(/^sudo -u postgres /gm, '')], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** A long-running README line (a console, the floor): its own process group, so stopping it stops npm's children too. */
export interface RunningLine {
  readonly child: ChildProcess;
  output(): string;
  /** The first match of `pattern` in its output, waited for. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

export function startReadmeLine(line: string, env: NodeJS.ProcessEnv = {}): RunningLine {
  const child = spawn('sh', ['-c', line], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const look = () => {
          const match = pattern.exec(output);
          if (match !== null) return resolve(match);
          if (child.exitCode !== null) return reject(new Error(`${line} exited with ${child.exitCode}:\n${output}`));
          if (Date.now() > deadline) return reject(new Error(`${line}: no ${pattern} in ${timeoutMs} ms:\n${output}`));
          setTimeout(look, 100);
        };
        look();
      });
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        try {
          process.kill(-(child.pid as number), 'SIGTERM');
        } catch {
          resolve();
        }
      });
    },
  };
}

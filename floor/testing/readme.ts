import { spawn, type ChildProcess } from 'node:child_process';
import type { ThrowawayPostgres } from './postgres';
import { findInDocumentation, PROJECT_ROOT } from './documentation';

/**
 * The documentation's command blocks as the tests run them, word for word: a block is found by its
 * marker (`<!-- NAME:begin … -->` or `<!-- NAME: … -->`, then a ```sh fence) in README.md or a page
 * of docs/, so a test runs what a director reads. Only what a test machine cannot be is changed,
 * and said here: the throwaway server's port (the set-up's server listens on the default one), and
 * `sudo -u postgres` (the throwaway server's superuser is reached through libpq's variables instead).
 */

export { documentationFiles, findInDocumentation, PROJECT_ROOT } from './documentation';

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

import { spawn, type ChildProcess } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The project's root: where `npm run` finds the commands a user runs. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A command run as a user runs it, its output gathered as it comes. */
export interface CommandRun {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Standard output's lines, each read as JSON (the `cards` command's). */
  readonly lines: () => Record<string, unknown>[];
  readonly exit: Promise<number | null>;
}

/**
 * Starts `command` in its own process group from the project's root; `cleanups` gets what kills
 * the group (npm's children too: sh, tsx, node) if it is still running when the test ends.
 */
export function runCommand(command: string, args: readonly string[], cleanups: (() => Promise<void>)[]): CommandRun {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await exit;
    }
  });
  const lines = (): Record<string, unknown>[] =>
    stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, stdout: () => stdout, stderr: () => stderr, lines, exit };
}

/** As the README documents them: `npm run --silent NAME -- ARGS`. */
export const npmRun = (script: string, args: readonly string[], cleanups: (() => Promise<void>)[]): CommandRun => runCommand('npm', ['run', '--silent', script, '--', ...args], cleanups);

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningConsole {
  readonly url: string;
  readonly dataDir: string;
  /** Ends the service process the way a crash or power cut would (SIGKILL by default). */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts browser mode (`main/web/start.ts`) as its own process on a free loopback port, with its
 * own data folder, exactly as `npm run web` does after the build.
 */
export async function startConsole(dataDir = mkdtempSync(join(tmpdir(), 'e2e-console-')), port = 0): Promise<RunningConsole> {
  const child: ChildProcess = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['main/web/start.ts'], {
    cwd: root,
    env: { ...process.env, CHIP_RACE_DATA_DIR: dataDir, CHIP_RACE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser mode did not start in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /browser mode\): (http:\/\/\S+\/)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`browser mode exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    kill(signal = 'SIGKILL') {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningConsole {
  /** The address browser mode printed, with its key: `http://127.0.0.1:PORT/?key=KEY`. */
  readonly url: string;
  /** The browser key in that address (the same for every start on one data folder). */
  readonly key: string;
  /** The player display's address browser mode printed, with the display's own key: `http://127.0.0.1:PORT/display?key=KEY#/display`. */
  readonly displayUrl: string;
  readonly dataDir: string;
  /** The service's process (Node itself, not a wrapper): what a benchmark reads its memory from. */
  readonly pid: number;
  /** Ends the service process the way a crash or power cut would (SIGKILL by default). */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts browser mode (`station/web/start.ts`) as its own process on a free loopback port, with its
 * own data folder, exactly as `npm run web` does after the build.
 */
export async function startConsole(dataDir = mkdtempSync(join(tmpdir(), 'e2e-console-')), port = 0, env: Readonly<Record<string, string>> = {}): Promise<RunningConsole> {
  // Node itself with tsx's loader, not the `tsx` command: that command runs the service in a child
  // process, so a SIGKILL would end only the wrapper and leave the real service running.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'station/web/start.ts'], {
    cwd: root,
    env: { ...process.env, ...env, CHIP_RACE_DATA_DIR: dataDir, CHIP_RACE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser mode did not start in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // The whole address, key and all: without it the console answers only its "open the printed address" page.
      const match = /browser mode\): (http:\/\/\S+)/.exec(output);
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
    displayUrl: /player display: (http:\/\/\S+)/.exec(output)?.[1] ?? '',
    key: new URL(url).searchParams.get('key') ?? '',
    dataDir,
    pid: child.pid as number,
    kill(signal = 'SIGKILL') {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      });
    },
  };
}

/** Stops these consoles (SIGTERM: a clean shutdown) and deletes their data folders. */
export async function stopConsoles(...apps: readonly (RunningConsole | undefined)[]): Promise<void> {
  for (const app of apps) await app?.kill('SIGTERM');
  for (const dir of new Set(apps.map((app) => app?.dataDir))) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

/** A console linked to a floor as its table `table`, as a cardroom starts one: the station's login URL and the table's name in its environment (the README's CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE). */
export function startLinkedConsole(databaseUrl: string, table: string, dataDir?: string): Promise<RunningConsole> {
  return startConsole(dataDir, 0, { CHIP_RACE_DATABASE_URL: databaseUrl, CHIP_RACE_TABLE: table });
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ConsoleState } from '../../../protocol/contract';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Bundles serviceProcess.ts into one ES module, so each child starts as plain `node` in a few
 * hundred milliseconds instead of compiling TypeScript again (tsx takes a second or more a start).
 * It goes under node_modules/.tmp so `serialport`, left external, resolves from the project.
 */
export async function bundleServiceProcess(): Promise<{ readonly path: string; dispose(): void }> {
  const { build } = await import('vite');
  mkdirSync(join(root, 'node_modules', '.tmp'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'node_modules', '.tmp', 'service-process-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: {
      ssr: join(root, 'station', 'service', 'testing', 'serviceProcess.ts'),
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'node20',
      rolldownOptions: { output: { format: 'es', entryFileNames: 'service.mjs' } },
    },
  });
  return { path: join(outDir, 'service.mjs'), dispose: () => rmSync(outDir, { recursive: true, force: true }) };
}

export type ChildLine =
  | { readonly type: 'started'; readonly state: ConsoleState }
  | { readonly type: 'state'; readonly state: ConsoleState }
  | { readonly type: 'result'; readonly id: number; readonly result: unknown };

export interface SpawnOptions {
  /** Real serial card sources, as the app runs. */
  readonly serial?: boolean;
  /**
   * Run the service with its data dir on a tmpfs of this many bytes, in a mount namespace of its
   * own (`unshare`; as a user namespace when not root), so a test can fill the disk for real.
   * The data dir is then `<dataDir>/data` inside that namespace and invisible outside it.
   */
  readonly tmpfsBytes?: number;
}

/** A console service in a child process, spoken to in JSON lines (see serviceProcess.ts). */
export class ServiceChild {
  /** Every line the child printed, in order. `state` lines are acknowledgements. */
  readonly lines: ChildLine[] = [];
  readonly started: Promise<ConsoleState>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr = '';
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  private readonly child: ChildProcess;

  constructor(bundle: string, dataDir: string, options: SpawnOptions = {}) {
    const flags = options.serial ? ['--serial'] : [];
    if (options.tmpfsBytes === undefined) {
      this.child = spawn(process.execPath, [bundle, dataDir, ...flags], { stdio: ['pipe', 'pipe', 'pipe'] });
    } else {
      const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
      const script = `mount -t tmpfs -o size=${options.tmpfsBytes} chip-race-test "$0" && mkdir "$0/data" && exec "$1" "$2" "$0/data" "$@"`;
      this.child = spawn('unshare', [...user, '--mount', '--propagation', 'private', 'sh', '-c', script, dataDir, process.execPath, bundle, ...flags], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    }
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    // 'close', not 'exit': every line the child printed has been read by then.
    this.exited = new Promise((resolve) => this.child.once('close', (code, signal) => resolve({ code, signal })));
    let onStarted: (state: ConsoleState) => void = () => undefined;
    this.started = new Promise((resolve, reject) => {
      onStarted = resolve;
      void this.exited.then(({ code, signal }) => reject(new Error(`service child exited (${code ?? signal}) before it started: ${this.stderr.trim()}`)));
    });
    this.started.catch(() => undefined);
    createInterface({ input: this.child.stdout! }).on('line', (text) => {
      const line = JSON.parse(text) as ChildLine;
      this.lines.push(line);
      if (line.type === 'started') onStarted(line.state);
      if (line.type === 'result') this.waiting.get(line.id)?.(line.result);
    });
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** The states the child acknowledged (printed after the change was on disk), oldest first. */
  get acks(): ConsoleState[] {
    return this.lines.flatMap((line) => (line.type === 'state' ? [line.state] : []));
  }

  /** Sends a console command (or a `test:` command) and resolves with its answer. */
  request(method: string, ...args: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => {
      this.waiting.set(id, resolve);
      void this.exited.then(({ code, signal }) => reject(new Error(`service child exited (${code ?? signal}) before answering ${method}: ${this.stderr.trim()}`)));
    });
    answer.catch(() => undefined);
    this.child.stdin?.write(`${JSON.stringify({ id, method, args })}\n`);
    return answer;
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  /** Asks the child to close the service and exit; kills it if it does not within the timeout. */
  async stop(timeoutMs = 5000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    void this.request('test:exit').catch(() => undefined);
    const timer = setTimeout(() => this.kill(), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Whether this machine lets a test mount a private tmpfs (root, or unprivileged user namespaces). */
export function canMountPrivateTmpfs(): boolean {
  const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  const probe = spawnSync('unshare', [...user, '--mount', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o size=4096 probe /mnt 2>/dev/null || mount -t tmpfs -o size=4096 probe /tmp'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

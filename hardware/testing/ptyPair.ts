import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SerialPort } from 'serialport';

/**
 * Real serial port pairs for integration tests: socat joins two pseudo-terminals, and whatever
 * is written to one end comes out of the other. Killing socat is an unplug (both ends vanish, an
 * open port gets `close` with `disconnected`), starting it again on the same link paths a replug.
 */

export const SOCAT_MISSING =
  'socat is not installed, and the hardware integration tests need it for real pseudo-terminal pairs: ' +
  '`npm test` installs it where it may (scripts/systemPackages.mjs), else: sudo apt-get install -y socat';

/** Fails (never skips) when socat is missing, with a message saying how to get it. */
export function requireSocat(): void {
  const probe = spawnSync('socat', ['-V'], { stdio: 'ignore' });
  if (probe.error !== undefined || probe.status !== 0) throw new Error(SOCAT_MISSING);
}

export class PtyPair {
  /** The two ends: write to one, read from the other. */
  readonly a: string;
  readonly b: string;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;

  private constructor(readonly dir: string) {
    this.a = join(dir, 'a');
    this.b = join(dir, 'b');
  }

  /** Starts a pair on fresh, unique link paths and waits until both ends exist. */
  static async create(label = 'pty'): Promise<PtyPair> {
    requireSocat();
    const pair = new PtyPair(mkdtempSync(join(tmpdir(), `chiprace-${label}-`)));
    await pair.replug();
    return pair;
  }

  get plugged(): boolean {
    return this.child !== undefined;
  }

  /** Starts socat again on the same link paths; resolves once both ends exist. */
  async replug(timeoutMs = 5000): Promise<void> {
    if (this.child !== undefined) throw new Error('PtyPair: already plugged');
    const child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${this.a}`, `pty,raw,echo=0,link=${this.b}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    let exitCode: number | null | undefined;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        exitCode = code;
        resolve();
      });
      child.once('error', () => resolve());
    });
    this.child = child;
    const deadline = Date.now() + timeoutMs;
    while (!(existsSync(this.a) && existsSync(this.b))) {
      if (exitCode !== undefined || Date.now() > deadline) {
        await this.unplug();
        throw new Error(`socat did not create ${this.a} and ${this.b} (exit ${String(exitCode)}): ${log.trim()}`);
      }
      await sleep(5);
    }
  }

  /** Kills socat (an unplug) and waits until it has exited and both ends are gone. */
  async unplug(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await this.exited;
    // socat removes its links on SIGTERM; make sure no stale link points at a reused pty.
    rmSync(this.a, { force: true });
    rmSync(this.b, { force: true });
  }

  async dispose(): Promise<void> {
    await this.unplug();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Opens one end as a device would and writes to it. */
export class PtyWriter {
  private constructor(private readonly port: SerialPort) {}

  static async open(path: string): Promise<PtyWriter> {
    const port = new SerialPort({ path, baudRate: 9600, autoOpen: false });
    port.on('error', () => {});
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    return new PtyWriter(port);
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.port.write(data, (error) => {
        if (error) reject(error);
      });
      this.port.drain((error) => (error ? reject(error) : resolve()));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.port.isOpen ? this.port.close(() => resolve()) : resolve()));
  }
}

/** Resolves when `check` holds, polling every few milliseconds; rejects with `what` after the timeout. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

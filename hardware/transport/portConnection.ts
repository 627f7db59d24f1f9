import { resolve as resolvePath } from 'node:path';
import { SerialPort } from 'serialport';
import type { Message, MessageParam } from '../../engine/messages';
import { statusSaid, type ShoeEvent, type StatusCode, type StatusState } from '../events';
import { isDefaultLine, lineSaid } from '../lineSettings';
import { describePortError, isUnplugLike, portBusyInProcess, unplugged, type PortProblem } from './portErrors';
import { closePort, defaultCreatePort, openedLine, setDtr, type LineProfile, type PortFactory, type PortHandle } from './portHandle';
import { isListed, type ListPorts } from './ports';

// The port's own operations live in portHandle.ts; these stay importable from here.
export type { LineProfile, PortFactory, PortHandle, PortOptions } from './portHandle';

export type StatusEvent = Extract<ShoeEvent, { type: 'status' }>;

export interface Backoff {
  /** Delay before the first reconnect attempt; each further attempt doubles it… */
  readonly initialMs: number;
  /** …up to this. The device is found again at most this long after it is back. */
  readonly maxMs: number;
}

/** How the connection keeps the port: its factory, the unplug checks, the reconnect backoff. */
export interface ConnectionOptions {
  /** Makes the port object (tests pass `SerialPortMock`); it must not open by itself. */
  readonly createPort?: PortFactory;
  /** The port listing polled to notice an unplug on systems that send no close. */
  readonly listPorts?: ListPorts;
  /** How often to poll the listing while connected; 0 turns polling off. */
  readonly pollMs?: number;
  /**
   * How often to check that the open port still answers; 0 turns it off. serialport 13 on Linux
   * misses a hang-up when its read returns end-of-file instead of an error (it then re-reads in a
   * busy loop and never emits `close`); a hung-up tty fails every ioctl with EIO, so asking for
   * the baud rate notices the unplug anyway.
   */
  readonly healthMs?: number;
  readonly backoff?: Backoff;
}

/**
 * What the connection tells its user: bytes in, status out, and when a connection begins and
 * ends (so the user can start and finish whatever reads the bytes, and nothing of one
 * connection reaches the next).
 */
export interface ConnectionHandler {
  /** A connection is made: its bytes follow. Called before its `connected` status. */
  begun(): void;
  /** What the connected port sent, as it arrived. */
  bytes(chunk: Buffer): void;
  status(event: StatusEvent): void;
  /**
   * The connection has ended (lost, or closed): settles once what it sent is delivered. A lost
   * connection reports `disconnected` only after that, so its last frames come first.
   */
  ended(): Promise<void>;
  /** close() is done: the port is closed and nothing more comes. */
  closed(): void;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 100, maxMs: 1000 };
export const DEFAULT_POLL_MS = 1000;
export const DEFAULT_HEALTH_MS = 500;

/**
 * `idle` → `connecting` → `connected` ⇄ `reconnecting`; `failed` when the first open fails
 * (a later `open()` may try again); `closed` after `close()` (final).
 */
export type SourceState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'closed';

/** Milliseconds before reconnect attempt `attempt` (0 for the first): doubling from initialMs, capped at maxMs. */
export function reconnectDelay(attempt: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  return Math.min(backoff.initialMs * 2 ** Math.min(attempt, 30), backoff.maxMs);
}

const defaultListPorts: ListPorts = () => SerialPort.list();
const ignore = (): void => {};

/** One owner per port path in this process. */
const owners = new Map<string, PortConnection>();

function ownerKey(path: string): string {
  return /^com\d+$/i.test(path) ? path.toUpperCase() : resolvePath(path);
}

interface Target {
  readonly path: string;
  readonly key: string;
  readonly line: LineProfile;
}

/** How many more times a first open that finds the port locked by another process tries, and how far apart. */
export const BUSY_RETRIES = 4;
const BUSY_RETRY_MS = 250;

/**
 * Keeps one serial port open: bytes in, status out; it knows nothing of what the bytes mean.
 *
 * - `open()` reports `connecting`, then `connected` or `error` (with a code and message).
 * - A first open that fails is not retried: the path is wrong, the port busy or not permitted,
 *   and the caller (the screen, the command line) tells the person. `open()` may be called again.
 *   Only a port locked by another process is tried a few more times first (BUSY_RETRIES, 250 ms
 *   apart): a port this console has just closed can still hold its lock for a moment (the close
 *   finishes in the driver's thread), and a source switched (a profile chosen, a deck registered)
 *   reopens the same path at once.
 * - Once connected, losing the port (a `close` with `disconnected`, an unexpected close, the
 *   path vanishing from the port listing where it was listed, or the port failing a periodic
 *   health check the way an unplugged one does) ends the connection (ConnectionHandler.ended),
 *   then reports `disconnected` (code `unplugged`) and `reconnecting`, and the SAME path is
 *   reopened with backoff until it works (`connected`). Every kind of failure is retried while
 *   reconnecting, since a device coming back can briefly be busy or not yet permitted; a failure
 *   other than "not there yet" is reported once as `error` with its code.
 * - The port is opened with the line settings (data bits, parity, stop bits, RTS/CTS); the
 *   `connected` status names them when they are not 8N1 without flow control. With `dtr`, DTR
 *   is set right after the open, before anything is read; a port that refuses (a
 *   pseudo-terminal has no DTR) still connects, and the `connected` status says DTR was not set.
 * - `close()` closes the port and stops timers; its promise settles once the port has closed and
 *   the last connection has ended.
 */
export class PortConnection {
  private readonly createPort: PortFactory;
  private readonly listPorts: ListPorts;
  private readonly pollMs: number;
  private readonly healthMs: number;
  private readonly backoff: Backoff;
  private current: SourceState = 'idle';
  private target: Target | undefined;
  private port: PortHandle | undefined;
  /** Bumped by every open attempt and by close(): late callbacks of an older attempt are ignored. */
  private generation = 0;
  private inFlight: Promise<void> | undefined;
  private draining: Promise<void> | undefined;
  /** The close of a port given up on (lost), which close() still waits for. */
  private releasing: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  private lastRetryProblem: StatusCode | undefined;
  /** Tries of the first open that found the port locked (see BUSY_RETRIES). */
  private busyRetries = 0;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly handler: ConnectionHandler,
    options: ConnectionOptions = {},
  ) {
    this.createPort = options.createPort ?? defaultCreatePort;
    this.listPorts = options.listPorts ?? defaultListPorts;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.healthMs = options.healthMs ?? DEFAULT_HEALTH_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /** Closes every connection of this process (on quit). */
  static async closeAll(): Promise<void> {
    await Promise.all([...new Set(owners.values())].map((connection) => connection.close()));
  }

  get state(): SourceState {
    return this.current;
  }

  get path(): string | undefined {
    return this.target?.path;
  }

  /**
   * Opens the port and keeps it open (reconnecting after an unplug) until `close()`. Resolves
   * with the outcome of the first attempt: the `connected` or the `error` status event.
   */
  open(path: string, line: LineProfile): Promise<StatusEvent> {
    if (this.current === 'closed') throw new Error('SerialSource: closed; create a new source');
    if (this.current !== 'idle' && this.current !== 'failed') throw new Error(`SerialSource: already open on ${this.target?.path}`);
    const key = ownerKey(path);
    this.target = { path, key, line };
    const owner = owners.get(key);
    if (owner !== undefined && owner !== this) {
      this.current = 'failed';
      return Promise.resolve(this.status('error', portBusyInProcess(path)));
    }
    owners.set(key, this);
    this.current = 'connecting';
    this.status('connecting', statusSaid({ key: 'hardware.port.opening', params: { path, baud: line.baud, decoder: line.name } }));
    return new Promise((resolve) => this.attempt(resolve));
  }

  /** Closes the port, stops reconnecting and polling. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.current = 'closed';
    this.generation += 1;
    clearTimeout(this.retryTimer);
    clearTimeout(this.pollTimer);
    clearTimeout(this.healthTimer);
    await this.inFlight;
    const port = this.port;
    this.port = undefined;
    if (port !== undefined) await closePort(port);
    await this.releasing;
    await this.draining;
    await this.handler.ended();
    if (this.target !== undefined && owners.get(this.target.key) === this) owners.delete(this.target.key);
    this.handler.closed();
  }

  private get stopped(): boolean {
    return this.current === 'closed';
  }

  private status(state: StatusState, detail: { readonly code?: StatusCode; readonly message: string; readonly said: Message }): StatusEvent {
    const event: StatusEvent = {
      type: 'status',
      state,
      ...(detail.code !== undefined ? { code: detail.code } : {}),
      message: detail.message,
      said: detail.said,
    };
    this.handler.status(event);
    return event;
  }

  /** One open attempt. `first` is set for the attempt made by open(): its failure is final. */
  private attempt(first?: (event: StatusEvent) => void): void {
    const target = this.target as Target;
    const generation = ++this.generation;
    let port: PortHandle;
    const { baud, dataBits, parity, stopBits, rtscts } = target.line;
    try {
      port = this.createPort({ path: target.path, baudRate: baud, dataBits, parity, stopBits, rtscts });
    } catch (error) {
      this.openFailed(error, first);
      return;
    }
    // serialport throws on an 'error' event nobody listens to; errors are handled where they matter.
    port.on('error', ignore);
    let settle: () => void = ignore;
    this.inFlight = new Promise((resolve) => (settle = resolve));
    port.open((error) => {
      if (generation !== this.generation || this.stopped) {
        // close() (or a newer attempt) overtook this one: give the port back.
        if (error === null && port.isOpen) port.close(() => settle());
        else settle();
        return;
      }
      if (error !== null) {
        settle();
        this.openFailed(error, first);
        return;
      }
      void setDtr(port, target.line.dtr).then((dtrNote) => {
        if (generation !== this.generation || this.stopped) {
          port.close(() => settle());
          return;
        }
        settle();
        this.connected(port, first, dtrNote);
      });
    });
  }

  private openFailed(error: unknown, first?: (event: StatusEvent) => void): void {
    const target = this.target as Target;
    const problem = describePortError(error, target.path, 'open');
    if (first !== undefined && problem.code === 'port-busy' && this.busyRetries < BUSY_RETRIES) {
      this.busyRetries += 1;
      this.retryTimer = setTimeout(() => {
        if (!this.stopped) this.attempt(first);
      }, BUSY_RETRY_MS);
      return;
    }
    this.busyRetries = 0;
    if (first !== undefined) {
      this.current = 'failed';
      if (owners.get(target.key) === this) owners.delete(target.key);
      first(this.status('error', problem));
      return;
    }
    if (!isUnplugLike(problem.code) && problem.code !== this.lastRetryProblem) {
      this.status('error', { code: problem.code, ...statusSaid({ key: 'hardware.port.stillTrying', params: { problem: { message: problem.said } } }) });
    }
    this.lastRetryProblem = problem.code;
    this.scheduleReconnect();
  }

  private connected(port: PortHandle, first: ((event: StatusEvent) => void) | undefined, dtrNote: Message | null): void {
    const target = this.target as Target;
    this.port = port;
    this.attempts = 0;
    this.busyRetries = 0;
    this.lastRetryProblem = undefined;
    this.handler.begun();
    port.on('data', (chunk: Buffer) => {
      if (this.port === port) this.handler.bytes(chunk);
    });
    port.on('close', (error?: Error | null) => {
      if (this.port === port) this.lost(error ? describePortError(error, target.path, 'connected') : unplugged(target.path));
    });
    port.on('error', (error: Error) => {
      if (this.port === port) this.status('error', describePortError(error, target.path, 'connected'));
    });
    this.current = 'connected';
    const line = openedLine(port, target.line);
    const lineNote: MessageParam = isDefaultLine(line) ? '' : { message: { key: 'hardware.port.lineNote', params: { line: { message: lineSaid(line) } } } };
    const event = this.status('connected', statusSaid({ key: 'hardware.port.connected', params: { path: target.path, baud: target.line.baud, line: lineNote, dtr: dtrNote === null ? '' : { message: dtrNote } } }));
    first?.(event);
    this.startPolling(port);
    this.startHealthChecks(port);
  }

  /** A port that fails a plain ioctl the way an unplugged one does is treated as unplugged. */
  private startHealthChecks(port: PortHandle): void {
    if (this.healthMs <= 0) return;
    const path = (this.target as Target).path;
    const check = async (): Promise<void> => {
      let problem: PortProblem | undefined;
      try {
        await port.port?.getBaudRate();
      } catch (error) {
        const found = describePortError(error, path, 'connected');
        // Anything else (a driver without the ioctl, a port being closed) proves nothing.
        if (found.code === 'unplugged') problem = found;
      }
      if (this.port !== port) return;
      if (problem !== undefined) {
        this.lost(problem);
        return;
      }
      this.healthTimer = setTimeout(() => void check(), this.healthMs);
    };
    this.healthTimer = setTimeout(() => void check(), this.healthMs);
  }

  /**
   * Where the OS lists the port (USB adapters), its disappearance from the listing is an unplug
   * even if no close arrives. Ports never listed (pseudo-terminals) are not polled.
   */
  private startPolling(port: PortHandle): void {
    if (this.pollMs <= 0) return;
    const path = (this.target as Target).path;
    let listedAtOpen: boolean | undefined;
    const poll = async (): Promise<void> => {
      let listing: readonly { readonly path: string }[] | undefined;
      try {
        listing = await this.listPorts();
      } catch {
        listing = undefined; // a failed listing proves nothing
      }
      if (this.port !== port) return;
      if (listing !== undefined) {
        const listed = isListed(listing, path);
        if (listedAtOpen === undefined) {
          listedAtOpen = listed;
          if (!listed) return;
        } else if (listedAtOpen && !listed) {
          this.lost(unplugged(path));
          return;
        }
      }
      this.pollTimer = setTimeout(() => void poll(), this.pollMs);
    };
    void poll();
  }

  private lost(problem: PortProblem): void {
    const port = this.port;
    this.port = undefined;
    clearTimeout(this.pollTimer);
    clearTimeout(this.healthTimer);
    if (port !== undefined) this.releasing = closePort(port);
    this.current = 'reconnecting';
    this.draining = this.handler.ended().then(() => {
      this.draining = undefined;
      if (this.stopped) return;
      this.status('disconnected', problem);
      this.status('reconnecting', statusSaid({ key: 'hardware.port.waiting', params: { path: (this.target as Target).path, ms: this.backoff.maxMs } }));
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = reconnectDelay(this.attempts, this.backoff);
    this.attempts += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.stopped) this.attempt();
    }, delay);
  }
}

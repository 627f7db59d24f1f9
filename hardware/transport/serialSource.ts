import process from 'node:process';
import type { ShoeEvent } from '../events';
import { createDecodeStream, type DecodeStream } from '../pipeline';
import type { Decoder } from '../decoding/decoder';
import type { DeviceProfile } from '../profile';
import { RawLog } from '../rawLog';
import { PortConnection, type ConnectionOptions, type SourceState, type StatusEvent } from './portConnection';

export {
  DEFAULT_BACKOFF,
  DEFAULT_HEALTH_MS,
  DEFAULT_POLL_MS,
  reconnectDelay,
  type Backoff,
  type PortFactory,
  type PortHandle,
  type PortOptions,
  type SourceState,
  type StatusEvent,
} from './portConnection';

export type ShoeListener = (event: ShoeEvent) => void;

export interface SerialSourceOptions extends ConnectionOptions {
  readonly rawLog?: RawLog;
  /** One decoder for every connection, for decoders with state (an RFID table being registered). */
  readonly decoder?: Decoder;
  /** Told of each read the repeat window dropped (no event is emitted for it): reader health counts them. */
  readonly onRepeat?: () => void;
}

const ignore = (): void => {};

/**
 * A serial card source: where the port connection (PortConnection: open, reconnect after an
 * unplug, errors; bytes in, status out) and the decoding (the profile's decode stream,
 * pipeline.ts: bytes in, ShoeEvents out) are joined. Listeners get both, in order: the
 * connection's status events and the decoded cards, device messages and unknown frames.
 *
 * - `open()` emits `connecting`, then `connected` or `error` (see PortConnection for the
 *   reconnecting after an unplug and the line settings and DTR at the open).
 * - Each connection gets a fresh decode stream, so nothing of the old connection leaks into the
 *   new one (its noise flag included: a new connection starts unflagged). An incomplete frame cut
 *   off by an unplug is reported as `unknown` (cut off by a disconnect), never decoded, because a
 *   truncated frame may read as a different card; silence-framed bursts are complete by
 *   definition and are still reported as cards. All of it comes before the `disconnected` status.
 * - The decode stream's own status events pass through as they are: the wrong-baud warning
 *   (`noise: 'flagged'`) and its all-clear, a `connected` status with `noise: 'cleared'`. Neither
 *   changes `state`: the all-clear is the line turning clean, not a reconnection.
 * - `close()` closes the port, stops timers and removes every listener; its promise settles once
 *   the port has closed.
 */
export class SerialSource {
  readonly rawLog: RawLog;
  private readonly decoder: Decoder | undefined;
  private readonly onRepeat: (() => void) | undefined;
  private readonly listeners = new Set<ShoeListener>();
  private readonly connection: PortConnection;
  private profile: DeviceProfile | undefined;
  private decode: DecodeStream | undefined;

  constructor(options: SerialSourceOptions = {}) {
    this.rawLog = options.rawLog ?? new RawLog();
    this.decoder = options.decoder;
    this.onRepeat = options.onRepeat;
    this.connection = new PortConnection(
      {
        begun: () => this.startDecoding(),
        bytes: (chunk) => this.decode?.write(chunk),
        status: (event) => this.emit(event),
        ended: () => this.finishDecoding(),
        closed: () => this.listeners.clear(),
      },
      options,
    );
  }

  /** Closes every source of this process (on quit). */
  static async closeAll(): Promise<void> {
    await PortConnection.closeAll();
  }

  get state(): SourceState {
    return this.connection.state;
  }

  get path(): string | undefined {
    return this.connection.path;
  }

  /** Adds a listener; returns the function that removes it. */
  on(listener: ShoeListener): () => void {
    this.listeners.add(listener);
    return () => this.off(listener);
  }

  off(listener: ShoeListener): void {
    this.listeners.delete(listener);
  }

  /**
   * Opens the port and keeps it open (reconnecting after an unplug) until `close()`. Resolves
   * with the outcome of the first attempt: the `connected` or the `error` status event.
   */
  open(path: string, baud: number, profile: DeviceProfile): Promise<StatusEvent> {
    // Set before the port can open (each connection's decode stream reads it); kept as it was
    // when the connection refuses to open (already open, closed).
    const previous = this.profile;
    this.profile = profile;
    try {
      return this.connection.open(path, { ...profile, baud });
    } catch (error) {
      this.profile = previous;
      throw error;
    }
  }

  /** Closes the port, stops reconnecting and polling, removes every listener. Safe to call twice. */
  close(): Promise<void> {
    return this.connection.close();
  }

  private emit(event: ShoeEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        // A listener's bug must not break the port's state machine; surface it on its own.
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }

  /** A connection is made: a decode stream of its own, timed from now (the start-up grace, the repeat window). */
  private startDecoding(): void {
    const decode = createDecodeStream(this.profile as DeviceProfile, { onBytes: (chunk) => this.rawLog.record(chunk), ...(this.decoder ? { decoder: this.decoder } : {}), ...(this.onRepeat ? { onRepeat: this.onRepeat } : {}) });
    this.decode = decode;
    decode.on('data', (event: ShoeEvent) => {
      if (this.decode === decode) this.emit(event);
    });
    decode.on('error', ignore);
  }

  /** Delivers what the ended connection decoded, then retires its stream so nothing of it leaks later. */
  private async finishDecoding(): Promise<void> {
    const decode = this.decode;
    if (decode === undefined) return;
    // A silence-framed burst is complete once the port is quiet; a half-received line or STX frame
    // is reported as cut off, never read as a shorter card.
    if (!decode.destroyed) decode.cutOff();
    // Events already decoded are delivered on the next ticks; let them through first.
    await new Promise((resolve) => setImmediate(resolve));
    if (this.decode === decode) this.decode = undefined;
    decode.destroy();
  }
}

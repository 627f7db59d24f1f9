import { Transform } from 'node:stream';
import { englishText, type Message } from '../engine/messages';
import { printableRaw, statusSaid, unknownEvent, type DeviceMessage, type ShoeEvent } from './events';
import { stripCodeId, stripSymbology, type Decoder } from './decoding/decoder';
import { OVERLONG_FRAME_KEYS, type Frame, type Framer } from './framing/frame';
import type { DeviceProfile } from './profile';
import { createDecoder, createFramer } from './registry';

/**
 * Consecutive undecodable frames of binary noise after which a wrong baud rate is the likely cause.
 * The wrong-baud warning they raise also sets the connection's noise flag (see FrameDecoder).
 */
export const NOISE_FRAMES_FOR_BAUD_WARNING = 3;

/**
 * Consecutive clean frames (each a card or a device message, with no unknown frame between) that
 * clear the noise flag. Three, measured on seeded random bytes through the `text` profile:
 * uniform noise framed no card at all in 4 MiB; noise half made of what a text shoe sends (line
 * ends, ranks, suits) framed about one card in 560 frames, and in 50 MiB of it (4 seeds, some
 * 16,000 cards) two clean frames in a row did occur, three never. So two would let noise clear
 * the flag; three is the fewest that does not, and it keeps the cost low: a shoe whose line has
 * recovered sends nothing but clean frames, so the dealer confirms three real cards and no more.
 * Every frame that counts toward clearing is still suspect: it arrived while the line was flagged.
 */
export const CLEAN_FRAMES_TO_CLEAR_NOISE = 3;

/** What the `connected` status that lowers the noise flag says. */
export const NOISE_CLEARED: Message = { key: 'hardware.noise.cleared' };
export const NOISE_CLEARED_MESSAGE = englishText(NOISE_CLEARED);

const utf8 = new TextDecoder('utf-8', { fatal: true });

function frameText(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Mostly bytes no card code contains: what a wrong baud rate turns a clean signal into. */
function looksLikeNoise(bytes: Uint8Array): boolean {
  let odd = 0;
  for (const byte of bytes) if (byte < 0x20 || byte >= 0x7f) odd += 1;
  return bytes.length > 0 && odd * 3 >= bytes.length;
}

/** How a frame counts for the noise flag. */
type FrameKind = 'clean' | 'noise' | 'other';

/** What one frame becomes, before the noise flag is applied. */
type FrameEvent = Exclude<ShoeEvent, { readonly type: 'status' }>;

export interface DecodeOptions {
  /**
   * The frame was cut off by a disconnect (Framer.cutOff): it is marked suspect like any other
   * while the line is flagged, but never clears the flag, since the connection is ending and a
   * `connected` status then would read as a reconnect.
   */
  readonly cutOff?: boolean;
  /**
   * When the frame ended, in milliseconds since the port opened. The profile's start-up grace
   * (`graceMs`) and repeat window (`repeatMs`) need it; a frame decoded without it (a one-off,
   * such as text typed by a keyboard-wedge scanner) is subject to neither.
   */
  readonly at?: number;
}

/** At most this much of the skipped frames' text is kept in the grace report's `raw`. */
export const GRACE_RAW_LIMIT = 1024;

/** The repeat window forgets reads older than itself once it holds this many keys. */
const REPEAT_KEYS_KEPT = 256;

/**
 * Frames in, events out: a Code ID (profiles with `codeId`) and symbology prefixes stripped,
 * device messages recognised, the profile's decoder applied, everything else reported as
 * `unknown` with its raw text. Given each frame's time (DecodeOptions.at) it also keeps the
 * connection's start-up grace and repeat window (see decode).
 *
 * One per connection, it keeps that connection's **noise flag**. An unknown frame that looks like
 * noise (mostly bytes no card code contains, or a frame refused for having no end: no line end,
 * no ETX, no pause) counts toward a noise run; any other frame ends the run. The
 * NOISE_FRAMES_FOR_BAUD_WARNING-th noise frame in a row raises the wrong-baud warning (a status
 * event with `noise: 'flagged'`) and sets the flag. While it is set, every card and device
 * message carries `suspect: true`, and noise raises no further warning. It clears after
 * CLEAN_FRAMES_TO_CLEAR_NOISE clean frames in a row (cards or device messages; an unknown frame
 * starts the count again); those are still suspect, the clear is announced by a `connected`
 * status with `noise: 'cleared'` right after the last of them, and the next frame is not suspect.
 */
export class FrameDecoder {
  private readonly messages: ReadonlyMap<string, DeviceMessage>;
  private noiseRun = 0;
  private noisy = false;
  private cleanRun = 0;
  /** Each recent read (`card As`, `tag 04A2B3C4 @1`, `device shoe-empty`) → when it was last read, repeats included. */
  private readonly lastRead = new Map<string, number>();
  private graceOver = false;
  private readonly skipped: string[] = [];

  constructor(
    private readonly profile: DeviceProfile,
    readonly decoder: Decoder = createDecoder(profile.decoder),
    /** Told of each read the repeat window dropped (it gives no event): for reader health's count of repeats. */
    private readonly onRepeat?: () => void,
  ) {
    this.messages = new Map(Object.entries(profile.messages).map(([text, message]) => [text.toUpperCase(), message]));
  }

  /**
   * A frame ending inside the start-up grace (`at` below graceMs) is skipped and gives no event;
   * a card or device message read again within the repeat window gives none either. Neither
   * counts for the noise flag: the skipped banner is expected, the repeat is a read already seen.
   */
  decode(frame: Frame, options: DecodeOptions = {}): ShoeEvent[] {
    const at = options.at;
    const early: ShoeEvent[] = [];
    if (at !== undefined) {
      if (at < this.profile.graceMs && !this.graceOver) {
        this.skipped.push(frame.shown ?? printableOf(frame.bytes));
        return [];
      }
      early.push(...this.endGrace());
    }
    const event = this.eventOf(frame, at);
    if (event === null) return early;
    return [...early, ...this.flagged(frame, event, options)];
  }

  /**
   * Ends the start-up grace: the report of the frames it skipped (one `unknown` event, their text
   * as `raw`), or nothing when it skipped none. Called when the grace period is over (the decode
   * stream's timer, the first frame after it) and when the connection ends; later calls give nothing.
   */
  endGrace(): ShoeEvent[] {
    if (this.graceOver) return [];
    this.graceOver = true;
    if (this.skipped.length === 0) return [];
    const count = this.skipped.length;
    let raw = this.skipped.join('\n');
    if (raw.length > GRACE_RAW_LIMIT) raw = `${raw.slice(0, GRACE_RAW_LIMIT)}…`;
    this.skipped.length = 0;
    return [unknownEvent(raw, { key: 'hardware.frame.grace', params: { n: count, ms: this.profile.graceMs } })];
  }

  private flagged(frame: Frame, event: FrameEvent, options: DecodeOptions): ShoeEvent[] {
    const kind: FrameKind =
      event.type !== 'unknown' ? 'clean' : looksLikeNoise(frame.bytes) || (frame.error !== undefined && OVERLONG_FRAME_KEYS.has(frame.error.key)) ? 'noise' : 'other';
    this.noiseRun = kind === 'noise' ? this.noiseRun + 1 : 0;
    if (!this.noisy) {
      if (this.noiseRun < NOISE_FRAMES_FOR_BAUD_WARNING) return [event];
      this.noisy = true;
      this.cleanRun = 0;
      return [event, this.warning()];
    }
    if (event.type === 'unknown') {
      this.cleanRun = 0;
      return [event];
    }
    const suspect: ShoeEvent = { ...event, suspect: true };
    if (options.cutOff === true) return [suspect];
    this.cleanRun += 1;
    if (this.cleanRun < CLEAN_FRAMES_TO_CLEAR_NOISE) return [suspect];
    this.noisy = false;
    this.cleanRun = 0;
    return [suspect, { type: 'status', state: 'connected', noise: 'cleared', ...statusSaid(NOISE_CLEARED) }];
  }

  /** The frame's event, or null for a read repeated within the repeat window (no event). */
  private eventOf(frame: Frame, at: number | undefined): FrameEvent | null {
    const text = frameText(frame.bytes);
    const raw = frame.shown ?? text ?? printableRaw(frame.bytes);
    if (frame.error !== undefined) return unknownEvent(raw, frame.error);
    if (text === null) return unknownEvent(raw, { key: 'hardware.frame.notText' });
    // A Code ID comes before an AIM identifier when a scanner sends both (Honeywell's order).
    const trimmed = text.trim();
    const payload = stripSymbology(this.profile.codeId ? stripCodeId(trimmed) : trimmed).trim();
    const message = this.messages.get(payload.toUpperCase());
    if (message) return this.repeated(`device ${message}`, at) ? null : { type: 'device', message, raw };
    // A tag is keyed before decoding: decoding it may register it.
    const key = this.decoder.readKey?.(payload);
    if (key !== undefined && this.repeated(`tag ${key}`, at)) return null;
    const decoded = this.decoder.decode(payload);
    if (!('card' in decoded)) return unknownEvent(raw, decoded.reason);
    if (key === undefined && this.repeated(`card ${decoded.card}`, at)) return null;
    return { type: 'card', card: decoded.card, raw, ...(decoded.reader === undefined ? {} : { reader: decoded.reader }) };
  }

  /**
   * Whether this read repeats an identical one less than repeatMs before it. Every read, a
   * repeat too, restarts its own window: the window is measured from the previous identical read.
   */
  private repeated(key: string, at: number | undefined): boolean {
    const window = this.profile.repeatMs;
    if (at === undefined || window <= 0) return false;
    const last = this.lastRead.get(key);
    this.lastRead.delete(key); // re-inserted last: the map stays in order of last reading
    this.lastRead.set(key, at);
    if (this.lastRead.size > REPEAT_KEYS_KEPT) {
      for (const [old, when] of this.lastRead) {
        if (at - when < window) break;
        this.lastRead.delete(old);
      }
    }
    const repeat = last !== undefined && at - last < window;
    if (repeat) this.onRepeat?.();
    return repeat;
  }

  private warning(): ShoeEvent {
    const { baud, parity, dataBits, name } = this.profile;
    return {
      type: 'status',
      state: 'error',
      code: 'wrong-baud',
      noise: 'flagged',
      ...statusSaid({ key: 'hardware.noise.flagged', params: { baud, parity: { message: { key: `hardware.parities.${parity}` } }, dataBits, decoder: name } }),
    };
  }
}

/** The readable text of a frame: as received when it is UTF-8, with \xNN escapes otherwise. */
function printableOf(bytes: Uint8Array): string {
  return frameText(bytes) ?? printableRaw(bytes);
}

/** A chunk as it was read, and when: milliseconds since the port opened. */
export interface TimedChunk {
  readonly at: number;
  readonly bytes: Uint8Array;
}

/**
 * A recorded byte stream decoded as it is read, chunk by chunk: `push` gives the events of each
 * chunk, `end` those of the end of the recording (the framer flushed, the start-up grace ended).
 * The events of every push and of the end, in order, are decodeRecording's: each byte is framed
 * and decoded once (`cards --detect` scores a recording while it is still being heard).
 */
export interface RecordingDecoder {
  push(chunk: Uint8Array | TimedChunk): ShoeEvent[];
  /** The recording is over; nothing may be pushed after. */
  end(): ShoeEvent[];
}

export function recordingDecoder(profile: DeviceProfile): RecordingDecoder {
  const framer = createFramer(profile.framing);
  const decoder = new FrameDecoder(profile);
  let at = 0;
  const decode = (events: ShoeEvent[], frames: readonly Frame[]) => {
    for (const frame of frames) events.push(...decoder.decode(frame, { at }));
  };
  return {
    push(chunk) {
      const events: ShoeEvent[] = [];
      const timed = chunk instanceof Uint8Array ? undefined : chunk;
      const next = timed?.at ?? at;
      if (framer.idleMs !== undefined && next - at >= framer.idleMs) decode(events, framer.flush());
      at = next;
      if (at >= profile.graceMs) events.push(...decoder.endGrace());
      decode(events, framer.push(timed?.bytes ?? (chunk as Uint8Array)));
      return events;
    },
    end() {
      const events: ShoeEvent[] = [];
      decode(events, framer.flush());
      events.push(...decoder.endGrace());
      return events;
    },
  };
}

/**
 * Decodes a recorded byte stream, chunk by chunk as it was read. Chunks may say when they were
 * read (a chunk without a time was read when the one before it was; the first at 0, when the
 * port opened): that is what the start-up grace, the repeat window and silence framing see.
 * Silence is a gap of at least the framing's idleMs between two chunks, and the end.
 */
export function decodeRecording(profile: DeviceProfile, chunks: readonly (Uint8Array | TimedChunk)[]): ShoeEvent[] {
  const recording = recordingDecoder(profile);
  const events: ShoeEvent[] = [];
  for (const chunk of chunks) events.push(...recording.push(chunk));
  events.push(...recording.end());
  return events;
}

export interface DecodeStreamOptions {
  /** Sees every chunk as it arrives, for the raw-bytes log. */
  readonly onBytes?: (chunk: Buffer) => void;
  readonly decoder?: Decoder;
  /** Milliseconds, for the start-up grace and the repeat window (tests pass their own). */
  readonly clock?: () => number;
  /** Told of each read the repeat window dropped (see FrameDecoder): no event is emitted for it. */
  readonly onRepeat?: () => void;
}

/**
 * The profile as a stream transform: bytes in (from a serial port or anything else), ShoeEvents
 * out. Silence-framed profiles end a frame after `idleMs` without bytes. The stream is made when
 * the port opens: the start-up grace and the repeat window count from its creation.
 */
export interface DecodeStream extends Transform {
  /** The connection is gone: report a frame in progress as cut off (see Framer.cutOff). */
  cutOff(): void;
}

export function createDecodeStream(profile: DeviceProfile, options: DecodeStreamOptions = {}): DecodeStream {
  const framer: Framer = createFramer(profile.framing);
  const frameDecoder = new FrameDecoder(profile, options.decoder, options.onRepeat);
  const clock = options.clock ?? Date.now;
  const openedAt = clock();
  let idle: NodeJS.Timeout | undefined;
  // The grace report comes when the grace ends, even if the device then stays silent.
  let grace: NodeJS.Timeout | undefined = profile.graceMs > 0 ? setTimeout(() => endGrace(), profile.graceMs) : undefined;
  const stream = new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done) {
      options.onBytes?.(chunk);
      emit(framer.push(chunk));
      if (framer.idleMs !== undefined) {
        clearTimeout(idle);
        idle = setTimeout(() => emit(framer.flush()), framer.idleMs);
      }
      done();
    },
    flush(done) {
      clearTimeout(idle);
      emit(framer.flush());
      endGrace();
      done();
    },
    destroy(error, done) {
      clearTimeout(idle);
      clearTimeout(grace);
      done(error);
    },
  });
  function push(events: readonly ShoeEvent[]): void {
    for (const event of events) stream.push(event);
  }
  function endGrace(): void {
    clearTimeout(grace);
    grace = undefined;
    if (!stream.destroyed) push(frameDecoder.endGrace());
  }
  function emit(frames: readonly Frame[], decodeOptions: Omit<DecodeOptions, 'at'> = {}): void {
    for (const frame of frames) push(frameDecoder.decode(frame, { ...decodeOptions, at: clock() - openedAt }));
  }
  return Object.assign(stream, {
    cutOff() {
      clearTimeout(idle);
      emit(framer.cutOff(), { cutOff: true });
      endGrace();
    },
  });
}

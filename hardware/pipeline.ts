import { Transform } from 'node:stream';
import { printableRaw, type DeviceMessage, type ShoeEvent } from './events';
import { stripSymbology, type Decoder } from './decoding/decoder';
import type { Frame, Framer } from './framing/frame';
import { createDecoder, createFramer, type DeviceProfile } from './profile';

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

export const NOISE_CLEARED_MESSAGE = 'Clean frames again: the line is no longer flagged as noise';

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
}

/**
 * Frames in, events out: symbology prefixes stripped, device messages recognised, the profile's
 * decoder applied, everything else reported as `unknown` with its raw text.
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

  constructor(
    private readonly profile: DeviceProfile,
    readonly decoder: Decoder = createDecoder(profile.decoder),
  ) {
    this.messages = new Map(Object.entries(profile.messages).map(([text, message]) => [text.toUpperCase(), message]));
  }

  decode(frame: Frame, options: DecodeOptions = {}): ShoeEvent[] {
    const event = this.eventOf(frame);
    const kind: FrameKind =
      event.type !== 'unknown' ? 'clean' : looksLikeNoise(frame.bytes) || frame.error?.startsWith('no ') === true ? 'noise' : 'other';
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
    return [suspect, { type: 'status', state: 'connected', noise: 'cleared', message: NOISE_CLEARED_MESSAGE }];
  }

  private eventOf(frame: Frame): FrameEvent {
    const text = frameText(frame.bytes);
    const raw = text ?? printableRaw(frame.bytes);
    if (frame.error !== undefined) return { type: 'unknown', raw, reason: frame.error };
    if (text === null) return { type: 'unknown', raw, reason: 'not UTF-8 text' };
    const payload = stripSymbology(text.trim()).trim();
    const message = this.messages.get(payload.toUpperCase());
    if (message) return { type: 'device', message, raw };
    const decoded = this.decoder.decode(payload);
    return 'card' in decoded ? { type: 'card', card: decoded.card, raw } : { type: 'unknown', raw, reason: decoded.reason };
  }

  private warning(): ShoeEvent {
    return {
      type: 'status',
      state: 'error',
      code: 'wrong-baud',
      noise: 'flagged',
      message: `The device sends bytes that decode to nothing: check the baud rate (set to ${this.profile.baud}) and the decoder (${this.profile.name})`,
    };
  }
}

/** Decodes a recorded byte stream, chunk by chunk as it was read; silence is assumed only at the end. */
export function decodeRecording(profile: DeviceProfile, chunks: readonly Uint8Array[]): ShoeEvent[] {
  const framer = createFramer(profile.framing);
  const decoder = new FrameDecoder(profile);
  const frames = [...chunks.flatMap((chunk) => framer.push(chunk)), ...framer.flush()];
  return frames.flatMap((frame) => decoder.decode(frame));
}

export interface DecodeStreamOptions {
  /** Sees every chunk as it arrives, for the raw-bytes log. */
  readonly onBytes?: (chunk: Buffer) => void;
  readonly decoder?: Decoder;
}

/**
 * The profile as a stream transform: bytes in (from a serial port or anything else), ShoeEvents
 * out. Silence-framed profiles end a frame after `idleMs` without bytes.
 */
export interface DecodeStream extends Transform {
  /** The connection is gone: report a frame in progress as cut off (see Framer.cutOff). */
  cutOff(): void;
}

export function createDecodeStream(profile: DeviceProfile, options: DecodeStreamOptions = {}): DecodeStream {
  const framer: Framer = createFramer(profile.framing);
  const frameDecoder = new FrameDecoder(profile, options.decoder);
  let idle: NodeJS.Timeout | undefined;
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
      done();
    },
    destroy(error, done) {
      clearTimeout(idle);
      done(error);
    },
  });
  function emit(frames: readonly Frame[], options?: DecodeOptions): void {
    for (const frame of frames) for (const event of frameDecoder.decode(frame, options)) stream.push(event);
  }
  return Object.assign(stream, {
    cutOff() {
      clearTimeout(idle);
      emit(framer.cutOff(), { cutOff: true });
    },
  });
}

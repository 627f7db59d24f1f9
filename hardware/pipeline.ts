import { Transform } from 'node:stream';
import { printableRaw, type DeviceMessage, type ShoeEvent } from './events';
import { stripSymbology, type Decoder } from './decoding/decoder';
import type { Frame, Framer } from './framing/frame';
import { createDecoder, createFramer, type DeviceProfile } from './profile';

/** Consecutive undecodable frames of binary noise after which a wrong baud rate is the likely cause. */
export const NOISE_FRAMES_FOR_BAUD_WARNING = 3;

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

/**
 * Frames in, events out: symbology prefixes stripped, device messages recognised, the profile's
 * decoder applied, everything else reported as `unknown` with its raw text.
 */
export class FrameDecoder {
  private readonly messages: ReadonlyMap<string, DeviceMessage>;
  private noiseRun = 0;

  constructor(
    private readonly profile: DeviceProfile,
    readonly decoder: Decoder = createDecoder(profile.decoder),
  ) {
    this.messages = new Map(Object.entries(profile.messages).map(([text, message]) => [text.toUpperCase(), message]));
  }

  decode(frame: Frame): ShoeEvent[] {
    const text = frameText(frame.bytes);
    const raw = text ?? printableRaw(frame.bytes);
    const events: ShoeEvent[] = [];
    let event: ShoeEvent;
    if (frame.error !== undefined) {
      event = { type: 'unknown', raw, reason: frame.error };
    } else if (text === null) {
      event = { type: 'unknown', raw, reason: 'not UTF-8 text' };
    } else {
      const payload = stripSymbology(text.trim()).trim();
      const message = this.messages.get(payload.toUpperCase());
      if (message) {
        event = { type: 'device', message, raw };
      } else {
        const decoded = this.decoder.decode(payload);
        event = 'card' in decoded ? { type: 'card', card: decoded.card, raw } : { type: 'unknown', raw, reason: decoded.reason };
      }
    }
    events.push(event);
    this.noiseRun = event.type === 'unknown' && (looksLikeNoise(frame.bytes) || frame.error?.startsWith('no ') === true) ? this.noiseRun + 1 : 0;
    if (this.noiseRun === NOISE_FRAMES_FOR_BAUD_WARNING) {
      events.push({
        type: 'status',
        state: 'error',
        code: 'wrong-baud',
        message: `The device sends bytes that decode to nothing: check the baud rate (set to ${this.profile.baud}) and the decoder (${this.profile.name})`,
      });
    }
    return events;
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
  function emit(frames: readonly Frame[]): void {
    for (const frame of frames) for (const event of frameDecoder.decode(frame)) stream.push(event);
  }
  return Object.assign(stream, {
    cutOff() {
      clearTimeout(idle);
      emit(framer.cutOff());
    },
  });
}

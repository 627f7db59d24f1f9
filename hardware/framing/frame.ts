import type { Message } from '../../engine/messages';
import type { Schema } from '../../engine/schema';
import { wholeIn, type DeviceKind } from '../deviceKind';

/** One framed message from the device, or the bytes of a message the framing refused. */
export interface Frame {
  readonly bytes: Buffer;
  /**
   * How the log shows the frame when not as its bytes' text: a binary frame's every byte in hex
   * (`bytes` is then its message alone, as the decoder reads it).
   */
  readonly shown?: string;
  /** Set when the framing refused these bytes (bad checksum, overlong, bytes outside a frame): why, in keys. */
  readonly error?: Message;
}

/**
 * An incremental framer: bytes in as they arrive (any split), whole frames out. Pure apart from
 * its own buffer, so it is tested on recorded byte streams; the stream wrapper adds the timing.
 */
export interface Framer {
  push(chunk: Uint8Array): Frame[];
  /** Called after `idleMs` of silence (when set) and at the end of the stream. */
  flush(): Frame[];
  /**
   * The connection is gone: a frame in progress can never complete. It is returned refused, so
   * it is reported, not dropped, and never read as a shorter card (`S12` cut to `S1`).
   */
  cutOff(): Frame[];
  /** Silence that ends a frame, for readers that send no terminator. */
  readonly idleMs?: number;
}

/** A kind of framing as the registry lists it. */
export interface FramingKind<Config extends { readonly kind: string }> extends DeviceKind<Config, Framer> {
  /** One message as a device of this framing sends it (for the simulator and tests). */
  wrap(payload: Buffer, config: Config, lineEnding: string): Buffer;
}

/** Frames longer than this are refused rather than buffered forever (a wrong baud rate never sends a terminator). */
export const DEFAULT_MAX_FRAME = 256;

export const CUT_OFF: Message = { key: 'hardware.frame.cutOff' };

/** The pending bytes of an unfinished frame, refused, or nothing when there are none. */
export function cutOffFrame(pending: readonly number[]): Frame[] {
  return pending.length === 0 ? [] : [{ bytes: Buffer.from(pending), error: CUT_OFF }];
}

/**
 * `framing.maxLength`, 1 to 65536 bytes (DEFAULT_MAX_FRAME when left out): every framing has it,
 * and the registry reads it before the kind (a kind unknown too). Always filled in when read;
 * optional in the type, as a built-in profile leaves it to the framer's default.
 */
export const FRAME_MAX_LENGTH: Schema<number | undefined> = wholeIn(1, 65536, DEFAULT_MAX_FRAME);

/** The refusals of a frame that ran past its length with no end in sight: on a noisy line, as noise. */
export const OVERLONG_FRAME_KEYS: ReadonlySet<Message['key']> = new Set(['hardware.frame.noLineEnd', 'hardware.frame.noPause', 'hardware.frame.noEtx', 'hardware.frame.noEndAfter']);

import type { Message } from '../../engine/messages';
import { literal, oneOf, refine, withDefault, type Infer } from '../../engine/schema';
import { flag, kindOptions } from '../deviceKind';
import { printableRaw } from '../events';
import { cutOffFrame, DEFAULT_MAX_FRAME, FRAME_MAX_LENGTH, type Frame, type Framer, type FramingKind } from './frame';

export const STX = 0x02;
export const ETX = 0x03;
/**
 * `xor`/`sum`: one checksum byte after the ETX. `xor-hex`/`sum-hex`: the same value sent as two
 * ASCII hex digits (`4F`), as devices do that keep the whole stream printable.
 */
export const CHECKSUMS = ['none', 'xor', 'sum', 'xor-hex', 'sum-hex'] as const;
export type Checksum = (typeof CHECKSUMS)[number];

/** A profile's `framing` for STX data ETX [checksum]. */
const STX_ETX_OPTIONS = refine(
  kindOptions({
    kind: literal('stx-etx'),
    /** `none` when left out. */
    checksum: withDefault(oneOf(CHECKSUMS, { key: 'hardware.profile.chooseOne', params: { options: CHECKSUMS.join(', ') } }), 'none'),
    /** The checksum counts the STX as well as the data and the ETX. Only with a checksum. */
    checksumIncludesStx: flag,
    maxLength: FRAME_MAX_LENGTH,
  }),
  (read, at) => {
    if (read.checksumIncludesStx === true && read.checksum === 'none') at('checksumIncludesStx', { key: 'hardware.profile.checksumOnly', params: { options: CHECKSUMS.slice(1).join(', ') } });
  },
);
export type StxEtxFraming = Infer<typeof STX_ETX_OPTIONS>;

export interface ChecksumOptions {
  /** The sum or XOR starts at the STX instead of the first data byte (some devices count it). */
  readonly includesStx?: boolean;
}

/**
 * XOR (LRC) or sum mod 256 of the data bytes and the ETX, as most STX/ETX devices compute it, and
 * of the STX too when `includesStx` is set. The `-hex` kinds have the same value, only sent as text.
 */
export function checksumOf(kind: Exclude<Checksum, 'none'>, data: Uint8Array, options: ChecksumOptions = {}): number {
  const xor = kind === 'xor' || kind === 'xor-hex';
  let value = 0;
  const add = (byte: number) => (value = xor ? value ^ byte : (value + byte) & 0xff);
  if (options.includesStx === true) add(STX);
  for (const byte of data) add(byte);
  add(ETX);
  return value;
}

/** How many bytes follow the ETX. */
function checksumLength(kind: Checksum): number {
  return kind === 'none' ? 0 : kind.endsWith('-hex') ? 2 : 1;
}

/** The checksum bytes a device sends after the ETX: one byte, or two upper-case hex digits. */
export function checksumBytes(kind: Checksum, data: Uint8Array, options: ChecksumOptions = {}): Buffer {
  if (kind === 'none') return Buffer.alloc(0);
  const value = checksumOf(kind, data, options);
  return kind.endsWith('-hex') ? Buffer.from(value.toString(16).toUpperCase().padStart(2, '0'), 'latin1') : Buffer.from([value]);
}

const hex2 = (value: number) => value.toString(16).padStart(2, '0');

/** Why a received checksum is wrong, or undefined when it is right. Hex digits are read in either case. */
function checksumError(kind: Exclude<Checksum, 'none'>, data: Uint8Array, received: readonly number[], options: ChecksumOptions): Message | undefined {
  const expected = checksumOf(kind, data, options);
  if (kind === 'xor' || kind === 'sum') {
    const got = received[0] as number;
    return got === expected ? undefined : { key: 'hardware.frame.badChecksumByte', params: { checksum: kind, got: hex2(got), expected: hex2(expected) } };
  }
  const text = Buffer.from(received).toString('latin1');
  if (/^[0-9A-Fa-f]{2}$/.test(text) && parseInt(text, 16) === expected) return undefined;
  return { key: 'hardware.frame.badChecksumHex', params: { checksum: kind, got: printableRaw(Buffer.from(received)), expected: hex2(expected).toUpperCase() } };
}

/**
 * STX data ETX [checksum]. A frame whose checksum is wrong is refused (returned with an
 * error, its data kept for the log); bytes outside any frame are refused too, never ignored.
 * A hex checksum is two printable digits, so an STX where one is due starts a new frame and the
 * unfinished one is refused; a binary checksum byte may be any value, STX included.
 */
export function stxEtxFramer(checksum: Checksum = 'none', maxLength = DEFAULT_MAX_FRAME, options: ChecksumOptions = {}): Framer {
  const trailer = checksumLength(checksum);
  let state: 'outside' | 'data' | 'checksum' = 'outside';
  let data: number[] = [];
  let received: number[] = [];
  let stray: number[] = [];
  const strayFrame = (): Frame[] => {
    const frames: Frame[] = stray.length > 0 ? [{ bytes: Buffer.from(stray), error: { key: 'hardware.frame.outside', params: { raw: printableRaw(Buffer.from(stray)) } } }] : [];
    stray = [];
    return frames;
  };
  const finish = (): Frame => {
    const bytes = Buffer.from(data);
    const error = checksum === 'none' ? undefined : checksumError(checksum, bytes, received, options);
    data = [];
    received = [];
    state = 'outside';
    return error === undefined ? { bytes } : { bytes, error };
  };
  return {
    push(chunk) {
      const frames: Frame[] = [];
      for (const byte of chunk) {
        if (state === 'checksum' && (trailer === 1 || byte !== STX)) {
          received.push(byte);
          if (received.length === trailer) frames.push(finish());
        } else if (byte === STX) {
          frames.push(...strayFrame());
          if (state === 'data') frames.push({ bytes: Buffer.from(data), error: { key: 'hardware.frame.newStx' } });
          if (state === 'checksum') frames.push({ bytes: Buffer.from(data), error: { key: 'hardware.frame.newStxChecksum', params: { checksum } } });
          data = [];
          received = [];
          state = 'data';
        } else if (state === 'outside') {
          // Line ends between frames are common padding, not data.
          if (byte !== 0x0d && byte !== 0x0a) stray.push(byte);
          if (stray.length > maxLength) frames.push(...strayFrame());
        } else if (byte === ETX) {
          if (trailer === 0) frames.push(finish());
          else state = 'checksum';
        } else {
          data.push(byte);
          if (data.length > maxLength) {
            frames.push({ bytes: Buffer.from(data), error: { key: 'hardware.frame.noEtx', params: { n: maxLength } } });
            data = [];
            state = 'outside';
          }
        }
      }
      return frames;
    },
    flush() {
      // Only stray bytes are reported on silence: a frame in progress may still be completing.
      return strayFrame();
    },
    cutOff() {
      const frames = [...strayFrame(), ...(state === 'outside' ? [] : cutOffFrame(data))];
      data = [];
      received = [];
      state = 'outside';
      return frames;
    },
  };
}

export const STX_ETX_FRAMING: FramingKind<StxEtxFraming> = {
  kind: 'stx-etx',
  summary: 'STX…ETX frames, with or without a checksum.',
  schema: STX_ETX_OPTIONS,
  create: (config) => stxEtxFramer(config.checksum, config.maxLength ?? DEFAULT_MAX_FRAME, { includesStx: config.checksumIncludesStx === true }),
  describe(config) {
    if (config.checksum === 'none') return 'STX…ETX frames without a checksum';
    const what = config.checksum.startsWith('xor') ? 'an XOR' : 'a sum';
    const sent = config.checksum.endsWith('-hex') ? 'two hex digits' : 'one byte';
    return `STX…ETX frames with ${what} checksum sent as ${sent}${config.checksumIncludesStx === true ? ', counting the STX' : ''}`;
  },
  wrap(payload, config) {
    const checksum = checksumBytes(config.checksum, payload, { includesStx: config.checksumIncludesStx === true });
    return Buffer.concat([Buffer.from([STX]), payload, Buffer.from([ETX]), checksum]);
  },
};

import { InputError } from '../../engine/errors';
import type { Message } from '../../engine/messages';
import { custom, isWhole, list, literal, object, refine, refuse, whenGiven, withDefault, type Infer, type RefuseAt, type Schema } from '../../engine/schema';
import { choiceOf, kindOptions, wholeIn } from '../deviceKind';
import { DEFAULT_MAX_FRAME, FRAME_MAX_LENGTH, type Frame, type Framer, type FramingKind } from './frame';

/**
 * Binary and checksummed frames described by their parts (issue 26), so that a reader such as an
 * RDM6300, a Zebra SSI scanner, a PN532 or a UHF module is read by a profile file alone:
 *
 *     start bytes · header (a length field, fixed bytes) · message · checksums · end bytes
 *
 * Positions count from the frame's first byte; a negative one counts back from its end (`-1` is
 * the last byte), so one description fits frames of any length. A frame whose checksum fails,
 * whose length lies or that is cut off is refused with the reason, its bytes shown in hex: never a card.
 */

/** Bytes written as hex in a profile (`"0000FF"`, `"00 00 FF"`), 1 to 16 of them. */
const HEX_BYTES: Schema<string> = custom((value) => {
  const digits = typeof value === 'string' ? value.replace(/\s+/g, '').toUpperCase() : '';
  if (!/^(?:[0-9A-F]{2}){1,16}$/.test(digits)) refuse({ key: 'hardware.profile.hexBytes', params: { example: '"00 00 FF"' } });
  return digits;
});

/** A position in the frame: from its start (0 …), or back from its end (-1 the last byte). */
const POSITION = (min: number) =>
  custom((value) => {
    if (!isWhole(value, min, 65535)) refuse({ key: 'hardware.profile.position', params: { got: String(JSON.stringify(value)) } });
    return value;
  });
/** The end of a range, exclusive: a position past its last byte (negative: back from the frame's end), left out: the frame's end. */
const RANGE_END = whenGiven(
  custom((value) => {
    if (!isWhole(value, -65535, 65535) || value === 0) refuse({ key: 'hardware.profile.rangeEnd', params: { got: String(JSON.stringify(value)) } });
    return value;
  }),
  undefined,
);

const BYTE_ORDERS = ['big', 'little'] as const;
export const BINARY_CHECKSUMS = ['xor', 'sum', 'negated-sum'] as const;
export type BinaryChecksumKind = (typeof BINARY_CHECKSUMS)[number];

/** A range of the frame's bytes: `from` (inclusive) to `to` (exclusive; left out, the frame's end). */
const RANGE_FIELDS = { from: POSITION(-65535), to: RANGE_END };
/** Refuses a range whose end comes before its start. */
function inOrder(read: { readonly from: number; readonly to?: number }, at: RefuseAt): void {
  const to = read.to;
  if (to !== undefined && to > 0 && (read.from < 0 || to <= read.from)) at('to', { key: 'hardware.profile.rangeOrder' });
}
const RANGE = refine(object(RANGE_FIELDS, { key: 'hardware.profile.notObject' }), inOrder);

/**
 * A checksum: its algorithm over a range, where it is sent (`at`), its size and byte order, and
 * whether it is sent as bytes or as hex text. `overHex`: the range is hex digits, and the checksum
 * is taken over the bytes they spell (an RDM6300's XOR of its five tag bytes).
 */
const CHECKSUM = object(
  {
    kind: choiceOf(BINARY_CHECKSUMS, 'xor'),
    over: RANGE,
    overHex: whenGiven(custom((value) => (value === true || value === false ? value : refuse({ key: 'settings.notBoolean', params: { got: String(JSON.stringify(value)) } }))), false),
    at: POSITION(-65535),
    size: choiceOf([1, 2] as const, 1),
    order: choiceOf(BYTE_ORDERS, 'big'),
    sent: choiceOf(['bytes', 'hex'] as const, 'bytes'),
  },
  { key: 'hardware.profile.notObject' },
);
export type BinaryChecksum = Infer<typeof CHECKSUM>;

/** A length field: where it is, its size and byte order, and the bytes it counts (`counts`, whose end is the frame's end or back from it). */
const LENGTH_FIELD = refine(
  object(
    {
      at: POSITION(0),
      size: choiceOf([1, 2] as const, 1),
      order: choiceOf(BYTE_ORDERS, 'big'),
      counts: RANGE,
    },
    { key: 'hardware.profile.notObject' },
  ),
  (read, at) => {
    if (read.counts.from < 0 || (read.counts.to !== undefined && read.counts.to > 0)) at('counts', { key: 'hardware.profile.lengthCounts' });
  },
);

/** A frame's length: a fixed number of bytes, or a length field; left out, the frame runs to its end bytes. */
const FRAME_LENGTH = whenGiven(
  custom((value, parent) => (typeof value === 'number' ? (wholeIn(2, 65536, 0).read(value, parent) as number) : LENGTH_FIELD.read(value, parent))),
  undefined,
);

const BINARY_OPTIONS = refine(
  kindOptions({
    kind: literal('binary'),
    /** The bytes every frame starts with; left out, any byte may start one (a Zebra SSI frame starts with its length). */
    start: whenGiven(HEX_BYTES, undefined),
    length: FRAME_LENGTH,
    /** The bytes every frame ends with. */
    end: whenGiven(HEX_BYTES, undefined),
    checksums: withDefault(list(CHECKSUM, { max: 4, said: { key: 'hardware.profile.checksumList' } }), []),
    /** Bytes a frame of the kind this profile reads has at a position (a PN532's `D5 4B`): any other well-formed frame is another kind's. */
    match: withDefault(list(object({ at: POSITION(-65535), bytes: HEX_BYTES }, { key: 'hardware.profile.notObject' }), { max: 4, said: { key: 'hardware.profile.matchList' } }), []),
    /** Whole frames that carry nothing and are skipped in silence (a PN532's ACK `00 00 FF 00 FF 00`). */
    skip: withDefault(list(HEX_BYTES, { max: 8, said: { key: 'hardware.profile.skipList' } }), []),
    /**
     * The message: text (what the text decoders read) or hex (each byte as two hex digits, for the
     * `uid` decoder). `lengthAt`: a byte that says how many of the range's bytes are the message,
     * from its start (a PN532's NFCIDLength: the UID, not the ATS after it).
     */
    message: refine(object({ ...RANGE_FIELDS, lengthAt: whenGiven(POSITION(-65535), undefined), as: choiceOf(['text', 'hex'] as const, 'text') }, { key: 'hardware.profile.notObject' }), inOrder),
    maxLength: FRAME_MAX_LENGTH,
  }),
  (read, at) => {
    if (read.length === undefined && read.end === undefined) at('length', { key: 'hardware.profile.lengthOrEnd' });
  },
);
export type BinaryFraming = Infer<typeof BINARY_OPTIONS>;
type LengthField = Exclude<BinaryFraming['length'], number | undefined>;

/** Bytes as a binary frame's log shows them: upper-case hex pairs, a space between (`07 F3 00`). */
export const bytesInHex = (bytes: ArrayLike<number>): string => Array.from(bytes, (byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join(' ');
const bytesOf = (digits: string): number[] => (digits.match(/../g) ?? []).map((pair) => parseInt(pair, 16));

/** A position of a frame of `length` bytes: negative ones count back from its end. */
const resolve = (position: number, length: number) => (position < 0 ? length + position : position);
/** A range of a frame of `length` bytes as [start, end), or null when it does not fit in it. */
function span(range: { readonly from: number; readonly to?: number | undefined }, length: number): [number, number] | null {
  const start = resolve(range.from, length);
  const end = range.to === undefined ? length : resolve(range.to, length);
  return start < 0 || end > length || start > end ? null : [start, end];
}

/** A checksum's value over `bytes`, `size` bytes wide. */
export function binaryChecksumOf(kind: BinaryChecksumKind, bytes: ArrayLike<number>, size: 1 | 2): number {
  const modulus = size === 1 ? 0x100 : 0x10000;
  let value = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index] as number;
    value = kind === 'xor' ? value ^ byte : (value + byte) % modulus;
  }
  return kind === 'negated-sum' ? (modulus - value) % modulus : value;
}

/** The bytes a checksum covers: as they are, or the bytes their hex digits spell (null: not hex digits). */
function covered(frame: readonly number[], [start, end]: [number, number], overHex: boolean): number[] | null {
  const bytes = frame.slice(start, end);
  if (!overHex) return bytes;
  const text = String.fromCharCode(...bytes);
  // Upper-case only, as the devices send them: a flipped bit 5 must not turn `A` into an `a` that spells the same byte.
  return /^(?:[0-9A-F]{2})*$/.test(text) ? bytesOf(text) : null;
}

/** How a checksum of `value` is sent: `size` bytes in `order`, or as many pairs of upper-case hex digits (most significant first). */
function checksumSent(checksum: BinaryChecksum, value: number): number[] {
  const big = checksum.size === 1 ? [value] : [value >> 8, value & 0xff];
  if (checksum.sent === 'hex') return [...value.toString(16).toUpperCase().padStart(checksum.size * 2, '0')].map((digit) => digit.charCodeAt(0));
  return checksum.order === 'big' ? big : big.reverse();
}

const sentLength = (checksum: BinaryChecksum) => checksum.size * (checksum.sent === 'hex' ? 2 : 1);

function readLengthField(frame: readonly number[], start: number, field: LengthField): number {
  const at = start + field.at;
  if (field.size === 1) return frame[at] as number;
  const [first, second] = [frame[at] as number, frame[at + 1] as number];
  return field.order === 'big' ? (first << 8) | second : (second << 8) | first;
}

/** A frame's total length from its length field's value. */
const totalFromField = (field: LengthField, value: number) => value + field.counts.from - (field.counts.to ?? 0);

/** What parsing a frame at a position gave. */
type Parsed =
  | { readonly kind: 'wait'; readonly need?: number }
  | { readonly kind: 'frame'; readonly length: number; readonly frame: Frame }
  /** Refused. `whole`: the frame is well-formed apart from what failed (its end bytes are where they should be), so nothing hides inside it. */
  | { readonly kind: 'bad'; readonly length: number; readonly said: Message; readonly whole: boolean };

export function binaryFramer(config: BinaryFraming): Framer {
  const start = bytesOf(config.start ?? '');
  const end = bytesOf(config.end ?? '');
  const skips = config.skip.map(bytesOf);
  const matches = config.match.map((match) => ({ at: match.at, bytes: bytesOf(match.bytes) }));
  const maxLength = config.maxLength ?? DEFAULT_MAX_FRAME;
  let buffer: number[] = [];
  /** Bytes of `buffer` before this index are part of a refusal already reported. */
  let reportedTo = 0;
  /** Bytes outside any frame, not yet reported (indexes into buffer). */
  let strayFrom = -1;

  const startsAt = (at: number, bytes: readonly number[]): 'yes' | 'no' | 'maybe' => {
    for (let index = 0; index < bytes.length; index += 1) {
      if (at + index >= buffer.length) return 'maybe';
      if (buffer[at + index] !== bytes[index]) return 'no';
    }
    return 'yes';
  };

  /**
   * Whether a frame whose checksum fails still has the length it seems to: a fixed length, or one
   * ended by its end bytes. A length field may be the byte that was damaged, and a frame passed
   * over by a length that lied would take the next good frame with it: the scan looks again one
   * byte on instead (what it passes over is reported once).
   */
  const lengthTrusted = typeof config.length !== 'object';

  /** The frame of `length` bytes at `at`, checked. */
  function check(at: number, length: number): Parsed {
    const frame = buffer.slice(at, at + length);
    const endOk = end.every((byte, index) => frame[length - end.length + index] === byte);
    if (!endOk) return { kind: 'bad', length, whole: false, said: { key: 'hardware.frame.noEndWhere', params: { end: bytesInHex(end), at: length - end.length } } };
    for (const checksum of config.checksums) {
      const over = span(checksum.over, length);
      const sentAt = resolve(checksum.at, length);
      if (over === null || sentAt < 0 || sentAt + sentLength(checksum) > length) return { kind: 'bad', length, whole: false, said: { key: 'hardware.frame.tooShort', params: { n: length } } };
      const bytes = covered(frame, over, checksum.overHex);
      if (bytes === null) return { kind: 'bad', length, whole: true, said: { key: 'hardware.frame.notHexDigits', params: { got: bytesInHex(frame.slice(...over)) } } };
      const expected = checksumSent(checksum, binaryChecksumOf(checksum.kind, bytes, checksum.size));
      const got = frame.slice(sentAt, sentAt + expected.length);
      if (got.some((byte, index) => byte !== expected[index])) {
        const shown = (values: number[]) => (checksum.sent === 'hex' ? `"${String.fromCharCode(...values)}"` : bytesInHex(values));
        return { kind: 'bad', length, whole: lengthTrusted, said: { key: 'hardware.frame.badChecksum', params: { checksum: checksum.kind, at: sentAt, got: shown(got), expected: shown(expected) } } };
      }
    }
    for (const match of matches) {
      const from = resolve(match.at, length);
      const got = frame.slice(from, from + match.bytes.length);
      if (from < 0 || got.length < match.bytes.length || got.some((byte, index) => byte !== match.bytes[index])) {
        return { kind: 'bad', length, whole: true, said: { key: 'hardware.frame.otherKind', params: { at: from, got: bytesInHex(got), expected: bytesInHex(match.bytes) } } };
      }
    }
    const messageSpan = span(config.message, length);
    if (messageSpan === null) return { kind: 'bad', length, whole: false, said: { key: 'hardware.frame.tooShort', params: { n: length } } };
    if (config.message.lengthAt !== undefined) {
      const said = frame[resolve(config.message.lengthAt, length)];
      const room = messageSpan[1] - messageSpan[0];
      if (said === undefined || said > room) return { kind: 'bad', length, whole: true, said: { key: 'hardware.frame.messageTooLong', params: { n: said ?? 0, room } } };
      messageSpan[1] = messageSpan[0] + said;
    }
    const message = frame.slice(...messageSpan);
    const bytes = config.message.as === 'hex' ? Buffer.from(bytesInHex(message).replace(/ /g, ''), 'latin1') : Buffer.from(message);
    return { kind: 'frame', length, frame: { bytes, shown: bytesInHex(frame) } };
  }

  /** The frame that starts at `at`, or what keeps it from being one. */
  function parseAt(at: number): Parsed {
    const available = buffer.length - at;
    const length = config.length;
    if (typeof length === 'number') return available < length ? { kind: 'wait', need: length } : check(at, length);
    if (length !== undefined) {
      if (available < length.at + length.size) return { kind: 'wait' };
      const value = readLengthField(buffer, at, length);
      const total = totalFromField(length, value);
      if (total > maxLength) return { kind: 'bad', length: Math.min(available, length.at + length.size), whole: false, said: { key: 'hardware.frame.lengthTooLong', params: { n: total, max: maxLength } } };
      if (total < Math.max(start.length, length.at + length.size) + end.length) return { kind: 'bad', length: length.at + length.size, whole: false, said: { key: 'hardware.frame.tooShort', params: { n: total } } };
      return available < total ? { kind: 'wait', need: total } : check(at, total);
    }
    // Ended by its end bytes alone.
    for (let total = start.length + end.length; total <= Math.min(available, maxLength); total += 1) {
      if (end.every((byte, index) => buffer[at + total - end.length + index] === byte)) return check(at, total);
    }
    if (available >= maxLength) return { kind: 'bad', length: maxLength, whole: true, said: { key: 'hardware.frame.noEndAfter', params: { end: bytesInHex(end), n: maxLength } } };
    return { kind: 'wait' };
  }

  /** Cuts frames out of the buffer; `final` (silence, the end of the stream): nothing more is coming for what waits. */
  function scan(final: boolean, cutOff = false): Frame[] {
    const frames: Frame[] = [];
    const refuse = (from: number, to: number, said: Message) => {
      frames.push(...stray(from));
      // A candidate inside a refusal already reported (the scan one byte on) is passed over in silence, and reports nothing further.
      if (from < reportedTo) return;
      frames.push({ bytes: Buffer.from(buffer.slice(from, to)), shown: bytesInHex(buffer.slice(from, to)), error: said });
      reportedTo = to;
    };
    /** Reports the stray bytes up to `to`, as one refusal. */
    const stray = (to: number): Frame[] => {
      if (strayFrom < 0) return [];
      const from = Math.max(strayFrom, reportedTo);
      strayFrom = -1;
      if (from >= to) return [];
      reportedTo = Math.max(reportedTo, to);
      return [{ bytes: Buffer.from(buffer.slice(from, to)), shown: bytesInHex(buffer.slice(from, to)), error: { key: 'hardware.frame.outsideFrame', params: { n: to - from } } }];
    };
    let at = 0;
    while (at < buffer.length) {
      const begins = startsAt(at, start);
      if (begins === 'no') {
        if (strayFrom < 0 && at >= reportedTo) strayFrom = at;
        at += 1;
        continue;
      }
      const skip = skips.find((bytes) => startsAt(at, bytes) === 'yes');
      if (skip !== undefined) {
        frames.push(...stray(at));
        at += skip.length;
        continue;
      }
      const parsed: Parsed = begins === 'maybe' || (!final && skips.some((bytes) => startsAt(at, bytes) === 'maybe')) ? { kind: 'wait' } : parseAt(at);
      if (parsed.kind === 'wait') {
        if (!final) break;
        refuse(at, buffer.length, cutOff
            ? { key: 'hardware.frame.cutOff' }
            : parsed.need === undefined
              ? { key: 'hardware.frame.incompleteAfter', params: { got: buffer.length - at } }
              : { key: 'hardware.frame.incomplete', params: { got: buffer.length - at, n: parsed.need } });
        at += 1;
        continue;
      }
      if (parsed.kind === 'frame') {
        frames.push(...stray(at));
        frames.push(parsed.frame);
        at += parsed.length;
        reportedTo = Math.max(reportedTo, at);
        continue;
      }
      refuse(at, at + parsed.length, parsed.said);
      // A frame refused whole is passed over; one whose length or end lied may hide the next frame: look again one byte on.
      at += parsed.whole ? parsed.length : 1;
    }
    if (final) frames.push(...stray(buffer.length));
    else if (strayFrom >= 0 && at - strayFrom > maxLength) frames.push(...stray(at));
    // Stray bytes not yet reported stay, to be reported with the rest of their run.
    const keep = strayFrom < 0 ? at : Math.min(strayFrom, at);
    buffer = buffer.slice(keep);
    reportedTo = Math.max(0, reportedTo - keep);
    strayFrom = -1;
    return frames;
  }

  return {
    // A frame comes in one burst: a pause this long in the middle of one means it will never end.
    idleMs: 200,
    push(chunk) {
      for (const byte of chunk) buffer.push(byte);
      return scan(false);
    },
    flush: () => scan(true),
    cutOff: () => scan(true, true),
  };
}

/** One message as a device of this framing sends it: the header's fixed bytes, the length field and the checksums filled in. */
function wrapBinary(payload: Buffer, config: BinaryFraming): Buffer {
  const digits = payload.toString('latin1').replace(/[\s:]/g, '').toUpperCase();
  if (config.message.as === 'hex' && !/^(?:[0-9A-F]{2})+$/.test(digits)) throw new InputError('framing.message', `carries bytes written in hex: "${payload.toString('latin1')}" cannot be sent`);
  const message = config.message.as === 'hex' ? bytesOf(digits) : [...payload];
  const start = bytesOf(config.start ?? '');
  const end = bytesOf(config.end ?? '');
  let length: number;
  if (typeof config.length === 'number') length = config.length;
  else {
    const to = config.message.to;
    if (config.message.from < 0 || (to !== undefined && to > 0)) throw new Error('a message placed from the frame’s end needs a fixed length');
    length = config.message.from + message.length - (to ?? 0);
  }
  const frame = new Array<number>(length).fill(0);
  const put = (at: number, bytes: readonly number[]) => bytes.forEach((byte, index) => (frame[resolve(at, length) + index] = byte));
  put(0, start);
  for (const match of config.match) put(match.at, bytesOf(match.bytes));
  const messageSpan = span(config.message, length);
  if (messageSpan === null || messageSpan[1] - messageSpan[0] !== message.length) throw new Error(`the message does not fit a frame of ${length} bytes`);
  put(messageSpan[0], message);
  if (config.message.lengthAt !== undefined) put(config.message.lengthAt, [message.length]);
  if (typeof config.length === 'object') {
    const counted = span(config.length.counts, length) as [number, number];
    const value = counted[1] - counted[0];
    put(config.length.at, config.length.size === 1 ? [value] : config.length.order === 'big' ? [value >> 8, value & 0xff] : [value & 0xff, value >> 8]);
  }
  put(length - end.length, end);
  for (const checksum of config.checksums) {
    const bytes = covered(frame, span(checksum.over, length) as [number, number], checksum.overHex) ?? [];
    put(checksum.at, checksumSent(checksum, binaryChecksumOf(checksum.kind, bytes, checksum.size)));
  }
  return Buffer.from(frame);
}

export const BINARY_FRAMING: FramingKind<BinaryFraming> = {
  kind: 'binary',
  summary: 'Binary frames described by their parts: start bytes, a length field, checksums, end bytes.',
  schema: BINARY_OPTIONS,
  create: (config) => binaryFramer(config),
  describe(config) {
    const parts = [
      config.start === undefined ? 'no start bytes' : `starting ${bytesInHex(bytesOf(config.start))}`,
      typeof config.length === 'number' ? `${config.length} bytes long` : config.length === undefined ? '' : `a ${config.length.size}-byte length at byte ${config.length.at}`,
      config.end === undefined ? '' : `ending ${bytesInHex(bytesOf(config.end))}`,
      ...config.checksums.map((checksum) => `a ${checksum.size}-byte ${checksum.kind} checksum at byte ${checksum.at}${checksum.sent === 'hex' ? ' as hex' : ''}`),
      `the message as ${config.message.as}`,
    ].filter((part) => part !== '');
    return `binary frames: ${parts.join(', ')}`;
  },
  wrap: (payload, config) => wrapBinary(payload, config),
};

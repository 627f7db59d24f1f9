import { isUtf8 } from 'node:buffer';
import type { RawLine } from './lineKind';
import { SEAL_LENGTH } from './seal';

/** A record line as JSON.parse reads it, and its seal as sealIn finds it (the hash stored, where the bytes it covers end). */
export interface FastRecordLine extends RawLine {
  readonly stored: string;
  readonly bodyEnd: number;
}

/**
 * The writer's record line, read without parsing the whole line as JSON: every record line it
 * writes is `{"seq":N,"at":"…","run":"…","t":N,"prev":"…"|null,"record":{…},"hash":"…"}`, in that
 * order (journal/encoder.ts), so the fields before `record` are read from the bytes and only the
 * record itself goes to JSON.parse. A journal's start reads a million of them.
 *
 * It answers only when it is sure: when the line is exactly that shape, with plain ASCII strings
 * before the record (no escapes), a record that is valid UTF-8 and one JSON object, and a seal of 64
 * lowercase hex digits. Then the line, as JSON.parse reads it whole, is this object, field for field
 * (a property test holds it to that). Anything else (a header, an older format, damage, a number
 * written another way, an escape) gives null, and the caller reads the line the full way
 * (kindOfLine), which decides what it is.
 */
export function fastRecordLine(bytes: Uint8Array, start: number, end: number): FastRecordLine | null {
  let index = start;
  // {"seq":
  if (!opens(bytes, index, end, SEQ)) return null;
  index += SEQ.length;
  const seqStart = index;
  let seq = 0;
  for (; index < end && index - seqStart < 16; index += 1) {
    const byte = bytes[index] as number;
    if (byte < 0x30 || byte > 0x39) break;
    seq = seq * 10 + (byte - 0x30);
  }
  // JSON has no leading zeros; a number too long to be exact here is left to JSON.parse.
  if (index === seqStart || bytes[seqStart] === 0x30 || !Number.isSafeInteger(seq)) return null;
  if (!opens(bytes, index, end, AT)) return null;
  index += AT.length;
  const atEnd = plainString(bytes, index, end);
  if (atEnd < 0) return null;
  const at = latin1(bytes, index, atEnd);
  index = atEnd + 1;
  if (!opens(bytes, index, end, RUN)) return null;
  index += RUN.length;
  const run = RUN_TEXT.plain(bytes, index, end);
  if (run === null) return null;
  index += run.length + 1;
  if (!opens(bytes, index, end, T)) return null;
  index += T.length;
  // An integer, as the writer writes `t` (a fraction or an exponent: JSON.parse's to read).
  if (bytes[index] === 0x2d) index += 1;
  const tStart = index;
  while (index < end && (bytes[index] as number) >= 0x30 && (bytes[index] as number) <= 0x39) index += 1;
  if (index === tStart || (bytes[tStart] === 0x30 && index - tStart > 1)) return null;
  if (!opens(bytes, index, end, PREV)) return null;
  index += PREV.length;
  let prev: string | null;
  if (opens(bytes, index, end, NULL)) {
    prev = null;
    index += NULL.length;
  } else {
    if (bytes[index] !== 0x22) return null;
    // Most often the seal of the line just read: its text again.
    prev = SEAL_TEXT.plain(bytes, index + 1, end);
    if (prev === null) return null;
    index += prev.length + 2;
  }
  if (!opens(bytes, index, end, RECORD)) return null;
  index += RECORD.length;
  // The seal: `,"hash":"` and 64 lowercase hex digits, then `"}` to end the line.
  const sealStart = end - SEAL_LENGTH;
  if (sealStart <= index || !opens(bytes, sealStart, end, HASH) || bytes[end - 2] !== 0x22 || bytes[end - 1] !== 0x7d) return null;
  // Summed without a branch a digit: hex digits come in no order a branch could guess.
  let notHex = 0;
  for (let digit = sealStart + HASH.length; digit < end - 2; digit += 1) notHex |= NOT_HEX[bytes[digit] as number] as number;
  if (notHex !== 0) return null;
  const stored = SEAL_TEXT.text(bytes, sealStart + HASH.length, end - 2);
  const card = cardRecord(bytes, index, sealStart);
  if (card !== null) return { seq, at, run, prev, record: card, stored, bodyEnd: sealStart };
  // The record: one JSON object, in UTF-8 (a bad byte is for the full read to call unreadable).
  const recordBytes = new Uint8Array(bytes.buffer, bytes.byteOffset + index, sealStart - index);
  if (!isUtf8(recordBytes)) return null;
  let record: unknown;
  try {
    record = JSON.parse(Buffer.prototype.toString.call(bytes, 'utf8', index, sealStart));
  } catch {
    return null;
  }
  if (typeof record !== 'object' || record === null) return null;
  return { seq, at, run, prev, record, stored, bodyEnd: sealStart };
}

const SEQ = Buffer.from('{"seq":');
const AT = Buffer.from(',"at":"');
const RUN = Buffer.from(',"run":"');
const T = Buffer.from(',"t":');
const PREV = Buffer.from(',"prev":');
const NULL = Buffer.from('null');
const RECORD = Buffer.from(',"record":');
const HASH = Buffer.from(',"hash":"');
/** 1 for every byte that is not a lowercase hex digit. */
const NOT_HEX = Uint8Array.from({ length: 256 }, (_, byte) => ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) ? 0 : 1));

/** Whether the bytes at `at` (before the line's `end`) are `expected`. */
function opens(bytes: Uint8Array, at: number, end: number, expected: Uint8Array): boolean {
  if (at + expected.length > end) return false;
  for (let index = 0; index < expected.length; index += 1) if (bytes[at + index] !== expected[index]) return false;
  return true;
}

/**
 * Where the JSON string begun before `from` ends (its closing quote), when every byte of it is
 * printable ASCII with no escape (so its bytes are its text); else -1.
 */
function plainString(bytes: Uint8Array, from: number, end: number): number {
  for (let index = from; index < end; index += 1) {
    const byte = bytes[index] as number;
    if (byte === 0x22) return index;
    if (byte < 0x20 || byte > 0x7e || byte === 0x5c) return -1;
  }
  return -1;
}

/**
 * The text of plain ASCII bytes, the same string again when they are the bytes it last made one of
 * (a run's id on every line of the run, a race's id on every line of the race, a seal in the next
 * line's `prev`): equal strings either way, fewer made (a start makes millions).
 */
class RecentText {
  private readonly last = new Uint8Array(64);
  private length = -1;
  private lastText = '';

  /**
   * The text last made, when the string that begins at `start` (inside the line ending at `end`) is
   * its bytes and ends there (a closing quote after them): else null. Its bytes were found plain when
   * it was made, so the string is plain too.
   */
  again(bytes: Uint8Array, start: number, end: number): string | null {
    const length = this.length;
    if (length < 0 || start + length >= end || bytes[start + length] !== 0x22) return null;
    for (let index = 0; index < length; index += 1) if (bytes[start + index] !== this.last[index]) return null;
    return this.lastText;
  }

  /**
   * The plain string that begins at `start` (see plainString), or null: the text last made when it
   * is the same bytes, else a new one. Plain, its text is as long as its bytes.
   */
  plain(bytes: Uint8Array, start: number, end: number): string | null {
    const again = this.again(bytes, start, end);
    if (again !== null) return again;
    const close = plainString(bytes, start, end);
    return close < 0 ? null : this.text(bytes, start, close);
  }

  text(bytes: Uint8Array, start: number, end: number): string {
    const length = end - start;
    if (length === this.length) {
      let same = true;
      for (let index = 0; index < length; index += 1) {
        if (bytes[start + index] !== this.last[index]) {
          same = false;
          break;
        }
      }
      if (same) return this.lastText;
    }
    const text = latin1(bytes, start, end);
    if (length <= this.last.length) {
      for (let index = 0; index < length; index += 1) this.last[index] = bytes[start + index] as number;
      this.length = length;
      this.lastText = text;
    } else {
      this.length = -1;
    }
    return text;
  }
}

const RUN_TEXT = new RecentText();
const SEAL_TEXT = new RecentText();
const RACE_TEXT = new RecentText();

/** The texts of up to three bytes made so far (a card's code, mostly), by their bytes; a few thousand at most. */
const SHORT_TEXTS = new Map<number, string>();

function shortText(bytes: Uint8Array, start: number, end: number): string {
  const length = end - start;
  if (length > 3) return latin1(bytes, start, end);
  let key = length;
  for (let index = start; index < end; index += 1) key = key * 256 + (bytes[index] as number);
  let text = SHORT_TEXTS.get(key);
  if (text === undefined) {
    text = latin1(bytes, start, end);
    if (SHORT_TEXTS.size < 4096) SHORT_TEXTS.set(key, text);
  }
  return text;
}
const SOURCE_TEXT = new RecentText();

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.prototype.toString.call(bytes, 'latin1', start, end);
}

const CARD_KIND = Buffer.from('{"kind":"race-event","raceId":"');
const CARD_EVENT = Buffer.from(',"event":{"type":"card","card":"');
const CARD_SOURCE = Buffer.from('},"source":"');

/**
 * The record the journal holds most of, a card dealt (`{"kind":"race-event","raceId":"…","event":
 * {"type":"card","card":"…"},"source":"…"}`, nothing else in it, plain ASCII strings): made from
 * its bytes as JSON.parse would make it, the same keys in the same order. Anything else: null.
 */
function cardRecord(bytes: Uint8Array, start: number, end: number): { kind: 'race-event'; raceId: string; event: { type: 'card'; card: string }; source: string } | null {
  if (!opens(bytes, start, end, CARD_KIND)) return null;
  let index = start + CARD_KIND.length;
  const raceId = RACE_TEXT.plain(bytes, index, end);
  if (raceId === null) return null;
  index += raceId.length + 1;
  if (!opens(bytes, index, end, CARD_EVENT)) return null;
  index += CARD_EVENT.length;
  const cardEnd = plainString(bytes, index, end);
  if (cardEnd < 0) return null;
  const card = shortText(bytes, index, cardEnd);
  index = cardEnd + 1;
  if (!opens(bytes, index, end, CARD_SOURCE)) return null;
  index += CARD_SOURCE.length;
  const sourceEnd = plainString(bytes, index, end);
  if (sourceEnd !== end - 2 || bytes[end - 1] !== 0x7d) return null;
  return { kind: 'race-event', raceId, event: { type: 'card', card }, source: SOURCE_TEXT.text(bytes, index, sourceEnd) };
}

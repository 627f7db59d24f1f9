import { isUtf8 } from 'node:buffer';
import type { ChainKind } from './seal';

/** The first line of every journal since the chain exists (and of a journal sealed afresh). */
export const JOURNAL_NAME = 'chip-race-console';
/** 1: JSON lines without seals (before the chain). 2: a header, then sealed and chained lines. */
export const JOURNAL_VERSION = 2;

export interface JournalHeader {
  readonly journal: typeof JOURNAL_NAME;
  readonly version: number;
  readonly created: string;
  readonly chain: ChainKind;
  /** The fingerprint of the key an HMAC chain is sealed with. */
  readonly keyId?: string;
  /** SHA-256 of every byte before this header: the lines written before the chain existed. */
  readonly anchor?: string;
  /** The hash of the line before (a header that changes the kind of seal), or null. */
  readonly prev: string | null;
}

export interface RawLine {
  readonly seq: number;
  readonly at: string;
  readonly run: unknown;
  readonly prev: unknown;
  readonly record: unknown;
}

function isRawLine(value: unknown): value is RawLine {
  const line = value as Partial<RawLine> | null;
  return typeof line === 'object' && line !== null && Number.isSafeInteger(line.seq) && (line.seq as number) > 0 && typeof line.at === 'string' && typeof line.record === 'object' && line.record !== null;
}

/** Whether bytes `start`…`end` are only spaces, tabs and carriage returns. */
function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) {
    const byte = bytes[index];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

const SEQ_OPEN = Buffer.from('{"seq":');

/**
 * The seq in a line's `{"seq":N,` prefix, read from its bytes even when the rest of the line is
 * damaged (bad bytes, cut short), or null when the prefix itself is not there. The writer puts
 * `seq` first in every record, so this is the number the line was written under.
 */
export function seqPrefix(bytes: Uint8Array, start: number, end: number): number | null {
  if (end - start < SEQ_OPEN.length + 2) return null;
  for (let index = 0; index < SEQ_OPEN.length; index += 1) if (bytes[start + index] !== SEQ_OPEN[index]) return null;
  let value = 0;
  let index = start + SEQ_OPEN.length;
  const first = index;
  for (; index < end && index - first <= 16; index += 1) {
    const byte = bytes[index] as number;
    if (byte < 0x30 || byte > 0x39) break;
    value = value * 10 + (byte - 0x30);
  }
  if (index === first || index >= end || bytes[index] !== 0x2c || (bytes[first] === 0x30 && index - first > 1)) return null;
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/**
 * The seq a damaged line stands for: its own (from its prefix) when that follows the line
 * before, else the one after the line before. The floor numbers a damaged line the same way
 * (see OutgoingRecord.damaged), so both sides agree on which number it took.
 */
export function damagedSeq(prefix: number | null, before: number): number {
  return prefix !== null && prefix > before ? prefix : before + 1;
}

/**
 * What one whole line of a journal is, from its bytes (without the newline), as the reader and the
 * outbox both take it: nothing (blank), a header, a record, or damage (not UTF-8, not JSON, no
 * journal line), with the text of a header or record exactly as its bytes hold it.
 */
export type LineKind =
  | { readonly kind: 'blank' }
  | { readonly kind: 'header'; readonly text: string; readonly parsed: JournalHeader }
  | { readonly kind: 'record'; readonly seq: number; readonly text: string; readonly parsed: RawLine }
  /** `unreadable`: not UTF-8 or not JSON; `not-a-record`: JSON, but no journal line. */
  | { readonly kind: 'damaged'; readonly prefix: number | null; readonly code: 'unreadable' | 'not-a-record' };

export function kindOfLine(line: Uint8Array): LineKind {
  if (isBlank(line, 0, line.length)) return { kind: 'blank' };
  // The writer writes only UTF-8: a line that is not is damaged (decoded, its bad bytes would
  // pass for replacement characters in a record that is then taken for edited).
  if (!isUtf8(line)) return damagedLine(line, 'unreadable');
  const text = Buffer.prototype.toString.call(line, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return damagedLine(line, 'unreadable');
  }
  if (isHeader(parsed)) return { kind: 'header', text, parsed };
  return isRawLine(parsed) ? { kind: 'record', seq: parsed.seq, text, parsed } : damagedLine(line, 'not-a-record');
}

function damagedLine(line: Uint8Array, code: 'unreadable' | 'not-a-record'): LineKind {
  return { kind: 'damaged', prefix: seqPrefix(line, 0, line.length), code };
}

function isHeader(value: unknown): value is JournalHeader {
  return typeof value === 'object' && value !== null && (value as { journal?: unknown }).journal === JOURNAL_NAME;
}


import type { ChainStatus, JournalFinding } from './findings';
import type { ChainKind } from './seal';

/** A journal line: a sequence number, when it was written, and the record itself. */
export interface JournalLine<T> {
  readonly seq: number;
  readonly at: string;
  readonly record: T;
}

/** A record the journal writes about itself (a torn tail cut off at start); the session never sees it. */
export interface JournalNote {
  readonly kind: 'journal';
  readonly note: 'torn-tail';
  readonly bytes: number;
  /** The file its bytes were copied to, or null when none could be made (they stay in the journal, a line of their own). */
  readonly savedAs: string | null;
  readonly sha256: string;
}

export function isJournalNote(record: unknown): record is JournalNote {
  return typeof record === 'object' && record !== null && (record as { kind?: unknown }).kind === 'journal';
}

/** Where the chain stands at the end of what was read: what the next line must link to. */
export interface ChainEnd {
  /** The kind of seal in force (from the last header), or null when the journal has no header. */
  readonly kind: ChainKind | null;
  readonly keyId: string | null;
  /** The hash of the last sealed line, which the next line carries as `prev`. */
  readonly lastHash: string | null;
}

export interface JournalReading {
  /** Lines with a sequence number (records and the journal's own notes). */
  readonly records: number;
  /** The highest sequence number anywhere in the file: the next record gets a higher one. */
  readonly lastSeq: number;
  /** The highest journal format version seen (1 when there is no header). */
  readonly version: number;
  /** Records written before the chain existed (no header before them). */
  readonly unchained: number;
  /** The highest seq among them (0 when there are none): races up to it cannot be checked. */
  readonly unchainedThrough: number;
  readonly chain: ChainStatus;
  readonly end: ChainEnd;
  /** Everything found, in the order of the file (damage, tampering, clock, newer versions). */
  readonly findings: readonly JournalFinding[];
  /** Why nothing may be appended to this journal (a newer version wrote it), or null. */
  readonly readOnly: JournalFinding | null;
  /** The bytes after the last newline: a line a crash cut off, not part of the journal. */
  readonly torn: Buffer | null;
  /** Where the whole lines end (the length the file is cut back to when there is a torn tail). */
  readonly wholeLength: number;
  /** Whether any line could be read as a journal line or header (for telling a journal from other files). */
  readonly looksLikeJournal: boolean;
  /** Whether the journal is sealed with the key given (an HMAC header made with it, none loosening it after). */
  readonly keyed: boolean;
  readonly notes: readonly JournalLine<JournalNote>[];
}

export interface ReadOptions<T> {
  /** The HMAC key, when the console (or the check) was given one. */
  readonly key?: Buffer | null;
  /** Refuses records of a kind the reader does not know. */
  readonly check: (record: unknown) => record is T;
  /** Each record in file order, as soon as it is read, with its stored seal (null when it has none) and where its line is in the file. */
  readonly onLine?: (line: JournalLine<T>, seal: string | null, span: { readonly start: number; readonly end: number }) => void;
}

/**
 * Where a reader stands after a line, as plain data: what a checkpoint keeps so that a start can
 * read on from there and end exactly where reading the whole file ends. Only made while the
 * records so far are in order and none is damaged (the usual journal): see JournalReader.state.
 */
export interface ReaderState {
  /** The bytes read: where the next line starts. */
  readonly offset: number;
  readonly lineNumber: number;
  readonly kind: ChainKind | null;
  readonly keyIdInForce: string | null;
  readonly hmacKeyId: string | null;
  readonly sealsCheckable: boolean;
  readonly prevHash: string | null;
  readonly prevKnown: boolean;
  readonly version: number;
  readonly unchained: number;
  readonly firstUnchainedSeq: number;
  readonly unchainedThrough: number;
  readonly looksLikeJournal: boolean;
  readonly readOnly: JournalFinding | null;
  readonly lastAt: string;
  readonly lastSeq: number;
  readonly lineSeq: number;
  readonly records: number;
  /** The records 1…inOrder, in order and linked (without `runs`). */
  readonly inOrder: number;
  /** The records placed, as runs of consecutive numbers, when they are not the one run 1…inOrder (a damaged line started another). */
  readonly runs?: ReadonlyArray<{ readonly seq: number; readonly count: number; readonly linked: boolean | null; readonly flagged: boolean }>;
  /** The numbers damaged lines took (reported as damage, never as missing). */
  readonly accounted?: readonly number[];
  /** The damaged lines among the sealed records, judged at the end (a torn tail kept in place, or damage). */
  readonly unreadableSealed?: ReadonlyArray<{ readonly finding: JournalFinding & { readonly code: 'unreadable' | 'not-a-record' }; readonly seq: number; readonly line: number; readonly sha256: string }>;
  readonly highestPlaced: number;
  readonly missingHeader: boolean;
  readonly findings: readonly JournalFinding[];
  readonly tampered: readonly JournalFinding[];
  readonly notes: readonly JournalLine<JournalNote>[];
}

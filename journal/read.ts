import { isUtf8 } from 'node:buffer';
import type { ChainStatus, JournalFinding } from './findings';

import { Sealer, sealIn, sha256, type ChainKind } from './seal';

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

interface RawLine {
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

/** Whether a line holds only spaces, tabs and carriage returns (a line starts with `{` almost always). */
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
  const damaged = (code: 'unreadable' | 'not-a-record') => ({ kind: 'damaged', prefix: seqPrefix(line, 0, line.length), code }) as const;
  // The writer writes only UTF-8: a line that is not is damaged (decoded, its bad bytes would
  // pass for replacement characters in a record that is then taken for edited).
  if (!isUtf8(line)) return damaged('unreadable');
  const text = Buffer.prototype.toString.call(line, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return damaged('unreadable');
  }
  if (isHeader(parsed)) return { kind: 'header', text, parsed };
  return isRawLine(parsed) ? { kind: 'record', seq: parsed.seq, text, parsed } : damaged('not-a-record');
}

function isHeader(value: unknown): value is JournalHeader {
  return typeof value === 'object' && value !== null && (value as { journal?: unknown }).journal === JOURNAL_NAME;
}

/** One record line's place in the file, for the order and link checks made once all are read. */
interface Placed {
  readonly seq: number;
  /** Whether its `prev` matched the hash of the line before it (null: could not be checked). */
  readonly linked: boolean | null;
  /** Its place among the placed records (file order). */
  readonly index: number;
  /** Already explained by another finding (altered, moved): a broken link beside it says nothing new. */
  flagged: boolean;
}

/**
 * Indexes (into `seqs`) of one longest strictly increasing subsequence: the records in order.
 * Everything else was moved. O(n log n).
 */
function longestIncreasing(seqs: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Int32Array(seqs.length).fill(-1);
  for (let index = 0; index < seqs.length; index += 1) {
    const value = seqs[index] as number;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((seqs[tails[middle] as number] as number) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1] as number;
    tails[low] = index;
  }
  const kept = new Set<number>();
  for (let index = tails.at(-1) ?? -1; index >= 0; index = previous[index] as number) kept.add(index);
  return kept;
}

/**
 * Reads a journal's bytes, checking every seal and link, the sequence numbers and the order, and
 * hands each record to `onLine` as it goes. Works on bytes, never on decoded text, so an invalid
 * byte cannot move a line boundary. Nothing is thrown for damage: it is all in `findings`.
 */
export function readJournalBytes<T>(bytes: Buffer, options: ReadOptions<T>): JournalReading {
  const findings: JournalFinding[] = [];
  const notes: JournalLine<JournalNote>[] = [];
  const key = options.key ?? null;
  const end = bytes.lastIndexOf(0x0a) + 1;
  const torn = end < bytes.length ? Buffer.from(bytes.subarray(end)) : null;

  let sealer: Sealer | null = null;
  let kind: ChainKind | null = null;
  let keyIdInForce: string | null = null;
  /** The key an HMAC chain was first sealed with: a later header may not loosen the seal (to SHA-256, or another key). */
  let hmacKeyId: string | null = null;
  let sealsCheckable = true;
  let headerSeen = false;
  let prevHash: string | null = null;
  /** False right after a line that could not be read: the next link cannot be checked. */
  let prevKnown = true;
  let version = 1;
  let unchained = 0;
  let firstUnchainedSeq = 0;
  let unchainedThrough = 0;
  let looksLikeJournal = false;
  let readOnly: JournalFinding | null = null;
  let lastAt = '';
  /** The highest seq of any line so far, damaged or not: the next record is numbered after it. */
  let lastSeq = 0;
  /** The seq of the last line with one (a damaged line's as damagedSeq gives it). */
  let lineSeq = 0;
  let records = 0;
  const placed: Placed[] = [];
  /** The seqs placed so far, made only once a seq comes that is not above all before it. */
  let seen: Set<number> | null = null;
  let highestPlaced = 0;
  /** Numbers probably held by lines that could not be read: reported as unreadable, not as missing. */
  const accounted = new Set<number>();
  const tampered: JournalFinding[] = [];
  /** Lines of the sealed part that could not be read: damage, unless a torn-tail note explains them. */
  const unreadableSealed: Array<{ finding: JournalFinding & { code: 'unreadable' | 'not-a-record' }; seq: number; line: number; sha256: string }> = [];
  let missingHeader = false;

  /**
   * A line that is not a journal record: reported; in the sealed part it is damage, unless a
   * torn-tail note explains it. Its number is taken (never given to another record), and the
   * chain is checked again from the next record (its link to this line cannot be).
   */
  const unreadable = (code: 'unreadable' | 'not-a-record', line: number, lineBytes: Uint8Array, known?: number): void => {
    const seq = known ?? damagedSeq(seqPrefix(lineBytes, 0, lineBytes.length), lineSeq);
    lineSeq = seq;
    if (seq > lastSeq) lastSeq = seq;
    const finding = { code, line, seq } as const;
    accounted.add(seq);
    prevKnown = false;
    if (headerSeen) unreadableSealed.push({ finding, seq, line, sha256: sha256(lineBytes) });
    else findings.push(finding);
  };

  let lineNumber = 0;
  for (let start = 0; start < end; ) {
    const newline = bytes.indexOf(0x0a, start);
    const lineStart = start;
    start = newline + 1;
    lineNumber += 1;
    // The line is read in place (a view, not a copy), as the outbox reads it.
    const line = kindOfLine(bytes.subarray(lineStart, newline));
    if (line.kind === 'blank') continue;
    if (line.kind === 'damaged') {
      unreadable(line.code, lineNumber, bytes.subarray(lineStart, newline));
      continue;
    }
    const seal = sealIn(bytes, lineStart, newline);

    if (line.kind === 'header') {
      looksLikeJournal = true;
      const header = line.parsed;
      const headerVersion = typeof header.version === 'number' ? header.version : Number.NaN;
      if (headerVersion > version) version = headerVersion;
      kind = header.chain === 'hmac-sha256' ? 'hmac-sha256' : 'sha256';
      keyIdInForce = typeof header.keyId === 'string' ? header.keyId : null;
      if (kind === 'sha256') {
        sealer = new Sealer(null);
        sealsCheckable = true;
      } else if (key === null) {
        sealer = null;
        sealsCheckable = false;
        findings.push({ code: 'key-missing', keyId: keyIdInForce ?? '?' });
      } else {
        sealer = new Sealer(key);
        sealsCheckable = sealer.keyId === keyIdInForce;
        if (!sealsCheckable) findings.push({ code: 'key-wrong', keyId: keyIdInForce ?? '?' });
      }
      const sealHolds = seal !== null && (!sealsCheckable || sealer === null || sealer.hash(bytes.subarray(lineStart, seal.bodyEnd)) === seal.stored);
      // Once sealed with a key, always with that key: a later header that loosens the seal (to
      // SHA-256, which anyone can compute, or to another key) is how a forger without the key
      // would continue the chain.
      const loosened = hmacKeyId !== null && (kind !== 'hmac-sha256' || keyIdInForce !== hmacKeyId);
      if (!sealHolds || loosened) tampered.push({ code: 'header', line: lineNumber });
      if (kind === 'hmac-sha256' && hmacKeyId === null && sealHolds) hmacKeyId = keyIdInForce;
      // A newer version's journal stays read-only, even when its header does not check out here:
      // writing past it is the one thing that must not happen.
      if (!(headerVersion <= JOURNAL_VERSION)) {
        readOnly ??= { code: 'newer-version', version: headerVersion };
        findings.push(readOnly);
      }
      if (!headerSeen && unchained > 0) {
        // Sealed afresh after lines of the old format: those bytes are covered by the anchor.
        if (header.anchor !== sha256(bytes.subarray(0, lineStart))) tampered.push({ code: 'anchor', seq: firstUnchainedSeq, records: unchained });
      } else if (headerSeen && prevKnown && header.prev !== prevHash && sealsCheckable) {
        const last = placed.at(-1);
        if (last) tampered.push({ code: 'rewritten', seq: last.seq });
      }
      headerSeen = true;
      prevHash = seal?.stored ?? null;
      prevKnown = true;
      continue;
    }

    const parsed = line.parsed;
    looksLikeJournal = true;
    const { seq } = parsed;
    records += 1;
    // Every number written is taken, even an altered or forged line's: a number given twice
    // would read as an insertion, and the floor would refuse the table from there.
    if (seq > lastSeq) lastSeq = seq;
    lineSeq = seq;

    // The seal: the line's own hash, and its link to the line before.
    let altered = false;
    let linked: boolean | null = null;
    if (headerSeen) {
      if (seal === null) {
        tampered.push({ code: 'unsealed', seq });
      } else {
        if (sealsCheckable && sealer !== null) {
          altered = sealer.hash(bytes.subarray(lineStart, seal.bodyEnd)) !== seal.stored;
          if (prevKnown) linked = parsed.prev === prevHash;
        }
        prevHash = seal.stored;
      }
      prevKnown = seal !== null;
    } else if (seal !== null || parsed.prev !== undefined || parsed.run !== undefined) {
      // A sealed line with no header before it: the header was taken away (to pass sealed lines off as the old format).
      missingHeader = true;
    } else {
      unchained += 1;
      if (firstUnchainedSeq === 0) firstUnchainedSeq = seq;
      if (seq > unchainedThrough) unchainedThrough = seq;
    }

    // Order: a repeated seq is an insertion; the order itself is judged once every line is read.
    // A seq above every one before cannot repeat one (the usual case: no set needed).
    if (seq <= highestPlaced) seen ??= new Set(placed.map((entry) => entry.seq));
    if (seen?.has(seq)) {
      tampered.push({ code: 'duplicate', seq });
    } else {
      seen?.add(seq);
      if (seq > highestPlaced) highestPlaced = seq;
      placed.push({ seq, linked, index: placed.length, flagged: altered });
    }

    if (parsed.at < lastAt) {
      const seconds = Math.round((Date.parse(lastAt) - Date.parse(parsed.at)) / 1000);
      if (Number.isFinite(seconds)) findings.push({ code: 'clock-back', seq, seconds });
    }
    lastAt = parsed.at;

    const record = parsed.record;
    if (isJournalNote(record)) {
      if (altered) tampered.push({ code: 'altered', seq, skipped: false });
      notes.push({ seq, at: parsed.at, record });
      continue;
    }
    if (!options.check(record)) {
      const recordKind = (record as { kind?: unknown }).kind;
      const kindText = typeof recordKind === 'string' ? recordKind.slice(0, 64) : (JSON.stringify(recordKind) ?? 'none').slice(0, 64);
      if (headerSeen && seal !== null && sealsCheckable && !altered && typeof recordKind === 'string') {
        // Sealed as written and still of an unknown kind: a newer version wrote it.
        const finding: JournalFinding = { code: 'unknown-record', seq, kind: kindText };
        readOnly ??= finding;
        findings.push(finding);
      } else if (altered) {
        tampered.push({ code: 'altered', seq, skipped: true });
      } else {
        unreadable('not-a-record', lineNumber, bytes.subarray(lineStart, newline), seq);
      }
      continue;
    }
    if (altered) tampered.push({ code: 'altered', seq, skipped: false });
    options.onLine?.({ seq, at: parsed.at, record }, seal?.stored ?? null, { start: lineStart, end: newline + 1 });
  }

  // A line of the sealed part that is no record is damage (never tampering: the records around
  // it are checked as usual, and the one after it from itself), unless it is a torn tail the
  // console itself kept in place (no room for a copy), as the note it wrote then says.
  const keptInPlace = new Set(notes.filter((note) => note.record.savedAs === null).map((note) => note.record.sha256));
  const damaged: JournalFinding[] = [];
  for (const { finding, seq, line, sha256: hash } of unreadableSealed) {
    if (keptInPlace.has(hash)) findings.push(finding);
    else damaged.push({ code: 'damaged', seq, line });
  }
  findings.push(...damaged);
  if (missingHeader) tampered.push({ code: 'no-header', seq: placed[0]?.seq ?? 1 });
  tampered.push(...orderFindings(placed, accounted));
  tampered.sort((a, b) => findingSeq(a) - findingSeq(b));
  findings.push(...tampered);

  let chain: ChainStatus;
  if (tampered.length > 0) chain = 'broken';
  else if (damaged.length > 0) chain = 'damaged';
  else if (!headerSeen) chain = records === 0 ? 'empty' : 'unchained';
  else if (!sealsCheckable || sealer === null) chain = 'unchecked';
  else chain = 'intact';

  return {
    records,
    lastSeq,
    version,
    unchained,
    unchainedThrough,
    chain,
    end: { kind, keyId: keyIdInForce, lastHash: prevHash },
    findings,
    readOnly,
    torn,
    wholeLength: end,
    looksLikeJournal,
    keyed: key !== null && hmacKeyId !== null && hmacKeyId === new Sealer(key).keyId,
    notes,
  };
}

function findingSeq(finding: JournalFinding): number {
  return 'seq' in finding && typeof finding.seq === 'number' ? finding.seq : 0;
}

/**
 * Missing, moved and relinked records, from the sequence numbers in file order: the records in
 * order are one longest increasing run of them; a record outside it was moved, a number within
 * its range that no line has was removed, and a broken link between two neighbours in order was
 * a rewrite (a record changed and sealed afresh, or one removed and the numbers closed up).
 */
function orderFindings(placed: readonly Placed[], accounted: ReadonlySet<number>): JournalFinding[] {
  const findings: JournalFinding[] = [];
  // The usual journal: 1, 2, 3 … in order, every link holding. Nothing to look for.
  if (accounted.size === 0 && placed.every((entry, index) => entry.seq === index + 1 && entry.linked !== false && !entry.flagged)) return findings;
  const seqs = placed.map((entry) => entry.seq);
  const inOrder = longestIncreasing(seqs);
  const ordered = placed.filter((_, index) => inOrder.has(index));
  const highest = ordered.at(-1)?.seq ?? 0;

  for (const entry of placed) {
    if (inOrder.has(entry.index)) continue;
    entry.flagged = true;
    // The records in order that it stands before while its number is higher: the first it jumped.
    const jumped = ordered.find((other) => other.index > entry.index && other.seq < entry.seq);
    const behind = [...ordered].reverse().find((other) => other.index < entry.index && other.seq > entry.seq);
    // It stands before a lower record (it jumped ahead), or after a higher one (it fell behind).
    if (jumped) findings.push({ code: 'reordered', seq: jumped.seq, after: entry.seq });
    else findings.push({ code: 'reordered', seq: entry.seq, after: behind?.seq ?? entry.seq });
    if (jumped) jumped.flagged = true;
    if (behind) behind.flagged = true;
  }
  // Numbers no line has, from 1 to the highest in order, in runs: the gaps between the numbers
  // present, sorted (never a walk over every number: a forged line may carry a huge one).
  const present = [...new Set([...seqs, ...accounted])].filter((seq) => seq <= highest).sort((a, b) => a - b);
  let expected = 1;
  for (const seq of present) {
    if (seq > expected) findings.push({ code: 'missing', seq: expected, last: seq - 1 });
    expected = seq + 1;
  }
  // Links between neighbours: only where nothing else already explains a break.
  for (let index = 1; index < placed.length; index += 1) {
    const before = placed[index - 1] as Placed;
    const entry = placed[index] as Placed;
    if (entry.linked !== false) continue;
    if (entry.seq !== before.seq + 1 || before.flagged || entry.flagged) continue;
    findings.push({ code: 'rewritten', seq: before.seq });
  }
  return findings;
}

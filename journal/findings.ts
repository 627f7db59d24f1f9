import type { Message } from '../engine/messages';

/**
 * What reading a journal can find besides its records, as codes with parameters: the screens say
 * them in the dealer's language, `findingText` in English for the command line, the exports and
 * the logs. `seq` names the first record a finding affects (absent when none can be named).
 */
export type JournalFinding =
  /** The last line had no newline (a crash while writing): cut off, its bytes kept in `savedAs` (or, with no room for a copy, left in place). */
  | { readonly code: 'torn-tail'; readonly bytes: number; readonly savedAs: string | null }
  /**
   * A line that is not JSON (or not a journal line): skipped, left in the file as evidence.
   * `sealed`: it stands in the sealed part of the journal, where only the console writes: tampering.
   */
  | { readonly code: 'unreadable' | 'not-a-record'; readonly line: number; readonly seq?: number; readonly sealed?: true }
  /**
   * A line among the sealed records that is no readable record (bad bytes, not JSON, cut short):
   * damage at the station (a failing disk, a crash), not tampering. It was skipped and stays in the
   * file as evidence; `seq` is the number it took, and the chain is checked again from the next record.
   */
  | { readonly code: 'damaged'; readonly seq: number; readonly line: number }
  /** The record's own seal does not match its content: edited after it was written. */
  | { readonly code: 'altered'; readonly seq: number; readonly skipped: boolean }
  /** The next record's link to this one does not match: rewritten (seal recomputed), or a line removed or inserted. */
  | { readonly code: 'rewritten'; readonly seq: number }
  | { readonly code: 'missing'; readonly seq: number; readonly last: number }
  | { readonly code: 'reordered'; readonly seq: number; readonly after: number }
  | { readonly code: 'duplicate'; readonly seq: number }
  /** A record without a seal in the sealed part of the journal: inserted or edited by hand. */
  | { readonly code: 'unsealed'; readonly seq: number }
  /** The lines written before the chain existed were changed after the chain was started. */
  | { readonly code: 'anchor'; readonly seq: number; readonly records: number }
  | { readonly code: 'header'; readonly line: number }
  /** Sealed records with no header before them: the header was taken away. */
  | { readonly code: 'no-header'; readonly seq: number }
  /** The journal was written by a newer version (format or record kinds this console does not know). */
  | { readonly code: 'newer-version'; readonly version: number }
  | { readonly code: 'unknown-record'; readonly seq: number; readonly kind: string }
  /** Sealed with a key (HMAC) this console or check was not given, or a different one. */
  | { readonly code: 'key-missing' | 'key-wrong'; readonly keyId: string }
  /** The wall clock went back between two records written by the same run (the monotonic time went on). */
  | { readonly code: 'clock-back'; readonly seq: number; readonly seconds: number }
  /**
   * The checkpoint beside the journal (station/journal/checkpoint.ts) was not used, and the whole
   * journal was replayed instead (the same state, only slower): `damaged`, its bytes or seal do not
   * hold; `stale`, it no longer matches the journal (cut back, edited, replaced) or its key.
   */
  | { readonly code: 'checkpoint-damaged' | 'checkpoint-stale' }
  /** A record the session could not apply: why, in English (`reason`) and, when the engine said it in keys, in keys (`said`). */
  | { readonly code: 'skipped'; readonly seq: number; readonly kind: string; readonly reason: string; readonly said?: Message }
  /** The settings file (or a device profile) could not be read or was damaged: which and what was kept, in English (`message`) and in keys (`said`). */
  | { readonly code: 'settings'; readonly message: string; readonly said?: Message };

export type ChainStatus =
  /** Every record sealed and linked, none missing, none out of order. */
  | 'intact'
  /** Some record was altered, removed, inserted or reordered (see the findings). */
  | 'broken'
  /** A line was damaged at the station (see the findings); every other record checked and intact. */
  | 'damaged'
  /** Written before the chain existed: no record can be checked. */
  | 'unchained'
  /** Sealed with a key that was not given (or another one): the seals could not be checked. */
  | 'unchecked'
  | 'empty';

export type FindingCode = JournalFinding['code'];

/** Findings that mean the record may have been tampered with: the chain is broken. */
export const TAMPER_CODES: ReadonlySet<FindingCode> = new Set(['altered', 'rewritten', 'missing', 'reordered', 'duplicate', 'unsealed', 'anchor', 'header', 'no-header']);

/** Whether a finding breaks the chain: tampering, or a damaged line in its sealed part. */
export function isTampering(finding: JournalFinding): boolean {
  return TAMPER_CODES.has(finding.code) || ((finding.code === 'unreadable' || finding.code === 'not-a-record') && finding.sealed === true);
}

const AMONG_SEALED = ' (it stands among the sealed records: a record was damaged, replaced or inserted)';

export function findingText(finding: JournalFinding): string {
  switch (finding.code) {
    case 'torn-tail':
      return `the last record was cut off (${finding.bytes} bytes, probably a crash while writing) and was discarded; its bytes are kept ${finding.savedAs === null ? 'in the journal, as a line of their own (no copy could be made)' : `in ${finding.savedAs}`}`;
    case 'unreadable':
      return `line ${finding.line} is not valid JSON and was skipped${finding.sealed ? AMONG_SEALED : ''}`;
    case 'not-a-record':
      return `line ${finding.line} is not a journal record and was skipped${finding.sealed ? AMONG_SEALED : ''}`;
    case 'damaged':
      return `record ${finding.seq} was damaged at the station (line ${finding.line} is not a readable record: bad bytes, not a change by hand); it was skipped and stays in the file as evidence, and the records after it are checked again from the next one`;
    case 'altered':
      return `record ${finding.seq} was changed after it was written: its seal does not match its content${finding.skipped ? '; it was skipped' : ''}`;
    case 'rewritten':
      return `record ${finding.seq} does not match the seal the record after it carries: it was rewritten, or a record was removed or inserted after it`;
    case 'missing':
      return finding.last === finding.seq ? `record ${finding.seq} is missing: it was removed` : `records ${finding.seq}–${finding.last} are missing: they were removed`;
    case 'reordered':
      return `record ${finding.seq} is out of order: it comes after record ${finding.after}`;
    case 'duplicate':
      return `record ${finding.seq} appears twice: one of them was inserted`;
    case 'unsealed':
      return `record ${finding.seq} has no seal although the journal is sealed: it was inserted or edited by hand`;
    case 'anchor':
      return `the ${finding.records} records written before the journal was sealed were changed afterwards`;
    case 'header':
      return `the journal's header (line ${finding.line}) was changed after it was written, or loosens the seal (a keyed journal continued without its key)`;
    case 'no-header':
      return `the journal's header is missing: its sealed records, from record ${finding.seq} on, were passed off as the old, unsealed format`;
    case 'newer-version':
      return `the journal was written by a newer version of the console (journal format ${finding.version}): it is open read-only, nothing can be recorded; update the console, or move journal.jsonl aside to start a new one`;
    case 'unknown-record':
      return `record ${finding.seq} is of a kind this console does not know (${finding.kind}), written by a newer version: the journal is open read-only, nothing can be recorded; update the console, or move journal.jsonl aside to start a new one`;
    case 'key-missing':
      return `the journal is sealed with a key (${finding.keyId}) that was not given: its seals cannot be checked, and nothing can be recorded without it (set CHIP_RACE_JOURNAL_KEY)`;
    case 'key-wrong':
      return `the journal is sealed with a different key (${finding.keyId}) from the one given: its seals cannot be checked`;
    case 'clock-back':
      return `the clock went back ${finding.seconds} s before record ${finding.seq} (the times of the records around it are out of order; the order of the records is not)`;
    case 'checkpoint-damaged':
      return 'the checkpoint beside the journal is damaged and was not used: the whole journal was read instead (the same records, only slower)';
    case 'checkpoint-stale':
      return 'the checkpoint beside the journal no longer matches the journal (or its key) and was not used: the whole journal was read instead (the same records, only slower)';
    case 'skipped':
      return `record ${finding.seq} (${finding.kind}) could not be applied and was skipped: ${finding.reason}`;
    case 'settings':
      return finding.message;
  }
}

function findingSeq(finding: JournalFinding): number | null {
  return 'seq' in finding && typeof finding.seq === 'number' ? finding.seq : null;
}

/** The chain as a journal report gives it: its verdict, what was found, and how far its records are unchained. */
export interface ChainReport {
  readonly chain: ChainStatus;
  readonly findings: readonly JournalFinding[];
  readonly unchainedThrough: number;
}

/**
 * What the chain says of the records from `first` to `last` (a race's): broken by any tampering at
 * or after `first` — a break after them may be where a forger who sealed them afresh stopped —,
 * unchained when they were written before the journal was sealed, and otherwise what it says of
 * the whole journal. With it, the findings that concern those records.
 */
export function chainOf(report: ChainReport, first: number, last: number): { readonly chain: ChainStatus; readonly findings: readonly JournalFinding[] } {
  const { findings, chain: journal, unchainedThrough } = report;
  const concern = findings.filter((finding) => {
    const seq = findingSeq(finding);
    if (seq === null) return isTampering(finding);
    return isTampering(finding) ? seq >= first : seq >= first && seq <= last;
  });
  const tampered = concern.some(isTampering);
  if (tampered) return { chain: 'broken', findings: concern };
  if (first <= unchainedThrough) return { chain: 'unchained', findings: concern };
  if (concern.some((finding) => finding.code === 'damaged')) return { chain: 'damaged', findings: concern };
  return { chain: journal === 'broken' || journal === 'damaged' || journal === 'unchained' || journal === 'empty' ? 'intact' : journal, findings: concern };
}

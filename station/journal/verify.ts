import { findingText, TAMPER_CODES, type JournalFinding } from '../../journal/findings';
import { JournalReader, readJournalBytes, type JournalReading } from '../../journal/read';
import { readInto } from './journal';

/**
 * `npm run --silent verify -- FILE`: the check a tournament director runs on a station's journal.
 * Its output is a contract other tools depend on: exactly `{ ok, records, problems }`.
 */
export interface VerifyReport {
  readonly ok: boolean;
  readonly records: number;
  readonly problems: ReadonlyArray<{ readonly seq: number; readonly problem: string }>;
}

/** Findings that make a journal fail the check: anything altered, removed, inserted or reordered, or damaged. */
const FAILING: ReadonlySet<JournalFinding['code']> = new Set([...TAMPER_CODES, 'unreadable', 'not-a-record', 'damaged']);

export type VerifyOutcome =
  | { readonly exit: 0 | 1; readonly report: VerifyReport }
  /** The file cannot be checked: not a journal, or sealed with a key not given. */
  | { readonly exit: 2; readonly message: string };

const anyRecord = (record: unknown): record is unknown => record !== undefined;

/** The check of a journal held in memory. */
export function verifyJournal(bytes: Buffer, key: Buffer | null): VerifyOutcome {
  return verdict(readJournalBytes(bytes, { key, check: anyRecord }), key);
}

/** The check of a journal file, every line of it, read a chunk at a time (a journal of any size). */
export async function verifyJournalFile(path: string, key: Buffer | null): Promise<VerifyOutcome> {
  return verdict(await readInto(path, new JournalReader({ key, check: anyRecord })), key);
}

function verdict(reading: JournalReading, key: Buffer | null): VerifyOutcome {
  const bytes = reading.wholeLength + (reading.torn?.length ?? 0);
  if (bytes > 0 && !reading.looksLikeJournal) return { exit: 2, message: 'not a journal: no line of it is a journal record' };
  const cannot = reading.findings.find((finding) => finding.code === 'key-missing' || finding.code === 'key-wrong' || finding.code === 'newer-version');
  if (cannot?.code === 'key-missing') return { exit: 2, message: `the journal is sealed with a key (${cannot.keyId}) that was not given: its seals cannot be checked; give it with --key FILE` };
  if (cannot) return { exit: 2, message: findingText(cannot) };
  const problems = reading.findings
    .filter((finding) => FAILING.has(finding.code))
    .map((finding) => ({ seq: 'seq' in finding && typeof finding.seq === 'number' ? finding.seq : 0, problem: findingText(finding) }));
  if (key !== null && !reading.keyed && reading.records > 0) {
    // Checked with a key, but nothing in it is sealed with that key: anyone could have made these seals.
    problems.unshift({ seq: 1, problem: 'the journal is not sealed with the key given: its seals are plain SHA-256, which anyone can compute, so they prove nothing against a forger' });
  }
  if (reading.chain === 'unchained') {
    problems.unshift({ seq: 1, problem: `records 1–${reading.lastSeq} were written before the journal was sealed (an older version of the console): they cannot be checked` });
  }
  problems.sort((a, b) => a.seq - b.seq);
  return { exit: problems.length === 0 ? 0 : 1, report: { ok: problems.length === 0, records: reading.records, problems } };
}

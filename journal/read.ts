/**
 * The journal's reading, as the rest of the station imports it: what a line is (./lineKind), what
 * reading finds (./reading), the reader itself (./reader), and reading bytes held in memory.
 */
import type { JournalReading, ReadOptions } from './reading';
import { JournalReader } from './reader';

export { damagedSeq, JOURNAL_NAME, JOURNAL_VERSION, kindOfLine, seqPrefix, type JournalHeader, type LineKind } from './lineKind';
export { isJournalNote, type ChainEnd, type JournalLine, type JournalNote, type JournalReading, type ReaderState, type ReadOptions } from './reading';
export { JournalReader } from './reader';

/** Reads a journal held whole in memory (a test's, a golden file's): the reader, given it in one piece. */
export function readJournalBytes<T>(bytes: Uint8Array, options: ReadOptions<T>): JournalReading {
  const reader = new JournalReader(options);
  reader.push(bytes);
  return reader.finish();
}

import { join } from 'node:path';
import { readJournal } from '../../station/journal/journal';
import { isSessionRecord, type SessionRecord } from '../../replay/session';

/**
 * A console's journal read as the console reads it (seals and chain checked), for a spec that
 * checks what was recorded: the session records, in order, and the chain's verdict.
 */
export async function journalOf(dataDir: string): Promise<{ records: SessionRecord[]; chain: string; findings: readonly unknown[] }> {
  const { lines, reading } = await readJournal(join(dataDir, 'journal.jsonl'), isSessionRecord);
  return { records: lines.map((line) => line.record), chain: reading.chain, findings: reading.findings };
}

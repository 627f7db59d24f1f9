import { join } from 'node:path';

/** The journal's file name in a station's data folder: the station writes it, the outbox sends from it. */
export const JOURNAL_FILE = 'journal.jsonl';

/** The journal's file inside a data folder. */
export function journalPath(dataDir: string): string {
  return join(dataDir, JOURNAL_FILE);
}

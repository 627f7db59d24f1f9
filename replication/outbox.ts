import { chmod, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { journalPath } from '../journal/location';
import { damagedSeq, kindOfLine } from '../journal/read';
import type { OutgoingRecord } from './push';
import { object, parse, text, whole, type Infer } from '../protocol/schema';

/**
 * The station's outbox: the journal itself, read from where the last sending stopped. The cursor
 * (`floor-outbox.json` in the data folder) says up to which byte and seq the floor has the
 * journal; it is written only after the floor has taken the records, so a crash between the two
 * sends them again, which the floor passes over (unique on table and seq).
 */
export const OUTBOX_CURSOR_FILE = 'floor-outbox.json';

const notCursor = { key: 'command.notObject' } as const;
const count = whole(0, Number.MAX_SAFE_INTEGER, notCursor);

/** The cursor file's shape (its type and its reader). */
const OUTBOX_CURSOR = object({
  /** The table the records were sent for: another table starts again from the journal's start. */
  table: text(Number.MAX_SAFE_INTEGER, notCursor, notCursor),
  /** Where in the journal the next line to send starts (always after a newline). */
  offset: count,
  /** The last seq sent. */
  seq: count,
}, notCursor);

export type OutboxCursor = Infer<typeof OUTBOX_CURSOR>;

export interface OutboxBatch {
  readonly records: readonly OutgoingRecord[];
  /** The cursor once the floor has taken these records. */
  readonly next: OutboxCursor;
  /** Whether whole lines are left after this batch. */
  readonly more: boolean;
}

const START = (table: string): OutboxCursor => ({ table, offset: 0, seq: 0 });

/** The cursor file's mode: its owner's alone, as everything the console keeps in its data folder (station/service/atomicWrite.ts). */
export const OUTBOX_CURSOR_MODE = 0o600;

export async function readCursor(dataDir: string, table: string): Promise<OutboxCursor> {
  const path = join(dataDir, OUTBOX_CURSOR_FILE);
  // A cursor an older version wrote readable by anyone (0644) is made its owner's alone at the start.
  await ownerOnly(path);
  try {
    const cursor = parse(OUTBOX_CURSOR, JSON.parse(await readFile(path, 'utf8')));
    return cursor.table === table ? cursor : START(table);
  } catch {
    // No cursor yet, a torn one or one its shape refuses: sending again from the start is safe (the floor passes over what it has).
    return START(table);
  }
}

/** Makes a file its owner's alone when anyone else may read or write it; a file not there is left so. */
async function ownerOnly(path: string): Promise<void> {
  try {
    if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, OUTBOX_CURSOR_MODE);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
}

/**
 * Writes the cursor by way of a temporary file renamed over it, owner-only (0600) whatever the
 * umask, as the console's atomic write (station/service/atomicWrite.ts, which replication/ may not
 * import) does, but without its fsync: the cursor is only how far the floor is known to have the
 * journal, never the journal itself. Lost to a power cut (an old or an empty file), it makes the
 * link send again what the floor already has, which the floor passes over; an fsync per batch
 * would only compete with the journal's own.
 */
export async function writeCursor(dataDir: string, cursor: OutboxCursor): Promise<void> {
  const path = join(dataDir, OUTBOX_CURSOR_FILE);
  const temporary = `${path}.tmp`;
  try {
    const file = await open(temporary, 'w', OUTBOX_CURSOR_MODE);
    try {
      // open's mode is cut by the umask, and a temporary left by a crash keeps the mode it had.
      await file.chmod(OUTBOX_CURSOR_MODE);
      await file.writeFile(`${JSON.stringify(cursor)}\n`);
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** How many records to send in one statement, and the most bytes of lines in it. */
export const BATCH_RECORDS = 500;
const BATCH_BYTES = 4 * 1024 * 1024;
/** How much of the journal is read at once. */
const READ_BYTES = 8 * 1024 * 1024;

/**
 * The next records to send after `cursor`, skipping those the floor already holds (`floorHas`,
 * its last seq), with the header lines written before each. Only whole lines go (a torn tail,
 * with no newline yet, never does), each exactly as its bytes are in the file. A damaged line
 * (no readable record: bad bytes, not JSON) goes too, as evidence: its bytes in base64, marked
 * `damaged`, under the number it took (see damagedSeq), so the floor keeps it and checks the
 * chain again from the record after it. A journal shorter than the cursor (replaced, or moved
 * aside) is read again from its start.
 */
export async function nextBatch(dataDir: string, cursor: OutboxCursor, floorHas: number): Promise<OutboxBatch> {
  const path = journalPath(dataDir);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return { records: [], next: cursor, more: false };
  }
  const from = size < cursor.offset ? START(cursor.table) : cursor;
  if (from.offset >= size) return { records: [], next: from, more: false };
  const length = Math.min(size - from.offset, READ_BYTES);
  const bytes = Buffer.alloc(length);
  const file = await open(path, 'r');
  try {
    await file.read(bytes, 0, length, from.offset);
  } finally {
    await file.close();
  }
  const records: OutgoingRecord[] = [];
  let headers: string[] = [];
  let seq = from.seq;
  let lineStart = 0;
  let batchBytes = 0;
  let consumed = from.offset;
  for (;;) {
    const newline = bytes.indexOf(0x0a, lineStart);
    if (newline < 0) break;
    const raw = bytes.subarray(lineStart, newline);
    lineStart = newline + 1;
    const offset = from.offset + lineStart;
    const line = kindOfLine(raw);
    if (line.kind === 'header') {
      headers.push(line.text);
      continue;
    }
    if (line.kind === 'blank') {
      if (headers.length === 0) consumed = offset;
      continue;
    }
    const lineSeq = line.kind === 'record' ? line.seq : damagedSeq(line.prefix, seq);
    if (lineSeq > floorHas && lineSeq > seq) {
      if (line.kind === 'record') {
        records.push({ seq: lineSeq, line: line.text, headers: headers.join('\n') });
        headers = [];
      } else {
        // The headers before it wait for the next record: a damaged line carries none.
        records.push({ seq: lineSeq, line: raw.toString('base64'), headers: '', damaged: true });
      }
      batchBytes += raw.length;
    } else if (line.kind === 'record') {
      headers = [];
    }
    seq = Math.max(seq, lineSeq);
    // A batch ends only where no header waits: read again from a header, a damaged line after it
    // would be numbered anew.
    if (headers.length > 0) continue;
    consumed = offset;
    if (records.length >= BATCH_RECORDS || batchBytes >= BATCH_BYTES) break;
  }
  // Headers read but not yet followed by their record are read again with it next time.
  const next = { table: from.table, offset: consumed, seq };
  return { records, next, more: consumed < size && (records.length >= BATCH_RECORDS || batchBytes >= BATCH_BYTES || length < size - from.offset) };
}

import type { ClientBase } from 'pg';
import { lastStoredSeq, pushRecords, reportContact, type RefusedRecord } from './push';
import { nextBatch, readCursor, writeCursor, type OutboxCursor } from './outbox';

export interface SyncOutcome {
  /** Records sent in this run (all of them stored unless refused or already there). */
  readonly sent: number;
  readonly stored: number;
  readonly refused: readonly RefusedRecord[];
  /** The last seq the floor holds for the table after the run. */
  readonly floorHas: number;
  readonly cursor: OutboxCursor;
}

/**
 * Where a station's sending goes on from: the last record the floor holds for its table, and the
 * outbox cursor, from the journal's start when the floor holds less than the cursor says it took
 * (a database restored or started afresh). The one-shot sync and the live link both start here.
 */
export async function resumePoint(client: ClientBase, table: string, dataDir: string): Promise<{ readonly floorHas: number; readonly cursor: OutboxCursor }> {
  const floorHas = await lastStoredSeq(client, table);
  const cursor = await readCursor(dataDir, table);
  return { floorHas, cursor: floorHas < cursor.seq ? { table, offset: 0, seq: 0 } : cursor };
}

/**
 * Whether the floor holds this table's records as this station wrote them, as far as numbers
 * tell: its first record is 1, it has no gap, and none is numbered past the station's journal
 * (`stationLast`, its highest seq). Otherwise (a record planted on the floor, another journal's
 * records) the floor lacks records this station has, whatever "0 to send" would say: the first
 * seq the floor lacks, or the first it holds that the station never wrote, is returned; null when
 * all is as it should be.
 */
export async function floorMismatch(client: ClientBase, table: string, stationLast: number): Promise<number | null> {
  const result = await client.query<{ first: string | null; last: string | null; held: string }>('SELECT min(seq) AS first, max(seq) AS last, count(*) AS held FROM station_records WHERE table_name = $1', [table]);
  const row = result.rows[0];
  if (row === undefined || row.first === null || row.last === null) return null;
  const first = Number(row.first);
  const last = Number(row.last);
  if (first !== 1) return 1;
  if (Number(row.held) !== last) return first;
  return last > stationLast ? stationLast + 1 : null;
}

/**
 * Sends one station's journal to the floor up to its end as it is now, batch by batch, moving
 * the outbox cursor after each batch the floor took. Running it again sends nothing new.
 */
export async function syncStation(client: ClientBase, table: string, dataDir: string, onBatch?: (outcome: { stored: number; floorHas: number }) => void): Promise<SyncOutcome> {
  let { floorHas, cursor } = await resumePoint(client, table, dataDir);
  let sent = 0;
  let stored = 0;
  const refused: RefusedRecord[] = [];
  for (;;) {
    const batch = await nextBatch(dataDir, cursor, floorHas);
    if (batch.records.length > 0) {
      const outcome = await pushRecords(client, table, batch.records);
      sent += batch.records.length;
      stored += outcome.stored;
      refused.push(...outcome.refused);
      const accepted = batch.records.filter((record) => !outcome.refused.some((refusal) => refusal.seq === record.seq));
      floorHas = Math.max(floorHas, ...accepted.map((record) => record.seq));
      onBatch?.({ stored: outcome.stored, floorHas });
    }
    if (batch.next.offset !== cursor.offset || batch.next.seq !== cursor.seq) {
      cursor = batch.next;
      await writeCursor(dataDir, cursor);
    }
    if (!batch.more) break;
  }
  await reportContact(client, table, 0);
  return { sent, stored, refused, floorHas, cursor };
}

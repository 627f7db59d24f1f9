import type { ClientBase } from 'pg';
import type { ReaderHealthSummary } from '../protocol/readerHealth';

/** One journal record as the station sends it: its line byte for byte, with the header lines written just before it. */
export interface OutgoingRecord {
  readonly seq: number;
  readonly line: string;
  /** Header lines between the record before and this one (newline-separated), '' for none. */
  readonly headers: string;
  /**
   * A whole journal line that does not read as a sealed record: `line` is then its raw bytes in
   * base64, `headers` ''. The floor keeps it as evidence and verifies the chain again from the next.
   */
  readonly damaged?: true;
}

export interface RefusedRecord {
  readonly seq: number;
  readonly reason: string;
}

export interface PushOutcome {
  /** Records stored now (a record sent again is not stored twice). */
  readonly stored: number;
  /** Records of this batch the floor refused on arrival, with its reason (see verify_station_record). */
  readonly refused: readonly RefusedRecord[];
}

/**
 * Sends records of one table in one statement, in seq order, so the floor checks each against
 * the one before it. Idempotent: a record already stored is passed over. The floor's trigger
 * stores the refused ones' reasons instead of failing the batch, so one forged line does not
 * hold back the report of it.
 */
export async function pushRecords(client: ClientBase, table: string, records: readonly OutgoingRecord[]): Promise<PushOutcome> {
  if (records.length === 0) return { stored: 0, refused: [] };
  const seqs = records.map((record) => record.seq);
  const values = [table, seqs, records.map((record) => record.line), records.map((record) => record.headers)];
  // The damaged column only when a batch has a damaged line: any other batch goes to a floor of any schema version.
  const anyDamaged = records.some((record) => record.damaged === true);
  // Named, so each connection parses and plans it once, not at every batch (at a dealer's pace a
  // batch is one record: the planning cost as much of the server's time as the insert).
  const inserted = await client.query({
    name: anyDamaged ? 'chip-race-push-damaged' : 'chip-race-push',
    text: anyDamaged
      ? `INSERT INTO station_records (table_name, seq, line, headers, damaged)
         SELECT $1, batch.seq, batch.line, batch.headers, batch.damaged
         FROM unnest($2::bigint[], $3::text[], $4::text[], $5::boolean[]) WITH ORDINALITY AS batch(seq, line, headers, damaged, position)
         ORDER BY batch.position
         ON CONFLICT (table_name, seq) DO NOTHING
         RETURNING seq`
      : `INSERT INTO station_records (table_name, seq, line, headers)
         SELECT $1, batch.seq, batch.line, batch.headers
         FROM unnest($2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS batch(seq, line, headers, position)
         ORDER BY batch.position
         ON CONFLICT (table_name, seq) DO NOTHING
         RETURNING seq`,
    values: anyDamaged ? [...values, records.map((record) => record.damaged === true)] : values,
  });
  const stored = inserted.rowCount ?? 0;
  // Every record stored: nothing refused (the usual case, one round trip). Otherwise some were
  // there already (sent again) or refused: the floor's failures say which.
  if (stored === records.length) return { stored, refused: [] };
  const storedNow = new Set(inserted.rows.map((row: { seq: string }) => Number(row.seq)));
  const [failures, held] = await Promise.all([
    client.query<{ seq: string; reason: string }>('SELECT seq, reason FROM chain_failures WHERE table_name = $1 AND seq = ANY($2::bigint[]) ORDER BY seq', [table, seqs]),
    client.query<{ seq: string }>('SELECT seq FROM station_records WHERE table_name = $1 AND seq = ANY($2::bigint[])', [table, seqs]),
  ]);
  const reasons = new Map(failures.rows.map((row) => [Number(row.seq), row.reason]));
  const onFloor = new Set(held.rows.map((row) => Number(row.seq)));
  // A record the floor holds was sent again, unless the floor says it holds another line there (a
  // failure of another reason under a held seq is from before that record arrived). A record
  // neither stored nor held was refused even when the floor kept no row for it (a table past its
  // kept failures only counts them): the records after a refused one are out of chain.
  const refused = records
    .filter((record) => !storedNow.has(record.seq) && (onFloor.has(record.seq) ? reasons.get(record.seq) === 'changed-after-arrival' : true))
    .map((record) => ({ seq: record.seq, reason: reasons.get(record.seq) ?? 'gap' }));
  return { stored, refused };
}

/** The last record the floor holds for a table: where the station's sending goes on from. */
export async function lastStoredSeq(client: ClientBase, table: string): Promise<number> {
  const result = await client.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM station_records WHERE table_name = $1', [table]);
  return Number(result.rows[0]?.seq ?? 0);
}

/** The station reports that it is there and how many records it has still to send. */
export async function reportContact(client: ClientBase, table: string, behind: number): Promise<void> {
  await client.query('SELECT station_seen($1, $2)', [table, Math.min(Math.max(0, Math.trunc(behind)), 2_000_000_000)]);
}

/**
 * The station reports its card reader's health (the verdict on its last frames and the counts it
 * was given on: protocol/readerHealth.ts; null: none in use), for its own table only (migration 14's definer). False
 * when the floor is older and has no place for it.
 */
export async function reportReaderHealth(client: ClientBase, table: string, health: ReaderHealthSummary | null): Promise<boolean> {
  try {
    // null (no reader in use): the floor's row cleared.
    await client.query('SELECT station_reader_health($1, $2, $3, $4, $5, $6, $7)', [table, health?.verdict ?? null, health?.frames ?? null, health?.unknown ?? null, health?.checksum ?? null, health?.repeats ?? null, health?.held ?? null]);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === '42883') return false;
    throw error;
  }
}

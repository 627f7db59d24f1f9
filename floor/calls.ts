import type { ClientBase } from 'pg';
import { FLOOR_CALL_NOTE_MAX } from '../replay/floorRecords';
import { DECISION_RACE_MAX, settlingDecision, type FloorDecision } from './decisions';
import { AT_VERIFIED } from './fold';

/**
 * A table's calls of the floor (its station's `floor-called` records, issue 43): when the dealer
 * called, about which race, with what note, as the director reads them on the table page.
 */
export interface FloorCall {
  readonly seq: number;
  /** ISO time the station wrote it down; null when the floor cannot show it. */
  readonly at: string | null;
  readonly note: string;
  readonly raceId: string | null;
}

/**
 * The calls of one table, or of every table (the chip audit's summary), by table then oldest first.
 * The note is cut to what a station writes: a hostile one's longer note is not the page's to carry.
 */
export async function readCalls(client: ClientBase, table?: string): Promise<(FloorCall & { readonly table: string })[]> {
  const result = await client.query<{ table_name: string; seq: string; at: string | null; note: string | null; race_id: string | null }>(
    `SELECT table_name, seq, ${AT_VERIFIED} AS at, left(record->>'note', ${FLOOR_CALL_NOTE_MAX}) AS note, left(record->>'raceId', ${DECISION_RACE_MAX}) AS race_id
     FROM station_records WHERE kind = 'floor-called' ${table === undefined ? '' : 'AND table_name = $1'} ORDER BY table_name, seq`,
    table === undefined ? [] : [table],
  );
  return result.rows.map((row) => ({ table: row.table_name, seq: Number(row.seq), at: row.at, note: row.note ?? '', raceId: row.race_id }));
}

/** A table's calls, oldest first. */
export async function tableCalls(client: ClientBase, table: string): Promise<FloorCall[]> {
  return (await readCalls(client, table)).map(({ table: _table, ...call }) => call);
}

/** The decision that answered a call (settlingDecision: about its race, or none); null while none has. */
export function answerOf(call: FloorCall, decisions: readonly FloorDecision[]): FloorDecision | null {
  return settlingDecision({ seq: call.seq, race: call.raceId }, decisions);
}

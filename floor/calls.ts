import type { ClientBase } from 'pg';
import { FLOOR_CALL_NOTE_MAX } from '../replay/floorRecords';
import type { FloorDecision } from './decisions';
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

/** A table's calls, oldest first. The note is cut to what a station writes: a hostile one's longer note is not the page's to carry. */
export async function tableCalls(client: ClientBase, table: string): Promise<FloorCall[]> {
  const result = await client.query<{ seq: string; at: string | null; note: string | null; race_id: string | null }>(
    `SELECT seq, ${AT_VERIFIED} AS at, left(record->>'note', ${FLOOR_CALL_NOTE_MAX}) AS note, left(record->>'raceId', 20) AS race_id FROM station_records WHERE table_name = $1 AND kind = 'floor-called' ORDER BY seq`,
    [table],
  );
  return result.rows.map((row) => ({ seq: Number(row.seq), at: row.at, note: row.note ?? '', raceId: row.race_id }));
}

/** The decision that answered a call: the first decided with the call among the records it settles; null while none has. */
export function answerOf(call: FloorCall, decisions: readonly FloorDecision[]): FloorDecision | null {
  return decisions.find((decision) => decision.settlesSeq >= call.seq) ?? null;
}

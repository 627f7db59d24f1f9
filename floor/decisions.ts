import type { ClientBase } from 'pg';
import { InputError } from '../engine/errors';
import { FLOOR_DECISIONS, type FloorDecisionKind, type FloorDecisionNote } from '../protocol/races';

/**
 * The director's decisions on a table (floor_decisions, migration 10): who decided, when, what, with
 * a note, about which race when one. A decision settles the table's abandoned race or call of the
 * floor that came before it (floor/fold.ts settledStatus); its station reads it and keeps it on its
 * journal as a `floor-decision` record (station/floorLink/link.ts, replay/floorDecisions.ts).
 * The floor reads decisions from this table only: a station's record of one counts on the floor
 * only as its copy of a row here (floor/fold.ts isFloorsDecision: issue 44, a station writes its
 * own journal, and could write a decision no director made).
 */
export { FLOOR_DECISIONS, type FloorDecisionKind } from '../protocol/races';

export function isFloorDecisionKind(value: unknown): value is FloorDecisionKind {
  return typeof value === 'string' && (FLOOR_DECISIONS as readonly string[]).includes(value);
}

/**
 * The decision that settles a flag of a table (an abandoned race, a call, a record whose chain
 * failed): the first made with it among the records it settles, about its race or naming none (a
 * decision about another race leaves it, as readFloorStatus counts them); null while none has.
 */
export function settlingDecision<T extends Pick<FloorDecision, 'settlesSeq' | 'raceId'>>(flag: { readonly seq: number | null; readonly race: string | null }, decisions: readonly T[]): T | null {
  if (flag.seq === null) return null;
  const seq = flag.seq;
  return decisions.find((decision) => decision.settlesSeq >= seq && (decision.raceId === null || flag.race === null || decision.raceId === flag.race)) ?? null;
}

/** The longest note and name a decision keeps (the table's checks say the same). */
export const DECISION_NOTE_MAX = 500;
export const DECIDED_BY_MAX = 80;
/** The longest race id a decision names (a station's `race-N`). */
export const DECISION_RACE_MAX = 20;

export interface FloorDecision {
  readonly id: number;
  readonly table: string;
  /** ISO time. */
  readonly at: string;
  readonly by: string;
  readonly decision: FloorDecisionKind;
  readonly note: string;
  readonly raceId: string | null;
  /** The table's last record when it was decided: what it settles. */
  readonly settlesSeq: number;
}

export interface DecisionInput {
  readonly table: string;
  readonly decision: unknown;
  readonly note: unknown;
  readonly by: unknown;
  readonly raceId?: unknown;
}

/** The decision as given, checked: a keyed refusal (field `decision`, `note`, `by`, `race`) otherwise. */
export function readDecision(input: DecisionInput): { decision: FloorDecisionKind; note: string; by: string; raceId: string | null } {
  if (!isFloorDecisionKind(input.decision)) throw new InputError('decision', { key: 'floor.decision.badKind' });
  const note = typeof input.note === 'string' ? input.note.trim() : '';
  if (note === '' || note.length > DECISION_NOTE_MAX) throw new InputError('note', { key: 'floor.decision.noteRequired', params: { max: DECISION_NOTE_MAX } });
  const by = typeof input.by === 'string' ? input.by.trim() : '';
  if (by === '' || by.length > DECIDED_BY_MAX) throw new InputError('by', { key: 'floor.decision.byRequired', params: { max: DECIDED_BY_MAX } });
  const race = typeof input.raceId === 'string' ? input.raceId.trim() : '';
  if (race.length > DECISION_RACE_MAX) throw new InputError('race', { key: 'floor.decision.badRace' });
  if (input.decision === 'race-closed' && race === '') throw new InputError('race', { key: 'floor.decision.badRace' });
  return { decision: input.decision, note, by, raceId: race === '' ? null : race };
}

interface DecisionRow {
  id: string;
  table_name: string;
  decided_at: Date;
  decided_by: string;
  decision: FloorDecisionKind;
  note: string;
  race_id: string | null;
  settles_seq: string;
}

const decisionOf = (row: DecisionRow): FloorDecision => ({
  id: Number(row.id), table: row.table_name, at: row.decided_at.toISOString(), by: row.decided_by, decision: row.decision, note: row.note, raceId: row.race_id, settlesSeq: Number(row.settles_seq),
});

const COLUMNS = 'id, table_name, decided_at, decided_by, decision, note, race_id, settles_seq';

/**
 * Records the director's decision on a table (the floor page's form, the tests): settling what its
 * station sent so far (settles_seq: its last record now). Refuses an unknown table, and a decision
 * without a note or a name.
 */
export async function recordDecision(client: ClientBase, input: DecisionInput): Promise<FloorDecision> {
  const checked = readDecision(input);
  const result = await client.query<DecisionRow>(
    `INSERT INTO floor_decisions (table_name, decided_by, decision, note, race_id, settles_seq)
     SELECT t.table_name, $2, $3, $4, $5, coalesce((SELECT max(seq) FROM station_records WHERE table_name = t.table_name), 0) FROM floor_tables t WHERE t.table_name = $1
     RETURNING ${COLUMNS}`,
    [input.table, checked.by, checked.decision, checked.note, checked.raceId],
  );
  const row = result.rows[0];
  if (row === undefined) throw new InputError('table', { key: 'floor.decision.noTable' });
  return decisionOf(row);
}

/** A table's decisions, oldest first (after id `after`, when given: what a station has not seen yet). */
export async function tableDecisions(client: ClientBase, table: string, after = 0): Promise<FloorDecision[]> {
  const result = await client.query<DecisionRow>(`SELECT ${COLUMNS} FROM floor_decisions WHERE table_name = $1 AND id > $2 ORDER BY id`, [table, after]);
  return result.rows.map(decisionOf);
}

/** A decision as its station keeps it and the exports give it. */
export const decisionNote = (decision: FloorDecision): FloorDecisionNote => ({ id: decision.id, decision: decision.decision, note: decision.note, by: decision.by, at: decision.at, raceId: decision.raceId });

/** Every table's decisions, by table then oldest first (the export). */
export async function allDecisions(client: ClientBase): Promise<FloorDecision[]> {
  const result = await client.query<DecisionRow>(`SELECT ${COLUMNS} FROM floor_decisions ORDER BY table_name, id`);
  return result.rows.map(decisionOf);
}

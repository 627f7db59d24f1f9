import type { ClientBase, QueryResult } from 'pg';
import type { FoldedExchange, FoldedRace, FoldLine, FoldProblem } from '../../replay/tableFold';
import { foldTableLines, keptAfter, needsDecisions, readTableCheckpoint, INITIAL_CHECKPOINT, type TableCheckpoint } from '../../replay/tableProjection';
import { tableDecisions } from '../decisions';
import { isConnectionLost } from '../pool';
import { settledStatus } from './colourUp';

/**
 * The fold kept in the database: each table's projection (replay/tableProjection.ts) folded on
 * from the checkpoint its last fold kept (floor_table_state.replay), its races, exchanges and
 * status written to the summary tables (migration 2: floor_races, floor_table_state), so the
 * status is one or two small queries however long the tournament. A table is folded again only
 * when records arrived for it, and then only from the record after its checkpoint.
 */

/**
 * The fold's version. A floor whose fold changed (what it takes from a record, what it keeps) says
 * so here: every table folded by another version is folded again from its first record. 7: the
 * breaks left with the colour-up finished (`left_finished`, migration 17). 8: a station's
 * `floor-decision` record closes its race only when it is one of floor_decisions (issue 44): a
 * table folded by 7 with a decision of its own making is folded again, and flagged. 9: a line
 * damaged at the station marks the race open then, and a race whose end was lost is 'damaged', not
 * confirmed (its `damaged` column, migration 21). 10: the table's projection's checkpoint
 * (replay/tableProjection.ts TableCheckpoint: the race fold's state and the colour-up reading's)
 * is kept in `replay`, so a fold step no longer reads the table's status records from seq 1: a
 * table folded by 9 (its `replay` the race fold's state alone) is folded again from its first record.
 * 11: the fold is the table's projection itself (replay/tableProjection.ts TableProjection, the
 * station's followers' object), its checkpoint its parts' follower states (the session's with the
 * last seq it read, the colour-ups', the floor's decisions') beside the floor's own: a table folded
 * by 10 is folded again from its first record.
 */
export const FOLD_VERSION = 11;

/** Names the per-table lock folds take: two floors folding one database fold each table once. */
export const FOLD_LOCK = 0x666f6c64;
/** The most lines one transaction folds: a first fold of a long table commits as it goes. */
export const FOLD_BATCH = 20_000;
/** The longest reason kept for an unforeseen fold failure. */
const DETAIL_MAX = 200;

/**
 * A line's time as the trigger verified it (the stored timestamptz, written back as the console
 * writes it): never the line's text read again, which may say `"at"` twice. Null when the floor
 * cannot show it (infinity, beyond year 9999).
 */
export const AT_VERIFIED = `CASE WHEN at >= '0001-01-01Z' AND at < '10000-01-01Z' THEN to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END`;

export interface StoredLine {
  seq: string;
  at: string | null;
  record: unknown;
}

export const foldLine = (row: StoredLine): FoldLine => ({ seq: Number(row.seq), at: row.at, record: row.record });

/** The whole number nearest to `value` that a bigint column and a JavaScript number both hold. */
const bounded = (value: number | null): number | null => (value === null ? null : Number.isFinite(value) ? Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.round(value))) : 0);

/** The races' numbers as one small JSON set, read by the state write's json_to_recordset. */
const racesJson = (races: readonly FoldedRace[]): string =>
  JSON.stringify(races.map((race) => ({
    race_id: race.raceId, status: race.status, level: race.level, removed: bounded(race.removed), next: bounded(race.next), value_delta: bounded(race.valueDelta), winners: race.winners, started_at: race.startedAt, ended_at: race.endedAt,
    corrections: bounded(race.corrections), refusals: bounded(race.refusals), collect: bounded(race.collect), bring: bounded(race.bring), sheet: race.sheet, first_seq: race.firstSeq, last_seq: race.lastSeq,
    damaged: race.damaged ?? null,
  })));

/** A floor_exchanges row (`e`) as the JSON of a FoldedExchange, for the status and the summary to read. */
export const EXCHANGE_JSON = `jsonb_build_object('seq', e.seq, 'at', to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'reason', e.reason, 'raceId', e.race_id, 'seat', e.seat, 'removed', e.removed, 'count', e.count, 'next', e.next, 'note', e.note, 'given', e.given, 'lost', e.lost, 'valueDelta', e.value_delta, 'afterLevel', e.after_level)`;

/** The exchanges' numbers as one small JSON set, read as the races' are. */
const exchangesJson = (exchanges: readonly FoldedExchange[]): string =>
  JSON.stringify(exchanges.map((exchange) => ({
    seq: exchange.seq, at: exchange.at, reason: exchange.reason, race_id: exchange.raceId, seat: exchange.seat, removed: exchange.removed, count: exchange.count, next: exchange.next, note: exchange.note,
    given: bounded(exchange.given), lost: bounded(exchange.lost), value_delta: bounded(exchange.valueDelta), after_level: exchange.afterLevel,
  })));

/** A table's stored lines after seq `after` (through `through`, when given), at most FOLD_BATCH, as the fold reads them. */
export async function storedLines(client: ClientBase, table: string, after: number, through = Number.MAX_SAFE_INTEGER, limit = FOLD_BATCH): Promise<FoldLine[]> {
  const rows = await client.query<StoredLine>(`SELECT seq, ${AT_VERIFIED} AS at, record FROM station_records WHERE table_name = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT ${Math.max(1, Math.floor(limit))}`, [table, after, through]);
  return rows.rows.map(foldLine);
}

interface KeptState {
  folded_seq: string;
  fold_version: number;
  replay: unknown;
  problems: FoldProblem[];
  problem_count: number;
  damaged: number[];
}

/**
 * Folds the next lines of one table (at most FOLD_BATCH), in a transaction of its own, from the
 * replay state its last fold kept: the work of the new lines only. A table another floor is
 * folding just now is passed by. Returns whether there is more to fold.
 */
async function foldTableStep(client: ClientBase, table: string): Promise<'folded' | 'more' | 'busy'> {
  try {
    // The transaction begun and the table's lock tried in one round trip (a first fold of a floor
    // makes a few of them per table, hundreds of tables over).
    const begun = (await client.query(`BEGIN; SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}, hashtext(${client.escapeLiteral(table)})) AS locked`)) as unknown as QueryResult<{ locked: boolean }>[];
    if (begun[1]?.rows[0]?.locked !== true) {
      await client.query('COMMIT');
      return 'busy';
    }
    const kept = (await client.query<KeptState>('SELECT folded_seq, fold_version, replay, problems, problem_count, damaged FROM floor_table_state WHERE table_name = $1', [table])).rows[0];
    // The projection's checkpoint, when this version's fold kept it and through the seq it says.
    const checkpoint = kept !== undefined && kept.fold_version === FOLD_VERSION ? readTableCheckpoint(kept.replay) : null;
    const current = kept !== undefined && checkpoint !== null && checkpoint.seq === Number(kept.folded_seq) ? kept : null;
    // Another version's fold: the table is folded again from its first record. (A table never
    // folded has no races: they are written with its state, in one statement.)
    if (kept !== undefined && current === null) await client.query('WITH exchanges AS (DELETE FROM floor_exchanges WHERE table_name = $1) DELETE FROM floor_races WHERE table_name = $1', [table]);
    const from = current === null ? INITIAL_CHECKPOINT : (checkpoint as TableCheckpoint);
    const lines = await storedLines(client, table, from.seq);
    const lastSeq = lines.at(-1)?.seq ?? from.seq;
    // A station's record of a race closed on the floor stands only as the floor's own decision
    // (floor_decisions, read only when this batch has such a record: most folds have none).
    const decisions = needsDecisions(lines) ? await tableDecisions(client, table) : [];
    const { fold, reading, checkpoint: next } = foldTableLines(from, lines, decisions, lastSeq);
    const openRace = fold.state.session.race;
    // Kept without the flags' decisions (they are the floor's, not the station's records): readFloorStatus settles the flag with them.
    const colourUp = settledStatus(reading.base, reading.flag, [], false);
    const { problems, problemCount, damaged } = keptAfter({ problems: current?.problems ?? [], problemCount: current?.problem_count ?? 0, damaged: current?.damaged ?? [] }, fold);
    // The races and the state they leave the table in, in one statement.
    await client.query(
      `WITH races AS (
         INSERT INTO floor_races (table_name, race_id, status, level, removed, next, value_delta, winners, started_at, ended_at, corrections, refusals, collect, bring, sheet, first_seq, last_seq, damaged)
         SELECT $1, r.race_id, r.status, r.level, r.removed, r.next, r.value_delta, r.winners, r.started_at, r.ended_at, r.corrections, r.refusals, r.collect, r.bring, r.sheet, r.first_seq, r.last_seq, r.damaged
         FROM json_to_recordset($11::json) AS r(race_id text, status text, level integer, removed bigint, next bigint, value_delta bigint, winners jsonb, started_at timestamptz, ended_at timestamptz, corrections bigint, refusals bigint, collect bigint, bring bigint, sheet jsonb, first_seq bigint, last_seq bigint, damaged jsonb)
         ON CONFLICT (table_name, race_id) DO UPDATE SET status = excluded.status, level = excluded.level, removed = excluded.removed, next = excluded.next, value_delta = excluded.value_delta, winners = excluded.winners,
           started_at = excluded.started_at, ended_at = excluded.ended_at, corrections = excluded.corrections, refusals = excluded.refusals, collect = excluded.collect, bring = excluded.bring, sheet = excluded.sheet, first_seq = excluded.first_seq, last_seq = excluded.last_seq, damaged = excluded.damaged),
       exchanges AS (
         INSERT INTO floor_exchanges (table_name, seq, at, reason, race_id, seat, removed, count, next, note, given, lost, value_delta, after_level)
         SELECT $1, e.seq, e.at, e.reason, e.race_id, e.seat, e.removed, e.count, e.next, e.note, e.given, e.lost, e.value_delta, e.after_level
         FROM json_to_recordset($16::json) AS e(seq bigint, at timestamptz, reason text, race_id text, seat integer, removed bigint, count bigint, next bigint, note text, given bigint, lost bigint, value_delta bigint, after_level integer)
         ON CONFLICT (table_name, seq) DO NOTHING)
       INSERT INTO floor_table_state (table_name, folded_seq, resume_seq, failures, colour_up, open_race, folded_at, fold_version, replay, problems, problem_count, fold_error, error_seq, damaged, break_marked, base_colour_up, flag_kind, flag_seq, flag_race, left_finished)
       VALUES ($1, $2, $3, 0, $4, $5, now(), $6, $7, $8, $9, NULL, NULL, $10, $12, $13, $14, $15, $17, $18)
       ON CONFLICT (table_name) DO UPDATE SET folded_seq = excluded.folded_seq, resume_seq = excluded.resume_seq, failures = excluded.failures, colour_up = excluded.colour_up, open_race = excluded.open_race, folded_at = excluded.folded_at,
         fold_version = excluded.fold_version, replay = excluded.replay, problems = excluded.problems, problem_count = excluded.problem_count, fold_error = NULL, error_seq = NULL, damaged = excluded.damaged, break_marked = excluded.break_marked,
         base_colour_up = excluded.base_colour_up, flag_kind = excluded.flag_kind, flag_seq = excluded.flag_seq, flag_race = excluded.flag_race, left_finished = excluded.left_finished`,
      [table, lastSeq, openRace?.firstSeq ?? lastSeq + 1, colourUp, openRace?.id ?? null, FOLD_VERSION, JSON.stringify(next), JSON.stringify(problems), problemCount, JSON.stringify(damaged), racesJson(fold.races), reading.marked, reading.base, reading.flag?.kind ?? null, reading.flag?.seq ?? null, exchangesJson(fold.exchanges), reading.flag?.raceId ?? null, JSON.stringify(reading.leftFinished)],
    );
    await client.query('COMMIT');
    return lines.length === FOLD_BATCH ? 'more' : 'folded';
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    // A connection gone is no table's fault: the pass stops, and is tried again later.
    if (isConnectionLost(error)) throw error;
    // One table's fold stopped: that table is flagged with the reason, and the others fold on.
    // It is tried again when its station sends more (or the fold's version changes).
    const detail = (error as Error).message.slice(0, DETAIL_MAX);
    await client.query(
      `INSERT INTO floor_table_state (table_name, folded_seq, resume_seq, failures, colour_up, folded_at, fold_version, fold_error, error_seq)
       VALUES ($1, 0, 1, 0, 'disputed', now(), -1, $2, (SELECT coalesce(max(seq), 0) FROM station_records WHERE table_name = $1))
       ON CONFLICT (table_name) DO UPDATE SET fold_error = excluded.fold_error, error_seq = excluded.error_seq`,
      [table, detail],
    );
    return 'folded';
  }
}

/** The tables whose records the fold has not caught up with (or that another fold version folded). */
/**
 * The floor's connections run without PostgreSQL's JIT. Its queries are many short ones over
 * indexes, but the status query's plan over hundreds of tables is estimated past `jit_above_cost`,
 * and compiling it cost more than running it: 23 of 28 ms on 100 tables (EXPLAIN ANALYZE), and
 * far more once the estimate passes the inlining and optimising thresholds. Set once per
 * connection (the floor's own sessions: the page's pool, the command line's client).
 */
const withoutJit = new WeakSet<ClientBase>();
export async function noJit(client: ClientBase): Promise<void> {
  if (withoutJit.has(client)) return;
  await client.query('SET jit = off');
  withoutJit.add(client);
}

async function dueTables(client: ClientBase): Promise<string[]> {
  await noJit(client);
  const due = await client.query<{ table_name: string }>(
    `SELECT t.table_name FROM floor_tables t
     LEFT JOIN floor_table_state s USING (table_name)
     LEFT JOIN LATERAL (SELECT max(seq) AS last_seq FROM station_records WHERE table_name = t.table_name) r ON true
     WHERE s.table_name IS NULL
        OR (s.fold_error IS NULL AND (s.fold_version <> $1 OR coalesce(r.last_seq, 0) > s.folded_seq))
        OR (s.fold_error IS NOT NULL AND coalesce(r.last_seq, 0) > s.error_seq)
     ORDER BY t.table_name`,
    [FOLD_VERSION],
  );
  return due.rows.map((row) => row.table_name);
}

/** How long a fold that waits for a busy table sleeps between two tries of its lock. */
const BUSY_RETRY_MS = 10;

/**
 * Brings the summary tables up to the records: each table whose records changed since its last
 * fold is folded on from there, in transactions of its own. With a budget, stops between
 * batches once it is spent (the rest is folded next time; the status says how far behind).
 * A table another fold holds just now (the floor page's background loop, another floor) is passed
 * by, unless `waitForBusy`: a one-shot reader (`floor status`, the summary) then waits, within its
 * budget, for that fold to commit and folds what is left, so what it reads next holds the records
 * that had arrived when it began. Returns the tables folded.
 */
export async function foldFloor(client: ClientBase, budgetMs = Number.POSITIVE_INFINITY, options: { readonly waitForBusy?: boolean } = {}): Promise<readonly string[]> {
  const started = performance.now();
  const folded: string[] = [];
  for (const table of await dueTables(client)) {
    let step: Awaited<ReturnType<typeof foldTableStep>>;
    do {
      if (performance.now() - started > budgetMs) return folded;
      step = await foldTableStep(client, table);
      if (step === 'busy' && options.waitForBusy === true) await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
    } while (step === 'more' || (step === 'busy' && options.waitForBusy === true));
    if (step === 'folded') folded.push(table);
  }
  return folded;
}


import type { ClientBase } from 'pg';
import { raceSummary } from '../../engine/race/summary';
import type { HistoryEntry, RaceRecord, SeatCount } from '../../protocol/contract';
import type { ChainReport, ChainStatus, JournalFinding } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import { ColorUpLog } from '../service/colorUps';
import { buildRecord } from '../service/raceRecord';
import { isSessionRecord, SessionReplay, valueDeltaOf, type SessionRecord } from '../service/session';

/**
 * The floor's view of each table, folded from the records its station sent, with the console's own
 * code (SessionReplay, ColorUpLog, the engine's summaries): the floor says of a race exactly what
 * the station's console says of it. The fold is kept in summary tables (migration 2:
 * floor_races, floor_table_state) so the status is one or two small queries however long the
 * tournament; a table is folded again only when records arrived for it (or a chain failure was
 * found), and then only from the start of the race that was still open when it was last folded.
 */

/**
 * The colour-up a table is on, as the floor sees it:
 * - `not-started`: no break marked, or the break marked last has no race of its colour-up started;
 * - `racing`: a race of the marked break's colour-up is open and still taking cards;
 * - `waiting-to-confirm`: that race is complete and waits for the dealer to confirm it;
 * - `done`: races of it were confirmed and none is open (the floor does not hold the station's
 *   structure, so it cannot tell a colour-up's last race from the one before a next: the
 *   director sees the chips per denomination beside it);
 * - `disputed`: the table's chain failed verification on the floor (any chain_failures row), or a
 *   race of the marked break's colour-up was abandoned. Either is for the director to settle
 *   before the clock goes on, so it wins over the others.
 */
export type ColourUpStatus = 'not-started' | 'racing' | 'waiting-to-confirm' | 'done' | 'disputed';
export const COLOUR_UP_STATUSES: readonly ColourUpStatus[] = ['not-started', 'racing', 'waiting-to-confirm', 'done', 'disputed'];

export type FoldedRaceStatus = 'racing' | 'waiting-to-confirm' | 'confirmed' | 'abandoned';

/** One race as the floor keeps it (a row of floor_races). */
export interface FoldedRace {
  readonly raceId: string;
  readonly status: FoldedRaceStatus;
  /** The level after which the colour-up break it ran a race of falls (absent: a race of its own). */
  readonly level: number | null;
  readonly removed: number;
  readonly next: number;
  /** Chip value created (removed when negative): only a confirmed race has one. */
  readonly valueDelta: number | null;
  readonly winners: readonly number[];
  readonly startedAt: string;
  /** When it was confirmed or abandoned (null while open). */
  readonly endedAt: string | null;
  readonly corrections: number;
  readonly refusals: number;
  /** Chips of the removed denomination taken off the table: the seats' counts. */
  readonly collect: number;
  /** Chips of the next denomination brought to the table: the exchange and the race's chips (the most it may need while it is open). */
  readonly bring: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
  /** The history entry as the console keeps it, for the export (confirmed races only). */
  readonly entry: HistoryEntry | null;
}

export interface TableFold {
  /** The races started from the first line folded on, in order. */
  readonly races: readonly FoldedRace[];
  /** The seq to fold from next time: the open race's start, or the line after the last. */
  readonly resumeSeq: number;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const countsChips = (counts: readonly SeatCount[]) => sum(counts.map((count) => count.chips));

/** The next-denomination chips a race needs: the exchange's and the race's own (the most it may take while unknown). */
function bringOf(summary: { readonly exchange: readonly { readonly up: number }[]; readonly raceChips: number | null; readonly raceChipsRange: { readonly max: number } }): number {
  return sum(summary.exchange.map((seat) => seat.up)) + (summary.raceChips ?? summary.raceChipsRange.max);
}

/**
 * Folds a table's lines from a race's start (or the journal's) on: the confirmed races as the
 * console's history has them, the abandoned ones, and the race still open. Lines that do not fit
 * are passed over as the console's replay passes them over.
 */
export function foldLines(lines: readonly JournalLine<unknown>[], lastSeq: number): TableFold {
  const replay = new SessionReplay();
  const starts = new Map<string, { line: JournalLine<SessionRecord & { kind: 'race-start' }> }>();
  const order: string[] = [];
  const ended = new Map<string, FoldedRace>();
  const closed = new Set<string>();
  const voids = new Map<string, { corrections: number; refusals: number }>();
  for (const line of lines) {
    const record = line.record;
    if (!isSessionRecord(record)) continue;
    const typed = line as JournalLine<SessionRecord>;
    if (record.kind === 'race-start') {
      starts.set(record.raceId, { line: typed as JournalLine<SessionRecord & { kind: 'race-start' }> });
      order.push(record.raceId);
      voids.set(record.raceId, { corrections: 0, refusals: 0 });
    } else if ('raceId' in record) {
      const tally = voids.get(record.raceId);
      if (tally !== undefined) {
        // For an abandoned race only (a confirmed one's come from its state): as the record slip counts them.
        if (record.kind === 'race-event' && record.event.type === 'void') tally.corrections += record.event.count ?? 1;
        if (record.kind === 'refused') tally.refusals += 1;
        if (record.kind === 'refused-again') tally.refusals += record.count;
      }
    }
    replay.add(typed);
    // Abandoned as the reducer abandons it: the race open then (a race id names one race).
    if (record.kind === 'race-confirm') closed.add(record.raceId);
    if (record.kind === 'race-abandon' && starts.has(record.raceId) && !closed.has(record.raceId)) {
      closed.add(record.raceId);
      const start = starts.get(record.raceId);
      if (start !== undefined) {
        const { record: begun } = start.line;
        const tally = voids.get(record.raceId) ?? { corrections: 0, refusals: 0 };
        const race: FoldedRace = {
          raceId: record.raceId, status: 'abandoned', level: begun.level ?? null, removed: (begun.race as { removed: number }).removed, next: (begun.race as { next: number }).next,
          valueDelta: null, winners: [], startedAt: start.line.at, endedAt: line.at, corrections: tally.corrections, refusals: tally.refusals, collect: 0, bring: 0,
          firstSeq: start.line.seq, lastSeq: line.seq, entry: null,
        };
        ended.set(race.raceId, race);
      }
    }
  }
  const { session } = replay.finish();
  for (const entry of session.history) {
    const start = starts.get(entry.id);
    if (start === undefined) continue;
    const { summary } = entry;
    ended.set(entry.id, {
      raceId: entry.id, status: 'confirmed', level: entry.level ?? null, removed: summary.removed, next: summary.next,
      valueDelta: valueDeltaOf(entry), winners: summary.awards, startedAt: entry.startedAt, endedAt: entry.confirmedAt,
      corrections: entry.corrections, refusals: entry.refusals, collect: countsChips(start.line.record.counts), bring: bringOf(summary),
      firstSeq: entry.seqs.first, lastSeq: entry.seqs.last, entry,
    });
  }
  const races: FoldedRace[] = [];
  for (const id of order) {
    const race = ended.get(id);
    if (race !== undefined) races.push(race);
  }
  const open = session.race;
  if (open !== null) {
    const summary = raceSummary(open.state, { explain: false });
    races.push({
      raceId: open.id, status: summary.status === 'complete' ? 'waiting-to-confirm' : 'racing', level: open.place.level ?? null, removed: summary.removed, next: summary.next,
      valueDelta: null, winners: summary.awards, startedAt: open.startedAt, endedAt: null, corrections: open.state.corrections.length, refusals: open.refusals,
      collect: countsChips(open.counts), bring: bringOf(summary), firstSeq: open.firstSeq, lastSeq, entry: null,
    });
  }
  return { races, resumeSeq: open !== null ? open.firstSeq : lastSeq + 1 };
}

/** The records the colour-up's progress is made of (main/service/colorUps.ts reads only these). */
export const COLOUR_UP_KINDS = ['break-marked', 'color-up-race', 'race-start', 'race-confirm', 'race-abandon'] as const;

/**
 * The colour-up status of a table from its colour-up records (COLOUR_UP_KINDS, in seq order, the
 * whole journal), whether the open race is complete, and whether its chain failed on the floor.
 */
export function colourUpStatusOf(lines: readonly JournalLine<unknown>[], openComplete: boolean, chainFailed: boolean): ColourUpStatus {
  const log = new ColorUpLog();
  let mark: number | null = null;
  let open: string | null = null;
  let abandonedInIt = false;
  for (const line of lines) {
    const record = line.record as { kind?: unknown; raceId?: unknown; afterLevel?: unknown };
    if (record.kind === 'break-marked') {
      mark = typeof record.afterLevel === 'number' ? record.afterLevel : null;
      abandonedInIt = false;
    }
    if (record.kind === 'race-abandon' && mark !== null && typeof record.raceId === 'string' && log.progress(mark, record.raceId)?.running?.raceId === record.raceId) abandonedInIt = true;
    log.add(line);
    if (record.kind === 'race-start' && typeof record.raceId === 'string') open = record.raceId;
    if ((record.kind === 'race-confirm' || record.kind === 'race-abandon') && record.raceId === open) open = null;
  }
  if (chainFailed) return 'disputed';
  if (mark === null) return 'not-started';
  if (abandonedInIt) return 'disputed';
  const progress = log.progress(mark, open);
  if (progress === null) return 'not-started';
  if (progress.running !== null) return openComplete ? 'waiting-to-confirm' : 'racing';
  return progress.done.length > 0 ? 'done' : 'not-started';
}

/** A chain failure the floor's trigger recorded (main/floor/db/migrations.ts, verify_station_record). */
export interface ChainFailure {
  readonly seq: number;
  readonly reason: string;
}

/**
 * The floor's chain failures as the console's own findings, so a race's verdict is the console's
 * (main/journal/findings.ts chainOf): every failure is tampering, or damage in the sealed part.
 */
export function findingOfFailure(failure: ChainFailure): JournalFinding {
  const { seq } = failure;
  switch (failure.reason) {
    case 'bad-seal':
    case 'changed-after-arrival':
      return { code: 'altered', seq, skipped: true };
    case 'broken-link':
      return { code: 'rewritten', seq };
    case 'gap':
      return { code: 'missing', seq: Math.max(1, seq - 1), last: Math.max(1, seq - 1) };
    case 'no-seal':
      return { code: 'unsealed', seq };
    case 'no-header':
    case 'header-unknown':
    case 'header-not-json':
      return { code: 'no-header', seq };
    default:
      return { code: 'unreadable', line: seq, seq, sealed: true };
  }
}

/** A table's chain as the floor checked it on arrival, in the shape the console's verdicts read. */
export function floorChainReport(failures: readonly ChainFailure[], allSealsChecked: boolean, records: number): ChainReport {
  const chain: ChainStatus = failures.length > 0 ? 'broken' : records === 0 ? 'empty' : allSealsChecked ? 'intact' : 'unchecked';
  return { chain, findings: failures.map(findingOfFailure), unchainedThrough: 0 };
}

// ---------------------------------------------------------------------------------------------
// The fold kept in the database.

/** Names the lock folds take: a status and a page refreshing at once fold one after the other. */
const FOLD_LOCK = 0x666f6c64;

interface StoredLine {
  seq: string;
  at: string;
  record: unknown;
}

/**
 * A line's time as the station wrote it, byte for byte: every journal line starts `{"seq":N,"at":"…"`
 * (main/journal/journal.ts); the stored timestamptz, written back as ISO, only if one ever did not.
 */
const AT_AS_WRITTEN = `coalesce(substring(line from '^\\{"seq":[0-9]+,"at":"([^"\\\\]{1,40})"'), to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

async function linesFrom(client: ClientBase, table: string, fromSeq: number, kinds: readonly string[] | null): Promise<JournalLine<unknown>[]> {
  const result = await client.query<StoredLine>(
    `SELECT seq, ${AT_AS_WRITTEN} AS at, record FROM station_records WHERE table_name = $1 AND seq >= $2 ${kinds === null ? '' : 'AND kind = ANY($3::text[])'} ORDER BY seq`,
    kinds === null ? [table, fromSeq] : [table, fromSeq, kinds],
  );
  return result.rows.map((row) => ({ seq: Number(row.seq), at: row.at, record: row.record }));
}

/** Folds one table from where its last fold stopped (inside the caller's transaction). */
async function foldTable(client: ClientBase, table: string, resumeSeq: number, lastSeq: number, failures: number): Promise<void> {
  const lines = await linesFrom(client, table, resumeSeq, null);
  const fold = foldLines(lines, lastSeq);
  await client.query('DELETE FROM floor_races WHERE table_name = $1 AND first_seq >= $2', [table, resumeSeq]);
  if (fold.races.length > 0) {
    const rows = fold.races;
    await client.query(
      `INSERT INTO floor_races (table_name, race_id, status, level, removed, next, value_delta, winners, started_at, ended_at, corrections, refusals, collect, bring, first_seq, last_seq, entry)
       SELECT $1, r.race_id, r.status, r.level, r.removed, r.next, r.value_delta, r.winners, r.started_at, r.ended_at, r.corrections, r.refusals, r.collect, r.bring, r.first_seq, r.last_seq, r.entry
       FROM jsonb_to_recordset($2::jsonb) AS r(race_id text, status text, level integer, removed bigint, next bigint, value_delta bigint, winners jsonb, started_at timestamptz, ended_at timestamptz, corrections integer, refusals integer, collect bigint, bring bigint, first_seq bigint, last_seq bigint, entry jsonb)
       ON CONFLICT (table_name, race_id) DO UPDATE SET status = excluded.status, level = excluded.level, removed = excluded.removed, next = excluded.next, value_delta = excluded.value_delta, winners = excluded.winners,
         started_at = excluded.started_at, ended_at = excluded.ended_at, corrections = excluded.corrections, refusals = excluded.refusals, collect = excluded.collect, bring = excluded.bring, first_seq = excluded.first_seq, last_seq = excluded.last_seq, entry = excluded.entry`,
      [
        table,
        JSON.stringify(rows.map((race) => ({
          race_id: race.raceId, status: race.status, level: race.level, removed: race.removed, next: race.next, value_delta: race.valueDelta, winners: race.winners, started_at: race.startedAt, ended_at: race.endedAt,
          corrections: race.corrections, refusals: race.refusals, collect: race.collect, bring: race.bring, first_seq: race.firstSeq, last_seq: race.lastSeq, entry: race.entry,
        }))),
      ],
    );
  }
  const openRace = fold.races.find((race) => race.status === 'racing' || race.status === 'waiting-to-confirm') ?? null;
  const colourUp = colourUpStatusOf(await linesFrom(client, table, 1, COLOUR_UP_KINDS), openRace?.status === 'waiting-to-confirm', failures > 0);
  await client.query(
    `INSERT INTO floor_table_state (table_name, folded_seq, resume_seq, failures, colour_up, open_race, folded_at) VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (table_name) DO UPDATE SET folded_seq = excluded.folded_seq, resume_seq = excluded.resume_seq, failures = excluded.failures, colour_up = excluded.colour_up, open_race = excluded.open_race, folded_at = excluded.folded_at`,
    [table, lastSeq, fold.resumeSeq, failures, colourUp, openRace?.raceId ?? null],
  );
}

/**
 * Brings the summary tables up to the records: every table whose records (or chain failures)
 * changed since its last fold is folded from its open race's start. Returns the tables folded.
 */
export async function foldFloor(client: ClientBase): Promise<readonly string[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [FOLD_LOCK]);
    const due = await client.query<{ table_name: string; resume_seq: string; last_seq: string; failures: number }>(
      `SELECT t.table_name, coalesce(s.resume_seq, 1) AS resume_seq, coalesce(r.last_seq, 0) AS last_seq, coalesce(f.failures, 0)::int AS failures
       FROM floor_tables t
       LEFT JOIN floor_table_state s USING (table_name)
       LEFT JOIN LATERAL (SELECT max(seq) AS last_seq FROM station_records WHERE table_name = t.table_name) r ON true
       LEFT JOIN LATERAL (SELECT count(*) AS failures FROM chain_failures WHERE table_name = t.table_name) f ON true
       WHERE s.table_name IS NULL OR coalesce(r.last_seq, 0) <> s.folded_seq OR coalesce(f.failures, 0) <> s.failures`,
    );
    for (const row of due.rows) await foldTable(client, row.table_name, Number(row.resume_seq), Number(row.last_seq), row.failures);
    await client.query('COMMIT');
    return due.rows.map((row) => row.table_name);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Chips of one denomination a table (or the tournament) gives up and needs. */
export interface DenominationChips {
  readonly chip: number;
  readonly collect: number;
  readonly bring: number;
}

export interface TableStatus {
  readonly table: string;
  readonly races: number;
  readonly valueDelta: number;
  readonly lastSeen: string | null;
  readonly colourUp: ColourUpStatus;
  /** Records the station said it still had to send when it was last heard from. */
  readonly behind: number;
  readonly openRace: { readonly raceId: string; readonly status: FoldedRaceStatus } | null;
  readonly corrections: number;
  readonly refusals: number;
  readonly abandoned: number;
  readonly chips: readonly DenominationChips[];
  readonly failures: readonly ChainFailure[];
}

export interface FloorStatus {
  readonly tables: readonly TableStatus[];
  readonly totals: { readonly races: number; readonly valueDelta: number; readonly corrections: number; readonly refusals: number; readonly chips: readonly DenominationChips[] };
}

/** Tables in the order a person reads them: "2" before "10", then by name. */
export const byTableName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true }) || (a < b ? -1 : a > b ? 1 : 0);

function mergeChips(into: Map<number, { collect: number; bring: number }>, chip: number, collect: number, bring: number): void {
  const kept = into.get(chip) ?? { collect: 0, bring: 0 };
  into.set(chip, { collect: kept.collect + collect, bring: kept.bring + bring });
}
const chipsList = (chips: Map<number, { collect: number; bring: number }>): DenominationChips[] => [...chips.entries()].sort(([a], [b]) => a - b).map(([chip, { collect, bring }]) => ({ chip, collect, bring }));

/** The floor's status from the summary tables: two queries, whatever the number of records. */
export async function readFloorStatus(client: ClientBase): Promise<FloorStatus> {
  const tables = await client.query<{ table_name: string; colour_up: ColourUpStatus | null; last_seen: Date | null; behind: number | null; open_race: string | null; open_status: FoldedRaceStatus | null; races: number; value_delta: string; corrections: number; refusals: number; abandoned: number; failures: { seq: number; reason: string }[] }>(
    `SELECT t.table_name, s.colour_up, coalesce(c.last_seen, (SELECT max(received_at) FROM station_records WHERE table_name = t.table_name AND seq = s.folded_seq)) AS last_seen, c.behind, s.open_race, o.status AS open_status,
       coalesce(a.races, 0)::int AS races, coalesce(a.value_delta, 0)::text AS value_delta, coalesce(a.corrections, 0)::int AS corrections, coalesce(a.refusals, 0)::int AS refusals, coalesce(a.abandoned, 0)::int AS abandoned,
       coalesce((SELECT jsonb_agg(jsonb_build_object('seq', seq, 'reason', reason) ORDER BY seq) FROM chain_failures WHERE table_name = t.table_name), '[]') AS failures
     FROM floor_tables t
     LEFT JOIN floor_table_state s USING (table_name)
     LEFT JOIN station_contact c USING (table_name)
     LEFT JOIN floor_races o ON o.table_name = t.table_name AND o.race_id = s.open_race
     LEFT JOIN (SELECT table_name, count(*) FILTER (WHERE status = 'confirmed') AS races, sum(value_delta) FILTER (WHERE status = 'confirmed') AS value_delta,
                  sum(corrections) AS corrections, sum(refusals) AS refusals, count(*) FILTER (WHERE status = 'abandoned') AS abandoned
                FROM floor_races GROUP BY table_name) a ON a.table_name = t.table_name`,
  );
  const chips = await client.query<{ table_name: string; chip: string; collect: string; bring: string }>(
    `SELECT table_name, removed AS chip, sum(collect) AS collect, 0 AS bring FROM floor_races WHERE status <> 'abandoned' GROUP BY table_name, removed
     UNION ALL SELECT table_name, next, 0, sum(bring) FROM floor_races WHERE status <> 'abandoned' GROUP BY table_name, next`,
  );
  const byTable = new Map<string, Map<number, { collect: number; bring: number }>>();
  const total = new Map<number, { collect: number; bring: number }>();
  for (const row of chips.rows) {
    let chipsOf = byTable.get(row.table_name);
    if (chipsOf === undefined) byTable.set(row.table_name, (chipsOf = new Map()));
    mergeChips(chipsOf, Number(row.chip), Number(row.collect), Number(row.bring));
    mergeChips(total, Number(row.chip), Number(row.collect), Number(row.bring));
  }
  const list: TableStatus[] = tables.rows
    .map((row) => ({
      table: row.table_name,
      races: row.races,
      valueDelta: Number(row.value_delta),
      lastSeen: row.last_seen === null ? null : row.last_seen.toISOString(),
      colourUp: row.colour_up ?? 'not-started',
      behind: row.behind ?? 0,
      openRace: row.open_race !== null && row.open_status !== null ? { raceId: row.open_race, status: row.open_status } : null,
      corrections: row.corrections,
      refusals: row.refusals,
      abandoned: row.abandoned,
      chips: chipsList(byTable.get(row.table_name) ?? new Map()),
      failures: row.failures.map((failure) => ({ seq: Number(failure.seq), reason: failure.reason })),
    }))
    .sort((a, b) => byTableName(a.table, b.table));
  return {
    tables: list,
    totals: {
      races: sum(list.map((table) => table.races)),
      valueDelta: sum(list.map((table) => table.valueDelta)),
      corrections: sum(list.map((table) => table.corrections)),
      refusals: sum(list.map((table) => table.refusals)),
      chips: chipsList(total),
    },
  };
}

/** Folds what changed, then reads the status. */
export async function floorStatus(client: ClientBase): Promise<FloorStatus> {
  await foldFloor(client);
  return readFloorStatus(client);
}

/** A table's races as the floor folded them, oldest first. */
export async function tableRaces(client: ClientBase, table: string): Promise<FoldedRace[]> {
  const result = await client.query<{ race_id: string; status: FoldedRaceStatus; level: number | null; removed: string; next: string; value_delta: string | null; winners: number[]; started_at: Date; ended_at: Date | null; corrections: number; refusals: number; collect: string; bring: string; first_seq: string; last_seq: string; entry: HistoryEntry | null }>(
    'SELECT * FROM floor_races WHERE table_name = $1 ORDER BY first_seq',
    [table],
  );
  return result.rows.map((row) => ({
    raceId: row.race_id, status: row.status, level: row.level, removed: Number(row.removed), next: Number(row.next), valueDelta: row.value_delta === null ? null : Number(row.value_delta), winners: row.winners,
    startedAt: row.started_at.toISOString(), endedAt: row.ended_at?.toISOString() ?? null, corrections: row.corrections, refusals: row.refusals, collect: Number(row.collect), bring: Number(row.bring),
    firstSeq: Number(row.first_seq), lastSeq: Number(row.last_seq), entry: row.entry,
  }));
}

/** A table's chain failures and whether every stored seal could be checked: its chain as the console's verdicts read it. */
export async function tableChain(client: ClientBase, table: string): Promise<{ report: ChainReport; failures: ChainFailure[] }> {
  const failures = await client.query<{ seq: string; reason: string }>('SELECT seq, reason FROM chain_failures WHERE table_name = $1 ORDER BY seq', [table]);
  const seals = await client.query<{ records: number; checked: boolean | null }>('SELECT count(*)::int AS records, bool_and(seal_checked) AS checked FROM station_records WHERE table_name = $1', [table]);
  const list = failures.rows.map((row) => ({ seq: Number(row.seq), reason: row.reason }));
  const { records = 0, checked = true } = seals.rows[0] ?? {};
  return { report: floorChainReport(list, checked !== false, records), failures: list };
}

/**
 * A race's full record (the console's race record slip) from the lines the floor stored: every
 * card with its seat, round and source, the voids, the refusals, the confirmation, and the
 * chain's verdict as the floor checked it on arrival. Null when the floor has no such race.
 */
export async function floorRaceRecord(client: ClientBase, table: string, raceId: string): Promise<RaceRecord | null> {
  const race = await client.query<{ first_seq: string; last_seq: string; status: string }>('SELECT first_seq, last_seq, status FROM floor_races WHERE table_name = $1 AND race_id = $2', [table, raceId]);
  const row = race.rows[0];
  if (row === undefined) return null;
  const open = row.status === 'racing' || row.status === 'waiting-to-confirm';
  const result = await client.query<StoredLine & { hash: string }>(
    `SELECT seq, ${AT_AS_WRITTEN} AS at, record, hash FROM station_records WHERE table_name = $1 AND seq >= $2 ${open ? '' : 'AND seq <= $3'} ORDER BY seq`,
    open ? [table, row.first_seq] : [table, row.first_seq, row.last_seq],
  );
  const lines: { line: JournalLine<SessionRecord>; seal: string | null }[] = [];
  for (const stored of result.rows) {
    const record = stored.record;
    if (!isSessionRecord(record) || !('raceId' in record) || record.raceId !== raceId) continue;
    lines.push({ line: { seq: Number(stored.seq), at: stored.at, record }, seal: stored.hash });
  }
  const { report } = await tableChain(client, table);
  return buildRecord(raceId, lines, report);
}

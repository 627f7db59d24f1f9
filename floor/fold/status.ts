import type { ClientBase } from 'pg';
import { addChips, type ChipsByDenomination, type RaceChipSheet } from '../../engine/race/summary';
import { READER_HEALTH_SUMMARY, type ReaderHealthSummary } from '../../protocol/readerHealth';
import { parse } from '../../protocol/schema';
import { COLOUR_UP_STATUSES, type ColourUpStatus, type LeftFinished, type TableFlag } from '../../replay/colourUpReading';
import { exchangeSheet, type FoldedExchange, type FoldedRaceStatus, type FoldProblem } from '../../replay/tableFold';
import { allDecisions, type FloorDecision } from '../decisions';
import { finishedBreaksOf, isWaitedFor, settledStatus, type ChainFailure } from './colourUp';
import { EXCHANGE_JSON, foldFloor, noJit } from './store';

/** The floor's status, read from the summary tables the fold keeps (floor/fold/store.ts). */

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Chips of one denomination a table (or the tournament) gives up and needs. */
export interface DenominationChips {
  readonly chip: number;
  readonly collect: number;
  readonly bring: number;
}

/** A race a line damaged at the station cost: its confirmation lost (`confirmed` false: status 'damaged') or a line of it (confirmed, marked). */
export interface DamagedRace {
  readonly raceId: string;
  readonly seq: number | null;
  readonly confirmed: boolean;
}

/** What a damaged line cost a race, in words for the exports and the chip audit (the page says it in its language): `confirmed; record 12 of it damaged at the station`, `damaged: record 12 of it lost at the station; not confirmed`. */
export function damagedInWords(damaged: { readonly seq: number | null; readonly confirmed: boolean }): string {
  const record = damaged.seq === null ? 'a record' : `record ${damaged.seq}`;
  return damaged.confirmed ? `confirmed; ${record} of it damaged at the station` : `damaged: ${record} of it lost at the station; not confirmed`;
}

export interface TableStatus {
  readonly table: string;
  readonly races: number;
  /** The chip value the table's confirmed races and its exchanges outside a race created (negative: removed). */
  readonly valueDelta: number;
  readonly lastSeen: string | null;
  /** At the break its station is on; playing since it finished its last break (the sheet's), that break's: done or closed. */
  readonly colourUp: ColourUpStatus;
  /** Records the station said it still had to send when it was last heard from. */
  readonly behind: number;
  readonly openRace: { readonly raceId: string; readonly status: FoldedRaceStatus } | null;
  /** What flags the table (its last abandoned race or call of the floor, with the race it is about), settled or not; null: nothing. */
  readonly flag?: TableFlag | null;
  /** The director closed the open race on the floor (a `race-closed` decision naming it: a table broken mid-colour-up): who, and why. */
  readonly openRaceClosed?: { readonly by: string; readonly note: string } | null;
  readonly corrections: number;
  readonly refusals: number;
  readonly abandoned: number;
  /** Every break's chips per denomination: its races' (abandoned ones aside) and its exchanges outside a race. */
  readonly chips: readonly DenominationChips[];
  readonly failures: readonly ChainFailure[];
  /** Records the floor holds that the fold has not folded yet: what the page and the status are behind by. */
  readonly foldBehind: number;
  /** Records the fold passed over (the first few), and why: the table is disputed until the director settles them. */
  readonly foldProblems: readonly FoldProblem[];
  /** Damaged lines the station sent as evidence (the first few seqs): amber, the chain verified again from the next record. */
  readonly damaged: readonly number[];
  /** Its races a damaged line cost (FoldedRace.damaged), oldest first: `confirmed` false, the race is 'damaged' (not counted); absent: none. */
  readonly damagedRaces?: readonly DamagedRace[];
  /** The chip runner's sheet (tableSheet): chips to bring to the table and to collect from it, per denomination, for the break `sheetAfterLevel`. */
  readonly bring: ChipsByDenomination;
  readonly collect: ChipsByDenomination;
  /** The break the sheet is for (the level it falls after): null when the table has had none. */
  readonly sheetAfterLevel: number | null;
  /** The breaks (the levels they follow) the table finished before its station left them (finishedBreaksOf); absent: none. */
  readonly finishedBreaks?: readonly number[];
  /** The chips exchanged outside a race on that sheet (its break's: FoldedExchange), in the order recorded: the sheet lists each. */
  readonly exchanges?: readonly FoldedExchange[];
  /** The station's card reader, as it last reported it (protocol/readerHealth.ts): null when it never did, has no reader in use, or sent what does not read. */
  readonly readerHealth?: ReaderHealthSummary | null;
  /** Whether its station was ever heard from: a record stored, a line refused, or a connection (station_contact); false: no break waits for it (isWaitedFor). Absent: heard from. */
  readonly heardFrom?: boolean;
}

/** A station's reader health as its contact row holds it, read again by the one schema (the database's checks aside, a station may send anything): null when none, or when it does not read. */
export function readerHealthOf(row: { readonly reader_verdict: unknown; readonly reader_frames: unknown; readonly reader_unknown: unknown; readonly reader_checksum: unknown; readonly reader_repeats: unknown; readonly reader_held: unknown }): ReaderHealthSummary | null {
  if (row.reader_verdict === null || row.reader_verdict === undefined) return null;
  try {
    return parse(READER_HEALTH_SUMMARY, { verdict: row.reader_verdict, frames: row.reader_frames, unknown: row.reader_unknown, checksum: row.reader_checksum, repeats: row.reader_repeats, held: row.reader_held });
  } catch {
    return null;
  }
}

/**
 * The progress board of the current break: how many tables are at each colour-up status, and how
 * many are left (every table not finished: isFinished), so the director sees at a glance whether play can resume.
 */
export type BreakProgress = Readonly<Record<ColourUpStatus, number>> & { readonly left: number };

/** The board from the tables' statuses: the counts add up to the tables, `left` is every one the break waits for (isWaitedFor: not done nor closed by the floor, its station heard from). */
export function breakProgress(tables: readonly Pick<TableStatus, 'colourUp' | 'heardFrom'>[]): BreakProgress {
  const counts = Object.fromEntries(COLOUR_UP_STATUSES.map((status) => [status, 0])) as Record<ColourUpStatus, number>;
  for (const table of tables) counts[table.colourUp] += 1;
  return { ...counts, left: tables.filter(isWaitedFor).length };
}

export interface FloorStatus {
  readonly tables: readonly TableStatus[];
  /** The current break's progress board (breakProgress). */
  readonly progress: BreakProgress;
  /** Records not folded yet, all tables together. */
  readonly foldBehind: number;
  readonly totals: {
    readonly races: number;
    readonly valueDelta: number;
    readonly corrections: number;
    readonly refusals: number;
    readonly chips: readonly DenominationChips[];
    /** The tables' sheets added together (each table's for its own break: tableSheet). */
    readonly bring: ChipsByDenomination;
    readonly collect: ChipsByDenomination;
  };
}

/** Tables in the order a person reads them: "2" before "10", then by name. */
/** One collator for every comparison (localeCompare with a locale and options makes one each call: 11–15 ms to sort 500 names, 0.5–0.8 with this). */
const TABLE_NAME_ORDER = new Intl.Collator('en', { numeric: true });
export const byTableName = (a: string, b: string) => TABLE_NAME_ORDER.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

function mergeChips(into: Map<number, { collect: number; bring: number }>, chip: number, collect: number, bring: number): void {
  const kept = into.get(chip) ?? { collect: 0, bring: 0 };
  into.set(chip, { collect: kept.collect + collect, bring: kept.bring + bring });
}
const chipsList = (chips: Map<number, { collect: number; bring: number }>): DenominationChips[] => [...chips.entries()].sort(([a], [b]) => a - b).map(([chip, { collect, bring }]) => ({ chip, collect, bring }));

/** The floor's status from the summary tables (what is folded): two queries, whatever the number of records. */
export async function readFloorStatus(client: ClientBase): Promise<FloorStatus> {
  await noJit(client);
  const tables = await client.query<{ table_name: string; colour_up: ColourUpStatus | null; last_seen: Date | null; behind: number | null; open_race: string | null; open_status: FoldedRaceStatus | null; races: number; value_delta: string; corrections: string; refusals: string; abandoned: number; failures: { seq: number; reason: string }[]; fold_behind: string; problems: FoldProblem[] | null; problem_count: number | null; fold_error: string | null; error_seq: string | null; damaged: number[] | null; sheet_break: number | null; sheets: RaceChipSheet[]; base_colour_up: ColourUpStatus | null; flag_kind: TableFlag['kind'] | null; flag_seq: string | null; flag_race: string | null; left_finished: LeftFinished[] | null; break_marked: number | null; open_closed: { by: string; note: string } | null; exchanges: FoldedExchange[]; reader_verdict: unknown; reader_frames: unknown; reader_unknown: unknown; reader_checksum: unknown; reader_repeats: unknown; reader_held: unknown; heard: boolean; damaged_races: DamagedRace[] | null }>(
    `SELECT t.table_name, s.colour_up, coalesce(c.last_seen, (SELECT max(received_at) FROM station_records WHERE table_name = t.table_name AND seq = s.folded_seq)) AS last_seen, c.behind, s.open_race, o.status AS open_status,
       c.reader_verdict, c.reader_frames, c.reader_unknown, c.reader_checksum, c.reader_repeats, c.reader_held,
       coalesce(a.races, 0)::int AS races, (coalesce(a.value_delta, 0) + coalesce((SELECT sum(value_delta) FROM floor_exchanges WHERE table_name = t.table_name), 0))::text AS value_delta, coalesce(a.corrections, 0)::text AS corrections, coalesce(a.refusals, 0)::text AS refusals, coalesce(a.abandoned, 0)::int AS abandoned,
       coalesce((SELECT jsonb_agg(jsonb_build_object('seq', seq, 'reason', reason) ORDER BY seq) FROM chain_failures WHERE table_name = t.table_name), '[]') AS failures,
       greatest(coalesce(r.last_seq, 0) - coalesce(s.folded_seq, 0), 0)::text AS fold_behind,
       (r.last_seq IS NOT NULL OR c.table_name IS NOT NULL OR EXISTS (SELECT FROM chain_failures WHERE table_name = t.table_name)) AS heard,
       s.problems, s.problem_count, s.fold_error, s.error_seq::text, s.damaged, s.base_colour_up, s.flag_kind, s.flag_seq::text, s.flag_race, s.left_finished, s.break_marked,
       (SELECT jsonb_build_object('by', d.decided_by, 'note', d.note) FROM floor_decisions d WHERE d.table_name = t.table_name AND d.decision = 'race-closed' AND d.race_id = s.open_race ORDER BY d.id DESC LIMIT 1) AS open_closed,
       b.level AS sheet_break,
       coalesce((SELECT jsonb_agg(r.sheet ORDER BY r.first_seq) FROM floor_races r WHERE r.table_name = t.table_name AND r.level = b.level AND r.status <> 'abandoned' AND r.sheet IS NOT NULL), '[]') AS sheets,
       coalesce((SELECT jsonb_agg(${EXCHANGE_JSON} ORDER BY e.seq) FROM floor_exchanges e WHERE e.table_name = t.table_name AND e.after_level = b.level), '[]') AS exchanges,
       (SELECT jsonb_agg(jsonb_build_object('raceId', d.race_id, 'seq', d.damaged->'seq', 'confirmed', d.damaged->'confirmed') ORDER BY d.first_seq) FROM floor_races d WHERE d.table_name = t.table_name AND d.damaged IS NOT NULL) AS damaged_races
     FROM floor_tables t
     LEFT JOIN floor_table_state s USING (table_name)
     LEFT JOIN LATERAL (SELECT coalesce(s.break_marked, (SELECT level FROM floor_races WHERE table_name = t.table_name AND level IS NOT NULL ORDER BY first_seq DESC LIMIT 1)) AS level) b ON true
     LEFT JOIN station_contact c USING (table_name)
     LEFT JOIN LATERAL (SELECT max(seq) AS last_seq FROM station_records WHERE table_name = t.table_name) r ON true
     LEFT JOIN floor_races o ON o.table_name = t.table_name AND o.race_id = s.open_race
     LEFT JOIN (SELECT table_name, count(*) FILTER (WHERE status = 'confirmed') AS races, sum(value_delta) FILTER (WHERE status = 'confirmed') AS value_delta,
                  sum(corrections) AS corrections, sum(refusals) AS refusals, count(*) FILTER (WHERE status = 'abandoned') AS abandoned
                FROM floor_races GROUP BY table_name) a ON a.table_name = t.table_name`,
  );
  const chips = await client.query<{ table_name: string; chip: string; collect: string; bring: string }>(
    `SELECT table_name, removed AS chip, sum(collect) AS collect, 0 AS bring FROM floor_races WHERE status <> 'abandoned' GROUP BY table_name, removed
     UNION ALL SELECT table_name, next, 0, sum(bring) FROM floor_races WHERE status <> 'abandoned' GROUP BY table_name, next
     UNION ALL SELECT table_name, removed, sum(count), 0 FROM floor_exchanges GROUP BY table_name, removed
     UNION ALL SELECT table_name, next, 0, sum(given) FROM floor_exchanges GROUP BY table_name, next`,
  );
  // The decisions settle the flags here, by the one rule the pages and exports use too (settlingDecision).
  const decisionsByTable = new Map<string, FloorDecision[]>();
  for (const decision of await allDecisions(client)) decisionsByTable.set(decision.table, [...(decisionsByTable.get(decision.table) ?? []), decision]);
  const flagOf = (row: { flag_kind: TableFlag['kind'] | null; flag_seq: string | null; flag_race: string | null }): TableFlag | null => (row.flag_kind === null || row.flag_seq === null ? null : { kind: row.flag_kind, seq: Number(row.flag_seq), raceId: row.flag_race });
  const byTable = new Map<string, Map<number, { collect: number; bring: number }>>();
  const total = new Map<number, { collect: number; bring: number }>();
  for (const row of chips.rows) {
    let chipsOf = byTable.get(row.table_name);
    if (chipsOf === undefined) byTable.set(row.table_name, (chipsOf = new Map()));
    mergeChips(chipsOf, Number(row.chip), Number(row.collect), Number(row.bring));
    mergeChips(total, Number(row.chip), Number(row.collect), Number(row.bring));
  }
  const list: TableStatus[] = tables.rows
    .map((row) => {
      const failures = row.failures.map((failure) => ({ seq: Number(failure.seq), reason: failure.reason }));
      const foldProblems: FoldProblem[] = [
        ...(row.problems ?? []).map((problem) => ({ seq: Number(problem.seq), reason: problem.reason })),
        ...(row.fold_error === null ? [] : [{ seq: Number(row.error_seq ?? 0), reason: 'fold-failed' as const, detail: row.fold_error }]),
      ];
      // A chain failure, or a record the fold could not take: for the director to settle first.
      const disputed = failures.length > 0 || foldProblems.length > 0 || (row.problem_count ?? 0) > 0;
      const sheets = [...row.sheets, ...row.exchanges.map(exchangeSheet)];
      const decisions = decisionsByTable.get(row.table_name) ?? [];
      const finishedBreaks = finishedBreaksOf(row.left_finished ?? [], decisions, disputed);
      // Its station playing since it finished its last break (the sheet's): finished with it, as the held break counts it.
      const lastLeft = row.break_marked === null && row.sheet_break !== null && finishedBreaks.includes(row.sheet_break) ? (row.left_finished ?? []).find((each) => each.afterLevel === row.sheet_break) : undefined;
      const base = lastLeft?.base ?? row.base_colour_up;
      return {
        table: row.table_name,
        races: row.races,
        valueDelta: Number(row.value_delta),
        lastSeen: row.last_seen === null ? null : row.last_seen.toISOString(),
        colourUp: disputed
          ? 'disputed'
          : base === null
            ? (row.colour_up ?? 'not-started')
            : settledStatus(base, flagOf(row), decisions, false, row.open_closed !== null),
        flag: flagOf(row),
        behind: row.behind ?? 0,
        openRace: row.open_race !== null && row.open_status !== null ? { raceId: row.open_race, status: row.open_status } : null,
        openRaceClosed: row.open_closed,
        corrections: Number(row.corrections),
        refusals: Number(row.refusals),
        abandoned: row.abandoned,
        chips: chipsList(byTable.get(row.table_name) ?? new Map()),
        failures,
        foldBehind: Number(row.fold_behind),
        foldProblems,
        damaged: (row.damaged ?? []).map(Number),
        ...(row.damaged_races === null ? {} : { damagedRaces: row.damaged_races }),
        // The sheet as tableSheet makes it: the races and the exchanges of the break chosen in the query, added up.
        bring: addChips(...sheets.map((sheet) => sheet.bring)),
        collect: addChips(...sheets.map((sheet) => sheet.collect)),
        sheetAfterLevel: row.sheet_break,
        finishedBreaks,
        exchanges: row.exchanges,
        readerHealth: readerHealthOf(row),
        heardFrom: row.heard,
      };
    })
    .sort((a, b) => byTableName(a.table, b.table));
  return {
    tables: list,
    progress: breakProgress(list),
    foldBehind: sum(list.map((table) => table.foldBehind)),
    totals: {
      races: sum(list.map((table) => table.races)),
      valueDelta: sum(list.map((table) => table.valueDelta)),
      corrections: sum(list.map((table) => table.corrections)),
      refusals: sum(list.map((table) => table.refusals)),
      chips: chipsList(total),
      bring: addChips(...list.map((table) => table.bring)),
      collect: addChips(...list.map((table) => table.collect)),
    },
  };
}

/** How long `floor status` (a one-shot, with no floor page folding beside it, perhaps) folds before it reads. */
export const STATUS_FOLD_BUDGET_MS = 1000;

/**
 * Folds what changed for at most `budgetMs` (waiting for a table the page's background fold holds
 * just now), then reads what is folded (saying how far behind it is).
 */
export async function floorStatus(client: ClientBase, budgetMs = STATUS_FOLD_BUDGET_MS): Promise<FloorStatus> {
  await foldFloor(client, budgetMs, { waitForBusy: true });
  return readFloorStatus(client);
}

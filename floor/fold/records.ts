import type { ClientBase } from 'pg';
import type { RaceChipSheet } from '../../engine/race/summary';
import type { ChainReport } from '../../journal/findings';
import type { JournalLine } from '../../journal/read';
import type { HistoryEntry, RaceRecord } from '../../protocol/contract';
import { isFloorsDecision } from '../../replay/colourUpReading';
import { buildRecord } from '../../replay/raceRecord';
import { isSessionRecord, type SessionRecord } from '../../replay/session';
import { foldLines } from '../../replay/tableProjection';
import { problemOf, type FoldedExchange, type FoldedRace, type FoldedRaceStatus, type FoldState } from '../../replay/tableFold';
import { tableDecisions } from '../decisions';
import { floorChainReport, type ChainFailure } from './colourUp';
import { AT_VERIFIED, EXCHANGE_JSON, FOLD_BATCH, foldLine, storedLines, type StoredLine } from './store';

/** A table's races, exchanges, history, chain and a race's record, read from what the floor stored and folded. */

/** A table's races as the floor folded them, oldest first. */
export async function tableRaces(client: ClientBase, table: string): Promise<FoldedRace[]> {
  const result = await client.query<{ race_id: string; status: FoldedRaceStatus; level: number | null; removed: string; next: string; value_delta: string | null; winners: number[]; started_at: Date; ended_at: Date | null; corrections: string; refusals: string; collect: string; bring: string; sheet: RaceChipSheet | null; first_seq: string; last_seq: string; damaged: FoldedRace['damaged'] | null }>(
    'SELECT race_id, status, level, removed, next, value_delta, winners, started_at, ended_at, corrections, refusals, collect, bring, sheet, first_seq, last_seq, damaged FROM floor_races WHERE table_name = $1 ORDER BY first_seq',
    [table],
  );
  return result.rows.map((row) => ({
    raceId: row.race_id, status: row.status, level: row.level, removed: Number(row.removed), next: Number(row.next), valueDelta: row.value_delta === null ? null : Number(row.value_delta), winners: row.winners,
    startedAt: row.started_at.toISOString(), endedAt: row.ended_at?.toISOString() ?? null, corrections: Number(row.corrections), refusals: Number(row.refusals), collect: Number(row.collect), bring: Number(row.bring), sheet: row.sheet,
    firstSeq: Number(row.first_seq), lastSeq: Number(row.last_seq), ...(row.damaged == null ? {} : { damaged: row.damaged }),
  }));
}

/**
 * A table's confirmed races as its console's history keeps them (the export's rows), replayed from
 * its records through the last one folded, by the fold's own foldLines: the races the page shows,
 * with the same verdicts. Replayed when asked rather than kept by the fold: some 7 KB a race,
 * written for every race and read by an export only, was a third of the first fold's time.
 */
export async function tableHistory(client: ClientBase, table: string): Promise<HistoryEntry[]> {
  const history: HistoryEntry[] = [];
  for await (const page of tableHistoryPages((use) => use(client), table)) history.push(...page);
  return history;
}

/** Runs `use` with a database client (the floor page's: one from its pool, given back after). */
export type WithClient = <T>(use: (client: ClientBase) => Promise<T>) => Promise<T>;

/**
 * The same races a page at a time: `lines` stored lines read (each page with a client `read` lends
 * for it alone, so a long export holds none between pages) and replayed, their races handed on.
 */
export async function* tableHistoryPages(read: WithClient, table: string, lines = FOLD_BATCH): AsyncGenerator<readonly HistoryEntry[], void, undefined> {
  const kept = await read((client) => client.query<{ folded_seq: string }>('SELECT folded_seq FROM floor_table_state WHERE table_name = $1', [table]));
  const through = Number(kept.rows[0]?.folded_seq ?? 0);
  let state: FoldState | null = null;
  for (let after = 0; after < through; ) {
    const from = after;
    const page = await read((client) => storedLines(client, table, from, through, lines));
    const last = page.at(-1);
    if (last === undefined) break;
    const fold = foldLines(page, last.seq, state);
    yield fold.history;
    state = fold.state;
    after = last.seq;
  }
}

/** A table's chips exchanged outside a race as the floor folded them, in the order recorded. */
export async function tableExchanges(client: ClientBase, table: string): Promise<FoldedExchange[]> {
  const result = await client.query<{ exchange: FoldedExchange }>(`SELECT ${EXCHANGE_JSON} AS exchange FROM floor_exchanges e WHERE e.table_name = $1 ORDER BY e.seq`, [table]);
  return result.rows.map((row) => row.exchange);
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
 * card with its seat, round and source, the voids, the refusals, the confirmation, the floor
 * called about it and the decisions on it, and the chain's verdict as the floor checked it on arrival. Null when the floor has no such race.
 */
export async function floorRaceRecord(client: ClientBase, table: string, raceId: string): Promise<RaceRecord | null> {
  const race = await client.query<{ first_seq: string; last_seq: string; status: string }>('SELECT first_seq, last_seq, status FROM floor_races WHERE table_name = $1 AND race_id = $2', [table, raceId]);
  const row = race.rows[0];
  if (row === undefined) return null;
  const open = row.status === 'racing' || row.status === 'waiting-to-confirm';
  // A closed race's lines, and the station's records of the floor called about it or the director's
  // decision on it after its last line (issue 43: the record has no gap where they came).
  const result = await client.query<StoredLine & { hash: string }>(
    `SELECT seq, ${AT_VERIFIED} AS at, record, hash FROM station_records WHERE table_name = $1 AND seq >= $2 ${open ? '' : "AND (seq <= $3 OR (record->>'kind' IN ('floor-called', 'floor-decision') AND record->>'raceId' = $4))"} ORDER BY seq`,
    open ? [table, row.first_seq] : [table, row.first_seq, row.last_seq, raceId],
  );
  const lines: { line: JournalLine<SessionRecord>; seal: string | null }[] = [];
  // The director's decisions as the station kept them: only those that are the floor's own (isFloorsDecision).
  const decided = result.rows.some((stored) => (stored.record as { kind?: unknown } | null)?.kind === 'floor-decision') ? await tableDecisions(client, table) : [];
  for (const stored of result.rows) {
    const record = stored.record;
    if (stored.at === null || problemOf(foldLine(stored)) !== null || !isSessionRecord(record) || !('raceId' in record) || record.raceId !== raceId) continue;
    if (record.kind === 'floor-decision' && !isFloorsDecision(record, decided)) continue;
    lines.push({ line: { seq: Number(stored.seq), at: stored.at, record }, seal: stored.hash });
  }
  const { report } = await tableChain(client, table);
  return buildRecord(raceId, lines, report);
}

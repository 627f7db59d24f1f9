import type { ClientBase } from 'pg';
import { addChips, type ChipsByDenomination, type RaceChipSheet } from '../engine/race/summary';
import { CSV_BOM, CSV_EOL, csvLine, decisionForJson, localTime, type CsvOptions } from '../replay/csv';
import type { FloorDecisionNote } from '../protocol/races';
import { floorDecisionsCell } from '../replay/historyExport';
import { readCalls } from './calls';
import { allDecisions, decisionNote, settlingDecision } from './decisions';
import { byTableName, damagedInWords, EXCHANGE_JSON, exchangeSheet, type FoldedExchange, type FoldedRace, type FoldedRaceStatus } from './fold';

/**
 * The tournament in one summary for the chip audit (issue 23): per table and in all, the races
 * confirmed and abandoned, the value they created, the chips taken off (removed) and brought on
 * (added) per denomination, and the disputes: every abandoned race with its reason and every
 * record whose chain failed on the floor, and every call of the floor from a table (issue 43), each
 * with the director's decision on it when one is recorded.
 *
 * Every figure is the floor's folded races' own (floor_races: the value delta and the chip sheet
 * of each confirmed race, engine/race/summary.ts raceChipSheet), added up, never figures of its
 * own; an abandoned race moves no chips and creates no value. A dispute's `decision` is null until
 * the director records one (the CSV's cell empty).
 *
 * The chips a station exchanged outside a race (floor_exchanges: late-found, TDA 24C, and
 * discretionary colour-ups, TDA 25B) are chips moved and value created like a race's, and each is
 * listed on its own line: a late-found one against the race it belongs to and that race's break
 * (`raceLevel`), as the rules record it, whatever round of the runner's it was handed out in
 * (`afterLevel`: floor/fold.ts FoldedExchange).
 */

/** Chips of one denomination: taken off the tables (`removed`) and brought on (`added`). */
export interface DenominationMoves {
  readonly chip: number;
  readonly removed: number;
  readonly added: number;
}

/** `damaged`: a race whose confirmation was lost at the station (a damaged line: floor/fold.ts FoldedRace), not confirmed, nothing of it counted. */
export type DisputeKind = 'abandoned' | 'chain-failure' | 'floor-called' | 'damaged';

export interface SummaryDispute {
  readonly table: string;
  readonly kind: DisputeKind;
  /** The race abandoned, or the one the call named (null: a chain failure, which is a record's; a call about no race). */
  readonly race: string | null;
  /** The record: the abandon's, the call's, or the one whose chain failed. */
  readonly seq: number | null;
  /** When (UTC, ISO), as the station wrote it: null when the floor has no time for it. */
  readonly at: string | null;
  /** The abandon's reason, the dealer's note of a call, why a chain failed. */
  readonly reason: string;
  /** The director's decision that settles it (floor/decisions.ts settlingDecision): when, who, what, the note; null while none has. */
  readonly decision: FloorDecisionNote | null;
}

/** An exchange outside a race on the chip audit's list. */
export interface SummaryExchange extends FoldedExchange {
  readonly table: string;
  /** The break of the race a late-found exchange belongs to (null: discretionary, or a race not at a break or unknown to the floor). */
  readonly raceLevel: number | null;
}

export interface TableSummary {
  readonly table: string;
  readonly races: number;
  readonly abandoned: number;
  /** Chips exchanged outside a race (their chips and value are in `chips` and `valueDelta`). */
  readonly exchanges: number;
  readonly valueDelta: number;
  readonly chips: readonly DenominationMoves[];
  readonly disputes: number;
}

export interface TournamentSummary {
  readonly tables: readonly TableSummary[];
  readonly totals: Omit<TableSummary, 'table'>;
  readonly disputes: readonly SummaryDispute[];
  readonly exchanges: readonly SummaryExchange[];
}

/** The chips a table's (or the tournament's) races moved: their chip sheets, each side added up (engine/race/summary.ts addChips). */
interface Moves {
  readonly collect: ChipsByDenomination[];
  readonly bring: ChipsByDenomination[];
}

function movesList(moves: Moves): DenominationMoves[] {
  const removed = addChips(...moves.collect);
  const added = addChips(...moves.bring);
  const chips = [...new Set([...Object.keys(removed), ...Object.keys(added)].map(Number))].sort((a, b) => a - b);
  return chips.map((chip) => ({ chip, removed: removed[String(chip)] ?? 0, added: added[String(chip)] ?? 0 }));
}

/** The summary, from what the floor has folded (fold first for the latest: the page's fold does, `floor summary` folds before it reads). */
export async function tournamentSummary(client: ClientBase): Promise<TournamentSummary> {
  const tables = await client.query<{ table_name: string }>('SELECT table_name FROM floor_tables');
  const races = await client.query<{ table_name: string; race_id: string; status: FoldedRaceStatus; value_delta: string | null; sheet: RaceChipSheet | null; ended_at: Date | null; reason: string | null; abandon_seq: string | null; damaged: FoldedRace['damaged'] | null }>(
    `SELECT r.table_name, r.race_id, r.status, r.value_delta::text AS value_delta, r.sheet, r.ended_at, a.reason, a.seq::text AS abandon_seq, r.damaged
     FROM floor_races r
     LEFT JOIN LATERAL (
       SELECT s.record->>'reason' AS reason, s.seq FROM station_records s
       WHERE r.status = 'abandoned' AND s.table_name = r.table_name AND s.kind = 'race-abandon' AND s.record->>'raceId' = r.race_id AND s.seq <= r.last_seq
       ORDER BY s.seq DESC LIMIT 1
     ) a ON true
     WHERE r.status IN ('confirmed', 'abandoned', 'damaged')
     ORDER BY r.table_name, r.first_seq`,
  );
  const failures = await client.query<{ table_name: string; seq: string; reason: string; at: Date | null }>(
    `SELECT f.table_name, f.seq::text AS seq, f.reason, s.at FROM chain_failures f LEFT JOIN station_records s ON s.table_name = f.table_name AND s.seq = f.seq ORDER BY f.table_name, f.seq`,
  );
  const exchanges = await client.query<{ table_name: string; exchange: FoldedExchange; race_level: number | null }>(
    `SELECT e.table_name, ${EXCHANGE_JSON} AS exchange, r.level AS race_level
     FROM floor_exchanges e LEFT JOIN floor_races r ON r.table_name = e.table_name AND r.race_id = e.race_id
     ORDER BY e.table_name, e.seq`,
  );
  const byTable = new Map<string, { races: number; abandoned: number; valueDelta: number; moves: Moves; disputes: SummaryDispute[]; exchanges: SummaryExchange[] }>();
  const of = (table: string) => {
    let kept = byTable.get(table);
    if (kept === undefined) {
      kept = { races: 0, abandoned: 0, valueDelta: 0, moves: { collect: [], bring: [] }, disputes: [], exchanges: [] };
      byTable.set(table, kept);
    }
    return kept;
  };
  for (const row of tables.rows) of(row.table_name);
  for (const row of races.rows) {
    const table = of(row.table_name);
    if (row.status === 'confirmed') {
      table.races += 1;
      table.valueDelta += Number(row.value_delta ?? 0);
      if (row.sheet !== null) {
        table.moves.collect.push(row.sheet.collect);
        table.moves.bring.push(row.sheet.bring);
      }
    } else if (row.status === 'damaged') {
      // Not confirmed: no value, no chips; for the director to settle, as an abandoned race is.
      const damaged = row.damaged ?? { seq: null, confirmed: false };
      table.disputes.push({ table: row.table_name, kind: 'damaged', race: row.race_id, seq: damaged.seq, at: row.ended_at?.toISOString() ?? null, reason: damagedInWords(damaged), decision: null });
    } else {
      table.abandoned += 1;
      table.disputes.push({ table: row.table_name, kind: 'abandoned', race: row.race_id, seq: row.abandon_seq === null ? null : Number(row.abandon_seq), at: row.ended_at?.toISOString() ?? null, reason: row.reason ?? '', decision: null });
    }
  }
  for (const row of exchanges.rows) {
    const table = of(row.table_name);
    const sheet = exchangeSheet(row.exchange);
    table.valueDelta += row.exchange.valueDelta;
    table.moves.collect.push(sheet.collect);
    table.moves.bring.push(sheet.bring);
    table.exchanges.push({ ...row.exchange, table: row.table_name, raceLevel: row.exchange.reason === 'late-found' ? row.race_level : null });
  }
  for (const row of failures.rows) {
    of(row.table_name).disputes.push({ table: row.table_name, kind: 'chain-failure', race: null, seq: Number(row.seq), at: row.at?.toISOString() ?? null, reason: row.reason, decision: null });
  }
  for (const call of await readCalls(client)) of(call.table).disputes.push({ table: call.table, kind: 'floor-called', race: call.raceId, seq: call.seq, at: call.at, reason: call.note, decision: null });
  // Each dispute with the decision that settles it, in the record's order within its table.
  const decisions = await allDecisions(client);
  for (const [name, table] of byTable) {
    const own = decisions.filter((decision) => decision.table === name);
    table.disputes.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    table.disputes = table.disputes.map((dispute) => {
      const settling = settlingDecision(dispute, own);
      return settling === null ? dispute : { ...dispute, decision: decisionNote(settling) };
    });
  }
  const all: Moves = { collect: [], bring: [] };
  const summaries: TableSummary[] = [];
  const disputes: SummaryDispute[] = [];
  const exchanged: SummaryExchange[] = [];
  for (const name of [...byTable.keys()].sort(byTableName)) {
    const table = byTable.get(name) as NonNullable<ReturnType<typeof byTable.get>>;
    all.collect.push(...table.moves.collect);
    all.bring.push(...table.moves.bring);
    summaries.push({ table: name, races: table.races, abandoned: table.abandoned, exchanges: table.exchanges.length, valueDelta: table.valueDelta, chips: movesList(table.moves), disputes: table.disputes.length });
    disputes.push(...table.disputes);
    exchanged.push(...table.exchanges);
  }
  return {
    tables: summaries,
    totals: {
      races: summaries.reduce((sum, table) => sum + table.races, 0),
      abandoned: summaries.reduce((sum, table) => sum + table.abandoned, 0),
      exchanges: exchanged.length,
      valueDelta: summaries.reduce((sum, table) => sum + table.valueDelta, 0),
      chips: movesList(all),
      disputes: disputes.length,
    },
    disputes,
    exchanges: exchanged,
  };
}

/** The summary of a floor with nothing folded. */
export const EMPTY_SUMMARY: TournamentSummary = { tables: [], totals: { races: 0, abandoned: 0, exchanges: 0, valueDelta: 0, chips: [], disputes: 0 }, disputes: [], exchanges: [] };

/** What the CSV calls the tournament's own row (beside the tables' names). */
export const ALL_TABLES = 'all tables';

/**
 * The summary as CSV (replay/csv.ts: the byte-order mark, the separator, the quoting), in four
 * blocks a blank line apart, each with its header: the races and value per table (and in all), the
 * chips per denomination per table (and in all), the disputes (abandoned races, chain failures and
 * calls of the floor) with their decisions, and the chips exchanged outside a race (their chips and
 * value are in the first two blocks already).
 */
export function summaryCsv(summary: TournamentSummary, options: CsvOptions = {}): string {
  const line = (cells: readonly (string | number)[]) => csvLine(cells, options.separator);
  const lines: string[] = [line(['table', 'races', 'abandoned', 'value created', 'disputes'])];
  for (const table of [...summary.tables, { ...summary.totals, table: ALL_TABLES }]) lines.push(line([table.table, table.races, table.abandoned, table.valueDelta, table.disputes]));
  lines.push('', line(['table', 'denomination', 'chips removed', 'chips added', 'value removed', 'value added']));
  for (const table of [...summary.tables, { ...summary.totals, table: ALL_TABLES }]) {
    for (const { chip, removed, added } of table.chips) lines.push(line([table.table, chip, removed, added, chip * removed, chip * added]));
  }
  lines.push('', line(['table', 'dispute', 'race', 'record', 'at', 'at local', 'reason', 'decision']));
  for (const dispute of summary.disputes) {
    lines.push(line([dispute.table, dispute.kind, dispute.race ?? '', dispute.seq ?? '', dispute.at ?? '', localTime(dispute.at, options.offsetOf), dispute.reason, dispute.decision === null ? '' : floorDecisionsCell([dispute.decision], options.decisionWord)]));
  }
  lines.push('', line(['table', 'exchange', 'race', 'race break', 'sheet break', 'seat', 'denomination', 'chips removed', 'next denomination', 'chips added', 'chips lost', 'value created', 'record', 'at', 'at local', 'note']));
  for (const exchange of summary.exchanges) {
    lines.push(line([
      exchange.table, exchange.reason, exchange.raceId ?? '', exchange.raceLevel ?? '', exchange.afterLevel ?? '', exchange.seat ?? '', exchange.removed, exchange.count, exchange.next, exchange.given, exchange.lost, exchange.valueDelta,
      exchange.seq, exchange.at, localTime(exchange.at, options.offsetOf), exchange.note,
    ]));
  }
  return `${CSV_BOM}${lines.join(CSV_EOL)}${CSV_EOL}`;
}

/** The summary as JSON (the document itself, two-space indented). */
export function summaryJson(summary: TournamentSummary): string {
  // Each dispute's decision with its words beside its key, as the other JSON exports write it.
  const disputes = summary.disputes.map((dispute) => (dispute.decision === null ? dispute : { ...dispute, decision: decisionForJson(dispute.decision) }));
  return `${JSON.stringify({ ...summary, disputes }, null, 2)}\n`;
}

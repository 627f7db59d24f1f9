import type { ClientBase } from 'pg';
import type { HistoryEntry, JournalReport } from '../protocol/contract';
import { chainOf } from '../journal/findings';
import { CSV_BOM, CSV_EOL, csvLine, decisionForJson, localTime, type CsvOptions } from '../replay/csv';
import { floorDecisionsCell, HISTORY_CSV_COLUMNS, historyCsvCells } from '../replay/historyExport';
import { answerOf, tableCalls, type FloorCall } from './calls';
import { allDecisions, decisionNote, type FloorDecision } from './decisions';
import { byTableName, tableChain, tableExchanges, tableHistory, type FoldedExchange } from './fold';

/**
 * The whole tournament's confirmed races for the director's spreadsheet: the console's own export
 * (replay/historyExport.ts, the same columns, the same formula-safe cells) of every table, each
 * row led by the floor's name of the table, and each race's chain verdict as the floor checked it.
 * The director's decisions: a confirmed race's in its row (the console's `floor decision` column);
 * the others (an abandoned race's, a call of the floor's) in a row of their own after the table's
 * races, only the table and that column filled. The JSON lists every table's decisions.
 *
 * The chips a table exchanged outside a race (late-found, TDA 24C; discretionary, TDA 25B:
 * FoldedExchange) each have a row of their own after its races: the race a late-found one belongs
 * to, the break whose sheet it is on, when, the chips (removed, next), the value it removed and its
 * record, and the whole exchange in words in the last column (the station's columns have no cells
 * for its count or reason). The JSON lists them per table, their value in the table's.
 */

interface TableHistory {
  readonly table: string;
  readonly history: readonly HistoryEntry[];
  readonly journal: JournalReport;
  readonly failures: readonly { readonly seq: number; readonly reason: string }[];
  readonly decisions: readonly FloorDecision[];
  readonly calls: readonly FloorCall[];
  readonly exchanges: readonly FoldedExchange[];
}

async function histories(client: ClientBase): Promise<TableHistory[]> {
  const tables = await client.query<{ table_name: string }>('SELECT table_name FROM floor_tables');
  const out: TableHistory[] = [];
  const decided = await allDecisions(client);
  for (const table of tables.rows.map((row) => row.table_name).sort(byTableName)) {
    const { report, failures } = await tableChain(client, table);
    const journal: JournalReport = { path: `floor:${table}`, records: 0, findings: report.findings, chain: report.chain, unchained: 0, unchainedThrough: 0, readOnly: null };
    const decisions = decided.filter((decision) => decision.table === table);
    const exchanges = await tableExchanges(client, table);
    const history = (await tableHistory(client, table)).map((entry) => {
      const own = decisions.filter((decision) => decision.raceId === entry.id).map(decisionNote);
      // Its late-found chips (TDA 24C) in its row's own column, as the station's export has them (main/service/chipExchanges.ts forRace); each also has its row below.
      const found = exchanges.filter((exchange) => exchange.reason === 'late-found' && exchange.raceId === entry.id).map(({ afterLevel: _level, ...note }) => note);
      return { ...entry, ...(own.length === 0 ? {} : { floorDecisions: own }), ...(found.length === 0 ? {} : { chipExchanges: found }) };
    });
    out.push({ table, history, journal, failures, decisions, calls: await tableCalls(client, table), exchanges });
  }
  return out;
}

export const FLOOR_TABLE_COLUMN = 'floor table';

/** An exchange in words, for the spreadsheet: `late-found race-1, seat 1: 5 × 25 for 1 × 100, 1 × 25 removed: under the rail`. */
export function exchangeText(exchange: FoldedExchange): string {
  const which = exchange.reason === 'late-found' ? `late-found ${exchange.raceId ?? ''}` : 'discretionary';
  const seat = exchange.seat === null ? '' : `, seat ${exchange.seat}`;
  const lost = exchange.lost === 0 ? '' : `, ${exchange.lost} × ${exchange.removed} removed`;
  return `${which}${seat}: ${exchange.count} × ${exchange.removed} for ${exchange.given} × ${exchange.next}${lost}${exchange.note === '' ? '' : `: ${exchange.note}`}`;
}

/** An exchange's row's cells under the station's columns (HISTORY_CSV_COLUMNS): the ones it has, the rest empty. */
function exchangeCells(exchange: FoldedExchange, options: CsvOptions): (string | number)[] {
  const cells: Readonly<Record<string, string | number>> = {
    race: exchange.raceId ?? '', level: exchange.afterLevel ?? '', confirmed: exchange.at, 'confirmed local': localTime(exchange.at, options.offsetOf), removed: exchange.removed, next: exchange.next,
    'value delta': exchange.valueDelta, records: exchange.seq, 'floor decision': exchangeText(exchange),
  };
  return HISTORY_CSV_COLUMNS.map((column) => cells[column] ?? '');
}

/**
 * The CSV (replay/csv.ts: the byte-order mark, the separator the office's locale expects unless
 * told, local times in the floor's time zone beside the UTC ones): the station's columns led by
 * the floor's name of the table.
 */
export async function floorCsv(client: ClientBase, options: CsvOptions = {}): Promise<string> {
  const tables = await histories(client);
  const rows: string[] = [csvLine([FLOOR_TABLE_COLUMN, ...HISTORY_CSV_COLUMNS], options.separator)];
  for (const table of tables) {
    for (const entry of table.history) rows.push(csvLine([table.table, ...historyCsvCells(entry, table.journal, options)], options.separator));
    const confirmed = new Set(table.history.map((entry) => entry.id));
    for (const decision of table.decisions.filter((decision) => decision.raceId === null || !confirmed.has(decision.raceId))) {
      // The race's id first (when it names one), the decision in the last column, the rest empty.
      const cells = HISTORY_CSV_COLUMNS.map((_, index, all) => (index === 0 ? (decision.raceId ?? '') : index === all.length - 1 ? floorDecisionsCell([decisionNote(decision)], options.decisionWord) : ''));
      rows.push(csvLine([table.table, ...cells], options.separator));
    }
    for (const exchange of table.exchanges) rows.push(csvLine([table.table, ...exchangeCells(exchange, options)], options.separator));
  }
  return `${CSV_BOM}${rows.join(CSV_EOL)}${CSV_EOL}`;
}

/** The value a table's confirmed races and its exchanges outside a race created. */
const valueCreated = (table: TableHistory): number => table.history.reduce((sum, entry) => sum + (entry.summary.valueDelta ?? 0), 0) + table.exchanges.reduce((sum, exchange) => sum + exchange.valueDelta, 0);

export async function floorJson(client: ClientBase): Promise<string> {
  const tables = await histories(client);
  const document = {
    tables: tables.map((table) => ({
      table: table.table,
      chain: table.journal.chain,
      chainFailures: table.failures,
      races: table.history.map((entry) => ({ ...entry, ...(entry.floorDecisions === undefined ? {} : { floorDecisions: entry.floorDecisions.map(decisionForJson) }), chain: chainOf(table.journal, entry.seqs.first, entry.seqs.last).chain })),
      valueDelta: valueCreated(table),
      decisions: table.decisions.map((decision) => decisionForJson(decisionNote(decision))),
      // The dealer's calls of the floor (issue 43), each with the id of the decision that answered it (null: waiting).
      calls: table.calls.map((call) => ({ ...call, answeredBy: answerOf(call, table.decisions)?.id ?? null })),
      exchanges: table.exchanges,
    })),
    totalValueDelta: tables.reduce((sum, table) => sum + valueCreated(table), 0),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

import type { ClientBase } from 'pg';
import type { HistoryEntry, JournalReport } from '../protocol/contract';
import { chainOf } from '../journal/findings';
import { CSV_BOM, CSV_EOL, csvLine, decisionForJson, localTime, type CsvOptions } from '../replay/csv';
import { floorDecisionsCell, HISTORY_CSV_COLUMNS, historyCsvCells, nested } from '../replay/historyExport';
import { answerOf, tableCalls, type FloorCall } from './calls';
import { allDecisions, decisionNote, type FloorDecision } from './decisions';
import { byTableName, damagedInWords, tableChain, tableExchanges, tableHistoryPages, type FoldedExchange, type WithClient } from './fold';

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

/** A table's parts beside its races: each small, read whole (its races are read a page at a time). */
interface TableParts {
  readonly table: string;
  readonly journal: JournalReport;
  readonly failures: readonly { readonly seq: number; readonly reason: string }[];
  readonly decisions: readonly FloorDecision[];
  readonly calls: readonly FloorCall[];
  readonly exchanges: readonly FoldedExchange[];
}

/**
 * How many stored lines the export replays at a time: a page folded between two reads of the
 * database, short enough that the pages and the other requests the floor answers meanwhile wait
 * for it only briefly (the fold's own FOLD_BATCH, 20,000, kept the event loop some 100 ms).
 */
export const EXPORT_PAGE_LINES = 500;

/** Gives the event loop its turn: the export yields control between its pieces, however long the floor's history. */
const yieldControl = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The tables, by name as the floor orders them, and every decision (a few each). */
async function tablesAndDecisions(read: WithClient): Promise<{ tables: string[]; decided: FloorDecision[] }> {
  return read(async (client) => {
    const tables = await client.query<{ table_name: string }>('SELECT table_name FROM floor_tables');
    return { tables: tables.rows.map((row) => row.table_name).sort(byTableName), decided: await allDecisions(client) };
  });
}

async function tableParts(read: WithClient, table: string, decided: readonly FloorDecision[]): Promise<TableParts> {
  return read(async (client) => {
    const { report, failures } = await tableChain(client, table);
    const journal: JournalReport = { path: `floor:${table}`, records: 0, findings: report.findings, chain: report.chain, unchained: 0, unchainedThrough: 0, readOnly: null };
    return { table, journal, failures, decisions: decided.filter((decision) => decision.table === table), calls: await tableCalls(client, table), exchanges: await tableExchanges(client, table) };
  });
}

/**
 * A table's confirmed races a page at a time (floor/fold.ts tableHistoryPages), each with the
 * director's decisions on it and its late-found chips, as the export lists them.
 */
async function* tableRacePages(read: WithClient, parts: TableParts, pageLines: number): AsyncGenerator<HistoryEntry[], void, undefined> {
  for await (const page of tableHistoryPages(read, parts.table, pageLines)) {
    yield page.map((entry) => {
      const own = parts.decisions.filter((decision) => decision.raceId === entry.id).map(decisionNote);
      // Its late-found chips (TDA 24C) in its row's own column, as the station's export has them (replay/chipExchange.ts forRace); each also has its row below.
      const found = parts.exchanges.filter((exchange) => exchange.reason === 'late-found' && exchange.raceId === entry.id).map(({ afterLevel: _level, ...note }) => note);
      return { ...entry, ...(own.length === 0 ? {} : { floorDecisions: own }), ...(found.length === 0 ? {} : { chipExchanges: found }) };
    });
  }
}

export const FLOOR_TABLE_COLUMN = 'floor table';
/** The floor's last column: a race's status (FoldedRaceStatus: `confirmed`, or `damaged` when its confirmation was lost at the station), with what a damaged line cost it. */
export const FLOOR_STATUS_COLUMN = 'floor status';

/** A history entry's status as the floor folds it (floor/fold.ts foldLines): `damaged` when its confirmation was lost at the station (not confirmed, its value not counted). */
export const exportStatus = (entry: HistoryEntry): 'confirmed' | 'damaged' => (entry.damaged?.confirmed === false ? 'damaged' : 'confirmed');

/** The status column's cell: `confirmed`, `confirmed; record 12 of it damaged at the station`, `damaged: record 12 of it lost at the station; not confirmed`. */
export const statusCell = (entry: HistoryEntry): string => (entry.damaged === undefined ? 'confirmed' : damagedInWords(entry.damaged));

const VALUE_DELTA_CELL = HISTORY_CSV_COLUMNS.indexOf('value delta');

/** A race's row: the station's cells (a damaged race's value delta left empty: it created none the floor counts), then its status. */
function raceCells(entry: HistoryEntry, journal: JournalReport, options: CsvOptions): (string | number)[] {
  const cells = historyCsvCells(entry, journal, options);
  return [...(exportStatus(entry) === 'damaged' ? cells.map((cell, index) => (index === VALUE_DELTA_CELL ? '' : cell)) : cells), statusCell(entry)];
}

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
  return [...HISTORY_CSV_COLUMNS.map((column) => cells[column] ?? ''), ''];
}

/**
 * The CSV (replay/csv.ts: the byte-order mark, the separator the office's locale expects unless
 * told, local times in the floor's time zone beside the UTC ones): the station's columns led by
 * the floor's name of the table. Written piece by piece (the header, then each page of a table's
 * races, then its decisions and exchanges), each piece read with a client `read` lends for it, and
 * control given back between pieces: what is held is one page.
 */
export async function* floorCsvChunks(read: WithClient, options: CsvOptions = {}, pageLines = EXPORT_PAGE_LINES): AsyncGenerator<string, void, undefined> {
  yield `${CSV_BOM}${csvLine([FLOOR_TABLE_COLUMN, ...HISTORY_CSV_COLUMNS, FLOOR_STATUS_COLUMN], options.separator)}${CSV_EOL}`;
  const { tables, decided } = await tablesAndDecisions(read);
  for (const name of tables) {
    const table = await tableParts(read, name, decided);
    const confirmed = new Set<string>();
    for await (const page of tableRacePages(read, table, pageLines)) {
      if (page.length === 0) continue;
      for (const entry of page) confirmed.add(entry.id);
      await yieldControl();
      yield page.map((entry) => `${csvLine([table.table, ...raceCells(entry, table.journal, options)], options.separator)}${CSV_EOL}`).join('');
    }
    const rows: string[] = [];
    for (const decision of table.decisions.filter((decision) => decision.raceId === null || !confirmed.has(decision.raceId))) {
      // The race's id first (when it names one), the decision in the last column, the rest empty.
      const cells = [...HISTORY_CSV_COLUMNS.map((_, index, all) => (index === 0 ? (decision.raceId ?? '') : index === all.length - 1 ? floorDecisionsCell([decisionNote(decision)], options.decisionWord) : '')), ''];
      rows.push(csvLine([table.table, ...cells], options.separator));
    }
    for (const exchange of table.exchanges) rows.push(csvLine([table.table, ...exchangeCells(exchange, options)], options.separator));
    if (rows.length === 0) continue;
    await yieldControl();
    yield rows.map((row) => `${row}${CSV_EOL}`).join('');
  }
}

/** The whole CSV as one string: the stream's pieces joined (tests, the bench; the page streams it). */
export async function floorCsv(client: ClientBase, options: CsvOptions = {}): Promise<string> {
  return joined(floorCsvChunks((use) => use(client), options));
}

async function joined(pieces: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}

/**
 * The JSON: `{ tables: [{ table, chain, chainFailures, races, valueDelta, decisions, calls,
 * exchanges }], totalValueDelta }`, written piece by piece as floorCsvChunks is (a table's head,
 * each page of its races, its tail; the totals added up on the way), byte for byte what
 * JSON.stringify(document, null, 2) writes of the whole document (replay/historyExport.ts `nested`).
 */
export async function* floorJsonChunks(read: WithClient, pageLines = EXPORT_PAGE_LINES): AsyncGenerator<string, void, undefined> {
  yield '{\n  "tables": [';
  const { tables, decided } = await tablesAndDecisions(read);
  let total = 0;
  for (const [index, name] of tables.entries()) {
    const table = await tableParts(read, name, decided);
    await yieldControl();
    yield `${index === 0 ? '' : ','}\n    {\n      "table": ${JSON.stringify(table.table)},\n      "chain": ${JSON.stringify(table.journal.chain)},\n      "chainFailures": ${nested(table.failures, 3)},\n      "races": [`;
    let races = 0;
    let first = true;
    for await (const page of tableRacePages(read, table, pageLines)) {
      if (page.length === 0) continue;
      let piece = '';
      for (const entry of page) {
        // A damaged race (its confirmation lost at the station) created no value the floor counts.
        const status = exportStatus(entry);
        if (status === 'confirmed') races += entry.summary.valueDelta ?? 0;
        const race = { ...entry, ...(entry.floorDecisions === undefined ? {} : { floorDecisions: entry.floorDecisions.map(decisionForJson) }), chain: chainOf(table.journal, entry.seqs.first, entry.seqs.last).chain, status };
        piece += `${first ? '' : ','}\n        ${nested(race, 4)}`;
        first = false;
      }
      await yieldControl();
      yield piece;
    }
    // The value the table's races and its exchanges outside a race created.
    const value = races + table.exchanges.reduce((sum, exchange) => sum + exchange.valueDelta, 0);
    total += value;
    const decisions = table.decisions.map((decision) => decisionForJson(decisionNote(decision)));
    // The dealer's calls of the floor (issue 43), each with the id of the decision that answered it (null: waiting).
    const calls = table.calls.map((call) => ({ ...call, answeredBy: answerOf(call, table.decisions)?.id ?? null }));
    await yieldControl();
    yield `${first ? ']' : '\n      ]'},\n      "valueDelta": ${JSON.stringify(value)},\n      "decisions": ${nested(decisions, 3)},\n      "calls": ${nested(calls, 3)},\n      "exchanges": ${nested(table.exchanges, 3)}\n    }`;
  }
  await yieldControl();
  yield `${tables.length === 0 ? ']' : '\n  ]'},\n  "totalValueDelta": ${JSON.stringify(total)}\n}\n`;
}

/** The whole JSON as one string: the stream's pieces joined. */
export async function floorJson(client: ClientBase): Promise<string> {
  return joined(floorJsonChunks((use) => use(client)));
}

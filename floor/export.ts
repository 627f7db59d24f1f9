import type { ClientBase } from 'pg';
import type { HistoryEntry, JournalReport } from '../protocol/contract';
import { chainOf } from '../journal/findings';
import { csvCell, historyCsv } from '../replay/historyExport';
import { byTableName, tableChain, tableHistory } from './fold';

/**
 * The whole tournament's confirmed races for the director's spreadsheet: the console's own export
 * (replay/historyExport.ts, the same columns, the same formula-safe cells) of every table, each
 * row led by the floor's name of the table, and each race's chain verdict as the floor checked it.
 */

interface TableHistory {
  readonly table: string;
  readonly history: readonly HistoryEntry[];
  readonly journal: JournalReport;
  readonly failures: readonly { readonly seq: number; readonly reason: string }[];
}

async function histories(client: ClientBase): Promise<TableHistory[]> {
  const tables = await client.query<{ table_name: string }>('SELECT table_name FROM floor_tables');
  const out: TableHistory[] = [];
  for (const table of tables.rows.map((row) => row.table_name).sort(byTableName)) {
    const { report, failures } = await tableChain(client, table);
    const journal: JournalReport = { path: `floor:${table}`, records: 0, findings: report.findings, chain: report.chain, unchained: 0, unchainedThrough: 0, readOnly: null };
    out.push({ table, history: await tableHistory(client, table), journal, failures });
  }
  return out;
}

export const FLOOR_TABLE_COLUMN = 'floor table';

export async function floorCsv(client: ClientBase): Promise<string> {
  const tables = await histories(client);
  const header = historyCsv([], { path: '', records: 0, findings: [], chain: 'empty', unchained: 0, unchainedThrough: 0, readOnly: null }).split('\r\n')[0] as string;
  const rows: string[] = [`${csvCell(FLOOR_TABLE_COLUMN)},${header}`];
  for (const table of tables) {
    if (table.history.length === 0) continue;
    const lines = historyCsv(table.history, table.journal).split('\r\n').slice(1).filter((line) => line !== '');
    for (const line of lines) rows.push(`${csvCell(table.table)},${line}`);
  }
  return `${rows.join('\r\n')}\r\n`;
}

export async function floorJson(client: ClientBase): Promise<string> {
  const tables = await histories(client);
  const document = {
    tables: tables.map((table) => ({
      table: table.table,
      chain: table.journal.chain,
      chainFailures: table.failures,
      races: table.history.map((entry) => ({ ...entry, chain: chainOf(table.journal, entry.seqs.first, entry.seqs.last).chain })),
      valueDelta: table.history.reduce((sum, entry) => sum + (entry.summary.valueDelta ?? 0), 0),
    })),
    totalValueDelta: tables.reduce((sum, table) => sum + table.history.reduce((inner, entry) => inner + (entry.summary.valueDelta ?? 0), 0), 0),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

// Issue 44 (low): six parallel /export.json requests slowed the floor's overview from 0.14 s to
// 3.3 s: each export was one whole string (every table's races replayed, then one JSON.stringify),
// made while holding one of the page's four database clients. The floor's exports are streamed now
// (floor/export.ts): a page of stored lines read at a time with a client lent for that read only,
// control given back between pieces, written as the connection takes them. Here: the stream is
// byte for byte the one-string export (the code before this change, kept below as the reference),
// over HTTP too; it yields control between pieces. The overview's latency with exports in flight is
// the bench's (`npm run bench -- floorExports`), not a timed unit test's. A real PostgreSQL server.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientBase } from 'pg';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainOf } from '../journal/findings';
import type { HistoryEntry, JournalReport } from '../protocol/contract';
import { CSV_BOM, CSV_EOL, csvLine, decisionForJson, type CsvOptions } from '../replay/csv';
import { floorDecisionsCell, HISTORY_CSV_COLUMNS, historyCsvCells } from '../replay/historyExport';
import { answerOf, tableCalls, type FloorCall } from '../floor/calls';
import { ensureTable } from '../floor/db/stations';
import { allDecisions, decisionNote, recordDecision, type FloorDecision } from '../floor/decisions';
import { EXPORT_PAGE_LINES, exchangeText, exportStatus, floorCsv, floorCsvChunks, floorJson, floorJsonChunks, FLOOR_STATUS_COLUMN, FLOOR_TABLE_COLUMN, statusCell } from '../floor/export';
import { byTableName, foldFloor, tableChain, tableExchanges, tableHistory, type FoldedExchange } from '../floor/fold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { ask } from '../floor/testing/requests';
import { syncStation } from '../replication/sync';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import type { ConsoleService } from '../station/service/service';
import { serviceHarness } from '../station/service/testing/services';
import type { ConsoleSettings } from '../protocol/contract';
import { decisionWordIn, localTime, separatorFor } from '../replay/csv';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const TOKEN = 'export-stream-password';
const { serviceIn } = serviceHarness({ clock: () => new Date('2026-12-01T21:00:00Z'), station: 'table-pc' });
const TABLE = (name: string): ConsoleSettings => ({ ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna "Jo", 1' }], button: 3, name } });
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];

async function playRace(service: ConsoleService, n: number): Promise<void> {
  expect(await service.startRace(COUNTS)).toMatchObject({ ok: true });
  for (const card of CARDS) expect(await service.dealCard(`race-${n}`, card)).toMatchObject({ ok: true });
  expect(await service.confirmRace(`race-${n}`)).toMatchObject({ ok: true });
}

async function joined(pieces: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) text += piece;
  return text;
}

// ---- The reference: floor/export.ts as it was before the stream (one string), verbatim but for names. ----
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
      const found = exchanges.filter((exchange) => exchange.reason === 'late-found' && exchange.raceId === entry.id).map(({ afterLevel: _level, ...note }) => note);
      return { ...entry, ...(own.length === 0 ? {} : { floorDecisions: own }), ...(found.length === 0 ? {} : { chipExchanges: found }) };
    });
    out.push({ table, history, journal, failures, decisions, calls: await tableCalls(client, table), exchanges });
  }
  return out;
}
function exchangeCells(exchange: FoldedExchange, options: CsvOptions): (string | number)[] {
  const cells: Readonly<Record<string, string | number>> = {
    race: exchange.raceId ?? '', level: exchange.afterLevel ?? '', confirmed: exchange.at, 'confirmed local': localTime(exchange.at, options.offsetOf), removed: exchange.removed, next: exchange.next,
    'value delta': exchange.valueDelta, records: exchange.seq, 'floor decision': exchangeText(exchange),
  };
  return [...HISTORY_CSV_COLUMNS.map((column) => cells[column] ?? ''), ''];
}
async function oneStringCsv(client: ClientBase, options: CsvOptions = {}): Promise<string> {
  const tables = await histories(client);
  const rows: string[] = [csvLine([FLOOR_TABLE_COLUMN, ...HISTORY_CSV_COLUMNS, FLOOR_STATUS_COLUMN], options.separator)];
  for (const table of tables) {
    // (No race of these is damaged: a damaged one's value cell is empty, system/foldDamaged.test.ts.)
    for (const entry of table.history) rows.push(csvLine([table.table, ...historyCsvCells(entry, table.journal, options), statusCell(entry)], options.separator));
    const confirmed = new Set(table.history.map((entry) => entry.id));
    for (const decision of table.decisions.filter((decision) => decision.raceId === null || !confirmed.has(decision.raceId))) {
      const cells = [...HISTORY_CSV_COLUMNS.map((_, index, all) => (index === 0 ? (decision.raceId ?? '') : index === all.length - 1 ? floorDecisionsCell([decisionNote(decision)], options.decisionWord) : '')), ''];
      rows.push(csvLine([table.table, ...cells], options.separator));
    }
    for (const exchange of table.exchanges) rows.push(csvLine([table.table, ...exchangeCells(exchange, options)], options.separator));
  }
  return `${CSV_BOM}${rows.join(CSV_EOL)}${CSV_EOL}`;
}
const valueCreated = (table: TableHistory): number => table.history.reduce((sum, entry) => sum + (exportStatus(entry) === 'confirmed' ? (entry.summary.valueDelta ?? 0) : 0), 0) + table.exchanges.reduce((sum, exchange) => sum + exchange.valueDelta, 0);
async function oneStringJson(client: ClientBase): Promise<string> {
  const tables = await histories(client);
  const document = {
    tables: tables.map((table) => ({
      table: table.table,
      chain: table.journal.chain,
      chainFailures: table.failures,
      races: table.history.map((entry) => ({ ...entry, ...(entry.floorDecisions === undefined ? {} : { floorDecisions: entry.floorDecisions.map(decisionForJson) }), chain: chainOf(table.journal, entry.seqs.first, entry.seqs.last).chain, status: exportStatus(entry) })),
      valueDelta: valueCreated(table),
      decisions: table.decisions.map((decision) => decisionForJson(decisionNote(decision))),
      calls: table.calls.map((call) => ({ ...call, answeredBy: answerOf(call, table.decisions)?.id ?? null })),
      exchanges: table.exchanges,
    })),
    totalValueDelta: tables.reduce((sum, table) => sum + valueCreated(table), 0),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
// ---- End of the reference. ----

describe.runIf(run)("the floor's exports, streamed (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let page: FloorServer;
  const dir = mkdtempSync(join(tmpdir(), 'floor-export-stream-'));

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    // Three tables of races (the first of several pages, however small the page), one with none;
    // a decision on a race and one on a race the floor never saw.
    for (const [table, races] of [['7', 4], ['12', 2], ['8', 1]] as const) {
      const dataDir = join(dir, table);
      mkdirSync(dataDir);
      const service = await serviceIn(dataDir);
      expect(await service.saveSettings(TABLE(table))).toEqual({ ok: true, value: null });
      for (let n = 1; n <= races; n += 1) await playRace(service, n);
      await service.close();
      await ensureTable(admin, table);
      await syncStation(admin, table, dataDir);
    }
    await ensureTable(admin, 'empty');
    while ((await foldFloor(admin)).length > 0) {
      // Folded to the end.
    }
    await recordDecision(admin, { table: '12', decision: 'race-stands', note: 'the count was right', by: 'Anna', raceId: 'race-1' });
    await recordDecision(admin, { table: '8', decision: 're-race', note: 'a card "flashed"; again, 1,2', by: 'Anna', raceId: 'race-404' });
    page = await startFloorServer({ databaseUrl: server.url, port: 0, token: TOKEN, log: () => undefined });
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await admin?.end();
    await server?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is byte for byte the one-string export (CSV in each separator and language, JSON), and the page sends the same, chunked', async () => {
    const json = await oneStringJson(admin);
    expect((JSON.parse(json) as { tables: { races: unknown[] }[] }).tables.map((table) => table.races.length).filter((n) => n > 0)).toHaveLength(3);
    expect(await floorJson(admin)).toBe(json);
    // In pages of a few lines (a race in several), the same.
    for (const lines of [1, 7, 40, EXPORT_PAGE_LINES]) expect(await joined(floorJsonChunks((use) => use(admin), lines)), `${lines}`).toBe(json);
    for (const lines of [1, 7, EXPORT_PAGE_LINES]) expect(await joined(floorCsvChunks((use) => use(admin), { separator: ';' }, lines)), `${lines}`).toBe(await oneStringCsv(admin, { separator: ';' }));
    for (const options of [{}, { separator: ';' as const }, { separator: ',' as const, decisionWord: (decision: string) => `«${decision}»` }]) expect(await floorCsv(admin, options)).toBe(await oneStringCsv(admin, options));
    const signedIn = { authorization: `Bearer ${TOKEN}` };
    const overHttp = await ask(page.port, '/export.json', { headers: signedIn });
    expect(overHttp.status).toBe(200);
    expect(overHttp.headers['transfer-encoding']).toBe('chunked');
    expect(overHttp.headers['content-length']).toBeUndefined();
    expect(overHttp.headers['content-disposition']).toBe('attachment; filename="floor.json"');
    expect(overHttp.body).toBe(json);
    const csv = await ask(page.port, '/export.csv?lang=fi', { headers: signedIn });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toBe(await oneStringCsv(admin, { separator: separatorFor('fi'), decisionWord: decisionWordIn('fi') }));
    expect(csv.body).toContain('race-404');
    // A HEAD reads nothing and sends the headers only.
    const head = await ask(page.port, '/export.json', { method: 'HEAD', headers: signedIn });
    expect([head.status, head.body]).toEqual([200, '']);
  }, 120_000);

  it('yields control between its pieces: a callback queued before each piece is asked for has run before it comes', async () => {
    for (const pieces of [floorJsonChunks((use) => use(admin), 7), floorCsvChunks((use) => use(admin), {}, 7)]) {
      let count = 0;
      for (;;) {
        let ran = false;
        setImmediate(() => (ran = true));
        const next = await pieces.next();
        if (next.done === true) break;
        count += 1;
        if (count > 1) expect(ran, `piece ${count}`).toBe(true);
      }
      // Table 7's races alone come in several pieces.
      expect(count).toBeGreaterThan(6);
    }
  });

  it('lends a database client for each read only: an export paused by its reader holds none, and the pages answer', async () => {
    const signedIn = { authorization: `Bearer ${TOKEN}` };
    // Six exports begun, each reader taking the first piece and then nothing: more than the page's four clients.
    const paused = await Promise.all(Array.from({ length: 6 }, () => pausedExport(page.port, signedIn)));
    try {
      const overview = await ask(page.port, '/?lang=en', { headers: signedIn });
      expect(overview.status).toBe(200);
    } finally {
      for (const request of paused) request.destroy();
    }
  }, 60_000);
});

/** An export request whose reader takes its first bytes and then stops reading (paused). */
async function pausedExport(port: number, headers: Record<string, string>): Promise<{ destroy(): void }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/export.json', headers: { host: `127.0.0.1:${port}`, ...headers }, setHost: false }, (response) => {
      response.once('data', () => {
        response.pause();
        resolve({ destroy: () => sent.destroy() });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

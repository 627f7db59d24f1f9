import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceChipSheet } from '../engine/race/summary';
import type { HistoryEntry } from '../protocol/contract';
import type { ConsoleService } from '../station/service/service';
import { migrate } from '../floor/db/migrate';
import { ensureTable } from '../floor/db/stations';
import { foldFloor } from '../floor/fold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { ALL_TABLES, summaryCsv, summaryJson, tournamentSummary, type DenominationMoves } from '../floor/summary';
import { ask } from '../floor/testing/requests';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { CSV_BOM } from '../replay/csv';
import { valueDeltaOf } from '../replay/session';
import { syncStation } from '../replication/sync';
import { dealUntilComplete, playStation } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..');

/** The chips a station's confirmed races moved, per denomination, from each race's own result (its summary's chip sheet), added up here. */
function movesOf(histories: readonly (readonly HistoryEntry[])[]): DenominationMoves[] {
  const moves = new Map<number, { removed: number; added: number }>();
  for (const history of histories) {
    for (const entry of history) {
      const sheet = raceChipSheet(entry.summary);
      expect(sheet, entry.id).not.toBeNull();
      for (const [chip, count] of Object.entries(sheet?.collect ?? {})) moves.set(Number(chip), { removed: (moves.get(Number(chip))?.removed ?? 0) + count, added: moves.get(Number(chip))?.added ?? 0 });
      for (const [chip, count] of Object.entries(sheet?.bring ?? {})) moves.set(Number(chip), { removed: moves.get(Number(chip))?.removed ?? 0, added: (moves.get(Number(chip))?.added ?? 0) + count });
    }
  }
  return [...moves.entries()].sort(([a], [b]) => a - b).map(([chip, { removed, added }]) => ({ chip, removed, added }));
}

const valueOf = (history: readonly HistoryEntry[]) => history.reduce((sum, entry) => sum + (valueDeltaOf(entry) ?? 0), 0);

/** `npm run --silent floor -- summary …` as a child process, as the office runs it. */
function floorSummary(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'floor', '--', 'summary', ...args], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe.runIf(run)('the per-tournament summary for the chip audit (a real PostgreSQL server)', () => {
  let database: ThrowawayPostgres;
  let admin: pg.Client;
  let guarded: FloorServer;
  const folders: string[] = [];
  const services: ConsoleService[] = [];
  const TOKEN = 'cardroom-floor-password-1';
  const tables: { table: string; service: ConsoleService }[] = [];

  beforeAll(async () => {
    database = await startThrowawayPostgres();
    admin = new pg.Client({ connectionString: database.url });
    admin.on('error', () => undefined);
    await admin.connect();
    await migrate(admin);
    for (const [table, script] of [['7', 'colour-up-racing'], ['Pöytä 2', 'abandoned'], ['Стол 3', 'abandoned']] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'floor-summary-'));
      folders.push(dir);
      const service = await playStation(dir, table, script);
      services.push(service);
      if (script === 'colour-up-racing') {
        // Its colour-up's open race dealt to its end and confirmed: every race of the evening has a result.
        await dealUntilComplete(service, 'race-3');
        expect((await service.confirmRace('race-3')).ok).toBe(true);
      }
      await ensureTable(admin, table);
      await syncStation(admin, table, dir);
      tables.push({ table, service });
    }
    // A forged line the trigger refused on a table of its own: a dispute with no race.
    await ensureTable(admin, 'forged');
    await admin.query("INSERT INTO chain_failures (table_name, seq, reason, line) VALUES ('forged', 4, 'bad-seal', '{}')");
    await foldFloor(admin);
    guarded = await startFloorServer({ databaseUrl: database.url, token: TOKEN, log: () => undefined });
  }, 120_000);

  afterAll(async () => {
    await guarded?.close();
    await Promise.all(services.map((service) => service.close()));
    await admin?.end();
    await database?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('has totals equal to the sum of the races’ own results: races, value created, chips removed and added per denomination', async () => {
    const summary = await tournamentSummary(admin);
    const histories = tables.map(({ service }) => service.history());
    expect(histories.map((history) => history.length)).toEqual([3, 2, 2]);
    expect(summary.tables.map((table) => table.table)).toEqual(['7', 'forged', 'Pöytä 2', 'Стол 3']);
    for (const { table, service } of tables) {
      const row = summary.tables.find((entry) => entry.table === table);
      expect(row).toMatchObject({ races: service.history().length, valueDelta: valueOf(service.history()), chips: movesOf([service.history()]) });
    }
    expect(summary.totals.races).toBe(histories.reduce((sum, history) => sum + history.length, 0));
    expect(summary.totals.valueDelta).toBe(histories.reduce((sum, history) => sum + valueOf(history), 0));
    expect(summary.totals.chips).toEqual(movesOf(histories));
    expect(summary.totals.chips.length).toBeGreaterThanOrEqual(2);
    // The chips moved are worth the value created: an exchange trades equal value, the race's chips and the odd ones are the delta.
    expect(summary.totals.chips.reduce((sum, { chip, removed, added }) => sum + chip * (added - removed), 0)).toBe(summary.totals.valueDelta);
    // The abandoned races moved nothing and are disputes, with their reasons; the forged line is one too. No decision is recorded.
    expect(summary.totals.abandoned).toBe(2);
    expect(summary.disputes.map(({ table, kind, race, reason, decision }) => [table, kind, race, reason, decision])).toEqual([
      ['forged', 'chain-failure', null, 'bad-seal', null],
      ['Pöytä 2', 'abandoned', 'race-2', 'the wrong table counted', null],
      ['Стол 3', 'abandoned', 'race-2', 'the wrong table counted', null],
    ]);
    expect(summary.disputes[1]?.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(summary.totals.disputes).toBe(3);
  });

  it('is a CSV Excel opens (BOM, the locale’s separator, accents and Cyrillic intact, local times) and JSON, behind the floor’s password, linked from its page', async () => {
    const summary = await tournamentSummary(admin);
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect((await ask(guarded.port, '/export/summary.csv')).status).toBe(401);
    expect((await ask(guarded.port, '/export/summary.json')).status).toBe(401);
    const csv = await ask(guarded.port, '/export/summary.csv?lang=en', { headers: bearer });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="floor-summary.csv"');
    expect(csv.body).toBe(summaryCsv(summary, { separator: ',' }));
    expect(csv.body.startsWith(`${CSV_BOM}table,races,abandoned,value created,disputes\r\n`)).toBe(true);
    expect(csv.body).toContain(`\r\n${ALL_TABLES},${summary.totals.races},2,${summary.totals.valueDelta},3\r\n`);
    expect(csv.body).toContain('\r\nPöytä 2,abandoned,race-2,');
    expect(csv.body).toContain('\r\nСтол 3,');
    expect(csv.body).toMatch(/,race-2,\d+,\d{4}-\d{2}-\d{2}T[^,]+,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{2}:\d{2},the wrong table counted,\r\n/);
    const finnish = await ask(guarded.port, '/export/summary.csv?lang=fi', { headers: bearer });
    expect(finnish.body).toBe(summaryCsv(summary, { separator: ';' }));
    expect(finnish.body.startsWith(`${CSV_BOM}table;races;abandoned;value created;disputes\r\n`)).toBe(true);
    expect((await ask(guarded.port, '/export/summary.csv', { headers: { ...bearer, 'accept-language': 'ru-RU' } })).body).toBe(finnish.body);
    expect((await ask(guarded.port, '/export/summary.csv?lang=ru&sep=,', { headers: bearer })).body).toBe(csv.body);
    expect((await ask(guarded.port, '/export/summary.csv?sep=tab', { headers: bearer })).status).toBe(400);
    // The whole tournament's export takes the same separators.
    expect((await ask(guarded.port, '/export.csv?lang=fi', { headers: bearer })).body.startsWith(`${CSV_BOM}floor table;race;table;`)).toBe(true);
    const json = await ask(guarded.port, '/export/summary.json', { headers: bearer });
    expect(json.status).toBe(200);
    expect(json.body).toBe(summaryJson(summary));
    expect(JSON.parse(json.body)).toEqual(JSON.parse(JSON.stringify(summary)));
    for (const [lang, words] of [['en', 'Chip audit summary (CSV)'], ['fi', 'Pelimerkkitarkastuksen yhteenveto (CSV)'], ['ru', 'Сводка для аудита фишек (CSV)']] as const) {
      const page = await ask(guarded.port, `/?lang=${lang}`, { headers: bearer });
      expect(page.body).toContain(`<a href="/export/summary.csv?lang=${lang}" data-testid="export-summary">${words}</a>`);
    }
  });

  it('comes from `npm run --silent floor -- summary` as the page gives it: CSV by LANG or --sep, or JSON', async () => {
    const summary = await tournamentSummary(admin);
    const [english, finnish, chosen, json, bad] = await Promise.all([
      floorSummary(['--database', database.url], { LANG: 'en_GB.UTF-8', LC_ALL: '' }),
      floorSummary(['--database', database.url], { LANG: 'fi_FI.UTF-8', LC_ALL: '' }),
      floorSummary(['--database', database.url, '--sep', ','], { LANG: 'ru_RU.UTF-8', LC_ALL: '' }),
      floorSummary(['--database', database.url, '--format', 'json'], {}),
      floorSummary(['--database', database.url, '--sep', 'tab'], {}),
    ]);
    expect([english.code, english.stderr]).toEqual([0, '']);
    expect(english.stdout).toBe(summaryCsv(summary, { separator: ',' }));
    expect(finnish.stdout).toBe(summaryCsv(summary, { separator: ';' }));
    expect(chosen.stdout).toBe(english.stdout);
    expect(json.stdout).toBe(summaryJson(summary));
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^floor: --sep is , or ;/);
  }, 60_000);
});

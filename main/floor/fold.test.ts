import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../protocol/contract';
import type { ConsoleService } from '../service/service';
import { valueDeltaOf } from '../service/session';
import { migrate } from './db/migrate';
import { ensureTable } from './db/stations';
import { colourUpStatusOf, foldFloor, readFloorStatus, tableRaces } from './fold';
import { syncStation } from './sync';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from './testing/postgres';
import { dealUntilComplete, playStation } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

const line = (seq: number, record: unknown) => ({ seq, at: '2026-12-01T20:00:00.000Z', record });

describe('the colour-up status of a table', () => {
  const mark = (afterLevel: number | null) => ({ kind: 'break-marked', afterLevel });
  const claim = (race: string) => ({ kind: 'color-up-race', race, afterLevel: 6, removed: 500, next: 1000 });
  const start = (raceId: string) => ({ kind: 'race-start', raceId });
  it('is not started before a break, racing or waiting while its race is open, done once confirmed, disputed when abandoned or the chain failed', () => {
    expect(colourUpStatusOf([], false, false)).toBe('not-started');
    expect(colourUpStatusOf([line(1, mark(6))], false, false)).toBe('not-started');
    const racing = [line(1, mark(6)), line(2, claim('race-1')), line(3, start('race-1'))];
    expect(colourUpStatusOf(racing, false, false)).toBe('racing');
    expect(colourUpStatusOf(racing, true, false)).toBe('waiting-to-confirm');
    expect(colourUpStatusOf([...racing, line(4, { kind: 'race-confirm', raceId: 'race-1' })], false, false)).toBe('done');
    expect(colourUpStatusOf([...racing, line(4, { kind: 'race-abandon', raceId: 'race-1', reason: 'x' })], false, false)).toBe('disputed');
    // A race of its own (not claimed by the colour-up) abandoned disputes nothing.
    expect(colourUpStatusOf([line(1, mark(6)), line(2, start('race-1')), line(3, { kind: 'race-abandon', raceId: 'race-1', reason: 'x' })], false, false)).toBe('not-started');
    // A claim not followed at once by its race's start counts for nothing (as on the console).
    expect(colourUpStatusOf([line(1, mark(6)), line(2, claim('race-1')), line(4, start('race-1'))], false, false)).toBe('not-started');
    expect(colourUpStatusOf(racing, false, true)).toBe('disputed');
    // Play resumed: the mark is gone.
    expect(colourUpStatusOf([...racing, line(4, { kind: 'race-confirm', raceId: 'race-1' }), line(5, mark(null))], false, false)).toBe('not-started');
  });
});

describe.runIf(run)('the fold of real consoles\' journals (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const folders: string[] = [];
  const services: ConsoleService[] = [];

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = await connect(server.url);
    await migrate(admin);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  const station = async (table: string, script: 'colour-up-racing' | 'abandoned') => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-fold-'));
    folders.push(dir);
    const service = await playStation(dir, table, script);
    services.push(service);
    await ensureTable(admin, table);
    await syncStation(admin, table, dir);
    return { dir, service };
  };

  it('says of every table what its console says: the same races, value deltas, corrections and refusals', async () => {
    const a = await station('7', 'colour-up-racing');
    const b = await station('Pöytä 2', 'abandoned');
    expect([...(await foldFloor(admin))].sort()).toEqual(['7', 'Pöytä 2']);
    const status = await readFloorStatus(admin);
    const expected = (history: readonly HistoryEntry[]) => history.map((entry) => ({ raceId: entry.id, status: 'confirmed', valueDelta: valueDeltaOf(entry), corrections: entry.corrections, refusals: entry.refusals, winners: entry.summary.awards, startedAt: entry.startedAt, endedAt: entry.confirmedAt, level: entry.level ?? null }));
    for (const { table, service } of [{ table: '7', service: a.service }, { table: 'Pöytä 2', service: b.service }]) {
      const races = await tableRaces(admin, table);
      const confirmed = races.filter((race) => race.status === 'confirmed');
      expect(confirmed).toMatchObject(expected(service.history()));
      expect(confirmed.map((race) => race.entry)).toEqual(JSON.parse(JSON.stringify(service.history())));
      const row = status.tables.find((entry) => entry.table === table);
      expect(row).toMatchObject({ races: service.history().length, valueDelta: service.history().reduce((total, entry) => total + (valueDeltaOf(entry) ?? 0), 0) });
    }
    // Table 7 is in its colour-up's second race, taking cards; Pöytä 2 abandoned a race of its own.
    expect(status.tables.map((table) => [table.table, table.colourUp, table.openRace?.status ?? null])).toEqual([['7', 'racing', 'racing'], ['Pöytä 2', 'not-started', null]]);
    expect((await tableRaces(admin, 'Pöytä 2')).map((race) => [race.raceId, race.status])).toEqual([['race-1', 'confirmed'], ['race-2', 'abandoned'], ['race-3', 'confirmed']]);
    expect(status.tables.find((table) => table.table === 'Pöytä 2')).toMatchObject({ corrections: 1, refusals: 1, abandoned: 1 });
    expect(status.totals.races).toBe(a.service.history().length + b.service.history().length);
    expect(status.totals.valueDelta).toBe(status.tables.reduce((total, table) => total + table.valueDelta, 0));
    // Chips: the counts collected per removed denomination, the exchange and race chips brought per next one.
    const [first] = a.service.history() as [HistoryEntry];
    const seven = status.tables.find((table) => table.table === '7');
    const brought = first.summary.exchange.reduce((total, seat) => total + seat.up, 0) + (first.summary.raceChips ?? 0);
    expect(seven?.chips.find((chips) => chips.chip === first.summary.next)?.bring).toBeGreaterThanOrEqual(brought);
    expect(seven?.chips.find((chips) => chips.chip === first.summary.removed)?.collect).toBeGreaterThanOrEqual(11);

    // Nothing new: nothing folded. The open race goes on and is confirmed: only table 7 is folded, from that race's start.
    expect(await foldFloor(admin)).toEqual([]);
    await dealUntilComplete(a.service, 'race-3');
    await syncStation(admin, '7', a.dir);
    expect(await foldFloor(admin)).toEqual(['7']);
    expect((await readFloorStatus(admin)).tables[0]).toMatchObject({ table: '7', colourUp: 'waiting-to-confirm', openRace: { raceId: 'race-3', status: 'waiting-to-confirm' } });
    expect((await a.service.confirmRace('race-3')).ok).toBe(true);
    await syncStation(admin, '7', a.dir);
    await foldFloor(admin);
    const done = await readFloorStatus(admin);
    expect(done.tables[0]).toMatchObject({ table: '7', colourUp: 'done', openRace: null, races: 3 });
    expect((await tableRaces(admin, '7')).filter((race) => race.status === 'confirmed').map((race) => race.entry)).toEqual(JSON.parse(JSON.stringify(a.service.history())));
  }, 60_000);

  it('marks a table whose chain failed on the floor as disputed, and lists the failure', async () => {
    await ensureTable(admin, 'forged');
    await admin.query("INSERT INTO chain_failures (table_name, seq, reason, line) VALUES ('forged', 3, 'bad-seal', '{}')");
    await foldFloor(admin);
    const status = await readFloorStatus(admin);
    expect(status.tables.find((table) => table.table === 'forged')).toMatchObject({ colourUp: 'disputed', races: 0, failures: [{ seq: 3, reason: 'bad-seal' }], lastSeen: null });
  });
});

import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../protocol/contract';
import { journalPath } from '../journal/location';
import { Sealer } from '../journal/seal';
import type { ConsoleService } from '../station/service/service';
import { valueDeltaOf } from '../replay/session';
import { migrate } from '../floor/db/migrate';
import { createStationLogin, ensureTable } from '../floor/db/stations';
import { colourUpStatusOf, floorStatus, FOLD_LOCK, FOLD_VERSION, foldFloor, readFloorStatus, tableHistory, tableRaces } from '../floor/fold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { ask, until } from '../floor/testing/requests';
import { syncStation } from '../replication/sync';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
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
      expect(await tableHistory(admin, table)).toEqual(JSON.parse(JSON.stringify(service.history())));
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
    expect(await tableHistory(admin, '7')).toEqual(JSON.parse(JSON.stringify(a.service.history())));
  }, 60_000);

  it('marks a table whose chain failed on the floor as disputed, and lists the failure', async () => {
    await ensureTable(admin, 'forged');
    await admin.query("INSERT INTO chain_failures (table_name, seq, reason, line) VALUES ('forged', 3, 'bad-seal', '{}')");
    await foldFloor(admin);
    const status = await readFloorStatus(admin);
    expect(status.tables.find((table) => table.table === 'forged')).toMatchObject({ colourUp: 'disputed', races: 0, failures: [{ seq: 3, reason: 'bad-seal' }], lastSeen: null });
  });
});

/**
 * A record its station sealed, appended to the station's own journal after the last line (its seq
 * and link go on from it): a line the trigger verifies and stores, whatever it says. `text` makes
 * the line's body (without the seal) from the seq and the last line's hash.
 */
function appendSealed(dataDir: string, text: (seq: number, prev: string) => string): number {
  const path = journalPath(dataDir);
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1) as string) as { seq: number; hash: string };
  const seq = last.seq + 1;
  const open = text(seq, last.hash);
  appendFileSync(path, `${open},"hash":"${new Sealer(null).hash(Buffer.from(open))}"}\n`);
  return seq;
}

describe.runIf(run)('nothing a station can seal stops the floor (a real PostgreSQL server, stations on their own logins)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let page: FloorServer | undefined;
  const folders: string[] = [];
  const stations: pg.Client[] = [];

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = await connect(server.url);
    await migrate(admin);
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await Promise.all(stations.map((station) => station.end()));
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  /** A table's station plays its evening, then seals `extra` lines of its own, and sends them all on its own login. */
  const station = async (table: string, extra: ((seq: number, prev: string) => string)[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-hostile-'));
    folders.push(dir);
    const service = await playStation(dir, table, 'colour-up-racing');
    const history = service.history();
    await service.close();
    const seqs = extra.map((text) => appendSealed(dir, text));
    const login = await createStationLogin(admin, table);
    const client = await connect(server.urlFor(login.role, login.password));
    stations.push(client);
    const outcome = await syncStation(client, table, dir);
    expect(outcome.refused).toEqual([]);
    return { history, seqs };
  };

  it('folds what the trigger verified with bounded numbers: a table\'s bad record flags that table, the others are all shown', async () => {
    const good = await station('1', []);
    // A refusal repeated 2^53 − 1 times in the open race: a safe integer, beyond any count a table keeps.
    const counted = await station('2', [(seq, prev) => `{"seq":${seq},"at":"2026-12-01T20:00:00.000Z","run":"x","t":0,"prev":"${prev}","record":{"kind":"refused-again","raceId":"race-3","of":${seq - 1},"count":${Number.MAX_SAFE_INTEGER}}`]);
    // `"at"` twice: the trigger checks the last (jsonb keeps it); the first is no time at all.
    const twice = await station('3', [(seq, prev) => `{"seq":${seq},"at":"not a time","at":"2026-12-01T21:00:00.000Z","run":"x","t":0,"prev":"${prev}","record":{"kind":"race-abandon","raceId":"race-3","reason":"recount"}`]);
    // A time the trigger takes and no page can show.
    const endless = await station('4', [(seq, prev) => `{"seq":${seq},"at":"infinity","run":"x","t":0,"prev":"${prev}","record":{"kind":"race-abandon","raceId":"race-3","reason":"recount"}`]);

    await foldFloor(admin);
    const status = await readFloorStatus(admin);
    expect(status.tables.map((table) => table.table)).toEqual(['1', '2', '3', '4']);
    for (const table of status.tables) expect(table).toMatchObject({ races: good.history.length, foldBehind: 0 });
    expect(status.tables[0]).toMatchObject({ table: '1', colourUp: 'racing', foldProblems: [] });
    expect(status.tables[1]).toMatchObject({ table: '2', colourUp: 'disputed', foldProblems: [{ seq: counted.seqs[0], reason: 'number-out-of-range' }] });
    expect(status.tables[1]?.refusals).toBe(status.tables[0]?.refusals);
    // The abandon folded at the time the trigger verified.
    expect(status.tables[2]).toMatchObject({ table: '3', colourUp: 'disputed', foldProblems: [], openRace: null, abandoned: 1 });
    expect((await tableRaces(admin, '3')).find((race) => race.raceId === 'race-3')).toMatchObject({ status: 'abandoned', endedAt: '2026-12-01T21:00:00.000Z' });
    expect(status.tables[3]).toMatchObject({ table: '4', colourUp: 'disputed', foldProblems: [{ seq: endless.seqs[0], reason: 'bad-time' }], openRace: { raceId: 'race-3', status: 'racing' } });
    expect(twice.seqs).toHaveLength(1);

    // The page, each table's page, a race's record, both exports and `floor status`: every table there.
    page = await startFloorServer({ databaseUrl: server.url, log: () => undefined });
    const overview = await ask(page.port, '/');
    expect(overview.status).toBe(200);
    for (const table of ['1', '2', '3', '4']) expect(overview.body).toContain(`data-table="${table}"`);
    expect(overview.body).toContain('data-testid="fold-problems"');
    expect(overview.body).toContain(`record ${counted.seqs[0]}: a number beyond any table's`.replace("'", '&#39;'));
    for (const table of ['1', '2', '3', '4']) {
      expect((await ask(page.port, `/table?table=${table}`)).status).toBe(200);
      expect((await ask(page.port, `/race?table=${table}&race=race-3`)).status).toBe(200);
    }
    const csv = await ask(page.port, '/export.csv');
    expect(csv.status).toBe(200);
    for (const table of ['1', '2', '3', '4']) expect(csv.body).toContain(`\r\n${table},`);
    const json = await ask(page.port, '/export.json');
    expect(json.status).toBe(200);
    expect((JSON.parse(json.body) as { tables: { table: string }[] }).tables.map((table) => table.table)).toEqual(['1', '2', '3', '4']);
    expect((await floorStatus(admin)).tables.map((table) => [table.table, table.colourUp])).toEqual([['1', 'racing'], ['2', 'disputed'], ['3', 'disputed'], ['4', 'disputed']]);
  }, 120_000);
  it('flags the one table whose fold fails on something unforeseen, with the reason, and folds the others on', async () => {
    // Something no one foresaw, made real: the database refuses what the fold writes for one table.
    await admin.query("ALTER TABLE floor_races ADD CONSTRAINT unforeseen CHECK (table_name <> '6' OR refusals < 0)");
    try {
      await station('5', []);
      await station('6', []);
      await station('7', []);
      // (The page of the test before folds beside this fold: whichever folds a table, it is folded once.)
      await foldFloor(admin);
      await until('every table folded', async () => (await readFloorStatus(admin)).tables.every((table) => table.foldBehind === 0 || table.foldProblems.length > 0));
      const status = await readFloorStatus(admin);
      expect(status.tables.find((table) => table.table === '5')).toMatchObject({ colourUp: 'racing', foldProblems: [], foldBehind: 0 });
      expect(status.tables.find((table) => table.table === '7')).toMatchObject({ colourUp: 'racing', foldProblems: [], foldBehind: 0 });
      const six = status.tables.find((table) => table.table === '6');
      expect(six).toMatchObject({ colourUp: 'disputed', races: 0, foldProblems: [{ reason: 'fold-failed' }] });
      expect(six?.foldProblems[0]?.detail).toMatch(/unforeseen/);
      // Not tried again on every pass: only when its station sends more.
      expect(await foldFloor(admin)).toEqual([]);
    } finally {
      await admin.query('ALTER TABLE floor_races DROP CONSTRAINT unforeseen');
    }
  }, 120_000);
});

describe.runIf(run)('the fold off the request path: in the background, incremental, versioned (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const folders: string[] = [];
  const services: ConsoleService[] = [];
  const pages: FloorServer[] = [];

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = await connect(server.url);
    await migrate(admin);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(pages.map((page) => page.close()));
    await Promise.all(services.map((service) => service.close()));
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  const station = async (table: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-background-'));
    folders.push(dir);
    const service = await playStation(dir, table, 'colour-up-racing');
    services.push(service);
    await ensureTable(admin, table);
    await syncStation(admin, table, dir);
    return { dir, service };
  };
  /**
   * Misread cards in the open race, each a refused line of its own: each read another text, across
   * calls too (the same text again before the next card is counted against its first line, and
   * written with that count later: station/service/refusalRuns.ts).
   */
  let misreads = 0;
  const misread = async (service: ConsoleService, count: number) => {
    for (let index = 0; index < count; index += 1) {
      misreads += 1;
      expect((await service.dealCard('race-3', `Z${misreads}`)).ok).toBe(false);
    }
  };
  const refusalsOf = async (table: string) => (await readFloorStatus(admin)).tables.find((row) => row.table === table)?.refusals;

  it('folds a new record from the state it kept, never the open race\'s earlier records again', async () => {
    const { dir, service } = await station('11');
    // Fewer than a source's allowance of distinct refusals journaled one by one (20 in a row), so
    // each is a line of its own at once.
    await misread(service, 10);
    await syncStation(admin, '11', dir);
    expect(await foldFloor(admin)).toEqual(['11']);
    const before = (await readFloorStatus(admin)).tables[0];
    expect(before).toMatchObject({ table: '11', openRace: { raceId: 'race-3', status: 'racing' }, foldBehind: 0 });
    // The open race's records so far are gone from the floor but the last (as a superuser may: the
    // new record still links to it): a fold that read them again would lose the race; the fold
    // that goes on from its kept state does not.
    await admin.query("DELETE FROM station_records WHERE table_name = '11' AND seq < (SELECT max(seq) FROM station_records WHERE table_name = '11')");
    await misread(service, 1);
    expect((await syncStation(admin, '11', dir)).stored).toBe(1);
    expect(await foldFloor(admin)).toEqual(['11']);
    expect((await readFloorStatus(admin)).tables[0]).toMatchObject({ table: '11', openRace: { raceId: 'race-3', status: 'racing' }, refusals: (before?.refusals ?? 0) + 1, races: before?.races });
  }, 60_000);

  it('folds every table again from its first record when its fold was kept by another version', async () => {
    const { dir, service } = await station('12');
    await misread(service, 3);
    await syncStation(admin, '12', dir);
    await foldFloor(admin);
    const right = await refusalsOf('12');
    // What another version's fold kept: other numbers, another version.
    await admin.query("UPDATE floor_races SET refusals = 999, corrections = 999 WHERE table_name = '12'");
    expect(await foldFloor(admin)).toEqual([]);
    expect(await refusalsOf('12')).not.toBe(right);
    await admin.query("UPDATE floor_table_state SET fold_version = fold_version - 1 WHERE table_name = '12'");
    expect(await foldFloor(admin)).toEqual(['12']);
    expect(await refusalsOf('12')).toBe(right);
    expect((await admin.query<{ fold_version: number }>("SELECT fold_version FROM floor_table_state WHERE table_name = '12'")).rows[0]?.fold_version).toBe(FOLD_VERSION);
  }, 60_000);

  it('`floor status` waits for a table another fold holds just now, and reads the records that had arrived', async () => {
    // The floor page's background fold folding a table at the moment `floor status` runs (system/
    // floorSeating.test.ts saw it: the abandon stored, the status read before the page's fold
    // committed it). Another connection holds the table's fold lock for 300 ms.
    const { dir, service } = await station('15');
    await foldFloor(admin);
    const folded = await refusalsOf('15');
    await misread(service, 2);
    await syncStation(admin, '15', dir);
    const other = await connect(server.url);
    try {
      await other.query(`BEGIN; SELECT pg_advisory_xact_lock(${FOLD_LOCK}, hashtext('15'))`);
      const released = new Promise((resolve) => setTimeout(resolve, 300)).then(() => other.query('COMMIT'));
      const status = await floorStatus(admin);
      await released;
      expect(status.tables.find((row) => row.table === '15')).toMatchObject({ foldBehind: 0, refusals: (folded ?? 0) + 2 });
      // The page's own loop still passes a busy table by: it folds it on its next pass.
      await other.query(`BEGIN; SELECT pg_advisory_xact_lock(${FOLD_LOCK}, hashtext('15'))`);
      await misread(service, 1);
      await syncStation(admin, '15', dir);
      expect(await foldFloor(admin, 1000)).toEqual([]);
      await other.query('COMMIT');
      expect(await foldFloor(admin)).toEqual(['15']);
    } finally {
      await other.end();
    }
  }, 60_000);

  it('pages read what is folded and say how far behind it is; the background fold catches up by itself', async () => {
    const { dir, service } = await station('13');
    // A page whose fold rests for an hour after its first pass: only what that pass folded.
    const resting = await startFloorServer({ databaseUrl: server.url, log: () => undefined, foldEveryMs: 3_600_000 });
    pages.push(resting);
    await foldFloor(admin);
    const folded = await refusalsOf('13');
    await misread(service, 4);
    await syncStation(admin, '13', dir);
    for (const path of ['/', '/table?table=13', '/export.csv', '/export.json', '/race?table=13&race=race-3']) expect((await ask(resting.port, path)).status).toBe(200);
    const behind = await ask(resting.port, '/');
    expect(behind.body).toContain('data-testid="fold-behind"');
    expect(behind.body).toContain('4 records arrived and are not counted yet');
    expect((await readFloorStatus(admin)).tables.find((row) => row.table === '13')).toMatchObject({ foldBehind: 4, refusals: folded });

    const live = await startFloorServer({ databaseUrl: server.url, log: () => undefined });
    pages.push(live);
    await misread(service, 2);
    await syncStation(admin, '13', dir);
    await until('the background fold', async () => !(await ask(live.port, '/')).body.includes('data-testid="fold-behind"'));
    expect((await readFloorStatus(admin)).tables.find((row) => row.table === '13')).toMatchObject({ foldBehind: 0, refusals: (folded ?? 0) + 6 });
  }, 60_000);

  it('folds and reads the status on connections without PostgreSQL\'s JIT, the server keeping its own jit = on', async () => {
    const jitOf = async (client: pg.Client) => (await client.query<{ jit: string }>('SHOW jit')).rows[0]?.jit;
    for (const work of [(client: pg.Client) => foldFloor(client), (client: pg.Client) => readFloorStatus(client), (client: pg.Client) => floorStatus(client)]) {
      const client = await connect(server.url);
      try {
        expect(await jitOf(client)).toBe('on');
        await work(client);
        expect(await jitOf(client)).toBe('off');
      } finally {
        await client.end();
      }
    }
  });
});

// Issue 44: the floor server died when PostgreSQL went away while stations sent (`pg_ctl stop -m
// immediate` 3–5 s into dealing): a checked-out connection's 'error' had no listener (the pool's
// covers idle ones only), so the process ended, and with it the page and the held break. Here the
// server runs in the test's own process, stations linked and dealing, and PostgreSQL is crashed
// while the floor's fold, its hold step or a page request has a statement in flight: each is made
// to wait on a lock the test holds (seen waiting in pg_stat_activity), so the crash always lands
// mid-statement. The process must take no uncaught exception, the page must say in its language
// that the database cannot be reached, and once PostgreSQL is back the floor folds, holds and
// releases again by itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleSettings, SeatCount } from '../protocol/contract';
import type { ConsoleService } from '../station/service/service';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { clockSchedule, readClock } from '../engine/clock/clock';
import { tournamentFromCsv } from '../engine/plan/tournament';
import { readStructure } from '../engine/plan/structure';
import { actOnFloorClock, readFloorClock, setFloorStructure } from '../floor/clock';
import { createStationLogin } from '../floor/db/stations';
import { readFloorStatus } from '../floor/fold';
import { setHoldBreaks } from '../floor/hold';
import { startFloorServer, type FloorServer } from '../floor/server';
import type { FloorLanguage } from '../floor/page/words';
import { migrate } from '../floor/db/migrate';
import { connectedClient, POSTGRES_AVAILABLE, withClient, type ThrowawayPostgres } from '../floor/testing/postgres';
import { ask, until } from '../floor/testing/requests';
import { serviceHarness } from '../station/service/testing/services';
import { FAST_FLOOR_TIMING } from './testing/floorStations';
import { clusterForFile, expectFloorBack, journalLastSeq, unreachableWords } from './testing/floorOutage';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const MIN = 60_000;
const ok = { ok: true, value: null };
const { serviceIn } = serviceHarness({ station: 'table-pc', floorTiming: FAST_FLOOR_TIMING });

/** A race of three seats that takes the seven cards below (as system/link.test.ts deals it). */
const COUNTS: SeatCount[] = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
const settingsOf = (name: string, players = ['Matti', 'Teppo', 'Johanna']): ConsoleSettings => ({
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: players.map((player, index) => ({ seat: index + 1, name: player })), button: 1, name },
});
/** Seat 1 holds exactly one next chip's worth: nothing to race, the race complete at once. */
const even = (ratio: number): SeatCount[] => [{ seat: 1, chips: ratio, hasOther: true }, { seat: 2, chips: 0, hasOther: true }];
/** The 25s leave at the break after level 2 (40 to 50 minutes into the clock), the 100s at the break after level 3. */
const HELD_SHEET = ['chips,25,100,500', 'level,25,50,,20', 'level,50,100,,20', 'break,10', 'level,100,200,,20', 'break,10', 'level,500,1000,,20'].join('\n');

/** One throwaway PostgreSQL server for the file (one initdb): each describe block has a floor database of its own on it. */
const cluster = clusterForFile(run);

/**
 * A floor database of its own for a describe block (`database`, migrated, on the file's server),
 * a floor server per test on it (closed after it), stations linked as the README starts them, and
 * what the tests do to PostgreSQL and see of the floor. Uncaught exceptions of this process are
 * collected for the block.
 */
function floorUnderCrashes(database: string) {
  let server: ThrowawayPostgres;
  let url = '';
  /** The superuser's connection, made again after each restart of the server. */
  let admin: pg.Client | null = null;
  const folders: string[] = [];
  /** Uncaught exceptions in this process: before the fix, a checked-out connection's 'error'. */
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  let floor: FloorServer | undefined;
  /** The test's lock holders: ended before the floor closes (a fold waiting on one would never end). */
  const lockers: pg.Client[] = [];
  const floorLog: string[] = [];

  const db = async (): Promise<pg.Client> => (admin ??= await connectedClient(url));
  const sql = async <R extends pg.QueryResultRow>(text: string, params: unknown[] = []) => (await db()).query<R>(text, params);
  /** PostgreSQL stopped as a power cut would (`pg_ctl stop -m immediate`), as in the attack. */
  const crash = async () => {
    await server.crash();
    await admin?.end().catch(() => undefined);
    admin = null;
  };
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-db-gone-'));
    folders.push(dir);
    return dir;
  };
  const station = async (table: string, settings: ConsoleSettings = settingsOf(table)): Promise<{ service: ConsoleService; dataDir: string }> => {
    const login = await createStationLogin(await db(), table);
    const dataDir = folder();
    const service = await serviceIn(dataDir, { floor: { url: server.urlFor(login.role, login.password, database), table } });
    expect(await service.saveSettings(settings)).toEqual(ok);
    await until(`${table} linked`, () => service.getState().floorLink.state === 'connected');
    return { service, dataDir };
  };
  /** A lock held on a connection of its own: taken by `statement` in a transaction left open. */
  const lockWith = async (statement: string): Promise<pg.Client> => {
    const locker = await connectedClient(url);
    lockers.push(locker);
    await locker.query('BEGIN');
    await locker.query(statement);
    return locker;
  };
  /** Until one of the floor's statements (the superuser's, not the stations') naming `text` waits on a lock (the test's: nothing else holds one). */
  const waitingOn = (text: string, what: string) =>
    until(`${what} waiting on the lock`, async () => ((await sql("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND usename = current_user AND datname = current_database() AND query LIKE $1", [`%${text}%`])).rowCount ?? 0) > 0);
  /** The page while the database is gone: 503, in each language, saying so. */
  const expectOutagePage = async (path: string, languages: readonly FloorLanguage[] = ['en', 'fi', 'ru']) => {
    for (const language of languages) {
      const page = await ask(floor?.port as number, `${path}${path.includes('?') ? '&' : '?'}lang=${language}`);
      expect(page.status).toBe(503);
      expect(page.body).toContain(`<html lang="${language}">`);
      expect(page.body).toContain('data-testid="database-unreachable"');
      expect(page.body).toContain(unreachableWords(language));
    }
  };
  const startFloor = async () => {
    floor = await startFloorServer({ databaseUrl: url, log: (line) => floorLog.push(line), foldEveryMs: 50, holdEveryMs: 50 });
  };

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    server = cluster();
    await withClient(server.url, (client) => client.query(`CREATE DATABASE ${database}`));
    const address = new URL(server.url);
    address.pathname = `/${database}`;
    url = address.toString();
    await migrate(await db());
  }, 120_000);

  beforeEach(() => {
    uncaught.length = 0;
    floorLog.length = 0;
  });

  afterEach(async () => {
    for (const locker of lockers.splice(0)) await locker.end().catch(() => undefined);
    await floor?.close();
    floor = undefined;
  });

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await admin?.end().catch(() => undefined);
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  return {
    get server() {
      return server;
    },
    get port() {
      return floor?.port as number;
    },
    uncaught,
    floorLog,
    db,
    sql,
    crash,
    station,
    lockWith,
    waitingOn,
    expectOutagePage,
    startFloor,
  };
}

describe.runIf(run)('the floor server when PostgreSQL goes away under a fold or a page (a real PostgreSQL server, a station dealing)', () => {
  const crashes = floorUnderCrashes('gone_fold_page');
  const { uncaught, floorLog, sql, crash, station, lockWith, waitingOn, expectOutagePage, startFloor } = crashes;
  it('during a fold: stays up, says the database cannot be reached, and folds what the station dealt meanwhile once it is back', async () => {
    await startFloor();
    const { service, dataDir } = await station('F');
    expect(await service.startRace(COUNTS)).toEqual(ok);
    const folded = async () => Number((await sql<{ folded_seq: string }>("SELECT folded_seq FROM floor_table_state WHERE table_name = 'F'")).rows[0]?.folded_seq ?? -1);
    await until('the race start folded', async () => (await folded()) === journalLastSeq(dataDir));

    // The fold's write of table F waits on the row the test holds; a card dealt makes it fold.
    const locker = await lockWith("SELECT 1 FROM floor_table_state WHERE table_name = 'F' FOR UPDATE");
    expect(await service.dealCard('race-1', CARDS[0] as string)).toEqual(ok);
    // (pg_stat_activity keeps a statement's first 1 kB: the fold's write names floor_races first.)
    await waitingOn('INSERT INTO floor_races', 'the fold');
    await crash();
    await locker.end().catch(() => undefined);
    try {
      // The station deals on (its journal keeps every card); the floor says its database is gone.
      for (const card of CARDS.slice(1)) expect(await service.dealCard('race-1', card)).toEqual(ok);
      expect(await service.confirmRace('race-1')).toEqual(ok);
      await expectOutagePage('/');
      await expectOutagePage('/table?table=F', ['fi']);
      expect(uncaught).toEqual([]);
    } finally {
      await crashes.server.start();
    }
    // Back: the floor folds every record the station sent again, with no restart.
    await expectFloorBack(crashes.port, dataDir, folded, 'F', 30_000);
    expect(uncaught).toEqual([]);
    // The outage in the floor's log: a line when the fold failed (each new reason once, not each
    // pass of 50 ms for as long as it lasted), and one when it went again.
    const foldLines = floorLog.filter((line) => line.startsWith('fold: '));
    expect(foldLines.length).toBeGreaterThan(1);
    expect(foldLines.length).toBeLessThan(10);
    expect(foldLines.at(-1)).toBe('fold: going again');
  }, 60_000);

  it('during a page request: answers it with the outage page, not a crash nor a hang, and the page comes back', async () => {
    await startFloor();
    const { service } = await station('P');
    expect(await service.startRace(COUNTS)).toEqual(ok);
    expect((await ask(crashes.port, '/?lang=en')).status).toBe(200);
    // The overview's read of the seating waits on the test's lock (only the page reads it).
    const locker = await lockWith('LOCK TABLE floor_seating_tables IN ACCESS EXCLUSIVE MODE');
    const asked = ask(crashes.port, '/?lang=ru');
    await waitingOn('floor_seating_tables', 'the page');
    await crash();
    await locker.end().catch(() => undefined);
    try {
      const answer = await asked;
      expect(answer.status).toBe(503);
      expect(answer.body).toContain(unreachableWords('ru'));
      // The station deals on meanwhile, and the floor keeps answering.
      for (const card of CARDS) expect(await service.dealCard('race-1', card)).toEqual(ok);
      expect(await service.confirmRace('race-1')).toEqual(ok);
      await expectOutagePage('/', ['en', 'fi']);
      await expectOutagePage('/runner', ['en']);
      expect(uncaught).toEqual([]);
    } finally {
      await crashes.server.start();
    }
    await until('the page back', async () => (await ask(crashes.port, '/?lang=en')).status === 200, 30_000);
    expect(uncaught).toEqual([]);
  }, 60_000);
});

describe.runIf(run)('the held break when PostgreSQL goes away under the hold step (a real PostgreSQL server, two stations)', () => {
  const crashes = floorUnderCrashes('gone_hold');
  const { uncaught, db, sql, crash, station, lockWith, waitingOn, expectOutagePage, startFloor } = crashes;
  it("during a hold step: the break's end passed while the database was gone is held when it is back; a table finished while it was gone releases it", async () => {
    await startFloor();
    const { structure, house } = tournamentFromCsv(HELD_SHEET);
    await setFloorStructure(await db(), structure, house);
    await setHoldBreaks(await db(), true, Date.now());
    const settings = (name: string): ConsoleSettings => {
      const { tournament: _kept, ...rest } = settingsOf(name, ['Matti', 'Teppo']);
      return rest as ConsoleSettings;
    };
    const a = (await station('A', settings('A'))).service;
    const b = (await station('B', settings('B'))).service;
    const reading = async () => {
      const clock = await readFloorClock(await db());
      if (clock === null) throw new Error('no clock');
      return readClock(clockSchedule(readStructure(clock.structure)), clock.events, Date.now());
    };
    const held = async () => (await readFloorClock(await db()))?.held ?? null;
    const holds = async () => (await sql('SELECT after_level, tables_left, released_by, tables_left_at_release FROM floor_break_holds ORDER BY held_at')).rows;
    const colourUp = async (service: ConsoleService) => {
      expect(await service.startColorUp(2, 25)).toEqual(ok);
      expect(await service.startRace(even(4))).toEqual(ok);
      expect(await service.confirmRace(service.getState().race?.id ?? '')).toEqual(ok);
    };

    // Five minutes into the break after level 2: both stations on it; A finishes its colour-up, B does not.
    await actOnFloorClock(await db(), { type: 'start' }, Date.now() - 45 * MIN);
    for (const service of [a, b]) expect(await until('the banner', () => service.getState().colorUp)).toMatchObject({ afterLevel: 2 });
    await colourUp(a);
    // A's colour-up done on the floor (its records stored and folded) before anything crashes: a
    // station's inserts commit without waiting for the disk (synchronous_commit off), so a crash
    // right after them could lose them and the floor, back, would count A not done until A sent them
    // again (it does); the fold's own commit waits for the disk, and with it every record before.
    await until('A done on the floor', async () => (await readFloorStatus(await db())).tables.some((table) => table.table === 'A' && table.colourUp === 'done'), 30_000);

    // The director moves the clock to 8 s before the break's end; once both stations follow the
    // moved clock (each reads the floor's row on its link's round: a crash before that left A on
    // the clock it had, five minutes from the end, as a loaded CI machine found), the test holds the
    // clock's row, so the floor cannot hold the break before the crash (8 s is the room for all
    // that); the hold step waits on the row, and PostgreSQL crashes under it.
    await actOnFloorClock(await db(), { type: 'adjust', by: 50 * MIN - 8_000 - (await reading()).elapsedMs }, Date.now());
    const moved = (await readFloorClock(await db()))?.events.length;
    for (const service of [a, b]) await until('the station on the moved clock', () => service.getState().clock.events.length === moved);
    const locker = await lockWith('SELECT 1 FROM floor_clock FOR UPDATE');
    await waitingOn('FROM floor_clock FOR UPDATE', 'the hold step');
    await crash();
    await locker.end().catch(() => undefined);
    try {
      // The end passes while the floor has no database: A, finished, plays on; the page says the database is gone.
      await until('A playing', () => a.getState().settings.tournament?.atBreakAfter === null, 20_000);
      expect(b.getState().settings.tournament?.atBreakAfter).toBe(2);
      await expectOutagePage('/', ['en']);
      expect(uncaught).toEqual([]);
    } finally {
      await crashes.server.start();
    }
    // Back within the grace: the break is held for B, the clock paused at its end.
    expect(await until('the hold', held, 30_000)).toEqual({ afterLevel: 2, tables: 1 });
    expect((await reading()).status).toBe('paused');
    // Paused at the break's end to the millisecond (levels of 20 and 20 minutes, a break of 10), as if the floor had never lost its database.
    expect((await reading()).elapsedMs).toBe(50 * MIN);
    expect(await holds()).toEqual([{ after_level: 2, tables_left: 1, released_by: null, tables_left_at_release: null }]);
    await until('the hold on B', () => b.getState().clock.held);

    // Again under a hold step, the break held now: B finishes while the database is gone.
    const again = await lockWith('SELECT 1 FROM floor_clock FOR UPDATE');
    await waitingOn('FROM floor_clock FOR UPDATE', 'the hold step');
    await crash();
    await again.end().catch(() => undefined);
    try {
      await colourUp(b);
      await expectOutagePage('/', ['fi', 'ru']);
      expect(uncaught).toEqual([]);
    } finally {
      await crashes.server.start();
    }
    // Back: B's records reach the floor, are folded, and the hold step lets the clock go.
    await until('the clock going again', async () => (await reading()).status === 'running', 30_000);
    expect(await held()).toBeNull();
    expect(await holds()).toEqual([{ after_level: 2, tables_left: 1, released_by: 'tables-done', tables_left_at_release: 0 }]);
    await until('B playing', () => b.getState().settings.tournament?.atBreakAfter === null);
    expect(uncaught).toEqual([]);
  }, 90_000);
});

// Issue 44, point 2: the floor survives losing its computer, also when it goes without a word.
// A floor computer whose power or network cable goes sends no reset and no FIN: a statement the
// floor server has in flight waits for TCP to notice (minutes; hours without keepalive), and with
// the pool's connections stuck the page, the fold and the held break hang instead of saying the
// database cannot be reached and moving to the promoted standby. Here a TCP proxy in the test's
// process (floor/testing/blackHole.ts) stands between the floor server and a real PostgreSQL on
// loopback, and goes silent while a page request and the fold each have a statement in flight
// (each made to wait on a lock the test holds, seen waiting in pg_stat_activity, the lock let go
// once the proxy is silent: the answer goes into the silence). The floor server runs with a short
// statement deadline (queryTimeoutMs): the page must answer 503 with the outage words within the
// deadline and a margin, the process must take no uncaught exception, and the floor must come
// back by itself: when the proxy forwards again, or at once through the list's other address (the
// same server reached directly: a promoted standby's stand-in). First, the pool alone: a statement
// cut at its deadline has its socket destroyed (no late answer read on it) and its client dropped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleSettings, SeatCount } from '../protocol/contract';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { serviceHarness } from '../station/service/testing/services';
import { createStationLogin } from '../floor/db/stations';
import { migrate } from '../floor/db/migrate';
import { startFloorServer, type FloorServer } from '../floor/server';
import { startBlackHoleProxy, type BlackHoleProxy } from '../floor/testing/blackHole';
import { FLOOR_QUERY_TIMEOUT, floorPoolConfig } from '../replication/floorClient';
import { connectedClient, POSTGRES_AVAILABLE, withClient } from '../floor/testing/postgres';
import { ask, until, type Answer } from '../floor/testing/requests';
import { FAST_FLOOR_TIMING } from './testing/floorStations';
import { clusterForFile, expectFloorBack, journalLastSeq, unreachableWords } from './testing/floorOutage';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const ok = { ok: true, value: null };
const { serviceIn } = serviceHarness({ station: 'table-pc', floorTiming: FAST_FLOOR_TIMING });

/** The floor server's statement deadline here (its default is QUERY_TIMEOUT_MS). */
const QUERY_MS = 2_000;
/** What the page may take beyond the deadline to say so (today's code: no answer for minutes). */
const MARGIN_MS = 4_000;

const COUNTS: SeatCount[] = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
const settingsOf = (name: string): ConsoleSettings => ({
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: ['Matti', 'Teppo', 'Johanna'].map((player, index) => ({ seat: index + 1, name: player })), button: 1, name },
});

/** The answer to a request, or a failure naming it when none came within `ms`. */
const answeredWithin = (asked: Promise<Answer>, ms: number, what: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    asked.then(
      (answer) => {
        clearTimeout(timer);
        resolve(answer);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });

const cluster = clusterForFile(run);

describe.runIf(run)("the floor's pool when its database's computer goes silent (a real PostgreSQL behind a proxy that black-holes)", () => {
  it('cuts a statement unanswered past the deadline: its socket destroyed, its error said, the client dropped from the pool, a new one used once the proxy forwards', async () => {
    const proxy = await startBlackHoleProxy(cluster().port);
    const url = new URL(cluster().url);
    url.port = String(proxy.port);
    const pool = new pg.Pool(floorPoolConfig(url.toString(), { max: 1 }, 500));
    try {
      const client = await pool.connect();
      expect((await client.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
      const said: Error[] = [];
      client.on('error', (error) => said.push(error));
      proxy.blackHole();
      const cut = await client.query('SELECT 2 AS n').then(() => null, (error: unknown) => error as Error & { code?: string });
      expect(cut?.code).toBe(FLOOR_QUERY_TIMEOUT);
      // The socket is gone: the answer that was on its way is never read on this client.
      expect((client as unknown as { connection: { stream: { destroyed: boolean } } }).connection.stream.destroyed).toBe(true);
      expect(said[0]?.message).toMatch(/did not answer within 500 ms/);
      client.release(cut ?? undefined);
      expect(pool.totalCount).toBe(0);
      proxy.forward();
      const fresh = await pool.connect();
      expect(fresh).not.toBe(client);
      expect((await fresh.query<{ n: number }>('SELECT 3 AS n')).rows).toEqual([{ n: 3 }]);
      fresh.release();
    } finally {
      proxy.forward();
      await pool.end();
      await proxy.close();
    }
  }, 15_000);
});

describe.runIf(run)("the floor server when its database's computer goes silent (a real PostgreSQL behind a proxy that black-holes, a station dealing)", () => {
  let admin: pg.Client | undefined;
  let proxy: BlackHoleProxy | undefined;
  let floor: FloorServer | undefined;
  const lockers: pg.Client[] = [];
  const folders: string[] = [];
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  const floorLog: string[] = [];

  beforeAll(() => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
  });
  afterEach(async () => {
    for (const locker of lockers.splice(0)) await locker.end().catch(() => undefined);
    // Forwarding again before the floor closes: its pool's connections end as they would.
    proxy?.forward();
    await floor?.close();
    await proxy?.close();
    await admin?.end().catch(() => undefined);
    floor = undefined;
    proxy = undefined;
    admin = undefined;
  });
  afterAll(() => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A floor database of its own (`database`, migrated), the proxy to its server, the floor server
   * reaching it through the proxy (`list`: the proxy's address, then the server's own), and table
   * F's station linked straight to the server, its race started and folded.
   */
  const floorBehindProxy = async (database: string, list: boolean) => {
    const server = cluster();
    await withClient(server.url, (client) => client.query(`CREATE DATABASE ${database}`));
    const direct = new URL(server.url);
    direct.pathname = `/${database}`;
    admin = await connectedClient(direct.toString());
    await migrate(admin);
    proxy = await startBlackHoleProxy(server.port);
    floorLog.length = 0;
    uncaught.length = 0;
    const hosts = list ? `127.0.0.1:${proxy.port},127.0.0.1:${server.port}` : `127.0.0.1:${proxy.port}`;
    floor = await startFloorServer({ databaseUrl: `postgres://${direct.username}:${direct.password}@${hosts}/${database}`, log: (line) => floorLog.push(line), foldEveryMs: 50, holdEveryMs: 50, queryTimeoutMs: QUERY_MS });

    const login = await createStationLogin(admin, 'F');
    const dataDir = mkdtempSync(join(tmpdir(), 'floor-silent-'));
    folders.push(dataDir);
    const service = await serviceIn(dataDir, { floor: { url: server.urlFor(login.role, login.password, database), table: 'F' } });
    expect(await service.saveSettings(settingsOf('F'))).toEqual(ok);
    await until('F linked', () => service.getState().floorLink.state === 'connected');
    expect(await service.startRace(COUNTS)).toEqual(ok);
    const sql = admin;
    const folded = async () => Number((await sql.query<{ folded_seq: string }>("SELECT folded_seq FROM floor_table_state WHERE table_name = 'F'")).rows[0]?.folded_seq ?? -1);
    await until('the race start folded', async () => (await folded()) === journalLastSeq(dataDir));
    expect((await ask(floor.port, '/?lang=en')).status).toBe(200);
    return { service, dataDir, folded, sql, proxy, port: floor.port, directUrl: direct.toString() };
  };

  /** A lock held on a connection of its own (straight to the server): taken by `statement` in a transaction left open. */
  const lockWith = async (url: string, statement: string): Promise<pg.Client> => {
    const locker = await connectedClient(url);
    lockers.push(locker);
    await locker.query('BEGIN');
    await locker.query(statement);
    return locker;
  };

  /**
   * The fold and a page request each with a statement in flight when the proxy goes silent: the
   * fold's write of table F waits on F's row (a card dealt makes it fold), the overview's read of
   * the seating on the table's lock; the proxy black-holed; the locks let go (the statements end on
   * the server, their answers lost in the silence). Returns the page's answer, or a failure when it
   * did not come within the deadline and the margin.
   */
  const silenceUnderPageAndFold = async (floorAt: Awaited<ReturnType<typeof floorBehindProxy>>) => {
    const { service, sql, directUrl } = floorAt;
    const waitingOn = (text: string, what: string) =>
      until(`${what} waiting on the lock`, async () => ((await sql.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND usename = current_user AND datname = current_database() AND query LIKE $1", [`%${text}%`])).rowCount ?? 0) > 0);
    const rowLock = await lockWith(directUrl, "SELECT 1 FROM floor_table_state WHERE table_name = 'F' FOR UPDATE");
    expect(await service.dealCard('race-1', CARDS[0] as string)).toEqual(ok);
    await waitingOn('INSERT INTO floor_races', 'the fold');
    const seatingLock = await lockWith(directUrl, 'LOCK TABLE floor_seating_tables IN ACCESS EXCLUSIVE MODE');
    const asked = ask(floorAt.port, '/?lang=fi');
    await waitingOn('floor_seating_tables', 'the page');

    floorAt.proxy.blackHole();
    await rowLock.end();
    await seatingLock.end();
    return answeredWithin(asked, QUERY_MS + MARGIN_MS, 'the page asked before the silence');
  };

  it('answers 503 within its deadline, stays up, and folds and answers again once the proxy forwards again', async () => {
    const floorAt = await floorBehindProxy('silent_one_host', false);
    const answer = await silenceUnderPageAndFold(floorAt);
    expect(answer.status).toBe(503);
    expect(answer.body).toContain('<html lang="fi">');
    expect(answer.body).toContain('data-testid="database-unreachable"');
    expect(answer.body).toContain(unreachableWords('fi'));
    // The cut connection said in the floor's log, with its deadline.
    expect(floorLog.some((line) => line.includes(`did not answer within ${QUERY_MS} ms`))).toBe(true);

    // The station deals on meanwhile (its journal keeps every card); the floor process lives.
    for (const card of CARDS.slice(1)) expect(await floorAt.service.dealCard('race-1', card)).toEqual(ok);
    expect(await floorAt.service.confirmRace('race-1')).toEqual(ok);
    expect(uncaught).toEqual([]);

    // The cable back: the floor folds every record and the page answers, with no restart.
    floorAt.proxy.forward();
    await expectFloorBack(floorAt.port, floorAt.dataDir, floorAt.folded, 'F', 15_000);
    expect(uncaught).toEqual([]);
  }, 30_000);

  it("with the floor's addresses as a list [silent, reachable]: answers 503 within its deadline, then at once from the list's next host while the first stays silent", async () => {
    const floorAt = await floorBehindProxy('silent_list', true);
    const answer = await silenceUnderPageAndFold(floorAt);
    expect(answer.status).toBe(503);
    expect(answer.body).toContain(unreachableWords('fi'));

    // The silent computer's sessions die with it (the test ends them: they hold the fold's
    // transaction open on the same server, which a real standby would not have).
    const ports = floorAt.proxy.upstreamPorts();
    await floorAt.sql.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE client_port = ANY($1::int[])', [ports]);

    // The proxy stays silent: the next connections go to the list's other host, the first answer
    // from there (no wait of a connection timeout on the silent one).
    for (const card of CARDS.slice(1)) expect(await floorAt.service.dealCard('race-1', card)).toEqual(ok);
    expect(await floorAt.service.confirmRace('race-1')).toEqual(ok);
    const page = await answeredWithin(ask(floorAt.port, '/?lang=ru'), MARGIN_MS, 'the page asked after the silence');
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-table="F"');
    const last = journalLastSeq(floorAt.dataDir);
    await until('every record folded', async () => (await floorAt.folded()) === last, 15_000);
    expect(uncaught).toEqual([]);
  }, 30_000);
});

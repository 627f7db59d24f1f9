// Issue 44: a station's statements bounded in time only by its own settings, which are its to
// change: a station's login that ran `SET statement_timeout = 0` ran `SELECT pg_sleep(600)` (or a
// CPU-heavy query) on each of its 8 connections for as long as it liked, slowing the floor. The
// floor server's watchdog stops it; the floor's own statements and every other role's it leaves.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedClient, POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from './testing/postgres';
import { STATION_IDLE_IN_TRANSACTION_MS, STATION_STATEMENT_TIMEOUT_MS } from './db/migrations';
import { createStationLogin } from './db/stations';
import { startFloorServer } from './server';
import { WATCHDOG_EVERY_MS, WATCHDOG_LIMITS, WATCHDOG_MARGIN_MS } from './watchdog';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** A statement that catches every cancel and goes on: what a station may write (a DO block is every role's). */
const CANCEL_CATCHER = 'DO $$ BEGIN LOOP BEGIN PERFORM pg_sleep(600); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END $$';

/** The SQLSTATE a promise rejects with (null: it did not reject). */
async function failureCode(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return String((error as { code?: unknown }).code ?? (error as Error).message);
  }
}

/** The 'error' a connection reports when the server ends it while it sits idle (no query of its own to reject). */
function endedByServer(client: pg.Client): Promise<string> {
  return new Promise((resolve) => client.once('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message)));
}

/** A connection's server process id. */
async function pidOf(client: pg.Client): Promise<number> {
  return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid as number;
}

describe("the floor's watchdog: its limits", () => {
  it("are a station login's own plus the margin, looked at every few seconds", () => {
    expect(WATCHDOG_LIMITS).toEqual({ statementMs: STATION_STATEMENT_TIMEOUT_MS + WATCHDOG_MARGIN_MS, idleInTransactionMs: STATION_IDLE_IN_TRANSACTION_MS + WATCHDOG_MARGIN_MS });
    expect(WATCHDOG_MARGIN_MS).toBe(5_000);
    expect(WATCHDOG_EVERY_MS).toBeLessThanOrEqual(WATCHDOG_MARGIN_MS);
  });
});

describe.runIf(run)("the floor's watchdog on a floor whose role is a superuser (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  it("cancels a station's statement past the limit, ends one that goes on after a cancel and one idle in a transaction; the floor's own and other roles' run on", async () => {
    const login = await createStationLogin(admin, 'watched');
    const stationUrl = server.urlFor(login.role, login.password);
    // Named as a station's login is, outside the station group: not the watchdog's.
    await admin.query("CREATE ROLE chip_race_table_00000000000000aa LOGIN PASSWORD 'not-a-station-0123'");
    await admin.query("CREATE ROLE someone_else LOGIN PASSWORD 'someone-else-0123'");
    const lines: string[] = [];
    const statementMs = 1_000;
    const floor = await startFloorServer({ databaseUrl: server.url, log: (line) => lines.push(line), foldEveryMs: 1_000, holdEveryMs: 1_000, watchdog: { statementMs, idleInTransactionMs: 1_000, everyMs: 100 } });
    const others = await Promise.all([server.url, server.urlFor('chip_race_table_00000000000000aa', 'not-a-station-0123'), server.urlFor('someone_else', 'someone-else-0123')].map((url) => connectedClient(url)));
    const floorIdle = await connectedClient(server.url);
    const clients = [...others, floorIdle];
    try {
      // The floor's own statement and two other roles', each longer than the limit, started first.
      const otherPids = await Promise.all(others.map(pidOf));
      const othersRunning = others.map(async (client) => {
        await client.query('SET statement_timeout = 0');
        return failureCode(client.query('SELECT pg_sleep(600)'));
      });
      await floorIdle.query('BEGIN');
      await floorIdle.query('SELECT count(*) FROM floor_tables');

      const station = await connectedClient(stationUrl);
      clients.push(station);
      await station.query('SET statement_timeout = 0');
      const asked = Date.now();
      expect(await failureCode(station.query('SELECT pg_sleep(600)'))).toBe('57014');
      expect(Date.now() - asked).toBeGreaterThanOrEqual(statementMs);
      // The connection stays the station's: its next statement runs.
      expect((await station.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);

      // A station's statement that catches the cancel and goes on: its session ended at the next pass.
      const stubborn = await connectedClient(stationUrl);
      clients.push(stubborn);
      await stubborn.query('SET statement_timeout = 0');
      expect(await failureCode(stubborn.query(CANCEL_CATCHER))).toBe('57P01');

      // A station's session idle in an open transaction, its own limit turned off: ended.
      const idle = await connectedClient(stationUrl);
      clients.push(idle);
      const idleEnded = endedByServer(idle);
      await idle.query('SET idle_in_transaction_session_timeout = 0');
      await idle.query('BEGIN');
      await idle.query('SELECT count(*) FROM station_records');
      expect(await idleEnded).toBe('57P01');

      // Many passes later the others still run, untouched, and the floor's own transaction commits.
      expect((await admin.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = ANY($1) ORDER BY array_position($1, pid)', [otherPids])).rows.map((row) => row.state)).toEqual(['active', 'active', 'active']);
      await floorIdle.query('COMMIT');
      await admin.query('SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = ANY($1)', [otherPids]);
      expect(await Promise.all(othersRunning)).toEqual(['57014', '57014', '57014']);

      // Said in the floor's log, each with its table and login (never the statement's text), counted.
      const said = lines.filter((line) => line.startsWith('watchdog:'));
      expect(said).toHaveLength(4);
      expect(said.every((line) => line.includes(`table "watched" (${login.role}, session `))).toBe(true);
      expect(said.some((line) => /pg_sleep|DO \$\$/.test(line))).toBe(false);
      expect(said[0]).toMatch(/cancelled a statement of .* running \d+\.\d s \(so far 1 cancelled, 0 ended\)$/);
      expect(said[1]).toMatch(/cancelled a statement of .* \(so far 2 cancelled, 0 ended\)$/);
      expect(said[2]).toMatch(/ended the session of .*: its statement ran on after a cancel, \d+\.\d s in all \(so far 2 cancelled, 1 ended\)$/);
      expect(said[3]).toMatch(/ended the session of .*: idle in an open transaction for \d+\.\d s \(so far 2 cancelled, 2 ended\)$/);
    } finally {
      await floor.close();
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    }
  }, 60_000);
});

// Issue 44: a station's statements bounded in time only by its own settings, which are its to
// change: a station's login that ran `SET statement_timeout = 0` ran `SELECT pg_sleep(600)` (or a
// CPU-heavy query) on each of its 8 connections for as long as it liked, slowing the floor. The
// floor server's watchdog stops it; the floor's own statements and every other role's it leaves.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connectedClient, POSTGRES_AVAILABLE, startFloorDatabase } from './testing/postgres';
import { failureCode, overrunAsStation, pidOf } from './testing/sessions';
import { STATION_IDLE_IN_TRANSACTION_MS, STATION_STATEMENT_TIMEOUT_MS } from './db/migrations';
import { createStationLogin } from './db/stations';
import { startFloorServer, type FloorServer } from './server';
import { WATCHDOG_EVERY_MS, WATCHDOG_LIMITS, WATCHDOG_MARGIN_MS } from './watchdog';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

describe("the floor's watchdog: its limits", () => {
  it("are a station login's own plus the margin, looked at every few seconds", () => {
    expect(WATCHDOG_LIMITS).toEqual({ statementMs: STATION_STATEMENT_TIMEOUT_MS + WATCHDOG_MARGIN_MS, idleInTransactionMs: STATION_IDLE_IN_TRANSACTION_MS + WATCHDOG_MARGIN_MS });
    expect(WATCHDOG_MARGIN_MS).toBe(5_000);
    expect(WATCHDOG_EVERY_MS).toBeLessThanOrEqual(WATCHDOG_MARGIN_MS);
  });
});

describe.runIf(run)("the floor's watchdog on a floor whose role is a superuser (a real PostgreSQL server)", () => {
  it("cancels a station's statement past the limit, ends one that goes on after a cancel and one idle in a transaction; the floor's own and other roles' run on", async () => {
    const { server, admin } = await startFloorDatabase();
    const clients: pg.Client[] = [admin];
    let floor: FloorServer | undefined;
    try {
      const login = await createStationLogin(admin, 'watched');
      const stationUrl = server.urlFor(login.role, login.password);
      // Named as a station's login is, outside the station group: not the watchdog's.
      await admin.query("CREATE ROLE chip_race_table_00000000000000aa LOGIN PASSWORD 'not-a-station-0123'");
      await admin.query("CREATE ROLE someone_else LOGIN PASSWORD 'someone-else-0123'");
      const lines: string[] = [];
      const statementMs = 1_000;
      floor = await startFloorServer({ databaseUrl: server.url, log: (line) => lines.push(line), foldEveryMs: 1_000, holdEveryMs: 1_000, watchdog: { statementMs, idleInTransactionMs: 1_000, everyMs: 100 } });
      const others = await Promise.all([server.url, server.urlFor('chip_race_table_00000000000000aa', 'not-a-station-0123'), server.urlFor('someone_else', 'someone-else-0123')].map((url) => connectedClient(url)));
      const floorIdle = await connectedClient(server.url);
      clients.push(...others, floorIdle);
      // The floor's own statement and two other roles', each longer than the limit, started first.
      const otherPids = await Promise.all(others.map(pidOf));
      const othersRunning = others.map(async (client) => {
        await client.query('SET statement_timeout = 0');
        return failureCode(client.query('SELECT pg_sleep(600)'));
      });
      await floorIdle.query('BEGIN');
      await floorIdle.query('SELECT count(*) FROM floor_tables');

      const overruns = await overrunAsStation(stationUrl, clients);
      // The sleep cancelled, its connection still the station's; the statement that caught the
      // cancel and the open transaction ended with their sessions.
      expect(overruns).toMatchObject({ sleep: '57014', answersAfter: true, catcher: '57P01', idle: '57P01' });
      expect(overruns.sleptMs).toBeGreaterThanOrEqual(statementMs);

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
      await floor?.close();
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
      await server.remove();
    }
  }, 120_000);
});

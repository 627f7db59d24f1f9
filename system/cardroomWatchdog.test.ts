// Issue 44 on a cardroom: a station's login that turned its own timeouts off ran `SELECT
// pg_sleep(600)` for as long as it liked. The floor's role there may neither signal another
// session nor read its state: its watchdog goes through the cardroom set-up's
// chip_race_logins.stop_station_overruns, which stops a station login's statements and no one
// else's. On a cardroom set up by the earlier version (no such function) the floor says so, once.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { connectedClient, POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { failureCode, overrunAsStation, pidOf } from '../floor/testing/sessions';
import { migrate } from '../floor/db/migrate';
import { createStationLogin } from '../floor/db/stations';
import { startFloorServer, type FloorServer } from '../floor/server';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..');
/** The cardroom set-up before the watchdog's function (the last commit that changed it). */
const EARLIER_SET_UP = '7497fa9';

function shell(program: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(program, [...args], { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** floor/db/cardroom.sql (as it is, or as an earlier commit wrote it) run by psql as PostgreSQL's superuser, as the README's set-up line runs it. */
async function setUpCardroom(server: ThrowawayPostgres, commit?: string): Promise<void> {
  const text = commit === undefined ? readFileSync(join(root, 'floor', 'db', 'cardroom.sql'), 'utf8') : (await shell('git', ['show', `${commit}:floor/db/cardroom.sql`])).stdout;
  const folder = mkdtempSync(join(tmpdir(), 'cardroom-watchdog-'));
  try {
    const file = join(folder, 'cardroom.sql');
    writeFileSync(file, text);
    const superuser = new URL(server.url);
    const ran = await shell('psql', ['-X', '-q', '-v', 'floor_password=floor-password', '-f', file], { PGHOST: '127.0.0.1', PGPORT: String(server.port), PGUSER: decodeURIComponent(superuser.username), PGPASSWORD: decodeURIComponent(superuser.password), PGDATABASE: 'postgres' });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe.runIf(run)("the floor's watchdog on a cardroom set up as the README says (a real PostgreSQL server)", () => {
  it("says once that it cannot on the earlier set-up; run again, the set-up's function cancels a station's statement past the limit and ends what goes on, never the floor's own nor another role's", async () => {
    const server = await startThrowawayPostgres();
    const clients: pg.Client[] = [];
    let floor: FloorServer | undefined;
    try {
      await setUpCardroom(server, EARLIER_SET_UP);
      const floorUrl = server.urlFor('chip_race_floor', 'floor-password', 'chip_race');
      const superuser = await connectedClient(server.urlFor(decodeURIComponent(new URL(server.url).username), decodeURIComponent(new URL(server.url).password), 'chip_race'));
      const floorRole = await connectedClient(floorUrl);
      clients.push(superuser, floorRole);
      await migrate(floorRole);
      const lines: string[] = [];
      let saidUnable: () => void = () => undefined;
      const unable = new Promise<void>((resolve) => {
        saidUnable = resolve;
      });
      floor = await startFloorServer({
        databaseUrl: floorUrl,
        log: (line) => {
          lines.push(line);
          if (line.startsWith('watchdog: cannot')) saidUnable();
        },
        foldEveryMs: 1_000,
        holdEveryMs: 1_000,
        watchdog: { statementMs: 1_000, idleInTransactionMs: 1_000, everyMs: 100 },
      });
      await unable;
      await setUpCardroom(server);
      const login = await createStationLogin(floorRole, 'Pöytä 9');
      const stationUrl = server.urlFor(login.role, login.password, 'chip_race');
      await superuser.query("CREATE ROLE someone_else LOGIN PASSWORD 'someone-else-0123'");
      await superuser.query('GRANT CONNECT ON DATABASE chip_race TO someone_else');

      // The floor's own statement, another role's and the superuser's, each longer than the limit.
      const others = await Promise.all([floorUrl, server.urlFor('someone_else', 'someone-else-0123', 'chip_race'), server.url].map((url) => connectedClient(url)));
      clients.push(...others);
      const otherPids = await Promise.all(others.map(pidOf));
      const othersRunning = others.map(async (client) => {
        await client.query('SET statement_timeout = 0');
        return failureCode(client.query('SELECT pg_sleep(600)'));
      });

      expect(await overrunAsStation(stationUrl, clients)).toMatchObject({ sleep: '57014', answersAfter: true, catcher: '57P01', idle: '57P01' });

      // The function itself, called by the floor's role naming the others as cancelled before: they are no station's, left.
      const starts = await superuser.query<{ pid: number; started: string }>('SELECT pid, (EXTRACT(epoch FROM query_start) * 1000000)::int8 AS started FROM pg_stat_activity WHERE pid = ANY($1)', [otherPids]);
      expect((await floorRole.query('SELECT * FROM chip_race_logins.stop_station_overruns(1, 1, $1, $2)', [starts.rows.map((row) => row.pid), starts.rows.map((row) => row.started)])).rows).toEqual([]);
      expect(await failureCode(floorRole.query('SELECT * FROM chip_race_logins.stop_station_overruns(0, 1, NULL, NULL)'))).toBe('22023');
      expect((await superuser.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = ANY($1)', [otherPids])).rows.map((row) => row.state)).toEqual(['active', 'active', 'active']);
      await superuser.query('SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = ANY($1)', [otherPids]);
      expect(await Promise.all(othersRunning)).toEqual(['57014', '57014', '57014']);

      const said = lines.filter((line) => line.startsWith('watchdog:'));
      expect(said.filter((line) => line.startsWith('watchdog: cannot'))).toHaveLength(1);
      expect(said.slice(1)).toEqual([
        "watchdog: stopping stations' statements that run past their limits",
        expect.stringMatching(/^watchdog: cancelled a statement of table "Pöytä 9" \(chip_race_table_[0-9a-f]{16}, session \d+\) running \d+\.\d s \(so far 1 cancelled, 0 ended\)$/),
        expect.stringMatching(/^watchdog: cancelled a statement of table "Pöytä 9" .* \(so far 2 cancelled, 0 ended\)$/),
        expect.stringMatching(/^watchdog: ended the session of table "Pöytä 9" .*: its statement ran on after a cancel, \d+\.\d s in all \(so far 2 cancelled, 1 ended\)$/),
        expect.stringMatching(/^watchdog: ended the session of table "Pöytä 9" .*: idle in an open transaction for \d+\.\d s \(so far 2 cancelled, 2 ended\)$/),
      ]);
    } finally {
      await floor?.close();
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
      await server.remove();
    }
  }, 150_000);

  // Stop 49's CI: the watchdog, calling every 100 ms while the set-up was run again, once got
  // "permission denied for function stop_station_overruns". psql ran each statement on its own, so
  // a running floor saw the function made and its PUBLIC grant revoked before the floor's grant
  // came. The set-up now changes the tournament's database in one transaction: a floor sees the
  // earlier functions or all of this version's, never the half between.
  it("a floor calling the set-up's functions while the set-up is run again over the earlier one never finds one it may not call", async () => {
    const server = await startThrowawayPostgres();
    const clients: pg.Client[] = [];
    try {
      await setUpCardroom(server, EARLIER_SET_UP);
      const floorRole = await connectedClient(server.urlFor('chip_race_floor', 'floor-password', 'chip_race'));
      const superuser = await connectedClient(server.urlFor(decodeURIComponent(new URL(server.url).username), decodeURIComponent(new URL(server.url).password), 'chip_race'));
      clients.push(floorRole, superuser);
      // A server slow at its catalogue, as a loaded cardroom PC is: each of the set-up's commands
      // takes 50 ms more, so any moment between two of them lasts long enough to be seen.
      await superuser.query('CREATE FUNCTION public.slow_set_up() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN PERFORM pg_sleep(0.05); END$$');
      await superuser.query('CREATE EVENT TRIGGER slow_set_up ON ddl_command_end EXECUTE FUNCTION public.slow_set_up()');
      const answers = new Map<string, number>();
      let calling = true;
      const caller = (async () => {
        while (calling) {
          const code = await failureCode(floorRole.query('SELECT * FROM chip_race_logins.stop_station_overruns(60000, 60000, NULL, NULL)'));
          answers.set(code ?? 'answered', (answers.get(code ?? 'answered') ?? 0) + 1);
        }
      })();
      await setUpCardroom(server);
      calling = false;
      await caller;
      // Before: no such function (42883); after: answered. Never refused (42501).
      expect([...answers.keys()].sort()).toEqual(['42883', 'answered']);
    } finally {
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
      await server.remove();
    }
  }, 60_000);
});

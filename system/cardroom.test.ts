// The README's set-up for a cardroom, as written there: a floor role that owns the tournament's
// database and nothing more (no superuser, no CREATEROLE: it cannot reach the server's programs or
// files), the floor started on it, a table registered, its station replicating with the login it
// was given, the floor's status reading it.
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleService } from '../station/service/service';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { makeCardroomCa } from '../floor/testing/ca';
import { findInDocumentation, onServer, PROJECT_ROOT, readmeBlock, runReadmeLines, startReadmeLine } from '../floor/testing/readme';
import { playStation } from './testing/stations';
import { createStationLogin, stationRoleOf } from '../floor/db/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..');

function floor(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'floor', '--', ...args], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** The psql line of "Set up a cardroom" (docs/floor.md), found by its marker so the test runs what the documentation says. */
function readmeSetUp(): string {
  const block = findInDocumentation('cardroom-setup block', /<!-- cardroom-setup:[^\n]*-->\n```sh\n([^`]*)```/).match[1];
  const line = block?.split('\n').find((command) => command.startsWith('sudo -u postgres psql'));
  if (line === undefined) throw new Error("the documentation's cardroom-setup block has no 'sudo -u postgres psql' line");
  return line;
}

/** A README command run as PostgreSQL's superuser of the throwaway server (libpq's variables stand for `sudo -u postgres`'s socket). */
function asPostgres(command: string, server: ThrowawayPostgres): Promise<{ code: number; stdout: string; stderr: string }> {
  const superuser = new URL(server.url);
  const env = { ...process.env, PGHOST: '127.0.0.1', PGPORT: String(server.port), PGUSER: decodeURIComponent(superuser.username), PGPASSWORD: decodeURIComponent(superuser.password), PGDATABASE: 'postgres' };
  return new Promise((resolve) => {
    execFile('sh', ['-c', command.replace(/^sudo -u postgres /, '')], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe.runIf(run)("a cardroom's floor set up as the README says (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let station: ConsoleService | null = null;
  /** The URL add-table gave the first table (its password rotated later). */
  let firstStationUrl = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'cardroom-'));

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    // The README's first command, run as PostgreSQL's superuser: the floor's role, and its database.
    const setUp = await asPostgres(readmeSetUp(), server);
    expect(setUp.stderr).toBe('');
    expect(setUp.code).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await station?.close();
    await server?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates as the floor role, registers a table, takes its station’s records under the station’s own login', async () => {
    const floorUrl = server.urlFor('chip_race_floor', 'floor-password', 'chip_race');
    const added = await floor(['add-table', '--database', floorUrl, '--table', 'Pöytä 7']);
    expect(added.stderr).toBe('');
    const stationUrl = added.stdout.trim();
    firstStationUrl = stationUrl;
    expect(stationUrl).toMatch(/^postgres:\/\/chip_race_table_[0-9a-f]{16}:[^@]+@127\.0\.0\.1:\d+\/chip_race$/);
    station = await playStation(dataDir, 'Pöytä 7', 'colour-up-racing');
    const synced = await floor(['sync', '--database', stationUrl, '--table', 'Pöytä 7', '--data', dataDir]);
    expect(synced.stderr).toBe('');
    expect(JSON.parse(synced.stdout)).toMatchObject({ table: 'Pöytä 7', refused: [] });
    // The station's login makes no temporary objects (migration 3, run by the floor's role as the database's owner).
    const stationClient = new pg.Client({ connectionString: stationUrl });
    stationClient.on('error', () => undefined);
    await stationClient.connect();
    await expect(stationClient.query('CREATE TEMP TABLE floor_tables (x int)')).rejects.toThrow(/permission denied to create temporary tables/);
    expect((await stationClient.query("SELECT rolconnlimit FROM pg_roles WHERE rolname = current_user")).rows).toEqual([{ rolconnlimit: 8 }]);
    // Issue 44: it reaches no other database of the cluster (and so makes temporary objects in none).
    for (const other of ['postgres', 'template1']) {
      const url = new URL(stationUrl);
      url.pathname = `/${other}`;
      const elsewhere = new pg.Client({ connectionString: url.toString() });
      elsewhere.on('error', () => undefined);
      await expect(elsewhere.connect(), other).rejects.toThrow(/permission denied for database/);
      await elsewhere.end().catch(() => undefined);
    }
    // Its statements are bounded in time (set through the set-up's chip_race_logins.station_limits).
    expect((await stationClient.query("SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock, current_setting('idle_in_transaction_session_timeout') AS idle")).rows).toEqual([{ statement: '20s', lock: '5s', idle: '10s' }]);
    await stationClient.end();
    // The station's login reads nothing of the floor's: its status is refused, in one line.
    const nosy = await floor(['status', '--database', stationUrl]);
    expect(nosy.code).toBe(2);
    expect(nosy.stderr.trim().split('\n')).toHaveLength(1);
    const status = await floor(['status', '--database', floorUrl]);
    expect(status.stderr).toBe('');
    expect(JSON.parse(status.stdout)).toMatchObject({ tables: [{ table: 'Pöytä 7', races: 2, colourUp: 'racing' }], totals: { races: 2 } });
  }, 120_000);

  it('gives a table a new password only when asked to rotate, through the set-up\'s login maker', async () => {
    const floorUrl = server.urlFor('chip_race_floor', 'floor-password', 'chip_race');
    const again = await floor(['add-table', '--database', floorUrl, '--table', 'Pöytä 7']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already has a station login: add --rotate/);
    // A session the old password holds, in an open transaction (issue 44: it went on after the rotation, and made it hang).
    const oldSession = new pg.Client({ connectionString: firstStationUrl });
    const ended = new Promise<string>((resolve) => oldSession.on('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message)));
    await oldSession.connect();
    await oldSession.query('BEGIN');
    await oldSession.query('SELECT count(*) FROM station_records');
    const rotated = await floor(['add-table', '--database', floorUrl, '--table', 'Pöytä 7', '--rotate']);
    expect(rotated.stderr).toBe('');
    // Ended through the set-up's chip_race_logins.end_station_sessions (the floor's role may not signal others' sessions itself).
    expect(await ended).toBe('57P01');
    await oldSession.end().catch(() => undefined);
    const status = await floor(['status', '--database', rotated.stdout.trim()]);
    // The new password logs in (a station reads no status: refused for its role, not its password).
    expect(status.stderr).not.toMatch(/password authentication failed/);
  }, 120_000);

  it('leaves the floor role no way to the server\'s programs or files, nor to roles of its own making', async () => {
    const floorRole = new pg.Client({ connectionString: server.urlFor('chip_race_floor', 'floor-password', 'chip_race') });
    floorRole.on('error', () => undefined);
    await floorRole.connect();
    const refused = async (sql: string, params: unknown[] = []) => {
      await floorRole.query('SAVEPOINT attempt');
      try {
        await floorRole.query(sql, params);
        return false;
      } catch {
        return true;
      } finally {
        await floorRole.query('ROLLBACK TO SAVEPOINT attempt');
      }
    };
    try {
      await floorRole.query('BEGIN');
      const station = (await floorRole.query<{ role: string }>('SELECT role_name AS role FROM floor_tables LIMIT 1')).rows[0]?.role as string;
      const attempts: Record<string, boolean> = {};
      for (const privileged of ['pg_execute_server_program', 'pg_read_server_files', 'pg_write_server_files', 'pg_read_all_data', 'pg_signal_backend', 'chip_race_logins']) {
        attempts[`grant ${privileged} to itself`] = await refused(`GRANT ${privileged} TO chip_race_floor`);
        attempts[`grant ${privileged} to a station`] = await refused(`GRANT ${privileged} TO ${station}`);
      }
      attempts['create a role'] = await refused('CREATE ROLE chip_race_mine LOGIN');
      attempts['give itself CREATEROLE'] = await refused('ALTER ROLE chip_race_floor CREATEROLE');
      attempts['become the login maker'] = await refused('SET ROLE chip_race_logins');
      attempts['copy from a program'] = await refused("COPY floor_tables FROM PROGRAM 'id'");
      // The login maker makes station logins and nothing else.
      attempts['maker: another name'] = await refused('SELECT chip_race_logins.station_login($1, $2, 8)', ['chip_race_floor', 'a'.repeat(24)]);
      attempts['maker: the superuser'] = await refused('SELECT chip_race_logins.station_login($1, $2, 8)', ['postgres', 'a'.repeat(24)]);
      attempts['maker: options in the password'] = await refused('SELECT chip_race_logins.station_login($1, $2, 8)', ['chip_race_table_0123456789abcdef', "aaaaaaaaaaaaaaaa' SUPERUSER '"]);
      attempts['maker: no connection limit'] = await refused('SELECT chip_race_logins.station_login($1, $2, -1)', ['chip_race_table_0123456789abcdef', 'a'.repeat(24)]);
      attempts['limits: another role'] = await refused('SELECT chip_race_logins.station_limits($1, 1000, 1000, 1000)', ['chip_race_floor']);
      attempts['limits: none at all'] = await refused('SELECT chip_race_logins.station_limits($1, 0, 1000, 1000)', [station]);
      attempts['sessions: another role\'s'] = await refused('SELECT chip_race_logins.end_station_sessions($1)', ['postgres']);
      expect(Object.entries(attempts).filter(([, wasRefused]) => !wasRefused).map(([what]) => what)).toEqual([]);
      await floorRole.query('ROLLBACK');
      const roles = await floorRole.query("SELECT rolname, rolcreaterole, rolsuper, rolconnlimit FROM pg_roles WHERE rolname IN ('chip_race_floor', $1) ORDER BY rolname", [station]);
      expect(roles.rows).toEqual([
        { rolname: 'chip_race_floor', rolcreaterole: false, rolsuper: false, rolconnlimit: -1 },
        { rolname: station, rolcreaterole: false, rolsuper: false, rolconnlimit: 8 },
      ]);
    } finally {
      await floorRole.end();
    }
  });

  // Issue 45, point 6: the director's commands of docs/floor.md, each line as written there (found
  // by its marker). Only what a test machine cannot be is filled in: the floor's password where
  // the page writes `…`, the throwaway server's port, and for the synopsis of "For checks and
  // scripts" its URL, NAME and DIR, and each value of a choice in brackets once (quoted: `;` is the shell's).
  it("runs docs/floor.md's table login, checks and scripts, seat list and table removal as written", async () => {
    const floorUrl = server.urlFor('chip_race_floor', 'floor-password', 'chip_race');
    const filled = (line: string): string => onServer(line.replaceAll('chip_race_floor:…@', 'chip_race_floor:floor-password@'), server);
    const lineOf = (name: string, pattern: RegExp): string => {
      const line = readmeBlock(name).split('\n').find((text) => pattern.test(text));
      if (line === undefined) throw new Error(`docs/floor.md's ${name} block has no line ${pattern}`);
      return line;
    };
    const asDirector = { CHIP_RACE_DATABASE_URL: floorUrl };
    const ran = async (line: string, env: NodeJS.ProcessEnv = {}): Promise<string> => {
      const outcome = await runReadmeLines(line, env);
      expect({ line, code: outcome.code, stderr: outcome.stderr }).toEqual({ line, code: 0, stderr: '' });
      return outcome.stdout;
    };

    // Each table's login: what it prints is the URL the comment under it shows.
    const login = readmeBlock('table-login');
    const [addTable, printed] = login.split('\n') as [string, string];
    const stationUrl = (await ran(filled(addTable))).trim();
    const shape = filled(printed.replace(/^# prints /, '').replace(/: the station's URL$/, '')).split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    expect(stationUrl).toMatch(new RegExp(`^${shape.join('[^:@/]+')}$`));

    // The rest side by side (each its own table's, or only reading): the 2-CPU machine's npm and tsx starts overlap.
    await Promise.all([checksAndScripts(), seatList(), typoRemoved()]);

    /** For checks and scripts: sync of table 7's station, status, the chip audit's summary. */
    async function checksAndScripts(): Promise<void> {
      const stationDir = mkdtempSync(join(tmpdir(), 'cardroom-7-'));
      try {
        await (await playStation(stationDir, '7', 'abandoned')).close();
        const fill = { URL: floorUrl, NAME: '7', DIR: stationDir };
        const synopsis = readmeBlock('floor-scripts').split('\n').filter((line) => line.trim() !== '');
        expect(synopsis.map((line) => /floor -- (\S+)/.exec(line)?.[1])).toEqual(['status', 'sync', 'summary']);
        const runs = (line: string): string[] => {
          const withValues = line.replace(/\b(URL|NAME|DIR)\b/g, (word) => `'${word === 'URL' && line.includes(' sync ') ? stationUrl : fill[word as keyof typeof fill]}'`);
          const choices = [...withValues.matchAll(/\[(--[\w-]+) ([^\]]+)\]/g)].map((match) => ({ text: match[0], option: match[1] as string, values: (match[2] as string).split('|') }));
          const taken = (value: (choice: (typeof choices)[number]) => string | undefined) =>
            choices.reduce((text, choice) => text.replace(` ${choice.text}`, value(choice) === undefined ? '' : ` ${choice.option} '${value(choice) as string}'`), withValues);
          // Each one's first value together, then each other value alone (`--format json` takes no `--sep`): every value once.
          const others = choices.flatMap((alone) => alone.values.slice(1).map((value) => taken((choice) => (choice === alone ? value : undefined))));
          return [taken((choice) => choice.values[0]), ...others];
        };
        const [status, sync, summary] = synopsis as [string, string, string];
        expect(JSON.parse(await ran(runs(sync)[0] as string))).toMatchObject({ table: '7', refused: [] });
        const tables = (JSON.parse(await ran(runs(status)[0] as string)) as { tables: { table: string; races: number }[] }).tables;
        expect(tables.find((table) => table.table === '7')).toMatchObject({ races: 2 });
        const summaries = runs(summary);
        expect(summaries.map((line) => line.replace(/^.*--database '[^']*'/, ''))).toEqual([" --format 'csv' --sep ','", " --format 'json'", " --sep ';'"]);
        const [csvComma, json, semicolon] = summaries as [string, string, string];
        // Side by side: status has folded what there was, so they only read.
        const [commaCsv, jsonText, semicolonCsv] = await Promise.all([ran(csvComma), ran(json), ran(semicolon)]);
        expect(commaCsv).toMatch(/^\uFEFFtable,races,abandoned,value created,disputes\r?\n/);
        expect(JSON.parse(jsonText)).toBeTypeOf('object');
        expect(semicolonCsv).toMatch(/^\uFEFFtable;races;abandoned;value created;disputes\r?\n/);
      } finally {
        rmSync(stationDir, { recursive: true, force: true });
      }
    }

    /** The seat list, loaded by its line: it says what the comment beside it says, of this list. */
    async function seatList(): Promise<void> {
      const seatingLine = lineOf('floor-seating', /seating --file seats\.csv/);
      const seats = join(PROJECT_ROOT, 'seats.csv');
      if (existsSync(seats)) throw new Error(`${seats} is in the project's folder: the test of the floor-seating line would overwrite it`);
      writeFileSync(seats, 'table,seat,player\n7,1,Anna\n7,2,Bea\n7,4,Cid\n');
      try {
        const said = JSON.parse(/# (\{.*\})/.exec(seatingLine)?.[1] as string) as Record<string, unknown>;
        expect(JSON.parse(await ran(seatingLine, asDirector))).toEqual({ ...said, tables: 1, players: 3 });
      } finally {
        rmSync(seats, { force: true });
      }
    }

    /** A table a typo made, removed by its line (this one was given a login: hadLogin true). */
    async function typoRemoved(): Promise<void> {
      const removeLine = lineOf('floor-remove-table', /remove-table --table T7/);
      const floorRole = new pg.Client({ connectionString: floorUrl });
      floorRole.on('error', () => undefined);
      await floorRole.connect();
      try {
        await createStationLogin(floorRole, 'T7');
      } finally {
        await floorRole.end();
      }
      const said = JSON.parse(/# (\{.*\})/.exec(removeLine)?.[1] as string) as Record<string, unknown>;
      expect(JSON.parse(await ran(removeLine, asDirector))).toEqual({ ...said, hadLogin: true });
    }
  }, 240_000);

  it("serves the floor on the cardroom's network as docs/floor.md's lines say: a token made by its line, HTTPS with the cardroom's certificate", async () => {
    const ca = await makeCardroomCa('floor.local', '127.0.0.1');
    const made = ['floor-token', 'floor.crt', 'floor.key'].map((file) => join(PROJECT_ROOT, file));
    for (const file of made) if (existsSync(file)) throw new Error(`${file} is in the project's folder: the test of the floor-lan lines would overwrite it`);
    copyFileSync(ca.cert, join(PROJECT_ROOT, 'floor.crt'));
    copyFileSync(ca.key, join(PROJECT_ROOT, 'floor.key'));
    // The page's port: the default one (8790) may be another test's.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const lines = `${onServer(readmeBlock('floor-lan').replaceAll('chip_race_floor:…@', 'chip_race_floor:floor-password@'), server).trimEnd()} --port ${port}`;
    const floorLine = startReadmeLine(lines);
    try {
      await floorLine.waitFor(/floor: serving https:\/\/0\.0\.0\.0:\d+\//, 90_000);
      const token = readFileSync(join(PROJECT_ROOT, 'floor-token'), 'utf8').trim();
      expect(token).toMatch(/^[A-Za-z0-9+/]{24}$/);
      const get = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const request = httpsRequest({ host: '127.0.0.1', port, path: '/', ca: readFileSync(ca.caCert), headers: { host: `floor.local:${port}`, ...headers } }, (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          });
          request.on('error', reject);
          request.end();
        });
      expect(await get({ authorization: `Bearer ${token}` })).toBe(200);
      expect(await get({})).toBe(401);
    } finally {
      await floorLine.stop();
      for (const file of made) rmSync(file, { force: true });
      rmSync(ca.dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe.runIf(run)("a cardroom an earlier version set up, its set-up's line run again as the README says (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;

  beforeAll(async () => {
    server = await startThrowawayPostgres();
  }, 120_000);

  afterAll(async () => {
    await server?.remove();
  });

  it('keeps the database and its station logins, and gives them what this version does: time limits, no other database', async () => {
    // The set-up as the last version wrote it (before issue 44), and a station login it made.
    const earlier = await new Promise<string>((resolve, reject) => execFile('git', ['show', '65c11b6:floor/db/cardroom.sql'], { cwd: root }, (error, stdout) => (error === null ? resolve(stdout) : reject(error))));
    const folder = mkdtempSync(join(tmpdir(), 'cardroom-earlier-'));
    try {
      const file = join(folder, 'cardroom.sql');
      writeFileSync(file, earlier);
      expect((await asPostgres(`psql -v floor_password='floor-password' < ${file}`, server)).code).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const floorUrl = server.urlFor('chip_race_floor', 'floor-password', 'chip_race');
    // This version's floor on the earlier set-up: it says to run the set-up again, and makes no login.
    const refused = await floor(['add-table', '--database', floorUrl, '--table', '7']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cardroom's set-up is older than this floor.*run its psql line again/);
    // A station login the earlier version made (its add-table: the earlier login maker, the table's row).
    const floorRole = new pg.Client({ connectionString: floorUrl });
    floorRole.on('error', () => undefined);
    await floorRole.connect();
    const earlierRole = stationRoleOf('earlier');
    await floorRole.query("SELECT chip_race_logins.station_login($1, 'an-earlier-password-1234', 8)", [earlierRole]);
    await floorRole.query("INSERT INTO floor_tables (table_name, role_name) VALUES ('earlier', $1)", [earlierRole]);
    await floorRole.end();
    const earlierSettings = async () => {
      const station = new pg.Client({ connectionString: server.urlFor(earlierRole, 'an-earlier-password-1234', 'chip_race') });
      station.on('error', () => undefined);
      await station.connect();
      try {
        return (await station.query("SELECT current_setting('statement_timeout') AS statement")).rows;
      } finally {
        await station.end();
      }
    };
    expect(await earlierSettings()).toEqual([{ statement: '0' }]);
    // Run again as written: nothing lost, the floor's password the one given.
    const again = await asPostgres(readmeSetUp(), server);
    expect(again.code).toBe(0);
    const added = await floor(['add-table', '--database', floorUrl, '--table', '7']);
    expect(added.stderr).toBe('');
    const station = new pg.Client({ connectionString: added.stdout.trim() });
    station.on('error', () => undefined);
    await station.connect();
    expect((await station.query("SELECT current_setting('statement_timeout') AS statement")).rows).toEqual([{ statement: '20s' }]);
    await station.end();
    // The earlier login too: add-table bounds every station login that is not yet.
    expect(await earlierSettings()).toEqual([{ statement: '20s' }]);
    const url = new URL(added.stdout.trim());
    url.pathname = '/postgres';
    const elsewhere = new pg.Client({ connectionString: url.toString() });
    elsewhere.on('error', () => undefined);
    await expect(elsewhere.connect()).rejects.toThrow(/permission denied for database/);
    await elsewhere.end().catch(() => undefined);
    // Once more: the set-up is idempotent.
    expect((await asPostgres(readmeSetUp(), server)).code).toBe(0);
    const status = await floor(['status', '--database', floorUrl]);
    expect(status.stderr).toBe('');
    expect(JSON.parse(status.stdout).tables.map((table: { table: string }) => table.table).sort()).toEqual(['7', 'earlier']);
  }, 180_000);
});

/** The documentation's lines for a cluster not at Debian's defaults (`cardroom-other-cluster:begin` … `end`, docs/floor.md), as written there. */
function readmeOtherCluster(): string[] {
  const block = findInDocumentation('cardroom-other-cluster:begin … end block', /<!-- cardroom-other-cluster:begin[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- cardroom-other-cluster:end -->/).match[1] as string;
  return block.split('\n').filter((line) => line.trim() !== '');
}

/** The environment a director's root shell has: none of libpq's variables nor the floor's, PGDATA the cluster's folder as the README says. */
function directorShell(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^(PG|CHIP_RACE_)/.test(name)) env[name] = value;
  return { ...env, PGDATA: dataDir };
}

const asRoot = userInfo().uid === 0;

// Issue 43: `sudo -u postgres` failed in a root shell without sudo, and nothing said where another
// port goes or how to restart a cluster started with pg_ctl. The README's lines for that, each run
// by `sh` exactly as written, as root, on a cluster laid out as Debian's package lays one out (its
// superuser `postgres` by peer authentication on /var/run/postgresql) at port 5433.
describe.runIf(run && asRoot)('the README\'s commands for a cluster at another port, from a root shell without sudo, restarted with pg_ctl (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  const CLUSTER_PORT = 5433;
  const PAGE_PORT = 8791;

  beforeAll(async () => {
    server = await startThrowawayPostgres([], undefined, { port: CLUSTER_PORT });
  }, 120_000);

  afterAll(async () => {
    await server?.remove();
  });

  it('sets the cardroom up, raises its connections, restarts it and serves the floor, each line as written', async () => {
    const lines = readmeOtherCluster();
    expect(lines).toHaveLength(4);
    const [setUp, connections, restart, serve] = lines as [string, string, string, string];
    expect(serve).toMatch(/npm run floor -- --port 8791$/);
    const shell = (line: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile('sh', ['-c', line], { cwd: root, env: directorShell(server.dataDir), timeout: 120_000 }, (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
        });
      });
    // Run as root from a folder the postgres user cannot enter (a clone in root's home, or this
    // clean clone, mode 700), psql first says it could not change to it and goes on: the one line
    // it may print, as the README says; anything else on stderr fails.
    const harmless = /^could not change directory to ".*": Permission denied$/;
    for (const line of [setUp, connections, restart]) {
      const done = await shell(line);
      const said = done.stderr.split('\n').filter((text) => text !== '' && !harmless.test(text));
      expect({ line, code: done.code, stderr: said }).toEqual({ line, code: 0, stderr: [] });
    }
    // The restart took the new limit, on the same port.
    const superuser = new pg.Client({ connectionString: server.url });
    superuser.on('error', () => undefined);
    await superuser.connect();
    try {
      expect((await superuser.query('SHOW max_connections')).rows).toEqual([{ max_connections: '600' }]);
    } finally {
      await superuser.end();
    }
    // The floor as written: it migrates as the floor's role and serves its page on 8791.
    const floorProcess = spawn('sh', ['-c', serve], { cwd: root, env: directorShell(server.dataDir), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let said = '';
    floorProcess.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    floorProcess.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const ended = new Promise<void>((resolve) => floorProcess.once('exit', () => resolve()));
    try {
      let page: Response | null = null;
      for (const by = Date.now() + 90_000; page === null && Date.now() < by && floorProcess.exitCode === null; ) {
        page = await fetch(`http://127.0.0.1:${PAGE_PORT}/`).catch(() => null);
        if (page === null) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(page?.status, said).toBe(200);
      expect(await page?.text()).toContain('data-testid="floor-clock"');
    } finally {
      if (floorProcess.pid !== undefined) process.kill(-floorProcess.pid, 'SIGTERM');
      await ended;
    }
  }, 240_000);
});

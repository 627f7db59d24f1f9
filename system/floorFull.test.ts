// Issue 23: a stock Debian PostgreSQL (max_connections = 100) and more stations than it has slots
// for. The station that finds no slot says the floor is full (reason `full`), never `other: 53300`;
// the floor's start says exactly what to change; with the README's cardroom-connections block run
// as written, the same stations all link.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../floor/cli';
import { checkConnections } from '../floor/db/capacity';
import { createStationLogin } from '../floor/db/stations';
import { migrate } from '../floor/db/migrate';
import { applyReadmeConnections, connectedClient, DEBIAN_MAX_CONNECTIONS, POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { FloorLink } from '../station/floorLink/link';
import type { FloorLinkState } from '../protocol/floorLink';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..');
/** More stations than a stock server's 97 slots for them (100, 3 kept for the superuser). */
const STATIONS = 100;
const TIMING = { retryFirstMs: 200, retryMaxMs: 10_000, pollMs: 500, countMs: 100, connectMs: 5_000, queryMs: 15_000 };

async function until(what: string, done: () => boolean, ms = 60_000): Promise<void> {
  const by = Date.now() + ms;
  while (!done()) {
    if (Date.now() > by) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(run)('more stations than a stock PostgreSQL has connections for (a real server at Debian’s max_connections = 100)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const dir = mkdtempSync(join(tmpdir(), 'floor-full-'));
  const links: { table: string; link: FloorLink; states: FloorLinkState[] }[] = [];
  const logins: { table: string; url: string }[] = [];

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = await connectedClient(server.url);
    await migrate(admin);
    for (let index = 0; index < STATIONS; index += 1) {
      const login = await createStationLogin(admin, `T${index + 1}`);
      logins.push({ table: login.table, url: server.urlFor(login.role, login.password) });
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(links.map(({ link }) => link.close().catch(() => undefined)));
    await admin?.end().catch(() => undefined);
    await server?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the test server at Debian’s defaults, and the floor’s start says what to change', async () => {
    expect((await admin.query<{ max: string }>("SELECT current_setting('max_connections') AS max")).rows).toEqual([{ max: String(DEBIAN_MAX_CONNECTIONS) }]);
    const need = await checkConnections(admin);
    expect(need).toMatchObject({ tables: STATIONS, maxConnections: 100, enough: false, suggested: 200 });
    // add-table (what the director runs for each table) says it, in the director's language, and still makes the login.
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['add-table', '--database', server.url, '--table', 'T101'], { LANG: 'fi_FI.UTF-8' }, (text) => out.push(text), (text) => err.push(text));
    expect(code).toBe(0);
    expect(out.join('')).toMatch(/^postgres:\/\/chip_race_table_/);
    expect(err.join('')).toContain('PostgreSQL sallii 100 yhteyttä (max_connections)');
    expect(err.join('')).toContain('sudo -u postgres psql -c "ALTER SYSTEM SET max_connections = 200;"');
  }, 60_000);

  it('`floor serve` says it at start, with the exact setting, and serves all the same', async () => {
    // The floor's own program as `npm run floor` runs it, in the director's language (LANG), killed by its pid afterwards.
    const child = spawn(process.execPath, ['--import', 'tsx', join('floor', 'cli.ts'), 'serve', '--port', '0', '--database', server.url], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '', CHIP_RACE_FLOOR_TOKEN: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'ru_RU.UTF-8' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          if (/serving http:\/\//.test(stdout)) resolve();
        });
        child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        child.once('exit', (code) => reject(new Error(`floor serve exited ${code}: ${stdout}${stderr}`)));
      });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    // Its connections gone from the server before the stations come (they are the superuser's here,
    // and a backend outlives its client by a moment: left, they hold the slots psql needs later).
    let others: number | undefined;
    for (let tries = 0; tries < 200 && others !== 0; tries += 1) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      others = (await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")).rows[0]?.n;
    }
    expect(others, 'the floor program’s connections closed').toBe(0);
    expect(stderr).toContain('PostgreSQL допускает 100 подключений (max_connections)');
    expect(stderr).toContain('sudo -u postgres psql -c "ALTER SYSTEM SET max_connections = 200;"');
  }, 60_000);

  it('a station past the last slot says the floor is full (reason full), never other: 53300', async () => {
    for (const { table, url } of logins) {
      const dataDir = join(dir, table);
      mkdirSync(dataDir);
      const states: FloorLinkState[] = [];
      const link = await FloorLink.start({ dataDir, table, url, from: 'settings', journalSeq: 0, onState: (state) => states.push(state), timing: TIMING });
      links.push({ table, link, states });
    }
    await until('every link connected or offline', () => links.every(({ link }) => link.current.state === 'connected' || link.current.state === 'offline'));
    const full = links.filter(({ states }) => states.some((state) => state.state === 'offline' && state.reason === 'full'));
    const other = links.flatMap(({ states }) => states.filter((state) => state.state === 'offline' && state.reason !== 'full'));
    expect(other).toEqual([]);
    // 97 slots for others than the superuser, one of them the floor's admin connection here.
    expect(full.length).toBeGreaterThanOrEqual(STATIONS - 96);
    expect(links.filter(({ link }) => link.current.state === 'connected').length).toBeLessThanOrEqual(96);
    const said = full[0]?.states.find((state) => state.state === 'offline');
    expect(said).toMatchObject({ state: 'offline', reason: 'full', detail: '53300' });
  }, 120_000);

  it("with the README's cardroom-connections block run as written, every station links", async () => {
    await applyReadmeConnections(server);
    await admin.end().catch(() => undefined);
    admin = await connectedClient(server.url);
    const max = Number((await admin.query<{ max: string }>("SELECT current_setting('max_connections') AS max")).rows[0]?.max);
    expect(max).toBeGreaterThanOrEqual(600);
    expect((await checkConnections(admin)).enough).toBe(true);
    // The links dropped by the restart come back by themselves, the full ones with them.
    await until('every link connected', () => links.every(({ link }) => link.current.state === 'connected'), 90_000);
  }, 150_000);
});

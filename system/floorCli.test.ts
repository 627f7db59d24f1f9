import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_OPTIONS, SUBCOMMANDS } from '../floor/cli';
import type { ConsoleService } from '../station/service/service';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { playStation } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command line as a child process, as a check or a cardroom runs it. */
function floor(args: readonly string[], env: NodeJS.ProcessEnv = {}, viaNpm = false): Promise<Outcome> {
  const [program, programArgs] = viaNpm ? ['npm', ['run', '--silent', 'floor', '--', ...args]] : [join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'floor', 'cli.ts'), ...args]];
  return new Promise((resolve) => {
    execFile(program as string, programArgs as string[], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

const oneLine = (outcome: Outcome) => {
  expect(outcome.code).toBe(2);
  expect(outcome.stdout).toBe('');
  expect(outcome.stderr.endsWith('\n')).toBe(true);
  expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
  expect(outcome.stderr).not.toMatch(/\bat .*\.ts:\d+/);
};

describe('the floor command line: bad arguments', () => {
  it('exits 2 with one line on stderr for an unknown subcommand, a bad URL, a missing --table, an unknown flag', async () => {
    const outcomes = await Promise.all([
      floor(['launch', '--database', 'postgres://a:b@127.0.0.1:5432/x']),
      floor(['status', '--database', 'not a url']),
      floor(['status', '--database', 'http://127.0.0.1/x']),
      floor(['status']),
      floor(['sync', '--database', 'postgres://a:b@127.0.0.1:5432/x', '--data', tmpdir()]),
      floor(['sync', '--database', 'postgres://a:b@127.0.0.1:5432/x', '--table', '7']),
      floor(['sync', '--database', 'postgres://a:b@127.0.0.1:5432/x', '--table', 'x'.repeat(33), '--data', tmpdir()]),
      floor(['status', '--database', 'postgres://a:b@127.0.0.1:5432/x', '--colour', 'red']),
      floor(['serve', '--database', 'postgres://a:b@127.0.0.1:5432/x', '--port', '99999']),
      floor(['--database', 'postgres://a:b@127.0.0.1:5432/x', '--host', '0.0.0.0']),
    ]);
    for (const outcome of outcomes) oneLine(outcome);
    expect(outcomes[0]?.stderr).toMatch(/unknown subcommand "launch"/);
    expect(outcomes[3]?.stderr).toMatch(/--database URL is needed/);
    expect(outcomes[4]?.stderr).toMatch(/needs --table/);
    // serve is the default; on the LAN without a token it does not start.
    expect(outcomes[9]?.stderr).toMatch(/refusing to serve on 0\.0\.0\.0 without --token/);
  }, 60_000);
});

describe('the floor command line: its help (issue 43)', () => {
  it('says how to call it, as the README runs it: floor --help, -h, help and every subcommand\'s --help, exit 0, on stdout, every option in them and in docs/floor.md', async () => {
    const general = await Promise.all([floor(['--help'], {}, true), floor(['-h']), floor(['help'])]);
    const perCommand = await Promise.all([...SUBCOMMANDS.map((command) => floor([command, '--help'])), floor(['clock', 'adjust', '--help']), floor(['status', '--database', 'not a url', '--help'])]);
    for (const outcome of [...general, ...perCommand]) {
      expect(outcome).toMatchObject({ code: 0, stderr: '' });
      expect(outcome.stdout).toMatch(/^usage: /);
    }
    expect(general[1]?.stdout).toBe(general[0]?.stdout);
    for (const command of SUBCOMMANDS) expect(general[0]?.stdout).toContain(`\n  ${command} `);
    expect(perCommand[SUBCOMMANDS.indexOf('clock')]?.stdout).toMatch(/--minutes N +for adjust/);
    expect(general[0]?.stdout).toMatch(/PORT 5432 when left out/);
    const said = new Set([...general, ...perCommand].flatMap((outcome) => [...outcome.stdout.matchAll(/--([a-z-]+)/g)].map((match) => match[1])));
    const floorPage = readFileSync(join(root, 'docs', 'floor.md'), 'utf8');
    for (const option of CLI_OPTIONS) {
      expect(said, `--${option} in the help`).toContain(option);
      expect(floorPage, `--${option} in docs/floor.md`).toContain(`--${option}`);
    }
  }, 60_000);
});

describe.runIf(run)('the floor command line against a real PostgreSQL server', () => {
  let server: ThrowawayPostgres;
  const folders: string[] = [];
  const services: ConsoleService[] = [];

  beforeAll(async () => {
    server = await startThrowawayPostgres();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('reports an empty database as no tables; syncs stations once (a second run adds nothing); prints the contract\'s JSON', async () => {
    const empty = await floor(['status', '--database', server.url], {}, true);
    expect(empty).toEqual({ code: 0, stdout: expect.any(String), stderr: '' });
    expect(JSON.parse(empty.stdout)).toEqual({ tables: [], totals: { races: 0, valueDelta: 0, bring: {}, collect: {} }, progress: { 'not-started': 0, racing: 0, 'waiting-to-confirm': 0, done: 0, closed: 0, disputed: 0, 'floor-called': 0, left: 0 } });

    const a = mkdtempSync(join(tmpdir(), 'floor-cli-'));
    const b = mkdtempSync(join(tmpdir(), 'floor-cli-'));
    folders.push(a, b);
    services.push(await playStation(a, '7', 'colour-up-racing'), await playStation(b, '12', 'abandoned'));
    const first = await floor(['sync', '--database', server.url, '--table', '7', '--data', a]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ table: '7', refused: [] });
    expect(JSON.parse(first.stdout).stored).toBeGreaterThan(10);
    const again = await floor(['sync', '--database', server.url, '--table', '7', '--data', a]);
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: 0, stored: 0 });
    // Through the environment, as a station's settings give it.
    expect((await floor(['sync', '--table', '12', '--data', b], { CHIP_RACE_DATABASE_URL: server.url })).code).toBe(0);

    const admin = new pg.Client({ connectionString: server.url });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const counts = await admin.query('SELECT table_name, count(*)::int AS n FROM station_records GROUP BY table_name ORDER BY table_name');
      const before = counts.rows;
      expect((await floor(['sync', '--database', server.url, '--table', '12', '--data', b])).code).toBe(0);
      expect((await admin.query('SELECT table_name, count(*)::int AS n FROM station_records GROUP BY table_name ORDER BY table_name')).rows).toEqual(before);
    } finally {
      await admin.end();
    }

    const status = await floor(['status', '--database', server.url], {}, true);
    expect(status.code).toBe(0);
    expect(status.stderr).toBe('');
    const document = JSON.parse(status.stdout) as { tables: Record<string, unknown>[]; totals: Record<string, unknown> };
    expect(Object.keys(document)).toEqual(['tables', 'totals', 'progress']);
    expect(Object.keys(document.totals)).toEqual(['races', 'valueDelta', 'bring', 'collect']);
    const keys = ['table', 'races', 'valueDelta', 'lastSeen', 'colourUp', 'foldBehind', 'bring', 'collect', 'sheetAfterLevel'];
    expect(document.tables.map((table) => Object.keys(table))).toEqual([keys, keys]);
    const [seven, twelve] = document.tables as [Record<string, unknown>, Record<string, unknown>];
    // The chip runner's sheet of the break after level 6: its 500s' race (2 × 500 traded for a 1000) confirmed, its 100s' still taking cards (nothing handed out yet).
    expect(seven).toMatchObject({ table: '7', races: 2, colourUp: 'racing', foldBehind: 0, bring: { 1000: 1 }, collect: { 500: 2 }, sheetAfterLevel: 6 });
    // No break marked, no race run at one: nothing on the sheet.
    expect(twelve).toMatchObject({ table: '12', races: 2, colourUp: 'not-started', bring: {}, collect: {}, sheetAfterLevel: null });
    expect(new Date(seven.lastSeen as string).toISOString()).toBe(seven.lastSeen);
    expect(document.totals).toEqual({ races: 4, valueDelta: (seven.valueDelta as number) + (twelve.valueDelta as number), bring: { 1000: 1 }, collect: { 500: 2 } });
    // The progress board: one table racing, one not started, both left.
    expect((document as unknown as { progress: Record<string, number> }).progress).toMatchObject({ 'not-started': 1, racing: 1, 'waiting-to-confirm': 0, done: 0, disputed: 0, left: 2 });
  }, 120_000);

  it('makes a station its own least-privilege login, as a URL that can sync only its table', async () => {
    const made = await floor(['add-table', '--database', server.url, '--table', 'Стол 3']);
    expect(made.code).toBe(0);
    const url = made.stdout.trim();
    expect(url).toMatch(/^postgres:\/\/chip_race_table_[0-9a-f]{16}:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    const dir = mkdtempSync(join(tmpdir(), 'floor-cli-'));
    folders.push(dir);
    services.push(await playStation(dir, 'Стол 3', 'abandoned'));
    const synced = await floor(['sync', '--database', url, '--table', 'Стол 3', '--data', dir]);
    expect(synced.code).toBe(0);
    // Another table's records through the same login: refused, one line.
    oneLine(await floor(['sync', '--database', url, '--table', '7', '--data', dir]));
    // Its status: a station may not read the floor's summaries.
    oneLine(await floor(['status', '--database', url]));
  }, 120_000);

  it('refuses add-table for a table that has a login unless --rotate, which gives a new password and retires the old', async () => {
    const first = await floor(['add-table', '--database', server.url, '--table', 'rotated']);
    expect(first.code).toBe(0);
    const again = await floor(['add-table', '--database', server.url, '--table', 'rotated']);
    oneLine(again);
    expect(again.stderr).toMatch(/table rotated already has a station login: add --rotate/);
    const rotated = await floor(['add-table', '--database', server.url, '--table', 'rotated', '--rotate']);
    expect(rotated.code).toBe(0);
    const [oldUrl, newUrl] = [first.stdout.trim(), rotated.stdout.trim()];
    expect(new URL(newUrl).username).toBe(new URL(oldUrl).username);
    expect(newUrl).not.toBe(oldUrl);
    const tryLogin = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return 'connected';
      } catch (error) {
        return (error as Error).message;
      } finally {
        await client.end().catch(() => undefined);
      }
    };
    expect(await tryLogin(oldUrl)).toMatch(/password authentication failed/);
    expect(await tryLogin(newUrl)).toBe('connected');
    oneLine(await floor(['status', '--database', server.url, '--rotate']));
  }, 120_000);

  it('reports no tables for an un-migrated database the role may not migrate', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      await admin.query('CREATE DATABASE untouched');
      await admin.query("CREATE ROLE floor_reader LOGIN PASSWORD 'reader-password'");
    } finally {
      await admin.end();
    }
    const status = await floor(['status', '--database', server.urlFor('floor_reader', 'reader-password', 'untouched')]);
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toEqual({ tables: [], totals: { races: 0, valueDelta: 0, bring: {}, collect: {} }, progress: { 'not-started': 0, racing: 0, 'waiting-to-confirm': 0, done: 0, closed: 0, disputed: 0, 'floor-called': 0, left: 0 } });
  }, 60_000);

  it('exits 2 with one line for an unreachable database', async () => {
    const port = server.port;
    oneLine(await floor(['status', '--database', `postgres://floor_admin:x@127.0.0.1:${port === 1 ? 2 : 1}/postgres`]));
    oneLine(await floor(['status', '--database', server.url.replace(/throwaway-cluster-only/, 'wrong-password')]));
  }, 60_000);
});

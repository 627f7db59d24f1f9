// The README's set-up for a cardroom, as written there: a floor role that may make logins and owns
// the tournament's database (not a superuser), the floor started on it, a table registered, its
// station replicating with the login it was given, the floor's status reading it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleService } from '../service/service';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from './testing/postgres';
import { playStation } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..', '..');

function floor(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'floor', '--', ...args], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe.runIf(run)("a cardroom's floor set up as the README says (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let station: ConsoleService | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'cardroom-'));

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    // The README's first command, run as PostgreSQL's superuser: the floor's role, and its database.
    const superuser = new pg.Client({ connectionString: server.url });
    superuser.on('error', () => undefined);
    await superuser.connect();
    await superuser.query("CREATE ROLE chip_race_floor LOGIN CREATEROLE PASSWORD 'floor-password'");
    await superuser.query('CREATE DATABASE chip_race OWNER chip_race_floor');
    await superuser.end();
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
    expect(stationUrl).toMatch(/^postgres:\/\/chip_race_table_[0-9a-f]{16}:[^@]+@127\.0\.0\.1:\d+\/chip_race$/);
    station = await playStation(dataDir, 'Pöytä 7', 'colour-up-racing');
    const synced = await floor(['sync', '--database', stationUrl, '--table', 'Pöytä 7', '--data', dataDir]);
    expect(synced.stderr).toBe('');
    expect(JSON.parse(synced.stdout)).toMatchObject({ table: 'Pöytä 7', refused: [] });
    // The station's login reads nothing of the floor's: its status is refused, in one line.
    const nosy = await floor(['status', '--database', stationUrl]);
    expect(nosy.code).toBe(2);
    expect(nosy.stderr.trim().split('\n')).toHaveLength(1);
    const status = await floor(['status', '--database', floorUrl]);
    expect(status.stderr).toBe('');
    expect(JSON.parse(status.stdout)).toMatchObject({ tables: [{ table: 'Pöytä 7', races: 2, colourUp: 'racing' }], totals: { races: 2 } });
  }, 120_000);
});

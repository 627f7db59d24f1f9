// The link's honesty, against a real PostgreSQL 15: a station never says "connected" while the
// floor lacks records it has (a first record planted on the floor), a refused password is
// said as such, and the password is never sent to a server that asks for it in clear text.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleService } from '../station/service/service';
import type { FloorLinkState } from '../protocol/contract';
import { serviceHarness } from '../station/service/testing/services';
import { migrate } from '../floor/db/migrate';
import { createStationLogin, stationRoleOf } from '../floor/db/stations';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';
import { tableSettings } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const FLOOR_TIMING = { retryFirstMs: 50, retryMaxMs: 400, pollMs: 200, countMs: 100, connectMs: 2_000 };
const { serviceIn } = serviceHarness({ clock: () => new Date('2026-12-01T21:00:00Z'), station: 'table-pc', floorTiming: FLOOR_TIMING });
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const OK = { ok: true, value: null };
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'link-honesty-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A console linked to the floor (as CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE would), every link state it went through recorded. */
async function station(table: string, url: string): Promise<{ service: ConsoleService; states: FloorLinkState[] }> {
  const service = await serviceIn(folder(), { floor: { url, table } });
  const states: FloorLinkState[] = [service.getState().floorLink];
  service.onState((state) => {
    if (state.floorLink !== states.at(-1)) states.push(state.floorLink);
  });
  expect(await service.saveSettings(tableSettings(table))).toEqual(OK);
  expect(await service.startRace(COUNTS)).toEqual(OK);
  for (const card of ['Ah', 'Kc', '2d']) expect(await service.dealCard('race-1', card)).toEqual(OK);
  return { service, states };
}

describe.runIf(run)('the station link says what the floor holds', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = new pg.Client({ connectionString: server.url });
    admin.on('error', () => undefined);
    await admin.connect();
    await migrate(admin);
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  const floorLast = async (table: string) => Number((await admin.query('SELECT coalesce(max(seq), 0) AS last FROM station_records WHERE table_name = $1', [table])).rows[0].last);

  it('a first record planted on the floor (seq 1,000,000) before the station connected: never "connected", it says the floor does not hold its records; put right, it sends them all', async () => {
    const login = await createStationLogin(admin, 'planted');
    // Planted past the floor's own check (as whoever had the login, or the floor's owner, could).
    await admin.query('BEGIN');
    await admin.query('SET LOCAL session_replication_role = replica');
    await admin.query("INSERT INTO station_records (table_name, seq, line, headers, id, hash, chain, seal_checked) VALUES ('planted', 1000000, '{}', '', nextval('station_records_arrival'), 'planted', 'sha256', false)");
    await admin.query('COMMIT');
    const { service, states } = await station('planted', server.urlFor(login.role, login.password));
    const refused = await until('the link says the floor lacks its records', () => {
      const state = service.getState().floorLink;
      return state.state === 'refused' ? state : null;
    });
    expect(refused).toMatchObject({ state: 'refused', seq: 1, reason: 'floor-ahead' });
    // A few polls later it still says so, and never said "connected".
    await new Promise((done) => setTimeout(done, 800));
    expect(service.getState().floorLink).toMatchObject({ state: 'refused', reason: 'floor-ahead' });
    expect(states.map((state) => state.state)).not.toContain('connected');
    expect(await floorLast('planted')).toBe(1000000);

    // The floor supervisor removes the planted record: the station sends every record it has.
    await admin.query("DELETE FROM station_records WHERE table_name = 'planted'");
    await until('connected, with every record on the floor', async () => service.getState().floorLink.state === 'connected' && (await floorLast('planted')) > 0);
    const held = await admin.query<{ n: number; last: string }>("SELECT count(*)::int AS n, max(seq) AS last FROM station_records WHERE table_name = 'planted'");
    expect(held.rows[0]?.n).toBe(Number(held.rows[0]?.last));
  }, 60_000);

  it('a password the floor refuses is said as such (reason login), never as the floor being unreachable', async () => {
    const login = await createStationLogin(admin, 'rotated');
    await admin.query(`ALTER ROLE "${login.role}" PASSWORD 'a-new-one-the-station-does-not-have'`);
    const { service } = await station('rotated', server.urlFor(login.role, login.password));
    const offline = await until('the link gave up on the login', () => {
      const state = service.getState().floorLink;
      return state.state === 'offline' ? state : null;
    });
    expect(offline).toMatchObject({ reason: 'login', detail: '28P01' });
  }, 30_000);
});

describe.runIf(run)('a floor server that asks for the password in clear text', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let hbaDir: string;
  beforeAll(async () => {
    // The floor's owner signs in with SCRAM; table md5's login is asked for its password's MD5 hash; every other login (the stations') for its password in clear text.
    hbaDir = mkdtempSync(join(tmpdir(), 'link-honesty-hba-'));
    // The server runs as the postgres user: it must be able to read the file.
    chmodSync(hbaDir, 0o755);
    const hba = join(hbaDir, 'pg_hba.conf');
    writeFileSync(hba, `local all all scram-sha-256\nhost all floor_admin 127.0.0.1/32 scram-sha-256\nhost all ${stationRoleOf('md5')} 127.0.0.1/32 md5\nhost all all 127.0.0.1/32 password\n`, { mode: 0o644 });
    server = await startThrowawayPostgres([`hba_file=${hba}`]);
    admin = new pg.Client({ connectionString: server.url });
    admin.on('error', () => undefined);
    await admin.connect();
    await migrate(admin);
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await server?.remove();
    rmSync(hbaDir, { recursive: true, force: true });
  });

  /**
   * The server really does ask the login for its password this way (and takes it when answered),
   * and the station never answers: offline with the reason, never "connected", nothing on the floor.
   */
  async function neverAnswered(table: string, request: string, reason: string, detail: string): Promise<void> {
    const login = await createStationLogin(admin, table);
    await admin.query('RESET password_encryption');
    const plain = new pg.Client({ connectionString: server.urlFor(login.role, login.password) });
    let asked = false;
    (plain as unknown as { connection: NodeJS.EventEmitter }).connection.on(request, () => {
      asked = true;
    });
    await plain.connect();
    await plain.end();
    expect(asked).toBe(true);

    const { service, states } = await station(table, server.urlFor(login.role, login.password));
    const offline = await until('the link refused to answer the request for the password', () => {
      const state = service.getState().floorLink;
      return state.state === 'offline' ? state : null;
    });
    expect(offline).toMatchObject({ reason, detail });
    expect(states.map((state) => state.state)).not.toContain('connected');
    expect((await admin.query('SELECT count(*)::int AS n FROM station_records WHERE table_name = $1', [table])).rows[0].n).toBe(0);
  }

  it('is never answered: the station stays offline (reason cleartext), and nothing reaches the floor', async () => {
    await neverAnswered('cleartext', 'authenticationCleartextPassword', 'cleartext', 'CLEARTEXT-REFUSED');
  }, 60_000);

  it('a request for the MD5 hash of the password (pg_hba md5) is never answered either: offline, reason md5, nothing reaches the floor', async () => {
    // An MD5 request is made only for a password kept as an MD5 hash (a SCRAM one is asked for with SCRAM even under md5).
    await admin.query("SET password_encryption = 'md5'");
    await neverAnswered('md5', 'authenticationMD5Password', 'md5', 'MD5-REFUSED');
  }, 60_000);
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FloorLinkState } from '../protocol/contract';
import { ConsoleService } from '../station/service/service';
import { main } from '../floor/cli';
import { migrate } from '../floor/db/migrate';
import { createStationLogin } from '../floor/db/stations';
import { startFloorServer, type FloorServer } from '../floor/server';
import { makeCardroomCa, type CardroomCa } from '../floor/testing/ca';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';
import { playStation } from './testing/stations';

// The floor's two links on the cardroom's network, each over TLS with the server verified against
// the cardroom's own authority, made by the README's own commands (floor/testing/ca.ts).

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const TOKEN = 'Ab+/cd==%41 ef+gh/ij==';

/** An HTTPS GET to the loopback listener, trusting `ca` (or nothing but the system's authorities). */
function get(port: number, path: string, ca: string | undefined, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers }, ...(ca === undefined ? {} : { ca: readFileSync(ca) }) }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the floor refuses the cardroom network without HTTPS', () => {
  it('will not listen beyond loopback without a certificate and key, in the server and on the command line (exit 2, one line)', async () => {
    await expect(startFloorServer({ databaseUrl: 'postgres://a:b@127.0.0.1:1/x', host: '0.0.0.0', token: TOKEN })).rejects.toThrow(/without HTTPS: add --tls-cert FILE --tls-key FILE/);
    const errors: string[] = [];
    const out: string[] = [];
    expect(await main(['serve', '--database', 'postgres://a:b@127.0.0.1:1/x', '--host', '0.0.0.0', '--token', TOKEN], {}, (text) => out.push(text), (text) => errors.push(text))).toBe(2);
    expect(out).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^floor: refusing to serve on 0\.0\.0\.0 without HTTPS: add --tls-cert FILE --tls-key FILE/);
    expect(await main(['serve', '--database', 'postgres://a:b@127.0.0.1:1/x', '--tls-cert', '/etc/hostname'], {}, () => undefined, () => undefined)).toBe(2);
  });
});

describe.runIf(run)('the floor over TLS, verified (a real PostgreSQL server, a test CA made as the README says)', () => {
  let ca: CardroomCa;
  let other: CardroomCa;
  let database: ThrowawayPostgres;
  let impostor: ThrowawayPostgres;
  let floor: FloorServer;
  const folders: string[] = [];

  beforeAll(async () => {
    // The floor's certificate names 127.0.0.1: the tests reach it on loopback only.
    ca = await makeCardroomCa('floor.local', '127.0.0.1');
    other = await makeCardroomCa('floor.local', '127.0.0.1');
    database = await startThrowawayPostgres([], { cert: ca.cert, key: ca.key, only: true });
    impostor = await startThrowawayPostgres([], { cert: other.cert, key: other.key, only: true });
    const admin = new pg.Client({ connectionString: `${database.url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca.caCert)}` });
    admin.on('error', () => undefined);
    await admin.connect();
    await migrate(admin);
    await admin.end();
    floor = await startFloorServer({ databaseUrl: `${database.url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca.caCert)}`, host: '0.0.0.0', token: TOKEN, names: ['floor.local'], tls: { cert: readFileSync(ca.cert), key: readFileSync(ca.key) }, log: () => undefined });
  }, 120_000);

  afterAll(async () => {
    await floor?.close();
    await database?.remove();
    await impostor?.remove();
    for (const dir of [ca?.dir, other?.dir, ...folders]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the floor page over HTTPS on the LAN bind: a client trusting the cardroom CA gets it, one not trusting it is refused', async () => {
    expect(floor.url).toMatch(/^https:\/\/0\.0\.0\.0:\d+\/$/);
    const port = Number(new URL(floor.url).port);
    expect((await get(port, '/', ca.caCert, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await get(port, '/', ca.caCert)).status).toBe(401);
    await expect(get(port, '/', undefined)).rejects.toMatchObject({ code: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER/) });
    await expect(get(port, '/', other.caCert)).rejects.toMatchObject({ code: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER|CERT_SIGNATURE_FAILURE/) });
    // The form's origin is the https one; the cookie is Secure.
    const signed = await new Promise<{ status: number; cookie: string }>((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port, path: '/login', method: 'POST', ca: readFileSync(ca.caCert), headers: { host: `floor.local:${port}`, origin: `https://floor.local:${port}`, 'content-type': 'application/x-www-form-urlencoded' } }, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, cookie: String(response.headers['set-cookie']?.[0] ?? '') });
      });
      req.on('error', reject);
      req.end(new URLSearchParams({ token: TOKEN }).toString());
    });
    expect(signed.status).toBe(303);
    expect(signed.cookie).toMatch(/; Secure$/);
  });

  /** A station console whose link goes to `url`, its states recorded. */
  async function station(url: string, table: string): Promise<{ service: ConsoleService; states: FloorLinkState[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'floor-tls-'));
    folders.push(dir);
    await (await playStation(dir, table, 'abandoned')).close();
    const service = await ConsoleService.start({ dataDir: dir, clock: () => new Date('2026-12-01T21:00:00Z'), station: `pc-${table}`, floor: { url, table }, floorTiming: { retryFirstMs: 50, retryMaxMs: 400, pollMs: 200, countMs: 100, connectMs: 2_000 } });
    const states: FloorLinkState[] = [service.getState().floorLink];
    service.onState((state) => {
      if (state.floorLink !== states.at(-1)) states.push(state.floorLink);
    });
    return { service, states };
  }

  it('the station\'s link with sslmode=verify-full&sslrootcert= connects and sends; a server with another CA\'s certificate, or none, is refused', async () => {
    const admin = new pg.Client({ connectionString: `${database.url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca.caCert)}` });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const login = await createStationLogin(admin, '7');
      const verified = `${database.urlFor(login.role, login.password, 'postgres')}?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca.caCert)}`;
      const good = await station(verified, '7');
      await until('the station connected over TLS', () => good.service.getState().floorLink.state === 'connected', 30_000);
      const held = await admin.query("SELECT count(*)::int AS n, bool_and(ssl) AS ssl FROM station_records, pg_stat_ssl WHERE table_name = '7' AND pg_stat_ssl.pid = pg_backend_pid()");
      expect(held.rows[0].n).toBeGreaterThan(10);
      expect(held.rows[0].ssl).toBe(true);
      await good.service.close();

      // The same login and CA file, pointed at a server whose certificate another authority signed.
      const impostorUrl = `${impostor.urlFor('floor_admin', 'throwaway-cluster-only')}?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca.caCert)}`;
      const fooled = await station(impostorUrl, '8');
      await until('the link refused the impostor', () => fooled.states.some((state) => state.state === 'offline'), 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(fooled.states.map((state) => state.state)).not.toContain('connected');
      const offline = fooled.states.find((state) => state.state === 'offline') as Extract<FloorLinkState, { state: 'offline' }>;
      expect(JSON.stringify(offline)).toMatch(/CERT|SIGNATURE|ISSUER|certificate/i);
      await fooled.service.close();

      // Without sslmode the cardroom's server (hostssl only) refuses the station outright.
      const plain = new pg.Client({ connectionString: database.urlFor(login.role, login.password, 'postgres') });
      plain.on('error', () => undefined);
      await expect(plain.connect()).rejects.toThrow(/no pg_hba.conf entry|SSL off/);
    } finally {
      await admin.end();
    }
  }, 120_000);
});

// What the floor's trigger takes as a table's records: the first one is seq 1, a damaged line is
// kept as evidence and the chain verified again from the record after it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../testing/postgres';
import { journalRecords } from './journalLines';
import { lastStoredSeq, pushRecords } from './push';
import { createStationLogin, type StationLogin } from './stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

describe.runIf(run)("a table's records on arrival (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const logins = new Map<string, StationLogin>();
  const asStation = async <T>(table: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const login = logins.get(table) ?? (await createStationLogin(admin, table));
    logins.set(table, login);
    const client = new pg.Client({ connectionString: server.urlFor(login.role, login.password) });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  it('refuses a planted first record (seq 1,000,000 before the station ever sent), then takes the station\'s own from seq 1', async () => {
    const records = journalRecords(24, 'planted');
    // A record sealed and chained like a real one, but numbered far ahead: what a hostile login plants.
    const planted = journalRecords(1, 'planted', null, 1_000_000);
    const outcome = await asStation('planted', (client) => pushRecords(client, 'planted', planted));
    expect(outcome).toEqual({ stored: 0, refused: [{ seq: 1_000_000, reason: 'gap' }] });
    expect(await lastStoredSeq(admin, 'planted')).toBe(0);
    // The station then sends all it has, from its seq 1.
    expect(await asStation('planted', (client) => pushRecords(client, 'planted', records))).toEqual({ stored: 24, refused: [] });
    expect(await lastStoredSeq(admin, 'planted')).toBe(24);
  });
});

// A station flooding the floor through its own login: huge refused lines, thousands of refused
// seqs, more connections than it needs. What the floor keeps stays bounded, and is still counted.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedClient, POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../testing/postgres';
import { migrate } from './migrate';
import { FAILURE_KEPT_BYTES, FAILURES_KEPT_PER_TABLE, MIGRATIONS, STATION_CONNECTION_LIMIT, STATION_GROUP } from './migrations';
import { lastStoredSeq, pushRecords, type OutgoingRecord } from '../../replication/push';
import { journalRecords } from '../../replication/testing/journalLines';
import { createStationLogin, ensureTable, stationRoleOf, type StationLogin } from './stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** Ten megabytes nothing compresses (PostgreSQL would store a run of one letter in a few kilobytes). */
const noise = randomBytes(7_864_320).toString('base64');
/** A 10 MB refused line (multi-byte characters at the cut, so a byte cap must not split one). */
const huge = (seq: number) => `{"seq":${seq},"x":"${'€'.repeat(FAILURE_KEPT_BYTES)}${noise}"}`;

describe.runIf(run)('a station flooding the floor (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let login: StationLogin;
  const connectAsStation = () => connectedClient(server.urlFor(login.role, login.password));

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    login = await createStationLogin(admin, 'flood');
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  it('keeps of a refused line its reason, SHA-256, length and first bytes, and of a table\'s refusals the first ones and a count', async () => {
    const station = await connectAsStation();
    try {
      const big: OutgoingRecord[] = [1, 2, 3].map((seq) => ({ seq, line: huge(seq), headers: '' }));
      for (const record of big) await pushRecords(station, 'flood', [record]);
      // Then 5,000 distinct refused seqs, in batches as the outbox sends them.
      for (let start = 10; start < 5_010; start += 1_000) {
        await pushRecords(station, 'flood', Array.from({ length: 1_000 }, (_, index) => ({ seq: start + index, line: `{"seq":${start + index},"junk":true}`, headers: '' })));
      }
    } finally {
      await station.end();
    }
    const size = await admin.query("SELECT pg_total_relation_size('chain_failures')::int AS bytes");
    console.info(`chain_failures after 3 x 10 MB and 5,000 refused lines: ${size.rows[0].bytes} bytes`);
    const kept = await admin.query("SELECT count(*)::int AS n, max(octet_length(line))::int AS longest FROM chain_failures WHERE table_name = 'flood'");
    expect(kept.rows[0]).toEqual({ n: FAILURES_KEPT_PER_TABLE, longest: expect.any(Number) });
    expect(kept.rows[0].longest).toBeLessThanOrEqual(FAILURE_KEPT_BYTES);
    const counted = await admin.query("SELECT failures_total::int AS n FROM floor_tables WHERE table_name = 'flood'");
    expect(counted.rows[0]).toEqual({ n: 5_003 });
    const first = await admin.query<{ line: string; line_sha256: string; line_bytes: number }>("SELECT line, line_sha256, line_bytes FROM chain_failures WHERE table_name = 'flood' AND seq = 1");
    const whole = Buffer.from(huge(1));
    expect(first.rows[0]).toEqual({ line: expect.any(String), line_sha256: createHash('sha256').update(whole).digest('hex'), line_bytes: whole.length });
    expect(whole.toString('utf8').startsWith(first.rows[0]?.line as string)).toBe(true);
    expect(Buffer.byteLength(first.rows[0]?.line as string)).toBeGreaterThan(FAILURE_KEPT_BYTES - 3);
    // All the flood's evidence in a few hundred kilobytes (whole lines kept: over 30 MB).
    expect(size.rows[0].bytes).toBeLessThan(1024 * 1024);
  }, 120_000);

  it('still tells a station past its kept refusals which of its records were refused, so it never thinks the floor has them', async () => {
    // After the flood above: the table is past its 1,000 kept refusals.
    const records = journalRecords(5, 'flood');
    const edited = { ...(records[3] as OutgoingRecord), line: (records[3]?.line as string).replace('"AS"', '"KS"') };
    const station = await connectAsStation();
    try {
      expect(await pushRecords(station, 'flood', records.slice(0, 3))).toEqual({ stored: 3, refused: [] });
      // The refusal it stops at is kept though the table is past its 1,000; the record after it is out of chain.
      expect(await pushRecords(station, 'flood', [edited, records[4] as OutgoingRecord])).toEqual({ stored: 0, refused: [{ seq: 4, reason: 'bad-seal' }, { seq: 5, reason: 'gap' }] });
      // Sent again: the same answer, and what the floor already holds is passed over as ever.
      expect(await pushRecords(station, 'flood', [records[2] as OutgoingRecord, edited])).toEqual({ stored: 0, refused: [{ seq: 4, reason: 'bad-seal' }] });
    } finally {
      await station.end();
    }
    expect(await lastStoredSeq(admin, 'flood')).toBe(3);
  });

  it(`lets a station's login hold at most ${STATION_CONNECTION_LIMIT} connections`, async () => {
    const held: pg.Client[] = [];
    try {
      for (let index = 0; index < STATION_CONNECTION_LIMIT; index += 1) held.push(await connectAsStation());
      await expect(connectAsStation()).rejects.toThrow(/too many connections for role/);
    } finally {
      await Promise.all(held.map((client) => client.end()));
    }
    const role = await admin.query('SELECT rolconnlimit FROM pg_roles WHERE rolname = $1', [login.role]);
    expect(role.rows).toEqual([{ rolconnlimit: STATION_CONNECTION_LIMIT }]);
  });

  it('bounds the connections of station logins an older floor made, when it migrates', async () => {
    await admin.query('CREATE DATABASE older_floor');
    const superuser = new URL(server.url);
    const older = new pg.Client({ connectionString: server.urlFor(decodeURIComponent(superuser.username), decodeURIComponent(superuser.password), 'older_floor') });
    await older.connect();
    try {
      await migrate(older, MIGRATIONS.slice(0, 2));
      // The login as migrations 1-2's floor made it: no connection limit.
      const role = stationRoleOf('older table');
      await ensureTable(older, 'older table');
      await older.query(`CREATE ROLE ${role} LOGIN PASSWORD 'older-password-123' IN ROLE ${STATION_GROUP}`);
      await older.query("UPDATE floor_tables SET role_name = $1 WHERE table_name = 'older table'", [role]);
      await migrate(older);
      const limited = await older.query('SELECT rolconnlimit FROM pg_roles WHERE rolname = $1', [role]);
      expect(limited.rows).toEqual([{ rolconnlimit: STATION_CONNECTION_LIMIT }]);
    } finally {
      await older.end();
    }
  });
});

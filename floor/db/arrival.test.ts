// What the floor's trigger takes as a table's records: the first one is seq 1, a damaged line is
// kept as evidence and the chain verified again from the record after it.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, startFloorDatabase, withClient, type ThrowawayPostgres } from '../testing/postgres';
import { journalRecords } from '../../replication/testing/journalLines';
import { DAMAGED_KEPT_BYTES } from './migrations';
import { lastStoredSeq, pushRecords, type OutgoingRecord } from '../../replication/push';
import { createStationLogin, type StationLogin } from './stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** A whole journal line gone bad at the station, as the station sends it (push.ts): its raw bytes in base64. */
const damagedLine = (seq: number, bytes: Buffer): OutgoingRecord => ({ seq, line: bytes.toString('base64'), headers: '', damaged: true });
/** A record's line with a few bytes overwritten: invalid UTF-8 and a NUL in the middle of it. */
const spoiled = (line: string): Buffer => {
  const bytes = Buffer.from(line);
  bytes.set([0xff, 0xfe, 0x00, 0xc3], 20);
  return bytes;
};

describe.runIf(run)("a table's records on arrival (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const logins = new Map<string, StationLogin>();
  const asStation = async <T>(table: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const login = logins.get(table) ?? (await createStationLogin(admin, table));
    logins.set(table, login);
    return withClient(server.urlFor(login.role, login.password), work);
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

  it('keeps a damaged line as evidence and verifies the chain again from the record after it; a forged or inserted one is still refused', async () => {
    const records = journalRecords(6, 'amber');
    const bad = spoiled(records[2]?.line as string);
    const outcome = await asStation('amber', (client) => pushRecords(client, 'amber', [...records.slice(0, 2), damagedLine(3, bad), ...records.slice(3, 4)]));
    // Record 4's prev is record 3's real hash, which no one can check any more: taken, from itself.
    expect(outcome).toEqual({ stored: 4, refused: [] });
    const kept = await admin.query("SELECT seq::int, damaged, encode(evidence, 'hex') AS evidence, evidence_bytes::int AS bytes, hash, line, record, kind, at FROM station_records WHERE table_name = 'amber' AND seq = 3");
    expect(kept.rows).toEqual([{ seq: 3, damaged: true, evidence: bad.toString('hex'), bytes: bad.length, hash: createHash('sha256').update(bad).digest('hex'), line: '', record: null, kind: null, at: null }]);
    // Sent again (the station restarted): passed over, not a failure.
    expect(await asStation('amber', (client) => pushRecords(client, 'amber', [damagedLine(3, bad)]))).toEqual({ stored: 0, refused: [] });
    // Record 5 edited, then a record 5 from another journal (sealed, but not this chain's): both refused.
    const edited = { ...(records[4] as OutgoingRecord), line: (records[4]?.line as string).replace('"AS"', '"KS"') };
    const inserted = journalRecords(5, 'other')[4] as OutgoingRecord;
    expect(await asStation('amber', (client) => pushRecords(client, 'amber', [edited]))).toEqual({ stored: 0, refused: [{ seq: 5, reason: 'bad-seal' }] });
    await admin.query("DELETE FROM chain_failures WHERE table_name = 'amber'");
    expect(await asStation('amber', (client) => pushRecords(client, 'amber', [inserted]))).toEqual({ stored: 0, refused: [{ seq: 5, reason: 'broken-link' }] });
    await admin.query("DELETE FROM chain_failures WHERE table_name = 'amber'");
    // The real records 5 and 6 go on.
    expect(await asStation('amber', (client) => pushRecords(client, 'amber', records.slice(4)))).toEqual({ stored: 2, refused: [] });
    expect(await lastStoredSeq(admin, 'amber')).toBe(6);
  });

  it('checks the record after a damaged line by its own seal and seq; keeps only the first bytes of a long damaged line; refuses a damaged line out of order', async () => {
    const records = journalRecords(4, 'edges');
    const long = Buffer.concat([spoiled(records[1]?.line as string), Buffer.alloc(20_000, 0x41)]);
    const tampered = { ...(records[2] as OutgoingRecord), line: (records[2]?.line as string).replace('"n":3', '"n":9') };
    const outcome = await asStation('edges', (client) => pushRecords(client, 'edges', [records[0] as OutgoingRecord, damagedLine(2, long), tampered]));
    expect(outcome).toEqual({ stored: 2, refused: [{ seq: 3, reason: 'bad-seal' }] });
    const kept = await admin.query("SELECT length(evidence)::int AS kept, evidence_bytes::int AS bytes, hash FROM station_records WHERE table_name = 'edges' AND seq = 2");
    expect(kept.rows).toEqual([{ kept: DAMAGED_KEPT_BYTES, bytes: long.length, hash: createHash('sha256').update(long).digest('hex') }]);
    // A damaged line follows the record before it like any other: no gap, and not first unless seq 1.
    expect(await asStation('edges', (client) => pushRecords(client, 'edges', [damagedLine(7, long)]))).toEqual({ stored: 0, refused: [{ seq: 7, reason: 'gap' }] });
    expect(await asStation('edges-first', (client) => pushRecords(client, 'edges-first', [damagedLine(5, long)]))).toEqual({ stored: 0, refused: [{ seq: 5, reason: 'gap' }] });
    // A damaged first line is evidence too; the next record still needs its journal's header.
    const first = journalRecords(2, 'edges-first');
    expect(await asStation('edges-first', (client) => pushRecords(client, 'edges-first', [damagedLine(1, spoiled(first[0]?.line as string)), first[1] as OutgoingRecord]))).toEqual({ stored: 1, refused: [{ seq: 2, reason: 'no-header' }] });
    // Failures are kept bounded whatever they are.
    const failure = await admin.query("SELECT octet_length(line) <= 1024 AS bounded FROM chain_failures WHERE table_name = 'edges' AND seq = 7");
    expect(failure.rows).toEqual([{ bounded: true }]);
  });
});

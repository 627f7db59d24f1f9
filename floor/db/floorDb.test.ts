import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalEncoder } from '../../journal/encoder';
import { journalPath } from '../../journal/location';
import { Sealer } from '../../journal/seal';
import { syncStation } from '../../replication/sync';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../testing/postgres';
import { migrate, schemaVersion, SCHEMA_VERSION } from './migrate';
import { MIGRATIONS } from './migrations';
import { lastStoredSeq, pushRecords } from '../../replication/push';
import { createStationLogin, ensureTable, type StationLogin } from './stations';

// The CI installs Debian's postgresql: there a missing server is a failure, not a skip.
const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** A station's data folder with a journal of `count` records, written as the console writes them. */
function stationFolder(count: number, key: Buffer | null = null): { dir: string; encoder: JournalEncoder; add(n: number): void } {
  const dir = mkdtempSync(join(tmpdir(), 'floor-station-'));
  const encoder = JournalEncoder.fresh(key);
  let seq = 0;
  const add = (n: number) => {
    let text = '';
    for (let i = 0; i < n; i += 1) {
      seq += 1;
      text += encoder.next(new Date(Date.UTC(2026, 11, 1, 20, 0, seq)).toISOString(), seq, { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: 'AS', n: seq }, source: 'manual' });
    }
    appendFileSync(journalPath(dir), text);
  };
  add(count);
  return { dir, encoder, add };
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // A server stopped under a connection: the query in flight rejects, the client's own report is not news.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

describe.runIf(run)('the floor database (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const folders: string[] = [];
  const logins = new Map<string, StationLogin>();
  const station = async (table: string) => connect(server.urlFor((logins.get(table) as StationLogin).role, (logins.get(table) as StationLogin).password));

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = await connect(server.url);
    await migrate(admin);
    for (const table of ['7', 'Pöytä 2', 'Стол 3']) logins.set(table, await createStationLogin(admin, table));
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('migrates an empty database to this version, and a second time changes nothing', async () => {
    expect(await schemaVersion(admin)).toBe(SCHEMA_VERSION);
    expect(await migrate(admin)).toEqual([]);
    const applied = await admin.query('SELECT version FROM floor_schema_migrations ORDER BY version');
    expect(applied.rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
  });

  it('refuses a database a newer floor migrated', async () => {
    await admin.query("INSERT INTO floor_schema_migrations (version, name) VALUES (999, 'from the future')");
    try {
      await expect(migrate(admin)).rejects.toThrow(`schema version 999, newer than this floor's ${SCHEMA_VERSION}`);
    } finally {
      await admin.query('DELETE FROM floor_schema_migrations WHERE version = 999');
    }
  });

  it('takes two stations replicating at once, each record once, each chain verified on arrival', async () => {
    const a = stationFolder(1_200);
    const b = stationFolder(900, Buffer.alloc(32, 7));
    folders.push(a.dir, b.dir);
    const [clientA, clientB] = await Promise.all([station('Pöytä 2'), station('Стол 3')]);
    try {
      const [outA, outB] = await Promise.all([syncStation(clientA, 'Pöytä 2', a.dir), syncStation(clientB, 'Стол 3', b.dir)]);
      expect(outA).toMatchObject({ sent: 1_200, stored: 1_200, refused: [], floorHas: 1_200 });
      expect(outB).toMatchObject({ sent: 900, stored: 900, refused: [], floorHas: 900 });
      const stored = await admin.query("SELECT table_name, count(*)::int AS n, count(DISTINCT seq)::int AS seqs, min(seq)::int AS first, max(seq)::int AS last, bool_and(seal_checked) AS checked, min(chain) AS chain FROM station_records WHERE table_name IN ('Pöytä 2', 'Стол 3') GROUP BY table_name ORDER BY table_name");
      expect(stored.rows).toEqual([
        { table_name: 'Pöytä 2', n: 1_200, seqs: 1_200, first: 1, last: 1_200, checked: true, chain: 'sha256' },
        // An HMAC chain's key stays at the station: its links are checked, its seals cannot be.
        { table_name: 'Стол 3', n: 900, seqs: 900, first: 1, last: 900, checked: false, chain: 'hmac-sha256' },
      ]);
      const record = await admin.query("SELECT kind, record->'event'->>'n' AS n, at FROM station_records WHERE table_name = 'Pöytä 2' AND seq = 5");
      expect(record.rows[0]).toMatchObject({ kind: 'race-event', n: '5' });
    } finally {
      await Promise.all([clientA.end(), clientB.end()]);
    }
  });

  it('adds nothing when the same journal is sent again (a duplicate push), by the cursor or by hand', async () => {
    const folder = stationFolder(50);
    folders.push(folder.dir);
    const client = await station('7');
    try {
      expect((await syncStation(client, '7', folder.dir)).stored).toBe(50);
      expect(await syncStation(client, '7', folder.dir)).toMatchObject({ sent: 0, stored: 0 });
      // The cursor lost (a crash before it was written): everything is sent again, nothing stored twice.
      rmSync(join(folder.dir, 'floor-outbox.json'));
      writeFileSync(join(folder.dir, 'floor-outbox.json'), '{"table":"7","offs');
      const lines = readFileSync(journalPath(folder.dir), 'utf8').trim().split('\n');
      const records = lines.slice(1).map((line, index) => ({ seq: index + 1, line, headers: index === 0 ? (lines[0] as string) : '' }));
      expect(await pushRecords(client, '7', records)).toEqual({ stored: 0, refused: [] });
      const count = await admin.query("SELECT count(*)::int AS n FROM station_records WHERE table_name = '7'");
      expect(count.rows[0].n).toBe(50);
      folder.add(3);
      expect(await syncStation(client, '7', folder.dir)).toMatchObject({ sent: 3, stored: 3, floorHas: 53 });
    } finally {
      await client.end();
    }
  });

  it('refuses a forged record and flags it: an edited line, a line replaced after arrival, a line out of chain', async () => {
    await ensureTable(admin, 'forged');
    const folder = stationFolder(10);
    folders.push(folder.dir);
    const lines = readFileSync(journalPath(folder.dir), 'utf8').split('\n');
    // Line 6 is record 5: a card changed in the file, its seal left as it was.
    lines[5] = (lines[5] as string).replace('"card":"AS"', '"card":"KS"');
    writeFileSync(journalPath(folder.dir), lines.join('\n'));
    const outcome = await syncStation(admin, 'forged', folder.dir);
    expect(outcome.refused[0]).toEqual({ seq: 5, reason: 'bad-seal' });
    // The records after it follow a record the floor does not hold: none is stored out of chain.
    expect(outcome.refused.slice(1)).toEqual([6, 7, 8, 9, 10].map((seq) => ({ seq, reason: 'gap' })));
    expect(await lastStoredSeq(admin, 'forged')).toBe(4);
    const flagged = await admin.query("SELECT seq::int, reason FROM chain_failures WHERE table_name = 'forged' ORDER BY seq");
    expect(flagged.rows[0]).toEqual({ seq: 5, reason: 'bad-seal' });

    // A careful forger re-seals record 3 (already on the floor) and sends it again: the floor keeps its own.
    const original = lines[3] as string;
    const parsed = JSON.parse(original) as Record<string, unknown>;
    delete parsed.hash;
    const resealed = new Sealer(null).seal({ ...parsed, record: { kind: 'race-event', raceId: 'race-1', event: { type: 'card', card: '2C', n: 3 }, source: 'manual' } }).text;
    expect(await pushRecords(admin, 'forged', [{ seq: 3, line: resealed, headers: '' }])).toEqual({ stored: 0, refused: [{ seq: 3, reason: 'changed-after-arrival' }] });
    const kept = await admin.query("SELECT line FROM station_records WHERE table_name = 'forged' AND seq = 3");
    expect(kept.rows[0].line).toBe(original);
    // A line that is not JSON, one whose seq lies, one with no seal.
    await ensureTable(admin, 'junk');
    const junk = await pushRecords(admin, 'junk', [
      { seq: 1, line: 'x'.repeat(100), headers: lines[0] as string },
    ]);
    expect(junk.refused).toEqual([{ seq: 1, reason: 'not-json' }]);
    // Each a table's first record, as the floor takes only seq 1 first (a later one is a gap).
    await ensureTable(admin, 'lying');
    const lying = await pushRecords(admin, 'lying', [{ seq: 1, line: lines[2] as string, headers: lines[0] as string }]);
    expect(lying.refused).toEqual([{ seq: 1, reason: 'seq-mismatch' }]);
    await ensureTable(admin, 'headless');
    const noHeader = await pushRecords(admin, 'headless', [{ seq: 1, line: '{"seq":1}', headers: '' }]);
    expect(noHeader.refused).toEqual([{ seq: 1, reason: 'no-header' }]);
  });

  it('lets a station insert only its own records: no other table, no update, no delete, no clock', async () => {
    const client = await station('7');
    try {
      const folder = stationFolder(2);
      folders.push(folder.dir);
      const [header, first] = readFileSync(journalPath(folder.dir), 'utf8').split('\n') as [string, string];
      await expect(pushRecords(client, 'Pöytä 2', [{ seq: 9_999, line: first, headers: header }])).rejects.toThrow(/may send only its own table's records, not those of Pöytä 2/);
      await expect(client.query("UPDATE station_records SET line = 'x' WHERE table_name = '7'")).rejects.toThrow(/permission denied/);
      await expect(client.query("DELETE FROM station_records WHERE table_name = '7'")).rejects.toThrow(/permission denied/);
      await expect(client.query("UPDATE floor_clock SET events = '[]'")).rejects.toThrow(/permission denied/);
      await expect(client.query('DELETE FROM chain_failures')).rejects.toThrow(/permission denied/);
      await expect(client.query("INSERT INTO floor_tables (table_name) VALUES ('mine')")).rejects.toThrow(/permission denied/);
      await expect(client.query('SELECT line FROM station_records')).rejects.toThrow(/permission denied/);
      const others = await client.query("SELECT count(*)::int AS n FROM station_records WHERE table_name <> '7'");
      expect(others.rows[0].n).toBe(0);
      // Its contact only for its own table.
      await client.query("SELECT station_seen('Pöytä 2', 5)");
      await client.query("SELECT station_seen('7', 5)");
      const contact = await admin.query("SELECT table_name, behind FROM station_contact WHERE table_name IN ('7', 'Pöytä 2') ORDER BY table_name");
      expect(contact.rows.filter((row) => row.behind === 5)).toEqual([{ table_name: '7', behind: 5 }]);
    } finally {
      await client.end();
    }
  });

  it('catches up after the database was stopped, with nothing lost or doubled', async () => {
    const folder = stationFolder(100);
    folders.push(folder.dir);
    const login = await createStationLogin(admin, 'offline');
    let client = await connect(server.urlFor(login.role, login.password));
    expect((await syncStation(client, 'offline', folder.dir)).stored).toBe(100);
    await admin.end();
    await server.stop();
    // The station goes on recording while the floor is away.
    folder.add(40);
    await expect(syncStation(client, 'offline', folder.dir)).rejects.toThrow();
    await client.end().catch(() => undefined);
    folder.add(10);
    await server.start();
    admin = await connect(server.url);
    client = await connect(server.urlFor(login.role, login.password));
    try {
      expect(await syncStation(client, 'offline', folder.dir)).toMatchObject({ sent: 50, stored: 50, refused: [], floorHas: 150 });
      const stored = await admin.query("SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs, max(seq)::int AS last FROM station_records WHERE table_name = 'offline'");
      expect(stored.rows[0]).toEqual({ n: 150, seqs: 150, last: 150 });
    } finally {
      await client.end();
    }
  }, 120_000);
});

// Issue 44, a station's login as the attack used it: sessions the old password already held kept
// reading and inserting after `add-table --rotate` (and one holding an open transaction made the
// rotation hang); a station's statements ran without a time limit (a 200,000-row refused insert
// for 12 minutes, each refused row updating its table's one row: a cost growing with the square).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedClient, POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../testing/postgres';
import { FAILURES_KEPT_PER_TABLE, STATION_IDLE_IN_TRANSACTION_MS, STATION_LOCK_TIMEOUT_MS, STATION_STATEMENT_TIMEOUT_MS } from './migrations';
import { pushRecords } from '../../replication/push';
import { journalRecords } from '../../replication/testing/journalLines';
import { createStationLogin, StationLoginBusy } from './stations';
import { endedByServer, failureCode } from '../testing/sessions';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..', '..');

/** The floor's command line as a child process, as a director runs it (given up on after a minute: a hang fails the test). */
function floor(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'floor', 'cli.ts'), ...args], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe.runIf(run)("a station's login: revoked by --rotate, bounded in time, its refusals counted per statement (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  it('add-table --rotate ends every session of the old login, one holding an open transaction with locks among them, without waiting on it', async () => {
    const old = await createStationLogin(admin, 'rotated');
    const holder = await connectedClient(server.urlFor(old.role, old.password));
    const idle = await connectedClient(server.urlFor(old.role, old.password));
    // The attack: a record inserted in a transaction left open (a key-share lock on the table's row, the record's own lock).
    await holder.query('BEGIN');
    expect(await pushRecords(holder, 'rotated', journalRecords(1, 'rotated'))).toEqual({ stored: 1, refused: [] });
    expect((await idle.query('SELECT count(*)::int AS n FROM station_records')).rows).toEqual([{ n: 0 }]);
    const holderEnded = endedByServer(holder);
    const idleEnded = endedByServer(idle);

    const rotated = await floor(['add-table', '--database', server.url, '--table', 'rotated', '--rotate']);
    expect(rotated.stderr).toBe('');
    expect(rotated.code).toBe(0);
    // Both sessions were ended by the server (57P01: terminated by an administrator), the open transaction rolled back.
    expect(await holderEnded).toBe('57P01');
    expect(await idleEnded).toBe('57P01');
    expect(await failureCode(idle.query('SELECT count(*) FROM station_records'))).not.toBeNull();
    expect(await failureCode(holder.query('COMMIT'))).not.toBeNull();
    expect((await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1', [old.role])).rows).toEqual([{ n: 0 }]);
    expect((await admin.query("SELECT count(*)::int AS n FROM station_records WHERE table_name = 'rotated'")).rows).toEqual([{ n: 0 }]);
    // The old password signs in no more; the new one does.
    expect(await failureCode(connectedClient(server.urlFor(old.role, old.password)))).toBe('28P01');
    const fresh = await connectedClient(rotated.stdout.trim());
    expect(await pushRecords(fresh, 'rotated', journalRecords(1, 'rotated'))).toEqual({ stored: 1, refused: [] });
    await fresh.end();
  }, 90_000);

  it('add-table never waits long on a lock held by something else (another add-table for the table): it says so and changes nothing', async () => {
    const first = await createStationLogin(admin, 'busy');
    const other = await connectedClient(server.url);
    try {
      await other.query('BEGIN');
      await other.query("SELECT 1 FROM floor_tables WHERE table_name = 'busy' FOR NO KEY UPDATE");
      await expect(createStationLogin(admin, 'busy', { rotate: true })).rejects.toBeInstanceOf(StationLoginBusy);
      await other.query('ROLLBACK');
    } finally {
      await other.end();
    }
    // The first password still signs in: nothing was changed.
    const station = await connectedClient(server.urlFor(first.role, first.password));
    await station.end();
  }, 60_000);

  it("bounds a station login's statements: a long one is cancelled at the login's statement timeout, even when the station turned its own off; a session idle in a transaction is ended", async () => {
    const login = await createStationLogin(admin, 'slow');
    const url = server.urlFor(login.role, login.password);
    const [sleeper, flooder, lingerer] = await Promise.all([connectedClient(url), connectedClient(url), connectedClient(url)]);
    try {
      const shown = await sleeper.query<{ statement: string; lock: string; idle: string }>("SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock, current_setting('idle_in_transaction_session_timeout') AS idle");
      expect(shown.rows).toEqual([{ statement: `${STATION_STATEMENT_TIMEOUT_MS / 1000}s`, lock: `${STATION_LOCK_TIMEOUT_MS / 1000}s`, idle: `${STATION_IDLE_IN_TRANSACTION_MS / 1000}s` }]);
      // Any session may change its own statement_timeout: the attack's insert runs with none, and the trigger still stops it.
      await flooder.query('SET statement_timeout = 0');
      await lingerer.query('BEGIN');
      const lingererEnded = endedByServer(lingerer);
      const [slept, flooded, lingered] = await Promise.all([
        failureCode(sleeper.query('SELECT pg_sleep(600)')),
        failureCode(flooder.query("INSERT INTO station_records (table_name, seq, line, headers) SELECT 'slow', g, 'not a journal line ' || g, '' FROM generate_series(2, 100000000) g")),
        lingererEnded,
      ]);
      // 57014: canceled (statement timeout, or the trigger's own limit); 25P03: idle-in-transaction timeout.
      expect({ slept, flooded, lingered }).toEqual({ slept: '57014', flooded: '57014', lingered: '25P03' });
      expect((await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM chain_refusals')).rows).toEqual([{ n: 0 }]);
    } finally {
      for (const client of [sleeper, flooder, lingerer]) await client.end().catch(() => undefined);
    }
  }, 90_000);

  it('a big refused batch updates its table\'s row once per statement, not once per refused line, and keeps the same evidence', async () => {
    const login = await createStationLogin(admin, 'flood');
    const station = await connectedClient(server.urlFor(login.role, login.password));
    // floor_tables' updates as this session counts them (on PostgreSQL 15 they include its earlier transactions' not yet flushed).
    const updates = async () => (await station.query<{ updates: number }>("SELECT n_tup_upd::int AS updates FROM pg_stat_xact_user_tables WHERE relname = 'floor_tables'")).rows[0]?.updates ?? 0;
    /** One statement of refused lines (seqs from `from`, none 1: each a gap), and the updates it made to floor_tables' rows. */
    const refusedBatch = async (from: number, count: number) => {
      await station.query('BEGIN');
      const before = await updates();
      await station.query("INSERT INTO station_records (table_name, seq, line, headers) SELECT 'flood', g, 'not a journal line ' || g, '' FROM generate_series($1::int, $2::int) g", [from, from + count - 1]);
      const after = await updates();
      await station.query('COMMIT');
      return after - before;
    };
    try {
      expect(await refusedBatch(2, 5_000)).toBe(1);
      expect(await refusedBatch(10_002, 3_000)).toBe(1);
      const kept = await admin.query<{ total: number; kept: number; reasons: string[] }>(
        "SELECT (SELECT failures_total::int FROM floor_tables WHERE table_name = 'flood') AS total, count(*)::int AS kept, array_agg(DISTINCT reason) AS reasons FROM chain_failures WHERE table_name = 'flood'",
      );
      // Every refusal counted, the first FAILURES_KEPT_PER_TABLE kept (seqs 2 to 1,001), each with its reason.
      expect(kept.rows).toEqual([{ total: 8_000, kept: FAILURES_KEPT_PER_TABLE, reasons: ['gap'] }]);
      const range = await admin.query("SELECT min(seq)::int AS first, max(seq)::int AS last FROM chain_failures WHERE table_name = 'flood'");
      expect(range.rows).toEqual([{ first: 2, last: FAILURES_KEPT_PER_TABLE + 1 }]);
      // The refusal the station is stopped at (right after the table's last record) is kept past the cap, and the push reads it back.
      expect(await pushRecords(station, 'flood', journalRecords(1_500, 'flood'))).toEqual({ stored: 1_500, refused: [] });
      expect(await pushRecords(station, 'flood', [{ seq: 1_501, line: 'not a journal line either', headers: '' }])).toEqual({ stored: 0, refused: [{ seq: 1_501, reason: 'not-json' }] });
      expect((await admin.query("SELECT count(*)::int AS kept, (SELECT failures_total::int FROM floor_tables WHERE table_name = 'flood') AS total FROM chain_failures WHERE table_name = 'flood'")).rows).toEqual([{ kept: FAILURES_KEPT_PER_TABLE + 1, total: 8_001 }]);
    } finally {
      await station.end();
    }
  }, 90_000);
});

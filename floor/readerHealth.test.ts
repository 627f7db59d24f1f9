// Reader health on the floor (issue 26), against a real PostgreSQL: a station reports its card
// reader's verdict only for its own table, only through its definer function, only in bounds (a
// hostile station may send anything); the floor reads it back by the one schema and shows it
// beside the table's link.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReaderHealthSummary } from '../protocol/readerHealth';
import { reportReaderHealth } from '../replication/push';
import { createStationLogin, type StationLogin } from './db/stations';
import { readFloorStatus, readerHealthOf } from './fold';
import { renderOverview, renderTable } from './page/render';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from './testing/postgres';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const WARN: ReaderHealthSummary = { verdict: 'warn', frames: 40, unknown: 3, checksum: 5, repeats: 12, held: 1 };
const NOW = Date.parse('2026-12-05T21:00:00Z');

describe.runIf(run)('reader health on the floor (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let one: StationLogin;
  let station: pg.Client;

  const healthOf = async (table: string) => (await readFloorStatus(admin)).tables.find((entry) => entry.table === table)?.readerHealth ?? null;
  const refused = async (sql: string, values: unknown[]): Promise<string> => {
    try {
      await station.query(sql, values);
      return 'accepted';
    } catch (error) {
      return String((error as { code?: unknown }).code);
    }
  };

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    one = await createStationLogin(admin, 'one');
    await createStationLogin(admin, 'two');
    station = new pg.Client({ connectionString: server.urlFor(one.role, one.password) });
    station.on('error', () => undefined);
    await station.connect();
  }, 120_000);

  afterAll(async () => {
    await station?.end();
    await admin?.end();
    await server?.remove();
  });

  it('a station reports its own table’s reader; the floor reads it back and shows it beside the link, in each language', async () => {
    expect(await healthOf('one')).toBeNull();
    expect(await reportReaderHealth(station, 'one', WARN)).toBe(true);
    expect(await healthOf('one')).toEqual(WARN);
    const status = await readFloorStatus(admin);
    const page = renderOverview(status, 'en', NOW);
    const row = /<tr[^>]*data-table="one"[\s\S]*?<\/tr>/.exec(page)?.[0] ?? '';
    expect(row).toContain('<small class="reader reader--warn" data-testid="reader-health" data-verdict="warn">Card reader: 8 of the last 40 frames bad. Check the cable and the reader.</small>');
    expect(/<tr[^>]*data-table="two"[\s\S]*?<\/tr>/.exec(page)?.[0]).not.toContain('reader-health');
    expect(renderOverview(status, 'fi', NOW)).toContain('Kortinlukija: 8 viimeisistä 40 kehyksestä virheellisiä.');
    expect(renderOverview(status, 'ru', NOW)).toContain('Считыватель карт: кадры с ошибками — 8 из последних 40.');
    const table = status.tables.find((entry) => entry.table === 'one');
    expect(table && renderTable(table, [], 'en', NOW)).toContain('<dt>Card reader</dt>');
    // A reader put right: the next report replaces it; none in use (null) clears it.
    await reportReaderHealth(station, 'one', { ...WARN, verdict: 'ok', unknown: 0, checksum: 0 });
    expect(renderOverview(await readFloorStatus(admin), 'en', NOW)).toContain('Card reader: reads cleanly');
    await reportReaderHealth(station, 'one', null);
    expect(await healthOf('one')).toBeNull();
  });

  it('a hostile station: another table’s report changes nothing, and out-of-bounds values and direct writes are refused', async () => {
    await reportReaderHealth(station, 'one', WARN);
    const before = (await admin.query('SELECT * FROM station_contact ORDER BY table_name')).rows;
    // Another table: the definer's WHERE finds no row of this login's, so nothing is written.
    await reportReaderHealth(station, 'two', { ...WARN, verdict: 'ok' });
    expect(await healthOf('two')).toBeNull();
    const call = 'SELECT station_reader_health($1, $2, $3, $4, $5, $6, $7)';
    expect(await refused(call, ['one', 'evil', 40, 0, 0, 0, 0])).toBe('23514');
    expect(await refused(call, ['one', 'ok', -1, 0, 0, 0, 0])).toBe('23514');
    expect(await refused(call, ['one', 'warn', 5, 4, 4, 0, 0])).toBe('23514');
    expect(await refused(call, ['one', 'warn', 2 ** 31, 0, 0, 0, 0])).toBe('22003');
    expect(await refused(call, ['one', 'ok', 1.5, 0, 0, 0, 0])).toBe('22P02');
    expect(await refused(call, ['one', 'x'.repeat(100_000), 1, 0, 0, 0, 0])).toBe('23514');
    expect(await refused("UPDATE station_contact SET reader_verdict = 'ok'", [])).toBe('42501');
    expect(await refused("INSERT INTO station_contact (table_name, last_seen, reader_verdict) VALUES ('two', now(), 'warn')", [])).toBe('42501');
    expect(await refused('SELECT reader_verdict FROM station_contact', [])).toBe('42501');
    expect((await admin.query('SELECT * FROM station_contact ORDER BY table_name')).rows.map(({ last_seen: _seen, reader_at: _at, ...row }) => row)).toEqual(before.map(({ last_seen: _seen, reader_at: _at, ...row }) => row));
    expect(await healthOf('one')).toEqual(WARN);
  });

  it('reads back only what the schema reads: a row the floor’s owner wrote out of shape is no health', () => {
    const row = { reader_verdict: 'warn', reader_frames: 40, reader_unknown: 3, reader_checksum: 5, reader_repeats: 12, reader_held: 1 };
    expect(readerHealthOf(row)).toEqual(WARN);
    expect(readerHealthOf({ ...row, reader_verdict: null })).toBeNull();
    expect(readerHealthOf({ ...row, reader_verdict: 'evil' })).toBeNull();
    expect(readerHealthOf({ ...row, reader_frames: '40' })).toBeNull();
    expect(readerHealthOf({ ...row, reader_held: -1 })).toBeNull();
  });
});

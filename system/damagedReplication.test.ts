// An ordinary mishap never stalls a table, end to end against a real PostgreSQL 15: a station's
// journal whose last whole line was damaged (a few bad bytes, with and without a torn tail after
// it) is restarted with the floor set up; the station numbers on past the damage, sends the
// damaged line as evidence, and the floor replicates everything after it, every seq once.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceHarness } from '../station/service/testing/services';
import { createStationLogin } from '../floor/db/stations';
import { foldFloor, readFloorStatus } from '../floor/fold';
import { renderOverview } from '../floor/page/render';
import { startFloorDatabase, POSTGRES_AVAILABLE, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';
import { tableSettings } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const FLOOR_TIMING = { retryFirstMs: 50, retryMaxMs: 400, pollMs: 200, countMs: 100, connectMs: 2_000 };
const { serviceIn, release } = serviceHarness({ clock: () => new Date('2026-12-01T21:00:00Z'), station: 'table-pc', floorTiming: FLOOR_TIMING });
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const OK = { ok: true, value: null };
const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The seq each line of a journal file starts with (null for a line without one), read from its bytes. */
function lineSeqs(file: string): (number | null)[] {
  const text = readFileSync(file, 'latin1');
  return text.split('\n').filter((line) => line !== '').map((line) => {
    const match = /^\{"seq":(\d+),/.exec(line);
    return match === null ? null : Number(match[1]);
  });
}

/** Overwrites a few bytes in the middle of the journal's last whole line with bytes that are not UTF-8. */
function damageLastLine(file: string): void {
  const bytes = readFileSync(file);
  const end = bytes.length - 1;
  if (bytes[end] !== 0x0a) throw new Error('the journal does not end with a whole line');
  const start = bytes.lastIndexOf(0x0a, end - 1) + 1;
  const middle = start + Math.floor((end - start) / 2);
  bytes.fill(0xff, middle, middle + 3);
  writeFileSync(file, bytes);
}

describe.runIf(run)('a damaged last line at a station, then the floor', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await server?.remove();
  });

  for (const tornTail of [false, true]) {
    it(`${tornTail ? 'with a torn tail after it: ' : ''}the station numbers on past the damage and the floor replicates past it, every seq once, the damaged line kept as evidence`, async () => {
      const table = tornTail ? 'Torn 2' : 'Damaged 1';
      const dataDir = mkdtempSync(join(tmpdir(), 'damaged-replication-'));
      folders.push(dataDir);
      const journal = join(dataDir, 'journal.jsonl');

      // An evening without the floor: a race open with three cards.
      const first = await serviceIn(dataDir);
      expect(await first.saveSettings(tableSettings(table))).toEqual(OK);
      expect(await first.startRace(COUNTS)).toEqual(OK);
      for (const card of ['Ah', 'Kc', '2d']) expect(await first.dealCard('race-1', card)).toEqual(OK);
      release(first);
      await first.close();
      const before = lineSeqs(journal);
      const damagedSeq = before.at(-1) as number;
      damageLastLine(journal);
      if (tornTail) appendFileSync(journal, `{"seq":${damagedSeq + 1},"at":"2026-12-01T21:00:0`);

      // Restarted with the floor: dealing goes on, and every record reaches the floor.
      const login = await createStationLogin(admin, table);
      const station = await serviceIn(dataDir, { floor: { url: server.urlFor(login.role, login.password), table } });
      expect(await station.saveSettings(tableSettings(table))).toEqual(OK);
      for (const card of ['Ts', '4h']) await station.dealCard('race-1', card);
      const seqs = lineSeqs(journal).filter((seq): seq is number => seq !== null);
      const last = Math.max(...seqs);
      // The station's own numbering: every seq once, in order, past the damaged one.
      expect(new Set(seqs).size).toBe(seqs.length);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
      expect(last).toBeGreaterThan(damagedSeq + (tornTail ? 1 : 0));

      await until('the floor holds every record of the station', async () => {
        const held = await admin.query<{ last: string | null }>('SELECT max(seq) AS last FROM station_records WHERE table_name = $1', [table]);
        return Number(held.rows[0]?.last ?? 0) === last;
      }, 30_000);
      const rows = await admin.query<{ seq: string; damaged: boolean }>('SELECT seq, damaged FROM station_records WHERE table_name = $1 ORDER BY seq', [table]);
      const floorSeqs = rows.rows.map((row) => Number(row.seq));
      // No gap, nothing twice, and exactly the damaged line kept as damaged.
      expect(floorSeqs).toEqual(Array.from({ length: floorSeqs.length }, (_, index) => index + 1));
      expect(rows.rows.filter((row) => row.damaged).map((row) => Number(row.seq))).toEqual([damagedSeq]);
      const failures = await admin.query('SELECT seq, reason FROM chain_failures WHERE table_name = $1', [table]);
      expect(failures.rows).toEqual([]);
      // The link says so once its push is confirmed (its state is published throttled, after the rows land).
      await until('the station says it is connected', () => station.getState().floorLink.state === 'connected', 30_000);

      // On the floor the table is amber, not red: the damaged record named, the races counted.
      await foldFloor(admin);
      const status = await readFloorStatus(admin);
      const shown = status.tables.find((entry) => entry.table === table);
      expect(shown).toMatchObject({ damaged: [damagedSeq], failures: [], foldProblems: [], foldBehind: 0, openRace: { raceId: 'race-1' } });
      expect(shown?.colourUp).not.toBe('disputed');
      for (const [language, words] of [['en', `record ${damagedSeq} damaged at the station`], ['fi', `kirjaus ${damagedSeq} vahingoittui asemalla`], ['ru', `запись ${damagedSeq} повреждена на станции`]] as const) {
        const page = renderOverview(status, language, Date.parse('2026-12-01T21:00:00Z'));
        expect(page).toContain(words);
        expect(page).toContain(`<tr class="damaged" data-table="${table}">`);
      }
    }, 90_000);
  }
});

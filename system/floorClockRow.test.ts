// Issue 44 (low): a deeply nested floor clock row took a station's link offline (the link wrote the
// row out to compare it, JSON.stringify recursed and overflowed, the round failed and the link gave
// the connection up, again at every reconnect). Now the row is read by station/floorLink/clockRow.ts:
// nested too deep, too large or malformed, it is refused as a finding, said once; the station's
// clock stays where it was, the link stays connected and the records go on. A real PostgreSQL server.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../engine/messages';
import { MAX_NESTING } from '../engine/validate';
import { setFloorStructure } from '../floor/clock';
import { migrate } from '../floor/db/migrate';
import { createStationLogin } from '../floor/db/stations';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';
import { journalPath } from '../journal/location';
import { CLOCK_ROW_MAX_CHARS } from '../station/floorLink/clockRow';
import { FloorLink, type FloorClockRow } from '../station/floorLink/link';
import type { ConsoleService } from '../station/service/service';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { serviceHarness } from '../station/service/testing/services';
import type { ConsoleSettings, FloorLinkState } from '../protocol/contract';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const FLOOR_TIMING = { retryFirstMs: 50, retryMaxMs: 400, pollMs: 200, countMs: 100, connectMs: 2_000, cursorMs: 100 };
const { serviceIn } = serviceHarness({ clock: () => new Date(), station: 'table-pc', floorTiming: FLOOR_TIMING });
const TABLE = (name: string): ConsoleSettings => ({ ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3, name } });
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];
const STRUCTURE = { chips: [25, 100, 500, 1000], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }] };
/** JSON nested `depth` deep, as text: past what JSON.stringify writes out (some 5,000 here), within what PostgreSQL's jsonb takes by default (some 14,000). */
const deepJson = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const DEPTH = 10_000;
/** The journal's last seq: every record's line starts with it. */
const journalLastSeq = (dataDir: string) => Math.max(0, ...readFileSync(journalPath(dataDir), 'utf8').split('\n').map((line) => Number(/^\{"seq":(\d+),/.exec(line)?.[1] ?? 0)));

describe.runIf(run)("a floor clock row the station cannot take (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'clock-row-'));
    folders.push(dir);
    return dir;
  };
  const stationUrl = async (table: string) => {
    const login = await createStationLogin(admin, table);
    return server.urlFor(login.role, login.password);
  };
  /** Waits for `n` more polls of a table's link: each reports its contact (last_seen) before it reads the clock row. */
  const pollsSeen = async (table: string, n: number) => {
    const at = async () => (await admin.query('SELECT last_seen FROM station_contact WHERE table_name = $1', [table])).rows[0]?.last_seen?.getTime?.() ?? 0;
    for (let seen = 0, before = await at(); seen < n; seen += 1) {
      await until('a poll', async () => (await at()) !== before);
      before = await at();
    }
  };
  const floorHolds = async (table: string) => Number((await admin.query('SELECT coalesce(max(seq), 0) AS last FROM station_records WHERE table_name = $1', [table])).rows[0].last);

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
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('a station following the floor’s clock keeps it and stays connected while the row is nested 10,000 deep, and its races still reach the floor', async () => {
    await setFloorStructure(admin, STRUCTURE);
    await admin.query(`UPDATE floor_clock SET events = $1`, [JSON.stringify([{ type: 'start', at: Date.now() - 5 * 60_000 }])]);
    const dataDir = folder();
    const service: ConsoleService = await serviceIn(dataDir, { floor: { url: await stationUrl('9'), table: '9' } });
    const states: FloorLinkState[] = [];
    service.onState((state) => {
      if (state.floorLink !== states.at(-1)) states.push(state.floorLink);
    });
    expect(await service.saveSettings(TABLE('9'))).toEqual({ ok: true, value: null });
    await until('the floor’s clock followed', () => service.getState().clock.source === 'floor' && service.getState().clock.events.length === 1);
    await until('connected', () => service.getState().floorLink.state === 'connected');
    const clock = service.getState().clock;

    // The hostile row: the clock's events nested 10,000 deep.
    await admin.query(`UPDATE floor_clock SET events = $1::jsonb`, [deepJson(DEPTH)]);
    await pollsSeen('9', 3);
    // The link's pill says why the floor's clock is not followed, while the row stays so.
    await until('the refusal on the station', () => {
      const link = service.getState().floorLink;
      return link.state === 'connected' && link.clockRefused?.key === 'value.tooDeep';
    });
    // Races dealt and confirmed meanwhile reach the floor: the link polls the row between them.
    for (const n of [1, 2]) {
      expect(await service.startRace(COUNTS)).toMatchObject({ ok: true });
      for (const card of CARDS) expect(await service.dealCard(`race-${n}`, card)).toMatchObject({ ok: true });
      expect(await service.confirmRace(`race-${n}`)).toMatchObject({ ok: true });
    }
    const last = journalLastSeq(dataDir);
    await until('the races on the floor', async () => (await floorHolds('9')) >= last && service.getState().floorLink.state === 'connected');
    expect(states.map((state) => state.state)).not.toContain('offline');
    expect(service.getState().clock).toEqual(clock);
    // Put right, the row is followed again.
    await admin.query(`UPDATE floor_clock SET events = $1`, [JSON.stringify([{ type: 'start', at: Date.now() - 5 * 60_000 }, { type: 'pause', at: Date.now() - 60_000 }])]);
    await until('the floor’s clock followed again', () => service.getState().clock.events.length === 2);
    await until('the refusal no longer said', () => {
      const link = service.getState().floorLink;
      return link.state === 'connected' && link.clockRefused === undefined;
    });
    expect(states.map((state) => state.state)).not.toContain('offline');
  }, 90_000);

  it('the link refuses a nested, an oversized and a malformed row as a finding, once each, passing on nothing, and stays connected', async () => {
    await setFloorStructure(admin, STRUCTURE).catch(() => undefined);
    await admin.query(`UPDATE floor_clock SET events = '[]', structure = $1, house = NULL`, [JSON.stringify(STRUCTURE)]);
    const rows: (FloorClockRow | null)[] = [];
    const refused: Message[] = [];
    const cleared: true[] = [];
    const states: FloorLinkState[] = [];
    const link = await FloorLink.start({ dataDir: folder(), table: 'clock-row', url: await stationUrl('clock-row'), from: 'settings', journalSeq: 0, onState: (state) => states.push(state), onFloorClock: (row) => rows.push(row), onFloorClockRefused: (why) => (why === null ? cleared.push(true) : refused.push(why)), timing: FLOOR_TIMING });
    try {
      await until('the first row', () => rows.length === 1);
      const cases: [string, unknown[], Message][] = [
        [`UPDATE floor_clock SET events = $1::jsonb`, [deepJson(DEPTH)], { key: 'value.tooDeep', params: { n: MAX_NESTING } }],
        [`UPDATE floor_clock SET events = '[]', structure = $1::jsonb`, [`{"levels":${deepJson(DEPTH)}}`], { key: 'value.tooDeep', params: { n: MAX_NESTING } }],
        [`UPDATE floor_clock SET structure = $1`, [JSON.stringify({ ...STRUCTURE, note: 'x'.repeat(CLOCK_ROW_MAX_CHARS) })], { key: 'clock.floorRow.tooLarge', params: { kb: CLOCK_ROW_MAX_CHARS / 1024 } }],
        [`UPDATE floor_clock SET structure = $1, events = '"soon"'`, [JSON.stringify(STRUCTURE)], { key: 'clock.floorRow.malformed', params: { part: 'events' } }],
        [`UPDATE floor_clock SET events = '[]', structure = '"a structure"'`, [], { key: 'clock.floorRow.malformed', params: { part: 'structure' } }],
        [`UPDATE floor_clock SET house = '[1, 2]'`, [], { key: 'clock.floorRow.malformed', params: { part: 'house' } }],
      ];
      for (const [sql, params, expected] of cases) {
        // From the good row each time (the same as passed on first: not passed on again).
        await admin.query(`UPDATE floor_clock SET structure = $1, events = '[]', house = NULL`, [JSON.stringify(STRUCTURE)]);
        await pollsSeen('clock-row', 2);
        const before = refused.length;
        await admin.query(sql, params);
        const clearedBefore = cleared.length;
        await until('the refusal', () => refused.length === before + 1);
        expect(refused.at(-1)).toEqual(expected);
        // Said once while the row stays so.
        await pollsSeen('clock-row', 2);
        expect(refused).toHaveLength(before + 1);
        expect(cleared).toHaveLength(clearedBefore);
      }
      expect(rows).toHaveLength(1);
      expect(states.map((state) => state.state)).not.toContain('offline');
      expect(link.current.state).toBe('connected');
      // A good row again, another than the first: passed on.
      await admin.query(`UPDATE floor_clock SET structure = $1, events = $2, house = NULL`, [JSON.stringify(STRUCTURE), JSON.stringify([{ type: 'start', at: Date.UTC(2026, 11, 1, 19) }])]);
      await until('the row passed on', () => rows.length === 2);
      expect(rows[1]).toMatchObject({ structure: STRUCTURE, events: [{ type: 'start', at: Date.UTC(2026, 11, 1, 19) }] });
    } finally {
      await link.close();
    }
  }, 90_000);
});

// Issue 41: the break ends cleanly on a station linked to a real floor (a throwaway PostgreSQL).
// The floor's clock enters break 1: the station's banner comes up, its 25 → 100 race is run and
// the director decides on the call about it; the floor's clock leaves break 1: the station marks
// play (journaled, on the floor too), the banner's proposal, the colour-up and the director's
// decision about break 1 leave its state; the floor's clock enters break 2: its 100 → 500 race is
// allowed and runs. The clock is moved by the director's adjusts; the test waits for states.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StructureInput } from '../engine/plan/csv';
import type { ConsoleSettings, SeatCount } from '../protocol/contract';
import { journalPath } from '../journal/location';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import type { ConsoleService } from '../station/service/service';
import { serviceHarness } from '../station/service/testing/services';
import { clockSchedule, readClock } from '../engine/clock/clock';
import { tournamentFromCsv } from '../engine/plan/tournament';
import { readStructure } from '../engine/plan/structure';
import { actOnFloorClock, readFloorClock, setFloorStructure } from '../floor/clock';
import { recordDecision } from '../floor/decisions';
import { createStationLogin } from '../floor/db/stations';
import { readFloorStatus } from '../floor/fold';
import { setHoldBreaks } from '../floor/hold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';
import { floorWithStations } from './testing/floorStations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const MIN = 60_000;
const ok = { ok: true, value: null };
const { serviceIn } = serviceHarness({ station: 'table-pc', floorTiming: { retryFirstMs: 50, retryMaxMs: 400, pollMs: 150, countMs: 100, connectMs: 2_000 } });

/** Levels 1 and 2 of 20 minutes, a 10-minute break (25 leaves), levels 3 and 4 of 30, a 15-minute break (100 leaves), level 5. */
const STRUCTURE: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 30 }, { sb: 200, bb: 400, minutes: 30 }, { break: 15 }, { sb: 500, bb: 1000, minutes: 30 }],
};
const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, chipSet: [25, 100, 500, 1000], removed: 25, next: 100, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }], button: 2, name: '7' },
};
/** Seat 1 holds exactly one next chip's worth: nothing to race, the race complete at once. */
const even = (ratio: number): SeatCount[] => [{ seat: 1, chips: ratio, hasOther: true }, { seat: 2, chips: 0, hasOther: true }];

const breakMarks = (dataDir: string) =>
  readFileSync(journalPath(dataDir), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"kind":"break-marked"'))
    .map((line) => (JSON.parse(line) as { record: unknown }).record);

async function raceConfirmed(service: ConsoleService, ratio: number): Promise<void> {
  expect(await service.startRace(even(ratio))).toEqual(ok);
  expect(await service.confirmRace(service.getState().race?.id ?? '')).toEqual(ok);
}

describe.runIf(run)("the break ends on a station when the floor's clock leaves it (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const dataDir = mkdtempSync(join(tmpdir(), 'floor-break-ends-'));

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await server?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("break 1's banner, colour-up and the floor's decision leave with it; break 2's 100 → 500 race runs", async () => {
    const login = await createStationLogin(admin, '7');
    const service = await serviceIn(dataDir);
    expect(await service.saveSettings({ ...TABLE, floor: { on: true, url: server.urlFor(login.role, login.password) } })).toEqual(ok);
    await until('the link', () => service.getState().floorLink.state === 'connected');

    // The director's clock, started 41 minutes ago: a minute into the break after level 2.
    await setFloorStructure(admin, STRUCTURE);
    await actOnFloorClock(admin, { type: 'start' }, Date.now() - 41 * MIN);
    expect(await until('the banner of break 1', () => service.getState().colorUp)).toEqual({ afterLevel: 2, done: [], running: null });
    expect(await service.startColorUp(2, 25)).toEqual(ok);
    await raceConfirmed(service, 4);
    expect(await service.callFloor('seat 2 asks about the odd chips')).toEqual(ok);
    await until('the call on the floor', async () => ((await admin.query("SELECT 1 FROM station_records WHERE table_name = '7' AND kind = 'floor-called'")).rowCount ?? 0) > 0);
    await recordDecision(admin, { table: '7', decision: 'race-stands', note: 'the race stands', by: 'Anna', raceId: 'race-1' });
    await until("the floor's decision on the station", () => service.getState().floorCalls.decisions.length === 1);
    expect(service.getState().colorUp).toMatchObject({ afterLevel: 2, done: [{ raceId: 'race-1', removed: 25 }] });

    // The director moves the clock past the break's end: the station plays again.
    await actOnFloorClock(admin, { type: 'adjust', by: 10 * MIN }, Date.now());
    await until('play marked', () => service.getState().settings.tournament?.atBreakAfter === null);
    const playing = service.getState();
    expect(playing.colorUp).toBeNull();
    expect(playing.plan?.proposal).toBeNull();
    expect(playing.floorCalls).toEqual({ called: null, decisions: [] });
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }, { kind: 'break-marked', afterLevel: null, by: 'clock' }]);
    const onFloor = await until('play marked on the floor', async () => {
      const rows = (await admin.query("SELECT record FROM station_records WHERE table_name = '7' AND kind = 'break-marked' ORDER BY seq")).rows;
      return rows.length === 2 ? rows : null;
    });
    expect(onFloor.map((row) => row.record)).toEqual(breakMarks(dataDir));
    // The slip keeps the decision on its race.
    const slip = await service.raceRecord('race-1');
    expect(slip.ok && slip.value.floorDecisions?.map((decision) => decision.decision)).toEqual(['race-stands']);

    // On to the break after level 4 (60 minutes more): its colour-up of the 100s is allowed and runs.
    await actOnFloorClock(admin, { type: 'adjust', by: 60 * MIN }, Date.now());
    expect(await until('the banner of break 2', () => service.getState().colorUp)).toEqual({ afterLevel: 4, done: [], running: null });
    expect(service.getState().plan?.proposal).toMatchObject({ afterLevel: 4, races: [{ removed: 100, next: 500 }] });
    expect(await service.startColorUp(4, 100)).toEqual(ok);
    await raceConfirmed(service, 5);
    expect(service.getState().colorUp).toMatchObject({ afterLevel: 4, done: [{ raceId: 'race-2', removed: 100, next: 500 }] });
  }, 60_000);
});

/** The 25s leave at the break after level 2 (it ends 50 minutes into the clock), the 100s at the break after level 3 (80 minutes). */
const HELD_SHEET = ['chips,25,100,500', 'level,25,50,,20', 'level,50,100,,20', 'break,10', 'level,100,200,,20', 'break,10', 'level,500,1000,,20'].join('\n');
/** How soon after the break's end a finished station has left it: its timer fires at the end, the state within a poll or two (150 ms), never HOLD_GRACE_MS. */
const LEAVES_WITHIN_MS = 5_000;

describe.runIf(run)("a station finished with the floor's held break leaves it at its end (a real PostgreSQL server and floor)", () => {
  const { floor: database, stationFor } = floorWithStations('floor-break-ends-held-');
  let floor: FloorServer;

  beforeAll(async () => {
    floor = await startFloorServer({ databaseUrl: database.server.url, log: () => undefined, foldEveryMs: 100, holdEveryMs: 100 });
  });

  afterAll(async () => {
    await floor?.close();
  });

  const station = (table: string): Promise<ConsoleService> => {
    const { tournament: _kept, ...settings } = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }], button: 1 } };
    return stationFor(table, settings);
  };
  /** The breaks a table's station marked, as the floor has its records, once it has `count` of them. */
  const marksOnFloor = async (table: string, count: number) =>
    until(`${count} marks of ${table} on the floor`, async () => {
      const rows = (await database.admin.query('SELECT record FROM station_records WHERE table_name = $1 AND kind = $2 ORDER BY seq', [table, 'break-marked'])).rows;
      return rows.length === count ? rows.map((row) => row.record) : null;
    });

  /** The colour-up of the break after `afterLevel` run and confirmed: seat 1's chips make one next chip, nothing to race. */
  const colourUp = async (service: ConsoleService, afterLevel: number, removed: number, ratio: number) => {
    expect(await service.startColorUp(afterLevel, removed)).toEqual(ok);
    await raceConfirmed(service, ratio);
  };
  const held = async () => (await readFloorClock(database.admin))?.held ?? null;
  /** The floor's clock read now. */
  const reading = async () => {
    const clock = await readFloorClock(database.admin);
    if (clock === null) throw new Error('no clock');
    return readClock(clockSchedule(readStructure(clock.structure)), clock.events, Date.now());
  };
  const running = async () => (await reading()).status === 'running';
  const holds = async () => (await database.admin.query('SELECT after_level, tables_left, released_by, tables_left_at_release FROM floor_break_holds ORDER BY held_at')).rows;
  const finishedBreaks = async (table: string) => (await readFloorStatus(database.admin)).tables.find((status) => status.table === table)?.finishedBreaks ?? [];

  it('holds the clock for the table not finished only, the finished one playing from the end; released by its confirmation; no hold when every table finished', async () => {
    const { structure, house } = tournamentFromCsv(HELD_SHEET);
    await setFloorStructure(database.admin, structure, house);
    await setHoldBreaks(database.admin, true, Date.now());
    const [a, b] = [await station('A'), await station('B')];
    await until('both linked', () => a.getState().floorLink.state === 'connected' && b.getState().floorLink.state === 'connected');

    // 6 s before the end of the break after level 2: both banners up; table A finishes at once, B does not.
    const start = Date.now() - 50 * MIN + 6_000;
    const end = start + 50 * MIN;
    await actOnFloorClock(database.admin, { type: 'start' }, start);
    for (const service of [a, b]) expect(await until('the banner', () => service.getState().colorUp)).toMatchObject({ afterLevel: 2 });
    await colourUp(a, 2, 25, 4);
    expect(Date.now()).toBeLessThan(end);

    // The end passes: A marks play at once, its banner gone; B stays on the break.
    await until('A playing', () => a.getState().settings.tournament?.atBreakAfter === null, end - Date.now() + LEAVES_WITHIN_MS);
    expect(Date.now() - end).toBeLessThan(LEAVES_WITHIN_MS);
    expect(a.getState().colorUp).toBeNull();
    // The floor holds the clock for B only, and A, playing, is counted done with the break.
    expect(await until('the hold', held)).toEqual({ afterLevel: 2, tables: 1 });
    expect(await until('the hold on A', () => a.getState().clock.held)).toEqual({ afterLevel: 2, tables: 1 });
    expect(await until('the hold on B', () => b.getState().clock.held)).toEqual({ afterLevel: 2, tables: 1 });
    expect(a.getState().settings.tournament?.atBreakAfter).toBeNull();
    expect(b.getState().settings.tournament?.atBreakAfter).toBe(2);
    expect(b.getState().colorUp).toMatchObject({ afterLevel: 2, done: [] });
    await until("A's finished break folded", async () => (await finishedBreaks('A')).length > 0);
    expect(await finishedBreaks('A')).toEqual([2]);
    // The director's page says the same: A done with the break (its sheet's), one table left.
    const status = await readFloorStatus(database.admin);
    expect(status.tables.map((table) => [table.table, table.colourUp, table.sheetAfterLevel])).toEqual([['A', 'done', 2], ['B', 'not-started', 2]]);
    expect(status.progress.left).toBe(1);
    expect(await marksOnFloor('A', 2)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }, { kind: 'break-marked', afterLevel: null, by: 'clock' }]);

    // B confirms: the floor lets the clock go, B leaves the break, A plays on (the break not marked again).
    await colourUp(b, 2, 25, 4);
    await until('the clock going again', running);
    expect(await held()).toBeNull();
    await until('B playing', () => b.getState().settings.tournament?.atBreakAfter === null);
    expect(await holds()).toEqual([{ after_level: 2, tables_left: 1, released_by: 'tables-done', tables_left_at_release: 0 }]);
    for (const table of ['A', 'B']) expect(await marksOnFloor(table, 2)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }, { kind: 'break-marked', afterLevel: null, by: 'clock' }]);

    // The director moves the clock on to 10 s before the end of the break after level 3; every
    // table finishes its colour-up before the end: no hold, both play from the end.
    await actOnFloorClock(database.admin, { type: 'adjust', by: 80 * MIN - 10_000 - (await reading()).elapsedMs }, Date.now());
    const endOf3 = Date.now() + 80 * MIN - (await reading()).elapsedMs;
    for (const service of [a, b]) expect(await until('the banner of break 3', () => service.getState().colorUp)).toMatchObject({ afterLevel: 3 });
    for (const service of [a, b]) await colourUp(service, 3, 100, 5);
    expect(Date.now()).toBeLessThan(endOf3);
    for (const service of [a, b]) await until('playing after break 3', () => service.getState().settings.tournament?.atBreakAfter === null, endOf3 - Date.now() + LEAVES_WITHIN_MS);
    expect(Date.now() - endOf3).toBeLessThan(LEAVES_WITHIN_MS);
    await until('break 3 looked at', async () => (await holds()).length === 2);
    expect(await held()).toBeNull();
    expect(await running()).toBe(true);
    expect((await holds())[1]).toEqual({ after_level: 3, tables_left: 0, released_by: 'tables-done', tables_left_at_release: 0 });
  }, 90_000);
});

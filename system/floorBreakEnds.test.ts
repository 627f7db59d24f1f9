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
import { DEFAULT_SETTINGS } from '../main/service/settings';
import type { ConsoleService } from '../main/service/service';
import { serviceHarness } from '../main/service/testing/services';
import { actOnFloorClock, setFloorStructure } from '../floor/clock';
import { recordDecision } from '../floor/decisions';
import { createStationLogin } from '../floor/db/stations';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';

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

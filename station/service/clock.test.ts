// The tournament clock on a station: its own (start, pause, resume, adjust, each journaled with the
// service's time), or the floor's (followFloorClock); the break it enters marked once, as "mark
// break" does, so the colour-up banner comes up with the planned races; one timer, set for the
// clock's next change and cleared on close.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StructureInput } from '../../engine/plan/csv';
import { CLOCK_EVENTS_KEPT, readClock, type ClockEvent, type ClockSchedule } from '../../engine/clock/clock';
import { HOLD_GRACE_MS } from '../../engine/clock/hold';
import type { ConsoleSettings } from '../../protocol/contract';
import { dispatch } from '../ipc/validate';
import { isColorUpRecord } from '../../replay/colorUps';
import { StationClock, type ClockTimers } from './clock';
import { isClockRecord } from '../../replay/clockRecord';
import type { JournalLine } from '../../journal/read';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';
import { serviceHarness } from './testing/services';

const MIN = 60_000;
const T0 = Date.parse('2026-12-01T19:00:00Z');
const ok = { ok: true, value: null };

/** Timers the test fires: the one set (its delay), and how many were ever set and cleared. */
function fakeTimers() {
  const pending = new Map<number, { fire: () => void; ms: number }>();
  let next = 0;
  const timers: ClockTimers = {
    set: (fire, ms) => {
      next += 1;
      pending.set(next, { fire, ms });
      return next;
    },
    clear: (handle) => {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    pending: () => [...pending.values()],
    /** Fires the one timer set (there must be exactly one). */
    fire: () => {
      const all = [...pending.entries()];
      expect(all).toHaveLength(1);
      const [id, timer] = all[0] as [number, { fire: () => void }];
      pending.delete(id);
      timer.fire();
    },
  };
}

/** The injected time: `at` ms since T0. */
function injectedTime() {
  let now = T0;
  return { clock: () => new Date(now), set: (ms: number) => (now = T0 + ms), now: () => now };
}

const { serviceIn, restart } = serviceHarness({ station: 'test' });

/** Level 1 20 min, level 2 20 min, a 10-minute break (25 leaves), levels 3 and 4 of 30, a 15-minute break (100 leaves), level 5. */
const STRUCTURE: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [
    { sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 30 }, { sb: 200, bb: 400, minutes: 30 }, { break: 15 },
    { sb: 500, bb: 1000, minutes: 30 },
  ],
};
const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 },
};

const records = (dataDir: string) =>
  readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { record?: { kind?: string } }).filter((line) => line.record !== undefined).map((line) => line.record);
const breakMarks = (dataDir: string) => records(dataDir).filter((record) => record?.kind === 'break-marked');

async function station(structure: StructureInput | null = STRUCTURE) {
  const dataDir = mkdtempSync(join(tmpdir(), 'clock-'));
  const time = injectedTime();
  const timers = fakeTimers();
  const service = await serviceIn(dataDir, { clock: time.clock, timers: timers.timers });
  expect(await service.saveSettings(TABLE)).toEqual(ok);
  if (structure !== null) expect(await service.saveStructure(structure)).toEqual(ok);
  return { service, dataDir, time, timers };
}

/** The commands and timers settle: the break's mark runs in the service's queue. */
const settled = (service: ConsoleService) => service.listPorts();

describe("the station's own clock", () => {
  it('is journaled with the service time and carried in the state; a restart reads it back', async () => {
    const { service, dataDir, time, timers } = await station();
    expect(service.getState().clock).toMatchObject({ source: 'local', events: [], problem: null, schedule: { totalMs: 155 * MIN } });
    expect(timers.pending()).toEqual([]);
    expect(await service.clockStart()).toEqual(ok);
    time.set(5 * MIN);
    expect(await service.clockPause()).toEqual(ok);
    time.set(9 * MIN);
    expect(await service.clockResume()).toEqual(ok);
    // "+2 min": two minutes more left, the clock set back by as much.
    expect(await service.clockAdjust(2)).toEqual(ok);
    const events: ClockEvent[] = [{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 5 * MIN }, { type: 'resume', at: T0 + 9 * MIN }, { type: 'adjust', at: T0 + 9 * MIN, by: -2 * MIN }];
    expect(service.getState().clock.events).toEqual(events);
    expect(records(dataDir).filter((record) => record?.kind === 'clock')).toEqual(events.map((event) => ({ kind: 'clock', event })));
    // 3 minutes on the clock: the timer is for the end of level 1, 17 minutes off.
    expect(timers.pending().map((timer) => timer.ms)).toEqual([17 * MIN]);
    const again = await restart(service, dataDir, { clock: time.clock, timers: timers.timers });
    expect(again.getState().clock.events).toEqual(events);
    expect(again.getState().journal.findings).toEqual([]);
  });

  it('at the break: marked once (journaled by the clock), the banner proposed with the planned chips', async () => {
    const { service, dataDir, time, timers } = await station();
    expect(await service.clockStart()).toEqual(ok);
    expect(timers.pending().map((timer) => timer.ms)).toEqual([20 * MIN]);
    time.set(20 * MIN);
    timers.fire();
    await settled(service);
    // Level 2 begins: no break yet, the timer is set for its end.
    expect(breakMarks(dataDir)).toEqual([]);
    expect(timers.pending().map((timer) => timer.ms)).toEqual([20 * MIN]);
    time.set(40 * MIN);
    timers.fire();
    await settled(service);
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }]);
    const state = service.getState();
    expect(state.settings.tournament?.atBreakAfter).toBe(2);
    expect(state.plan?.proposal).toMatchObject({ afterLevel: 2, remove: [25], next: 100 });
    expect(state.colorUp).toEqual({ afterLevel: 2, done: [], running: null });
    // The banner's one tap: the first race of the colour-up.
    expect(await service.startColorUp(2, 25)).toEqual(ok);
    // Pausing and resuming inside the break marks it no second time.
    expect(await service.clockPause()).toEqual(ok);
    expect(await service.clockResume()).toEqual(ok);
    await settled(service);
    expect(breakMarks(dataDir)).toHaveLength(1);
  });

  it('a restart during the break does not mark it again', async () => {
    const { service, dataDir, time, timers } = await station();
    expect(await service.clockStart()).toEqual(ok);
    expect(await service.clockAdjust(-41)).toEqual(ok);
    await settled(service);
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }]);
    // The dealer resumed play by hand, early; a restart still in the break's time marks it no more.
    expect(await service.markBreak(null)).toEqual(ok);
    time.set(3 * MIN);
    const again = await restart(service, dataDir, { clock: time.clock, timers: timers.timers });
    await settled(again);
    expect(breakMarks(dataDir)).toHaveLength(2);
    expect(again.getState().settings.tournament?.atBreakAfter).toBeNull();
  });

  it('a break marked by hand before the clock comes to it is not marked again (its colour-up kept)', async () => {
    const { service, dataDir, timers, time } = await station();
    expect(await service.clockStart()).toEqual(ok);
    time.set(30 * MIN);
    expect(await service.markBreak(2)).toEqual(ok);
    time.set(40 * MIN);
    timers.fire();
    await settled(service);
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2 }]);
    // The next break is the clock's to mark.
    expect(await service.clockAdjust(-70)).toEqual(ok);
    await settled(service);
    expect(breakMarks(dataDir).at(-1)).toEqual({ kind: 'break-marked', afterLevel: 4, by: 'clock' });
    expect(service.getState().plan?.proposal).toMatchObject({ afterLevel: 4, remove: [100] });
  });

  it('a break the clock paused in is marked too; paused time sets no timer', async () => {
    const { service, dataDir, timers } = await station();
    expect(await service.clockStart()).toEqual(ok);
    expect(await service.clockPause()).toEqual(ok);
    expect(timers.pending()).toEqual([]);
    expect(await service.clockAdjust(-45)).toEqual(ok);
    await settled(service);
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }]);
  });

  it('refuses, keyed: no structure, a level without minutes, out of order, a bad adjust; nothing recorded', async () => {
    const bare = await station(null);
    expect(await bare.service.clockStart()).toMatchObject({ ok: false, error: { field: 'tournament', said: { key: 'service.noStructure' } } });
    const untimed = await station({ chips: [25, 100], levels: [{ sb: 25, bb: 50, minutes: 10 }, { break: 5 }, { sb: 50, bb: 100 }] });
    expect(untimed.service.getState().clock).toMatchObject({ schedule: null, problem: { key: 'clock.noMinutes', params: { level: 2 } } });
    expect(await untimed.service.clockStart()).toMatchObject({ ok: false, error: { field: 'tournament', message: 'level 2 has no length in minutes: give every level its minutes in the structure to run the clock' } });
    const { service, dataDir } = await station();
    const before = records(dataDir).length;
    expect(await service.clockPause()).toMatchObject({ ok: false, error: { said: { key: 'clock.order.notStarted' } } });
    expect(await service.clockStart()).toEqual(ok);
    expect(await service.clockStart()).toMatchObject({ ok: false, error: { said: { key: 'clock.order.started' } } });
    expect(await service.clockResume()).toMatchObject({ ok: false, error: { said: { key: 'clock.order.running' } } });
    expect(await service.clockPause()).toEqual(ok);
    expect(await service.clockPause()).toMatchObject({ ok: false, error: { said: { key: 'clock.order.paused' } } });
    for (const minutes of [0, 601, -601, 1.5, '5', null]) {
      expect(await dispatch(service, 'clockAdjust', [minutes])).toMatchObject({ ok: false, error: { field: 'minutes', message: 'must be a whole number of minutes from -600 to 600, not 0' } });
    }
    expect(records(dataDir).length).toBe(before + 2);
  });

  it('"+1 min" gives the level a minute more left, "−1 min" a minute less', async () => {
    const { service, time } = await station();
    expect(await service.clockStart()).toEqual(ok);
    time.set(5 * MIN);
    const left = () => {
      const clock = service.getState().clock;
      return readClock(clock.schedule as ClockSchedule, clock.events, time.now()).msLeft;
    };
    expect(left()).toBe(15 * MIN);
    expect(await service.clockAdjust(1)).toEqual(ok);
    expect(left()).toBe(16 * MIN);
    expect(await service.clockAdjust(-3)).toEqual(ok);
    expect(left()).toBe(13 * MIN);
  });

  it('a start after the clock has finished starts it afresh', async () => {
    const { service, time } = await station();
    expect(await service.clockStart()).toEqual(ok);
    time.set(200 * MIN);
    expect(await service.clockStart()).toEqual(ok);
    expect(service.getState().clock.events).toEqual([{ type: 'start', at: T0 + 200 * MIN }]);
  });

  it('the timer is cleared on close', async () => {
    const { service, timers } = await station();
    expect(await service.clockStart()).toEqual(ok);
    expect(timers.pending()).toHaveLength(1);
    await service.close();
    expect(timers.pending()).toEqual([]);
  });
});

/** Seat 1 holds exactly one `next` chip's worth of the leaving chips, the others none: the race complete at once. */
const evenCounts = (ratio: number) => [{ seat: 1, chips: ratio, hasOther: true }, { seat: 2, chips: 0, hasOther: true }, { seat: 3, chips: 0, hasOther: true }];

async function raceConfirmed(service: ConsoleService, ratio: number): Promise<void> {
  expect(await service.startRace(evenCounts(ratio))).toEqual(ok);
  expect(await service.confirmRace(service.getState().race?.id ?? '')).toEqual(ok);
}

describe("the station's break ends with the clock's (issue 41)", () => {
  it('an evening on the own clock: break 1 raced and left (banner gone, nothing of it refused), break 2 marked and its 100 → 500 race run', async () => {
    const { service, dataDir, time, timers } = await station();
    expect(await service.clockStart()).toEqual(ok);
    time.set(40 * MIN);
    timers.fire();
    await settled(service);
    expect(service.getState().plan?.proposal).toMatchObject({ afterLevel: 2, remove: [25], next: 100 });
    expect(await service.startColorUp(2, 25)).toEqual(ok);
    time.set(44 * MIN);
    await raceConfirmed(service, 4);
    expect(service.getState().colorUp).toMatchObject({ afterLevel: 2, done: [{ removed: 25 }] });

    // The break's end: play marked by the clock, the banner's proposal and the colour-up gone.
    expect(timers.pending().map((timer) => timer.ms)).toEqual([10 * MIN]);
    time.set(50 * MIN);
    timers.fire();
    await settled(service);
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }, { kind: 'break-marked', afterLevel: null, by: 'clock' }]);
    const playing = service.getState();
    expect(playing.settings.tournament?.atBreakAfter).toBeNull();
    expect(playing.plan?.proposal).toBeNull();
    expect(playing.colorUp).toBeNull();
    // While playing, no race is "already raced at this break": a player's 25s come up as a race of their own.
    time.set(60 * MIN);
    expect(await service.startRace(evenCounts(4))).toEqual(ok);
    expect(await service.abandonRace(service.getState().race?.id ?? '', 'a test')).toEqual(ok);

    // Break 2 (after level 4): marked afresh, its 100 → 500 race allowed and run.
    time.set(110 * MIN);
    timers.fire();
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(4);
    expect(service.getState().plan?.proposal).toMatchObject({ afterLevel: 4, remove: [100], next: 500 });
    expect(await service.startColorUp(4, 100)).toEqual(ok);
    expect(service.getState().settings.table).toMatchObject({ removed: 100, next: 500 });
    time.set(112 * MIN);
    await raceConfirmed(service, 5);
    expect(service.getState().colorUp).toMatchObject({ afterLevel: 4, done: [{ removed: 100, next: 500 }] });
    expect(breakMarks(dataDir).map((record) => (record as { afterLevel: number | null }).afterLevel)).toEqual([2, null, 4]);

    // A restart in level 5 after break 2 ended (the station was off at its end): play marked once, not break 2 again.
    time.set(130 * MIN);
    const again = await restart(service, dataDir, { clock: time.clock, timers: timers.timers });
    await settled(again);
    expect(again.getState().settings.tournament?.atBreakAfter).toBeNull();
    expect(again.getState().colorUp).toBeNull();
    expect(breakMarks(dataDir).map((record) => (record as { afterLevel: number | null }).afterLevel)).toEqual([2, null, 4, null]);
    expect(again.getState().journal.findings).toEqual([]);
  });

  it('an adjust out of the break ends it at once; an adjust back into it does not begin its colour-up again', async () => {
    const { service, dataDir, time } = await station();
    expect(await service.clockStart()).toEqual(ok);
    expect(await service.clockAdjust(-41)).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    await raceConfirmed(service, 4);
    // "−10 min" in the same millisecond: out of the break into level 3.
    expect(await service.clockAdjust(-10)).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
    time.set(MIN);
    expect(await service.clockAdjust(5)).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
    expect(breakMarks(dataDir).map((record) => (record as { afterLevel: number | null }).afterLevel)).toEqual([2, null]);
  });

  it("a break marked by hand before the clock's break ends with it; a mark by hand after the end stands", async () => {
    const { service, dataDir, time, timers } = await station();
    expect(await service.clockStart()).toEqual(ok);
    time.set(30 * MIN);
    expect(await service.markBreak(2)).toEqual(ok);
    time.set(40 * MIN);
    timers.fire();
    await settled(service);
    time.set(50 * MIN);
    timers.fire();
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
    time.set(55 * MIN);
    expect(await service.markBreak(2)).toEqual(ok);
    time.set(56 * MIN);
    expect(await service.clockAdjust(-1)).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2 }, { kind: 'break-marked', afterLevel: null, by: 'clock' }, { kind: 'break-marked', afterLevel: 2 }]);
  });
});

describe("the floor's clock on a station", () => {
  /** The floor's clock with its option to hold breaks on (floor/hold.ts): a break with a colour-up may be held at its end. */
  const floorAt = (events: ClockEvent[]) => ({ structure: STRUCTURE, events, holdBreaks: true });

  it("runs the station's clock: its own commands refused, the break raising the banner; null gives its own back", async () => {
    const { service, dataDir, time, timers } = await station();
    expect(await service.followFloorClock(floorAt([{ type: 'start', at: T0 - 30 * MIN }]))).toEqual(ok);
    expect(service.getState().clock).toMatchObject({ source: 'floor', events: [{ type: 'start', at: T0 - 30 * MIN }], schedule: { totalMs: 155 * MIN } });
    expect(await service.clockPause()).toMatchObject({ ok: false, error: { field: 'clock', message: 'the floor runs the clock: start, pause and adjust it on the floor console', said: { key: 'clock.floor' } } });
    expect(timers.pending().map((timer) => timer.ms)).toEqual([10 * MIN]);
    time.set(10 * MIN);
    timers.fire();
    await settled(service);
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }]);
    expect(service.getState().colorUp).toEqual({ afterLevel: 2, done: [], running: null });
    // The floor's clock handed over again (the link reads it anew): the break is not marked twice.
    expect(await service.followFloorClock(floorAt([{ type: 'start', at: T0 - 30 * MIN }, { type: 'pause', at: T0 + 11 * MIN }]))).toEqual(ok);
    await settled(service);
    expect(breakMarks(dataDir)).toHaveLength(1);
    expect(await service.followFloorClock(null)).toEqual(ok);
    expect(service.getState().clock).toMatchObject({ source: 'local', events: [] });
    expect(await service.clockStart()).toEqual(ok);
  });

  it("follows the floor's time, not its own: a station an hour behind enters the floor's break at the floor's moment", async () => {
    const { service, dataDir, time, timers } = await station();
    // The floor's time is an hour ahead of this station's; its clock started 39 minutes ago by the floor's time.
    const floorNow = T0 + 60 * MIN;
    expect(await service.followFloorClock({ ...floorAt([{ type: 'start', at: floorNow - 39 * MIN }]), offsetMs: 60 * MIN })).toEqual(ok);
    const clock = service.getState().clock;
    expect(readClock(clock.schedule as ClockSchedule, clock.events, time.now())).toMatchObject({ status: 'running', period: { kind: 'level', level: 2 }, msLeft: MIN });
    expect(timers.pending().map((timer) => timer.ms)).toEqual([MIN]);
    time.set(MIN);
    timers.fire();
    await settled(service);
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }]);
    expect(service.getState().colorUp).toEqual({ afterLevel: 2, done: [], running: null });
  });

  it("stays on the break the floor holds, and leaves it when the floor lets the clock go", async () => {
    const { service, dataDir, time } = await station();
    const start = { type: 'start' as const, at: T0 - 45 * MIN };
    expect(await service.followFloorClock(floorAt([start]))).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    // The floor holds the break: its pause dated at the break's end, `held` on the row.
    time.set(6 * MIN);
    expect(await service.followFloorClock({ ...floorAt([start, { type: 'pause', at: T0 + 5 * MIN }]), held: { afterLevel: 2, tables: 1 } })).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    time.set(8 * MIN);
    expect(await service.followFloorClock(floorAt([start, { type: 'pause', at: T0 + 5 * MIN }, { type: 'resume', at: T0 + 7 * MIN }]))).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }, { kind: 'break-marked', afterLevel: null, by: 'clock' }]);
  });

  it("leaves the floor's break at its end when its colour-up is finished (the floor remembers it so); waits for the hold when it is not", async () => {
    const { service, dataDir, time, timers } = await station();
    expect(await service.followFloorClock(floorAt([{ type: 'start', at: T0 - 45 * MIN }]))).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    expect(await service.startColorUp(2, 25)).toEqual(ok);
    await raceConfirmed(service, 4);
    await settled(service);
    // Finished: the one timer is for the break's end, and there it marks play.
    expect(timers.pending().map((timer) => timer.ms)).toEqual([5 * MIN]);
    time.set(5 * MIN);
    timers.fire();
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
    expect(service.getState().colorUp).toBeNull();
    // The floor's hold then comes (for another table) dated at the break's end: this station plays on.
    time.set(5 * MIN + 2_000);
    expect(await service.followFloorClock({ ...floorAt([{ type: 'start', at: T0 - 45 * MIN }, { type: 'pause', at: T0 + 5 * MIN }]), held: { afterLevel: 2, tables: 1 } })).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
    expect(service.getState().clock.held).toEqual({ afterLevel: 2, tables: 1 });
    expect(breakMarks(dataDir)).toEqual([{ kind: 'break-marked', afterLevel: 2, by: 'clock' }, { kind: 'break-marked', afterLevel: null, by: 'clock' }]);
  });

  it("leaves the floor's break as soon as its colour-up is finished after the end, before the floor can hold it no more", async () => {
    const { service, time, timers } = await station();
    expect(await service.followFloorClock(floorAt([{ type: 'start', at: T0 - 45 * MIN }]))).toEqual(ok);
    await settled(service);
    expect(await service.startColorUp(2, 25)).toEqual(ok);
    time.set(5 * MIN);
    timers.fire();
    await settled(service);
    // Not finished at the end (a race not confirmed yet): on the break, for the floor's hold to find.
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    time.set(5 * MIN + 3_000);
    await raceConfirmed(service, 4);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
  });

  it("leaves the floor's break a minute after its end when its colour-up is not finished, when the floor can hold it no more", async () => {
    const { service, time, timers } = await station();
    expect(await service.followFloorClock(floorAt([{ type: 'start', at: T0 - 45 * MIN }]))).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    expect(timers.pending().map((timer) => timer.ms)).toEqual([5 * MIN]);
    time.set(5 * MIN);
    timers.fire();
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    expect(timers.pending().map((timer) => timer.ms)).toEqual([HOLD_GRACE_MS + 1]);
    time.set(5 * MIN + HOLD_GRACE_MS + 1);
    timers.fire();
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
  });

  it("leaves the floor's break at its end, its colour-up finished or not, when the floor does not hold breaks (its option off)", async () => {
    const { service, time, timers } = await station();
    expect(await service.followFloorClock({ ...floorAt([{ type: 'start', at: T0 - 45 * MIN }]), holdBreaks: false })).toEqual(ok);
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBe(2);
    expect(await service.startColorUp(2, 25)).toEqual(ok);
    // Not finished: no race of it confirmed. The one timer is the break's end, and there it marks play.
    expect(timers.pending().map((timer) => timer.ms)).toEqual([5 * MIN]);
    time.set(5 * MIN);
    timers.fire();
    await settled(service);
    expect(service.getState().settings.tournament?.atBreakAfter).toBeNull();
    // An older floor, without the option, holds nothing either.
    const older = await station();
    expect(await older.service.followFloorClock({ structure: STRUCTURE, events: [{ type: 'start', at: T0 - 45 * MIN }] })).toEqual(ok);
    await settled(older.service);
    older.time.set(5 * MIN);
    older.timers.fire();
    await settled(older.service);
    expect(older.service.getState().settings.tournament?.atBreakAfter).toBeNull();
  });

  it('refuses malformed floor events (keeping the clock it had); a floor structure without minutes is shown as the problem', async () => {
    const { service } = await station();
    expect(await service.followFloorClock(floorAt([{ type: 'start', at: T0 }]))).toEqual(ok);
    const before = service.getState().clock;
    expect(await service.followFloorClock({ structure: STRUCTURE, events: [{ type: 'start', at: T0 }, { type: 'resume', at: T0 + 1 }] })).toMatchObject({ ok: false, error: { field: 'events[1]', said: { key: 'clock.order.running' } } });
    expect(await service.followFloorClock({ structure: STRUCTURE, events: [{ type: 'stop', at: T0 }] as unknown as ClockEvent[] })).toMatchObject({ ok: false, error: { field: 'events[0].type' } });
    expect(service.getState().clock).toBe(before);
    expect(await service.followFloorClock({ structure: { chips: [25, 100], levels: [{ sb: 25, bb: 50 }] }, events: [] })).toEqual(ok);
    expect(service.getState().clock).toMatchObject({ source: 'floor', schedule: null, problem: { key: 'clock.noMinutes' } });
  });
});

describe('the records and the clock itself', () => {
  it('a break-marked record may say the clock marked it, nothing else; a clock record is a well-formed event', () => {
    expect(isColorUpRecord({ kind: 'break-marked', afterLevel: 2 })).toBe(true);
    expect(isColorUpRecord({ kind: 'break-marked', afterLevel: 2, by: 'clock' })).toBe(true);
    expect(isColorUpRecord({ kind: 'break-marked', afterLevel: 2, by: 'dealer' })).toBe(false);
    expect(isClockRecord({ kind: 'clock', event: { type: 'adjust', at: T0, by: MIN } })).toBe(true);
    for (const record of [{ kind: 'clock' }, { kind: 'clock', event: { type: 'adjust', at: T0 } }, { kind: 'clock', event: { type: 'start', at: T0 }, extra: 'x'.repeat(100_000) }, { kind: 'clock', event: { type: 'start', at: '1' } }]) {
      expect(isClockRecord(record)).toBe(false);
    }
  });

  it('never fills: 5,000 presses of ±1 min, then Pause is taken, the screens given the clock compacted; passes by a journal line out of order', () => {
    const clock = new StationClock(fakeTimers().timers);
    const line = (seq: number, event: ClockEvent): JournalLine<unknown> => ({ seq, at: new Date(event.at).toISOString(), record: { kind: 'clock', event } }) as unknown as JournalLine<unknown>;
    clock.add(line(1, { type: 'start', at: T0 }));
    clock.add(line(2, { type: 'pause', at: T0 - 1 }));
    expect(clock.view(STRUCTURE).events).toEqual([{ type: 'start', at: T0 }]);
    const presses: ClockEvent[] = [{ type: 'start', at: T0 }];
    for (let seq = 2; seq <= 5001; seq += 1) {
      const event: ClockEvent = { type: 'adjust', at: T0 + seq * 10, by: seq % 2 === 0 ? MIN : -MIN };
      presses.push(event);
      clock.add(line(seq, event));
    }
    const view = clock.view(STRUCTURE);
    expect(view.events.length).toBeLessThanOrEqual(CLOCK_EVENTS_KEPT);
    const schedule = view.schedule as ClockSchedule;
    expect(readClock(schedule, view.events, T0 + 60_000)).toEqual(readClock(schedule, presses, T0 + 60_000));
    // Pause (this was refused "at most 5000 clock events"), journaled, and read back as it stands.
    const pause = clock.event(STRUCTURE, { type: 'pause' }, T0 + 60_000);
    expect(pause).toEqual({ type: 'pause', at: T0 + 60_000 });
    clock.add(line(5002, pause));
    expect(readClock(schedule, clock.view(STRUCTURE).events, T0 + 90 * MIN)).toMatchObject({ status: 'paused', elapsedMs: 60_000 });
    expect(clock.event(STRUCTURE, { type: 'resume' }, T0 + 90 * MIN)).toEqual({ type: 'resume', at: T0 + 90 * MIN });
  });
});

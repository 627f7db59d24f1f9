import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readStructure } from '../plan/structure';
import { breakMarkDue, clockBreak, clockSaidOtherSince, floorMayHoldUntil, type StationBreak } from './breaks';
import { HOLD_GRACE_MS } from './hold';
import { applyClockEvent, clockSchedule, foldClock, nextClockChange, type ClockEvent, type ClockSchedule } from './clock';

const MIN = 60_000;
const T0 = 1_800_000_000_000;
// Level 1 (20), level 2 (20), the break after 2 (10), level 3 (20), the break after 3 (10), level 4 (20).
const SCHEDULE = clockSchedule(
  readStructure({ chips: [25, 100, 500], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }, { break: 10 }, { sb: 200, bb: 400, minutes: 20 }] }),
);

/** Any structure of timed levels, some followed by a break. */
const schedules = fc
  .array(fc.record({ minutes: fc.integer({ min: 1, max: 30 }), breakAfter: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }) }), { minLength: 1, maxLength: 6 })
  .map((levels) =>
    clockSchedule(
      readStructure({
        chips: [25, 100, 500, 1000],
        levels: levels.flatMap((level, index) => [{ sb: 25 * (index + 1), bb: 50 * (index + 1), minutes: level.minutes }, ...(level.breakAfter === null || index === levels.length - 1 ? [] : [{ break: level.breakAfter }])]),
      }),
    ),
  );

/** What a dealer and a director do to a clock, each some time after the last: ms later, then the press (or only time passing). */
type Press = { readonly later: number; readonly press: 'pause' | 'resume' | 'adjust' | 'wait'; readonly by: number };
const presses = (back: boolean) =>
  fc.array(
    fc.record({
      later: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 * MIN })),
      press: fc.constantFrom<Press['press']>('pause', 'resume', 'adjust', 'wait'),
      by: back ? fc.integer({ min: -40 * MIN, max: 40 * MIN }).filter((by) => by !== 0) : fc.integer({ min: 1, max: 40 * MIN }),
    }),
    { maxLength: 25 },
  );

/** A station following its clock: the one timer (each period change) and every press followed at once, as the service does. */
class FollowingStation {
  readonly events: ClockEvent[] = [];
  private run = foldClock([], 0);
  readonly station: { current: number | null; markedAt: number | null; markedAfterEvents: number; marks: Map<number, number>; waitsForHold: boolean };
  readonly marked: { readonly afterLevel: number | null; readonly at: number }[] = [];

  /** `floor`: the clock is the floor's; `finished`: the breaks whose colour-up this station finished (as soon as it marked them). */
  constructor(
    private readonly schedule: ClockSchedule,
    private readonly floor = false,
    private readonly finished: ReadonlySet<number> = new Set(),
  ) {
    this.run = foldClock([], schedule.totalMs);
    this.station = { current: null, markedAt: null, markedAfterEvents: 0, marks: new Map(), waitsForHold: false };
  }

  /** The time the station has come to. */
  now = T0;

  press(event: ClockEvent): void {
    this.run = applyClockEvent(this.run, event, this.schedule.totalMs);
    this.events.push(event);
    this.follow(event.at);
  }

  /** Time passes to `until`: the timer fires at every period change on the way (and, on the floor's clock, where a hold can come no more). */
  wait(from: number, until: number): void {
    for (let next = this.timer(from); next !== null && next <= until; next = this.timer(next)) this.follow(next);
    this.follow(until);
  }

  private timer(now: number): number | null {
    const change = nextClockChange(this.schedule, this.events, now);
    const current = this.station.current;
    const hold = this.waits() && current !== null ? floorMayHoldUntil(this.schedule, this.events, now, current) : null;
    const at = Math.min(change ?? Infinity, hold ?? Infinity);
    return Number.isFinite(at) ? at : null;
  }

  /** Whether the station waits for the floor's hold of its break: on the floor's clock, not finished with it. */
  private waits(): boolean {
    const current = this.station.current;
    return this.floor && current !== null && !this.finished.has(current);
  }

  follow(now: number): void {
    this.now = now;
    this.station.waitsForHold = this.waits();
    const due = breakMarkDue(this.schedule, this.events, now, this.station);
    if (due !== null) this.mark(due.afterLevel, now);
  }

  mark(afterLevel: number | null, at: number): void {
    this.station.current = afterLevel;
    this.station.markedAt = at;
    this.station.markedAfterEvents = this.events.length;
    if (afterLevel !== null) this.station.marks.set(afterLevel, at);
    this.marked.push({ afterLevel, at });
  }

  /** Plays the presses from a start at T0; `each` is called after each with the time. */
  play(list: readonly Press[], each: (now: number) => void): void {
    this.press({ type: 'start', at: T0 });
    each(T0);
    for (const { later, press, by } of list) {
      const at = this.now + later;
      this.wait(this.now, at);
      if (press === 'pause' && this.run.running) this.press({ type: 'pause', at });
      else if (press === 'resume' && this.run.started && !this.run.running) this.press({ type: 'resume', at });
      else if (press === 'adjust') this.press({ type: 'adjust', at, by });
      else this.follow(at);
      each(at);
    }
  }
}

describe('the break the clock says', () => {
  it('is the break the clock is in, running or paused; none in a level, before the start, once finished', () => {
    const events: ClockEvent[] = [{ type: 'start', at: T0 }];
    expect(clockBreak(SCHEDULE, [], T0)).toBeNull();
    expect(clockBreak(SCHEDULE, events, T0 + 39 * MIN)).toBeNull();
    expect(clockBreak(SCHEDULE, events, T0 + 40 * MIN)).toBe(2);
    expect(clockBreak(SCHEDULE, events, T0 + 50 * MIN - 1)).toBe(2);
    expect(clockBreak(SCHEDULE, events, T0 + 50 * MIN)).toBeNull();
    expect(clockBreak(SCHEDULE, events, T0 + 75 * MIN)).toBe(3);
    expect(clockBreak(SCHEDULE, events, T0 + 500 * MIN)).toBeNull();
    expect(clockBreak(SCHEDULE, [...events, { type: 'pause', at: T0 + 45 * MIN }], T0 + 500 * MIN)).toBe(2);
  });

  it("is the held break: the floor's pause at the break's very end, and its `held` wherever the clock stands", () => {
    const held: ClockEvent[] = [{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 50 * MIN }];
    expect(clockBreak(SCHEDULE, held, T0 + 60 * MIN)).toBe(2);
    expect(clockBreak(SCHEDULE, [...held, { type: 'resume', at: T0 + 61 * MIN }], T0 + 61 * MIN + 1)).toBeNull();
    expect(clockBreak(SCHEDULE, [{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 50 * MIN + 5 }], T0 + 60 * MIN, 2)).toBe(2);
  });

  it('has said something else since a moment when the clock ran, was paused or was adjusted through another period', () => {
    const events: ClockEvent[] = [{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 45 * MIN }, { type: 'resume', at: T0 + 60 * MIN }, { type: 'adjust', at: T0 + 61 * MIN, by: 30 * MIN }];
    // In the break from its start; paused in it, the same; resumed, still in it.
    expect(clockSaidOtherSince(SCHEDULE, events, T0 + 41 * MIN, T0 + 60 * MIN)).toBe(false);
    expect(clockSaidOtherSince(SCHEDULE, events, T0 + 41 * MIN, T0 + 61 * MIN - 1)).toBe(false);
    // Adjusted 30 minutes on: the break after level 3 (passing level 3 on the way).
    expect(clockSaidOtherSince(SCHEDULE, events, T0 + 41 * MIN, T0 + 61 * MIN)).toBe(true);
    // Level 1 all through, then into level 2: levels say the same (no break).
    expect(clockSaidOtherSince(SCHEDULE, events, T0, T0 + 39 * MIN)).toBe(false);
    expect(clockSaidOtherSince(SCHEDULE, events, T0, T0 + 40 * MIN)).toBe(true);
    // A break run right through between two looks is seen.
    expect(clockSaidOtherSince(SCHEDULE, [{ type: 'start', at: T0 }], T0 + 30 * MIN, T0 + 55 * MIN)).toBe(true);
    // By the events' order: an adjust at the mark's very millisecond, after it, counts.
    const jumped: ClockEvent[] = [{ type: 'start', at: T0 }, { type: 'adjust', at: T0 + 45 * MIN, by: 10 * MIN }];
    expect(clockSaidOtherSince(SCHEDULE, jumped, T0 + 45 * MIN, T0 + 45 * MIN)).toBe(false);
    expect(clockSaidOtherSince(SCHEDULE, jumped, T0 + 45 * MIN, T0 + 45 * MIN, 1)).toBe(true);
  });
});

describe("a station's break follows its clock", () => {
  it('for any structure and any presses that never move the clock back: the break the station is on is exactly the clock’s, or none outside a break', () => {
    fc.assert(
      fc.property(schedules, presses(false), (schedule, list) => {
        const station = new FollowingStation(schedule);
        station.play(list, (now) => {
          expect(station.station.current).toBe(clockBreak(schedule, station.events, now));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('for any presses, the clock moved back too: the station is on the clock’s break or none, and never marks a break twice after the start', () => {
    fc.assert(
      fc.property(schedules, presses(true), (schedule, list) => {
        const station = new FollowingStation(schedule);
        station.play(list, (now) => {
          const current = station.station.current;
          expect(current === null || current === clockBreak(schedule, station.events, now)).toBe(true);
        });
        const breaks = station.marked.map((mark) => mark.afterLevel).filter((level) => level !== null);
        expect(new Set(breaks).size).toBe(breaks.length);
      }),
      { numRuns: 300 },
    );
  });

  it('a mark by hand stands until the clock says something else than it said then', () => {
    fc.assert(
      fc.property(schedules, presses(true), fc.nat(), fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }), (schedule, list, cut, hand) => {
        const station = new FollowingStation(schedule);
        const at = Math.min(cut, list.length);
        station.play(list.slice(0, at), () => undefined);
        station.mark(hand, station.now);
        station.follow(station.now);
        expect(station.station.current).toBe(hand);
      }),
      { numRuns: 200 },
    );
  });

  it('the evening: break 1 marked and left, break 2 marked, each once; a hand mark of play inside a break is kept there', () => {
    const station = new FollowingStation(SCHEDULE);
    station.play([{ later: 41 * MIN, press: 'wait', by: 1 }], () => undefined);
    expect(station.marked).toEqual([{ afterLevel: 2, at: T0 + 40 * MIN }]);
    station.wait(station.now, T0 + 100 * MIN);
    expect(station.marked.map((mark) => [mark.afterLevel, (mark.at - T0) / MIN])).toEqual([[2, 40], [null, 50], [3, 70], [null, 80]]);
    const resumed = new FollowingStation(SCHEDULE);
    resumed.play([{ later: 41 * MIN, press: 'wait', by: 1 }], () => undefined);
    resumed.mark(null, T0 + 42 * MIN);
    resumed.wait(T0 + 42 * MIN, T0 + 49 * MIN);
    expect(resumed.station.current).toBeNull();
    resumed.wait(T0 + 49 * MIN, T0 + 71 * MIN);
    expect(resumed.station.current).toBe(3);
    // Held at the break's end by the floor (a pause dated there): the station stays on the break.
    const held = new FollowingStation(SCHEDULE);
    held.play([{ later: 41 * MIN, press: 'wait', by: 1 }], () => undefined);
    held.wait(T0 + 41 * MIN, T0 + 50 * MIN - 1);
    held.press({ type: 'pause', at: T0 + 50 * MIN });
    held.wait(T0 + 50 * MIN, T0 + 55 * MIN);
    expect(held.station.current).toBe(2);
    held.press({ type: 'resume', at: T0 + 55 * MIN });
    held.wait(T0 + 55 * MIN, T0 + 55 * MIN + 1);
    expect(held.station.current).toBeNull();
  });

  it('nothing is due before the start; a station given the held break follows the floor’s `held`', () => {
    const none: StationBreak = { current: null, markedAt: null, marks: new Map() };
    expect(breakMarkDue(SCHEDULE, [], T0, none)).toBeNull();
    expect(breakMarkDue(SCHEDULE, [{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 50 * MIN + 3 }], T0 + 52 * MIN, none, 2)).toEqual({ afterLevel: 2 });
    expect(breakMarkDue(SCHEDULE, [{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 50 * MIN + 3 }], T0 + 52 * MIN, { current: 2, markedAt: T0 + 40 * MIN, marks: new Map([[2, T0 + 40 * MIN]]) }, 2)).toBeNull();
  });
});

describe("a station on the floor's clock not finished with its break leaves it only once the floor can no longer hold it; a finished one with the clock", () => {
  const onBreak: StationBreak = { current: 2, markedAt: T0 + 40 * MIN, marks: new Map([[2, T0 + 40 * MIN]]), waitsForHold: true };
  const running: ClockEvent[] = [{ type: 'start', at: T0 }];

  it('within the grace after the break’s end it stays (the timer set for the grace’s end); past it, play', () => {
    expect(floorMayHoldUntil(SCHEDULE, running, T0 + 50 * MIN - 1, 2)).toBeNull();
    expect(floorMayHoldUntil(SCHEDULE, running, T0 + 50 * MIN, 2)).toBe(T0 + 50 * MIN + HOLD_GRACE_MS + 1);
    expect(breakMarkDue(SCHEDULE, running, T0 + 50 * MIN + HOLD_GRACE_MS, onBreak)).toBeNull();
    expect(breakMarkDue(SCHEDULE, running, T0 + 50 * MIN + HOLD_GRACE_MS + 1, onBreak)).toEqual({ afterLevel: null });
    // Finished with the break (the floor remembers it so), or on its own clock (held by no floor): play at the end.
    expect(breakMarkDue(SCHEDULE, running, T0 + 50 * MIN, { ...onBreak, waitsForHold: false })).toEqual({ afterLevel: null });
    // Stood still within the grace (the director's pause): a resume may bring the hold.
    expect(floorMayHoldUntil(SCHEDULE, [...running, { type: 'pause', at: T0 + 50 * MIN + 5 }], T0 + 60 * MIN, 2)).toBe(Number.POSITIVE_INFINITY);
  });

  it('a hold let go (the clock stood at the break’s very end, then resumed) leaves at once; a director’s move past the grace too', () => {
    const released: ClockEvent[] = [...running, { type: 'pause', at: T0 + 50 * MIN }, { type: 'resume', at: T0 + 53 * MIN }];
    expect(floorMayHoldUntil(SCHEDULE, released, T0 + 53 * MIN + 1, 2)).toBeNull();
    expect(breakMarkDue(SCHEDULE, released, T0 + 53 * MIN + 1, onBreak)).toEqual({ afterLevel: null });
    const moved: ClockEvent[] = [...running, { type: 'adjust', at: T0 + 45 * MIN, by: 6 * MIN + 1 }];
    expect(breakMarkDue(SCHEDULE, moved, T0 + 45 * MIN, onBreak)).toEqual({ afterLevel: null });
  });

  it('for any presses on the floor’s clock, the station is on the clock’s break, or on one just ended it has not finished while the floor may hold it', () => {
    fc.assert(
      fc.property(schedules, presses(false), fc.uniqueArray(fc.integer({ min: 1, max: 6 })), (schedule, list, finished) => {
        const station = new FollowingStation(schedule, true, new Set(finished));
        station.play(list, (now) => {
          const current = station.station.current;
          const said = clockBreak(schedule, station.events, now);
          expect(current === said || (current !== null && !finished.includes(current) && floorMayHoldUntil(schedule, station.events, now, current) !== null)).toBe(true);
        });
      }),
      { numRuns: 200 },
    );
  });
});

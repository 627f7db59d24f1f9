import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectSaid } from '../messages/testing';
import { readStructure } from '../plan/structure';
import { refusal } from '../testing';
import { CLOCK_ADJUST_MAX_MS, CLOCK_EVENTS_MAX, clockSchedule, compactClock, foldClock, nextClockChange, readClock, readClockEvent, readClockEvents, type ClockEvent, type ClockSchedule } from './clock';

const MIN = 60_000;
const T0 = Date.UTC(2026, 11, 1, 19, 0);
/** Level 1 20 min, level 2 20 min, a 10-minute break, level 3 30 min, a 15-minute break. */
const STRUCTURE = readStructure({
  chips: [25, 100, 500],
  levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 30 }, { break: 15 }],
});
const SCHEDULE = clockSchedule(STRUCTURE);

describe('the schedule', () => {
  it('lays the levels and breaks end to end, in playing order', () => {
    expect(SCHEDULE).toEqual({
      periods: [
        { kind: 'level', level: 1, startMs: 0, ms: 20 * MIN },
        { kind: 'level', level: 2, startMs: 20 * MIN, ms: 20 * MIN },
        { kind: 'break', afterLevel: 2, startMs: 40 * MIN, ms: 10 * MIN },
        { kind: 'level', level: 3, startMs: 50 * MIN, ms: 30 * MIN },
        { kind: 'break', afterLevel: 3, startMs: 80 * MIN, ms: 15 * MIN },
      ],
      totalMs: 95 * MIN,
    });
  });

  it('a structure saved before levels had minutes still reads, its levels untimed', () => {
    expect(readStructure({ chips: [25], levels: [{ sb: 25, bb: 50 }, { break: 5 }, { sb: 50, bb: 100, ante: 25, minutes: 15 }] }).levels.map((level) => level.minutes)).toEqual([null, 15]);
  });

  it('refuses a structure with a level that has no minutes, naming it', () => {
    const error = refusal(() => clockSchedule(readStructure({ chips: [25], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100 }] })));
    expect(error.field).toBe('levels[1].minutes');
    expect(error.reason).toBe('level 2 has no length in minutes: give every level its minutes in the structure to run the clock');
    expectSaid(error);
  });
});

describe('reading the clock', () => {
  it('before the start: idle at the first level, its whole length left', () => {
    expect(readClock(SCHEDULE, [], T0)).toEqual({ status: 'idle', elapsedMs: 0, period: SCHEDULE.periods[0], msLeft: 20 * MIN, nextBreak: { afterLevel: 2, msTo: 40 * MIN } });
  });

  it('runs from its start, pauses, resumes, and is adjusted', () => {
    const events: ClockEvent[] = [{ type: 'start', at: T0 }];
    expect(readClock(SCHEDULE, events, T0 + 5 * MIN)).toMatchObject({ status: 'running', elapsedMs: 5 * MIN, period: { kind: 'level', level: 1 }, msLeft: 15 * MIN, nextBreak: { afterLevel: 2, msTo: 35 * MIN } });
    events.push({ type: 'pause', at: T0 + 10 * MIN });
    expect(readClock(SCHEDULE, events, T0 + 60 * MIN)).toMatchObject({ status: 'paused', elapsedMs: 10 * MIN, msLeft: 10 * MIN });
    events.push({ type: 'resume', at: T0 + 60 * MIN }, { type: 'adjust', at: T0 + 61 * MIN, by: 25 * MIN });
    // 11 minutes run, 25 added: 36 minutes in, level 2 with 4 left.
    expect(readClock(SCHEDULE, events, T0 + 61 * MIN)).toMatchObject({ status: 'running', elapsedMs: 36 * MIN, period: { kind: 'level', level: 2 }, msLeft: 4 * MIN, nextBreak: { afterLevel: 2, msTo: 4 * MIN } });
    // In the break after level 2: the next break is the one after level 3.
    expect(readClock(SCHEDULE, events, T0 + 65 * MIN)).toMatchObject({ period: { kind: 'break', afterLevel: 2 }, msLeft: 10 * MIN, nextBreak: { afterLevel: 3, msTo: 40 * MIN } });
    expect(nextClockChange(SCHEDULE, events, T0 + 65 * MIN)).toBe(T0 + 75 * MIN);
  });

  it('is finished at the end of the schedule, and an adjust back runs it again', () => {
    const events: ClockEvent[] = [{ type: 'start', at: T0 }];
    expect(readClock(SCHEDULE, events, T0 + 200 * MIN)).toEqual({ status: 'finished', elapsedMs: 95 * MIN, period: null, msLeft: 0, nextBreak: null });
    expect(nextClockChange(SCHEDULE, events, T0 + 200 * MIN)).toBeNull();
    events.push({ type: 'adjust', at: T0 + 200 * MIN, by: -20 * MIN });
    expect(readClock(SCHEDULE, events, T0 + 200 * MIN)).toMatchObject({ status: 'running', elapsedMs: 75 * MIN, period: { kind: 'level', level: 3 } });
  });

  it('an adjust back before the start holds at the start', () => {
    const events: ClockEvent[] = [{ type: 'start', at: T0 }, { type: 'adjust', at: T0 + MIN, by: -10 * MIN }];
    expect(readClock(SCHEDULE, events, T0 + MIN).elapsedMs).toBe(0);
    expect(readClock(SCHEDULE, events, T0 + 3 * MIN).elapsedMs).toBe(2 * MIN);
  });

  it.each([
    ['a start twice', [{ type: 'start', at: T0 }, { type: 'start', at: T0 + 1 }], 'events[1]', 'the clock is already running: pause it or adjust it instead'],
    ['a pause before the start', [{ type: 'pause', at: T0 }], 'events[0]', 'the clock has not been started: start it first'],
    ['a resume before the start', [{ type: 'resume', at: T0 }], 'events[0]', 'the clock has not been started: start it first'],
    ['an adjust before the start', [{ type: 'adjust', at: T0, by: MIN }], 'events[0]', 'the clock has not been started: start it first'],
    ['a pause when paused', [{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 1 }, { type: 'pause', at: T0 + 2 }], 'events[2]', 'the clock is already paused'],
    ['a resume when running', [{ type: 'start', at: T0 }, { type: 'resume', at: T0 + 1 }], 'events[1]', 'the clock is running, not paused'],
    ['an event before the one before it', [{ type: 'start', at: T0 }, { type: 'pause', at: T0 - 1 }], 'events[1].at', "an event cannot come before the one before it: the clock's events are in time order"],
  ] as [string, ClockEvent[], string, string][])('refuses %s', (_name, events, field, reason) => {
    const error = refusal(() => readClock(SCHEDULE, events, T0 + MIN));
    expect([error.field, error.reason]).toEqual([field, reason]);
    expectSaid(error);
  });
});

describe('reading clock events refuses a malformed one by field', () => {
  it.each([
    ['not an object', 'start', 'event', /^a clock event must be an object like/],
    ['an unknown type', { type: 'stop', at: T0 }, 'event.type', /^a clock event is start, pause, resume or adjust \(got "stop"\)$/],
    ['no type', { at: T0 }, 'event.type', /\(got nothing\)$/],
    ['a time that is text', { type: 'start', at: '2026-12-01' }, 'event.at', /^must be a time in milliseconds since 1970/],
    ['a negative time', { type: 'start', at: -1 }, 'event.at', /got -1/],
    ['a fractional time', { type: 'pause', at: 1.5 }, 'event.at', /got 1.5/],
    ['a time beyond any date', { type: 'pause', at: Number.MAX_SAFE_INTEGER }, 'event.at', /milliseconds since 1970/],
    ['an adjust of nothing', { type: 'adjust', at: T0 }, 'event.by', /from -36000000 to 36000000, not 0 \(got nothing\)$/],
    ['an adjust of 0', { type: 'adjust', at: T0, by: 0 }, 'event.by', /not 0 \(got 0\)$/],
    ['an adjust too far', { type: 'adjust', at: T0, by: CLOCK_ADJUST_MAX_MS + 1 }, 'event.by', /got 36000001/],
    ['an adjust too far back', { type: 'adjust', at: T0, by: -CLOCK_ADJUST_MAX_MS - 1 }, 'event.by', /got -36000001/],
    ['a pause with a by', { type: 'pause', at: T0, by: 5 }, 'event.by', /^"by" is not part of a pause event$/],
    ['a key of its own', { type: 'start', at: T0, note: 'x'.repeat(10_000) }, 'event.note', /^"note" is not part of a start event$/],
  ])('%s', (_name, value, field, reason) => {
    const error = refusal(() => readClockEvent(value));
    expect(error.field).toBe(field);
    expect(error.reason).toMatch(reason);
    expectSaid(error);
  });

  it('a list: not a list, too long, and the field of the bad one', () => {
    expect(refusal(() => readClockEvents({})).reason).toMatch(/^must be a list of clock events/);
    expect(refusal(() => readClockEvents(Array.from({ length: 5001 }, () => ({ type: 'start', at: T0 })))).reason).toBe('at most 5000 clock events (got 5001)');
    expect(refusal(() => readClockEvents([{ type: 'start', at: T0 }, { type: 'pause' }])).field).toBe('events[1].at');
    expect(readClockEvents([{ type: 'start', at: T0 }, { type: 'adjust', at: T0, by: -MIN }])).toEqual([{ type: 'start', at: T0 }, { type: 'adjust', at: T0, by: -MIN }]);
  });
});

/** Schedules of 1 to 12 levels of 1 to 90 minutes, breaks of 1 to 30 between some. */
const schedules: fc.Arbitrary<ClockSchedule> = fc
  .array(fc.record({ minutes: fc.integer({ min: 1, max: 90 }), breakAfter: fc.option(fc.integer({ min: 1, max: 30 })) }), { minLength: 1, maxLength: 12 })
  .map((levels) => clockSchedule(readStructure({ chips: [25], levels: levels.flatMap(({ minutes, breakAfter }) => [{ sb: 25, bb: 50, minutes }, ...(breakAfter === null ? [] : [{ break: breakAfter }])]) })));

interface Step {
  readonly gap: number;
  readonly adjust: boolean;
  readonly by: number;
}
const steps: fc.Arbitrary<Step[]> = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 40 * MIN }), adjust: fc.boolean(), by: fc.integer({ min: -30 * MIN, max: 30 * MIN }).filter((by) => by !== 0) }), { maxLength: 20 });

/** Legal next events after `from` (a clock running or not), at non-decreasing times. */
function continued(from: number, running: boolean, next: readonly Step[]): ClockEvent[] {
  const events: ClockEvent[] = [];
  let at = from;
  let runs = running;
  for (const step of next) {
    at += step.gap;
    if (step.adjust) events.push({ type: 'adjust', at, by: step.by });
    else {
      events.push({ type: runs ? 'pause' : 'resume', at });
      runs = !runs;
    }
  }
  return events;
}

/** A valid run of events from T0: each a legal next step, at non-decreasing times. */
const histories: fc.Arbitrary<ClockEvent[]> = steps.map((next) => [{ type: 'start', at: T0 }, ...continued(T0, true, next)]);

const lastAt = (events: readonly ClockEvent[]) => events.at(-1)?.at ?? T0;

describe('clock properties', () => {
  it('the periods tile the schedule: no gap, no overlap, from 0 to the total', () => {
    fc.assert(fc.property(schedules, (schedule) => {
      let end = 0;
      for (const period of schedule.periods) {
        expect(period.startMs).toBe(end);
        expect(period.ms).toBeGreaterThan(0);
        end = period.startMs + period.ms;
      }
      expect(end).toBe(schedule.totalMs);
    }));
  });

  it('every moment of the schedule is in exactly one period, and the time left reaches its end', () => {
    fc.assert(fc.property(schedules, fc.double({ min: 0, max: 1, noNaN: true }), (schedule, share) => {
      const elapsed = Math.min(schedule.totalMs - 1, Math.floor(share * schedule.totalMs));
      const reading = readClock(schedule, [{ type: 'start', at: T0 }], T0 + elapsed);
      const holding = schedule.periods.filter((period) => elapsed >= period.startMs && elapsed < period.startMs + period.ms);
      expect(holding).toEqual([reading.period]);
      expect(reading.elapsedMs + reading.msLeft).toBe((reading.period?.startMs ?? 0) + (reading.period?.ms ?? 0));
    }));
  });

  it('paused time does not advance the clock', () => {
    fc.assert(fc.property(schedules, histories, fc.integer({ min: 0, max: 10 * 60 * MIN }), (schedule, history, wait) => {
      const at = lastAt(history);
      const paused = foldClock(history, schedule.totalMs).running ? [...history, { type: 'pause', at } as const] : history;
      expect(readClock(schedule, paused, at + wait)).toEqual(readClock(schedule, paused, at));
    }));
  });

  it('running time advances it one for one, up to the end', () => {
    fc.assert(fc.property(schedules, histories, fc.integer({ min: 0, max: 10 * 60 * MIN }), (schedule, history, wait) => {
      const at = lastAt(history);
      const running = foldClock(history, schedule.totalMs).running ? history : [...history, { type: 'resume', at } as const];
      const before = readClock(schedule, running, at).elapsedMs;
      expect(readClock(schedule, running, at + wait).elapsedMs).toBe(Math.min(schedule.totalMs, before + wait));
    }));
  });

  it('an adjust shifts the clock by exactly `by` (within the schedule)', () => {
    fc.assert(fc.property(schedules, histories, fc.integer({ min: -CLOCK_ADJUST_MAX_MS, max: CLOCK_ADJUST_MAX_MS }).filter((by) => by !== 0), (schedule, history, by) => {
      const at = lastAt(history);
      const before = readClock(schedule, history, at).elapsedMs;
      const after = readClock(schedule, [...history, { type: 'adjust', at, by }], at).elapsedMs;
      expect(after).toBe(Math.max(0, Math.min(schedule.totalMs, before + by)));
      if (before + by >= 0 && before + by <= schedule.totalMs) expect(after - before).toBe(by);
    }));
  });

  it('refuses events out of order: a pause when paused, a resume when running, a start twice', () => {
    fc.assert(fc.property(schedules, histories, (schedule, history) => {
      const at = lastAt(history);
      const { running } = foldClock(history, schedule.totalMs);
      const wrong: ClockEvent = running ? { type: 'resume', at } : { type: 'pause', at };
      expect(refusal(() => readClock(schedule, [...history, wrong], at)).said?.key).toBe(running ? 'clock.order.running' : 'clock.order.paused');
      expect(refusal(() => readClock(schedule, [...history, { type: 'start', at }], at)).said?.key).toBe('clock.order.started');
    }));
  });

  it('the clock time stays within the schedule, finished exactly at its end', () => {
    fc.assert(fc.property(schedules, histories, (schedule, history) => {
      const reading = readClock(schedule, history, lastAt(history));
      expect(reading.elapsedMs).toBeGreaterThanOrEqual(0);
      expect(reading.elapsedMs).toBeLessThanOrEqual(schedule.totalMs);
      expect(reading.status === 'finished').toBe(reading.elapsedMs === schedule.totalMs);
    }));
  });
});

describe('compacting the history', () => {
  /** Moments from `from` on: at it, within the schedule, and long after it. */
  const momentsFrom = (from: number, schedule: ClockSchedule) => [from, from + 1, from + MIN, from + Math.floor(schedule.totalMs / 3), from + schedule.totalMs, from + 3 * schedule.totalMs];

  it('reads exactly as the whole history at every moment from the compaction on, and goes on alike', () => {
    fc.assert(
      fc.property(schedules, histories, fc.integer({ min: 0, max: 20 * 60 * MIN }), steps, (schedule, history, wait, next) => {
        const at = lastAt(history) + wait;
        const compacted = compactClock(history, schedule.totalMs, at);
        for (const t of momentsFrom(at, schedule)) expect(readClock(schedule, compacted, t)).toEqual(readClock(schedule, history, t));
        // The same presses after it: the same clock, and the same refusals.
        const { running } = foldClock(history, schedule.totalMs);
        const more = continued(at, running, next);
        const end = more.at(-1)?.at ?? at;
        for (const t of momentsFrom(end, schedule)) expect(readClock(schedule, [...compacted, ...more], t)).toEqual(readClock(schedule, [...history, ...more], t));
        const stillRunning = foldClock([...history, ...more], schedule.totalMs).running;
        const wrong: ClockEvent = stillRunning ? { type: 'resume', at: end } : { type: 'pause', at: end };
        expect(refusal(() => foldClock([...compacted, ...more, wrong], schedule.totalMs)).said?.key).toBe(refusal(() => foldClock([...history, ...more, wrong], schedule.totalMs)).said?.key);
        // Short, its start kept, and every event one the clock reads.
        expect(compacted.length).toBeLessThanOrEqual(2 + Math.ceil(schedule.totalMs / CLOCK_ADJUST_MAX_MS));
        expect(compacted[0]).toEqual(history[0]);
        expect(readClockEvents(compacted)).toEqual(compacted);
      }),
      { numRuns: 500 },
    );
  });

  it('a clock never started is left as it is', () => {
    expect(compactClock([], SCHEDULE.totalMs, T0)).toEqual([]);
  });

  it('5,000 presses of ±1 min then a pause: a few events, reading as the presses did', () => {
    const presses: ClockEvent[] = [{ type: 'start', at: T0 }];
    for (let press = 1; press <= 5000; press += 1) presses.push({ type: 'adjust', at: T0 + press * 10, by: press % 2 === 1 ? MIN : -MIN });
    const at = T0 + 5000 * 10;
    const compacted = compactClock(presses, SCHEDULE.totalMs, at);
    expect(compacted).toEqual([{ type: 'start', at: T0 }]);
    expect(readClockEvents([...compacted, { type: 'pause', at }])).toHaveLength(2);
    expect(readClock(SCHEDULE, [...compacted, { type: 'pause', at }], at + 60 * MIN)).toEqual(readClock(SCHEDULE, [...presses, { type: 'pause', at }], at + 60 * MIN));
    expect(presses.length + 1).toBeGreaterThan(CLOCK_EVENTS_MAX);
  });

  it('a pause overnight (longer than the longest adjust) is kept in as many adjusts as it takes', () => {
    // Twelve hours of levels, paused 22 hours after 30 minutes: 11 h 25 min behind the wall clock at `at`.
    const festival = clockSchedule(readStructure({ chips: [25], levels: Array.from({ length: 12 }, () => ({ sb: 25, bb: 50, minutes: 60 })) }));
    const night: ClockEvent[] = [{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 30 * MIN }, { type: 'resume', at: T0 + 30 * MIN + 22 * 60 * MIN }];
    const at = T0 + 35 * MIN + 22 * 60 * MIN;
    const compacted = compactClock(night, festival.totalMs, at);
    expect(compacted).toEqual([{ type: 'start', at: T0 }, { type: 'adjust', at, by: -CLOCK_ADJUST_MAX_MS }, { type: 'adjust', at, by: -(festival.totalMs - 35 * MIN - CLOCK_ADJUST_MAX_MS) }]);
    expect(readClock(festival, compacted, at)).toMatchObject({ status: 'running', elapsedMs: 35 * MIN, msLeft: 25 * MIN });
    expect(readClock(festival, compacted, at + 90 * MIN)).toEqual(readClock(festival, night, at + 90 * MIN));
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockSchedule, readClock, type ClockEvent } from '../../engine/clock/clock';
import type { StructureInput } from '../../engine/plan/csv';
import { planColorUps } from '../../engine/plan/planner';
import { countdownText, ringsBetween, roomClockReading } from './clockReading';

const MIN = 60_000;
const T0 = 1_764_547_200_000;

/** Levels 1–4 of 20 minutes, a 10-minute break after level 2 where the 25s leave, then levels 3–4. */
const STRUCTURE: StructureInput = {
  chips: [25, 100, 500],
  levels: [
    { sb: 25, bb: 50, minutes: 20 },
    { sb: 50, bb: 100, minutes: 20 },
    { break: 10 },
    { sb: 100, bb: 200, ante: 200, minutes: 20 },
    { sb: 200, bb: 400, ante: 400, minutes: 20 },
  ],
};

function inputs(structure: StructureInput) {
  const plan = planColorUps(structure);
  return { schedule: clockSchedule(plan.structure), levels: plan.structure.levels, colorUps: plan.colorUps };
}

describe("the room's clock reading", () => {
  const { schedule, levels, colorUps } = inputs(STRUCTURE);
  const started: ClockEvent[] = [{ type: 'start', at: T0 }];
  const at = (ms: number) => roomClockReading(schedule, started, levels, colorUps, T0 + ms);

  it('in a level: its blinds, the next level’s, the time to the break and the chips leaving at it', () => {
    expect(at(5 * MIN)).toEqual({
      status: 'running',
      period: { kind: 'level', level: 1 },
      msLeft: 15 * MIN,
      now: { level: 1, sb: 25, bb: 50, ante: null },
      next: { level: 2, sb: 50, bb: 100, ante: null },
      msToBreak: 35 * MIN,
      breakAfter: 2,
      leaving: [25],
      periodKey: '0:level',
    });
  });

  it('on the break: no level played, the level after it next, its own colour-up', () => {
    const reading = at(45 * MIN);
    expect(reading).toMatchObject({ period: { kind: 'break', afterLevel: 2 }, msLeft: 5 * MIN, now: null, next: { level: 3, ante: 200 }, msToBreak: null, breakAfter: 2, leaving: [25] });
  });

  it('after the last break: no break to come, nothing leaving; finished at the end', () => {
    expect(at(55 * MIN)).toMatchObject({ now: { level: 3 }, next: { level: 4 }, msToBreak: null, breakAfter: null, leaving: [] });
    expect(at(75 * MIN)).toMatchObject({ now: { level: 4 }, next: null });
    expect(at(200 * MIN)).toMatchObject({ status: 'finished', period: null, now: null, next: null, periodKey: 'finished' });
  });

  it('before the start the first level is shown, idle, and rings for nothing', () => {
    const idle = roomClockReading(schedule, [], levels, colorUps, T0);
    expect(idle).toMatchObject({ status: 'idle', now: { level: 1 }, periodKey: '' });
    expect(ringsBetween(idle, at(0))).toBe(false);
  });

  it('shows no clock for events out of order', () => {
    expect(roomClockReading(schedule, [{ type: 'pause', at: T0 }], levels, colorUps, T0)).toBeNull();
  });

  it('rings at a level or break change, never within a period', () => {
    expect(ringsBetween(at(19 * MIN), at(21 * MIN))).toBe(true);
    expect(ringsBetween(at(39 * MIN), at(41 * MIN))).toBe(true);
    expect(ringsBetween(at(41 * MIN), at(49 * MIN))).toBe(false);
    expect(ringsBetween(null, at(41 * MIN))).toBe(false);
  });

  it('writes a countdown as minutes and seconds, hours when past one', () => {
    expect(countdownText(15 * MIN)).toBe('15:00');
    expect(countdownText(999)).toBe('0:01');
    expect(countdownText(0)).toBe('0:00');
    expect(countdownText(75 * MIN + 1000)).toBe('1:15:01');
  });
});

/** A structure of 2–8 levels, each 1–30 minutes, with breaks after some of them. */
const structures = fc
  .array(fc.record({ minutes: fc.integer({ min: 1, max: 30 }), breakAfter: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }) }), { minLength: 2, maxLength: 8 })
  .map((rows): StructureInput => ({
    chips: [25, 100, 500],
    levels: rows.flatMap((row, index) => {
      const level = { sb: 25 * 2 ** index, bb: 50 * 2 ** index, minutes: row.minutes };
      return row.breakAfter === null ? [level] : [level, { break: row.breakAfter }];
    }),
  }));

describe("the room's clock reading, for any structure and moment", () => {
  it('agrees with the engine’s reading, the structure’s blinds and the plan’s colour-ups', () => {
    fc.assert(
      fc.property(structures, fc.integer({ min: 0, max: 400 * MIN }), fc.integer({ min: 1, max: 5 * MIN }), (structure, ms, step) => {
        const { schedule, levels, colorUps } = inputs(structure);
        const events: ClockEvent[] = [{ type: 'start', at: T0 }];
        const reading = roomClockReading(schedule, events, levels, colorUps, T0 + ms);
        const engine = readClock(schedule, events, T0 + ms);
        expect(reading).not.toBeNull();
        if (reading === null) return;
        expect(reading.status).toBe(engine.status);
        expect(reading.msLeft).toBe(engine.msLeft);
        const period = engine.period;
        if (period === null) {
          expect(reading.now).toBeNull();
          expect(reading.next).toBeNull();
        } else if (period.kind === 'level') {
          const level = levels.find((entry) => entry.level === period.level);
          expect(reading.now).toEqual({ level: period.level, sb: level?.sb, bb: level?.bb, ante: level?.ante });
          expect(reading.next?.level ?? null).toBe(period.level < levels.length ? period.level + 1 : null);
          expect(reading.msToBreak).toBe(engine.nextBreak?.msTo ?? null);
          if (reading.msToBreak !== null) expect(reading.msToBreak).toBeGreaterThanOrEqual(reading.msLeft);
        } else {
          expect(reading.now).toBeNull();
          expect(reading.breakAfter).toBe(period.afterLevel);
          expect(reading.next?.level ?? null).toBe(period.afterLevel < levels.length ? period.afterLevel + 1 : null);
        }
        const planned = colorUps.find((entry) => entry.afterLevel === reading.breakAfter);
        expect(reading.leaving).toEqual(planned === undefined ? [] : [...planned.remove].sort((a, b) => a - b));
        // It rings exactly when a later reading is in another period (the engine's).
        const later = roomClockReading(schedule, events, levels, colorUps, T0 + ms + step);
        const after = readClock(schedule, events, T0 + ms + step);
        const moved = (engine.period?.startMs ?? -1) !== (after.period?.startMs ?? -1);
        expect(ringsBetween(reading, later)).toBe(moved);
      }),
      { numRuns: 300 },
    );
  });
});

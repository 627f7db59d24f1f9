import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockSchedule, readClock, type ClockEvent } from './clock';
import { readStructure } from '../plan/structure';
import { HOLD_GRACE_MS, holdPause } from './hold';

const MIN = 60_000;
// Level 1 (20), level 2 (20), the break after 2 (10), level 3 (20), the break after 3 (10), level 4 (20).
const schedule = clockSchedule(
  readStructure({ chips: [25, 100, 500], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }, { break: 10 }, { sb: 200, bb: 400, minutes: 20 }] }),
);
const BREAK_END = 50 * MIN;
const T0 = 1_800_000_000_000;

describe('the held break', () => {
  it('pauses the clock at the break’s end to the millisecond, however late the floor looks (within the grace)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: HOLD_GRACE_MS }), fc.integer({ min: -MIN, max: 5 * MIN }), (late, adjust) => {
        const events: ClockEvent[] = [{ type: 'start', at: T0 }, ...(adjust === 0 ? [] : [{ type: 'adjust' as const, at: T0 + MIN, by: adjust }])];
        const now = T0 + BREAK_END - adjust + late;
        const hold = holdPause(schedule, events, now, [2], new Set());
        expect(hold?.afterLevel).toBe(2);
        const held = [...events, hold?.event as ClockEvent];
        const reading = readClock(schedule, held, now + 10 * MIN);
        expect(reading).toMatchObject({ status: 'paused', elapsedMs: BREAK_END, period: { kind: 'level', level: 3 } });
      }),
    );
  });

  it('holds nothing before the break’s end, past the grace, once released, for a break without a colour-up, or a clock standing', () => {
    const events: ClockEvent[] = [{ type: 'start', at: T0 }];
    expect(holdPause(schedule, events, T0 + BREAK_END - 1, [2], new Set())).toBeNull();
    expect(holdPause(schedule, events, T0 + BREAK_END + HOLD_GRACE_MS + 1, [2], new Set())).toBeNull();
    expect(holdPause(schedule, events, T0 + BREAK_END, [2], new Set([2]))).toBeNull();
    expect(holdPause(schedule, events, T0 + BREAK_END, [3], new Set())).toBeNull();
    expect(holdPause(schedule, [...events, { type: 'pause', at: T0 + BREAK_END - 5 }], T0 + BREAK_END + 5, [2], new Set())).toBeNull();
    expect(holdPause(schedule, [], T0, [2], new Set())).toBeNull();
    // The break after level 3 ends at 80 minutes.
    expect(holdPause(schedule, events, T0 + 80 * MIN + 7, [2, 3], new Set([2]))).toEqual({ afterLevel: 3, event: { type: 'pause', at: T0 + 80 * MIN } });
  });
});

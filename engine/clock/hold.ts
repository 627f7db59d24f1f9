import { readClock, type ClockEvent, type ClockSchedule } from './clock';

/**
 * The held break: with the option on, the floor's clock does not start the level after a break
 * with a colour-up until every table has confirmed it. The floor holds it by pausing the clock at
 * the break's end, to the millisecond (the pause is dated when the clock passed it, so however late
 * the floor looks, the clock reads paused at 0:00 left in the break), and resumes it when the last
 * table is done or the director overrides. Pure: the clock's events and time in, the event out.
 */

/** How long after a break's end the floor still holds it: a clock already this far into the next level (the floor down meanwhile) plays on. */
export const HOLD_GRACE_MS = 60_000;

/**
 * The pause that holds the clock at the end of a break after one of `holdable` levels (the breaks
 * with a colour-up), not yet `released`, when the running clock has reached that end at `now` and
 * is at most `graceMs` past it; null otherwise.
 */
export function holdPause(
  schedule: ClockSchedule,
  events: readonly ClockEvent[],
  now: number,
  holdable: readonly number[],
  released: ReadonlySet<number>,
  graceMs = HOLD_GRACE_MS,
): { readonly afterLevel: number; readonly event: ClockEvent } | null {
  const reading = readClock(schedule, events, now);
  if (reading.status !== 'running' && reading.status !== 'finished') return null;
  for (const period of schedule.periods) {
    if (period.kind !== 'break' || !holdable.includes(period.afterLevel) || released.has(period.afterLevel)) continue;
    const end = period.startMs + period.ms;
    const past = reading.elapsedMs - end;
    if (past < 0 || past > graceMs) continue;
    const last = events.at(-1)?.at ?? now;
    // Dated when the clock passed the break's end (never before the last event: then it holds a little later).
    return { afterLevel: period.afterLevel, event: { type: 'pause', at: Math.max(last, now - past) } };
  }
  return null;
}

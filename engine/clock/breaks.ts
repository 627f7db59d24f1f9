import { applyClockEvent, clockTimeAt, foldClock, type ClockEvent, type ClockRun, type ClockSchedule } from './clock';
import { HOLD_GRACE_MS } from './hold';

/**
 * Which break the clock says the tournament is on, and when a station's "this break" must follow
 * it. A break is named by the level it follows. The clock says a break while it is in it (running
 * or paused), and while it stands at the very end of one (the floor's hold pauses it there, to the
 * millisecond); in a level, before its start or once finished it says none. Pure: the clock's
 * events and the caller's time in.
 */

/** What the clock says at clock time `ms`: the break it is in, or null (a level, or finished); standing still at a break's very end, that break. */
function sayOf(schedule: ClockSchedule, ms: number, standing: boolean): number | null {
  if (standing) {
    const ended = schedule.periods.find((period) => period.kind === 'break' && period.startMs + period.ms === ms);
    if (ended?.kind === 'break') return ended.afterLevel;
  }
  if (ms >= schedule.totalMs) return null;
  const period = schedule.periods.find((each) => ms >= each.startMs && ms < each.startMs + each.ms);
  return period?.kind === 'break' ? period.afterLevel : null;
}

/** What the clock says with its run as it stands at `at`. */
function sayOfRun(schedule: ClockSchedule, run: ClockRun, at: number): number | null {
  return run.started ? sayOf(schedule, clockTimeAt(run, at, schedule.totalMs), !run.running) : null;
}

/**
 * The break the clock says the tournament is on at `now` (the level it follows), or null: none
 * (a level, not started, finished). `heldAfter` is the break the floor holds (its clock row's
 * `held`): the tournament is on it until the floor lets it go, wherever the clock stands.
 */
export function clockBreak(schedule: ClockSchedule, events: readonly ClockEvent[], now: number, heldAfter: number | null = null): number | null {
  if (heldAfter !== null) return heldAfter;
  return sayOfRun(schedule, foldClock(events, schedule.totalMs), now);
}

/** Whether a clock running over clock times `a` to `b` passes through anything that says other than `said`. */
function runSaysOther(schedule: ClockSchedule, a: number, b: number, said: number | null): boolean {
  const passed = schedule.periods.some((period) => period.startMs < b && period.startMs + period.ms > a && (period.kind === 'break' ? period.afterLevel : null) !== said);
  return passed || sayOf(schedule, b, false) !== said;
}

/**
 * Whether, at some moment from `from` to `to` (epoch ms), the clock said another break (or none)
 * than it said at `from`: every period it ran through, every place an adjust put it, counts. The
 * clock at `from` is its first `folded` events (those before a mark, when known by their order),
 * else every event at or before `from`. Read from the events as they are: a history compacted
 * after `from` (over CLOCK_EVENTS_KEPT presses) reads as though it ran from its start until then.
 */
export function clockSaidOtherSince(schedule: ClockSchedule, events: readonly ClockEvent[], from: number, to: number, folded?: number): boolean {
  const total = schedule.totalMs;
  let run = foldClock([], total);
  let index = 0;
  const before = (event: ClockEvent) => (folded === undefined ? event.at <= from : index < folded);
  for (; index < events.length && before(events[index] as ClockEvent); index += 1) run = applyClockEvent(run, events[index] as ClockEvent, total);
  let at = Math.max(from, events[index - 1]?.at ?? from);
  const said = sayOfRun(schedule, run, at);
  /** The clock from `at` to `until` as it runs now: true when it says something else on the way. */
  const passes = (until: number): boolean => {
    const end = Math.max(at, until);
    const a = clockTimeAt(run, at, total);
    const b = clockTimeAt(run, end, total);
    at = end;
    if (!run.started) return false;
    return run.running ? runSaysOther(schedule, a, b, said) : sayOf(schedule, a, true) !== said;
  };
  for (; index < events.length && (events[index] as ClockEvent).at <= to; index += 1) {
    const event = events[index] as ClockEvent;
    if (passes(event.at)) return true;
    run = applyClockEvent(run, event, total);
    if (sayOfRun(schedule, run, at) !== said) return true;
  }
  return passes(to);
}

/**
 * Until when the floor may still hold the break after `afterLevel` (engine/clock/hold.ts): its
 * clock has run past the break's end by at most `graceMs`, and has not stood at that very end (a
 * hold the floor has let go). Epoch ms, or Infinity while the clock stands within the grace
 * (a resume may bring the hold); null when the floor can no longer hold it.
 */
export function floorMayHoldUntil(schedule: ClockSchedule, events: readonly ClockEvent[], now: number, afterLevel: number, graceMs = HOLD_GRACE_MS): number | null {
  const period = schedule.periods.find((each) => each.kind === 'break' && each.afterLevel === afterLevel);
  if (period === undefined) return null;
  const end = period.startMs + period.ms;
  const total = schedule.totalMs;
  let run = foldClock([], total);
  for (const event of events) {
    run = applyClockEvent(run, event, total);
    // Paused at the break's very end: the floor's hold (let go since, or the clock would not be past it).
    if (event.type === 'pause' && run.base === end) return null;
  }
  const elapsed = clockTimeAt(run, now, total);
  // Finished, the clock stands for good: nothing for a hold to wait for.
  if (!run.started || elapsed >= total) return null;
  const past = elapsed - end;
  if (past < 0 || past > graceMs) return null;
  return run.running ? now + (graceMs - past) + 1 : Number.POSITIVE_INFINITY;
}

/** The station's "this break", as the clock's follower sees it. */
export interface StationBreak {
  /** The break the station is on now (null: playing). */
  readonly current: number | null;
  /** When the station's break was last marked, by hand or by the clock (epoch ms); null: never. */
  readonly markedAt: number | null;
  /**
   * How many of the clock's events came before that mark (the station's own clock, journaled in
   * order with its marks; 0: the mark came before this clock's start); absent: known by time only
   * (the floor's clock).
   */
  readonly markedAfterEvents?: number;
  /** When each break was last marked, by the level it follows (epoch ms). */
  readonly marks: ReadonlyMap<number, number>;
  /**
   * The clock is the floor's, which may hold a break at its end (with the option on, for a break
   * with a colour-up), and this station's colour-up of its break is not finished: it stays on the
   * break while the floor may still hold it (`floorMayHoldUntil`), so the floor's hold finds it
   * there, where its dealer finishes it. A station finished with its break leaves it with the
   * clock: the floor remembers the breaks a table left finished (floor/fold.ts LeftFinished).
   */
  readonly waitsForHold?: boolean;
}

/**
 * The break the station marks now to follow its clock (`afterLevel` null: play resumed), or null
 * when nothing is due. The station's break follows what the clock says: entering a break marks
 * it, leaving it marks play. A mark made since (by hand: the dealer's say) stands until the clock
 * says something else than it said when the mark was made, and a break is marked by the clock at
 * most once after the clock's start: a break marked by hand and left by hand is not marked again,
 * and a clock moved back into a break it left leaves the station playing, so that break's
 * colour-up is not begun again (the dealer may mark it by hand). Nothing is due before the clock
 * has started.
 */
export function breakMarkDue(schedule: ClockSchedule, events: readonly ClockEvent[], now: number, station: StationBreak, heldAfter: number | null = null): { readonly afterLevel: number | null } | null {
  const start = events[0];
  if (start?.type !== 'start') return null;
  const said = clockBreak(schedule, events, now, heldAfter);
  if (said === station.current) return null;
  // A break the clock marked once already since its start (or the dealer did) is not begun again: play, then.
  const target = said !== null && (station.marks.get(said) ?? -Infinity) >= start.at ? null : said;
  if (target === station.current) return null;
  if (station.waitsForHold === true && station.current !== null && floorMayHoldUntil(schedule, events, now, station.current) !== null) return null;
  // Since the mark, or since the clock's start when the mark came before it.
  const known = station.markedAfterEvents;
  const sinceStart = station.markedAt === null || (known === undefined ? station.markedAt < start.at : known === 0);
  const changed = sinceStart ? clockSaidOtherSince(schedule, events, start.at, now, 1) : clockSaidOtherSince(schedule, events, station.markedAt as number, now, known);
  // The floor holds a break the clock no longer stands in (its pause came late): the hold speaks too.
  return changed || heldAfter !== null ? { afterLevel: target } : null;
}

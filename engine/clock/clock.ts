import { InputError } from '../errors';
import { isRecord, valueParam } from '../validate';
import type { TournamentStructure } from '../plan/structure';

/**
 * The tournament clock as plain data: the events that drove it (each with the caller's time, epoch
 * milliseconds) and the structure's periods. Where the tournament is, is read from them for any
 * moment: nothing here keeps time of its own, so a journal's events or the floor's give the same
 * reading on every station at the same moment.
 */
export type ClockEvent =
  | { readonly type: 'start'; readonly at: number }
  | { readonly type: 'pause'; readonly at: number }
  | { readonly type: 'resume'; readonly at: number }
  /**
   * Moves the clock `by` milliseconds: forward (less time left in the level) when positive. A
   * director's "+1 min" is the other way (more time left): `adjustForMinutesLeft` gives its `by`.
   */
  | { readonly type: 'adjust'; readonly at: number; readonly by: number };

export type ClockEventType = ClockEvent['type'];

export const CLOCK_EVENT_TYPES: readonly ClockEventType[] = ['start', 'pause', 'resume', 'adjust'];

/** The most one adjust moves the clock: ten hours, either way (the longest level is as long). */
export const CLOCK_ADJUST_MAX_MS = 600 * 60_000;

/** The most events one clock reads (a start, and a pause or adjust every minute of a 24-hour day thrice over). */
export const CLOCK_EVENTS_MAX = 5000;

/**
 * How many events a clock keeps before its history is compacted (`compactClock`): well under
 * CLOCK_EVENTS_MAX, so no number of presses ever fills a clock, and the row every station reads
 * stays small.
 */
export const CLOCK_EVENTS_KEPT = 200;

/**
 * The `by` of an adjust that gives the period `minutes` more time left (fewer when negative): the
 * clock set back by as much. "+1 min" on every tournament clock a director knows adds a minute to
 * the level; the floor's buttons, `floor clock adjust --minutes N` and the station's own all mean it so.
 */
export function adjustForMinutesLeft(minutes: number): number {
  return -minutes * 60_000;
}

/** The latest time an event may carry: the year 2286, well inside what a Date holds. */
const AT_MAX = 10_000_000_000_000;

/** One stretch of the schedule: a playing level, or the break after a level. Offsets in ms from the clock's start. */
export type ClockPeriod =
  | { readonly kind: 'level'; readonly level: number; readonly startMs: number; readonly ms: number }
  | { readonly kind: 'break'; readonly afterLevel: number; readonly startMs: number; readonly ms: number };

/** The structure's periods in playing order, each starting where the one before ends. */
export interface ClockSchedule {
  readonly periods: readonly ClockPeriod[];
  readonly totalMs: number;
}

export type ClockStatus = 'idle' | 'running' | 'paused' | 'finished';

/** Where the tournament is at a moment. */
export interface ClockReading {
  readonly status: ClockStatus;
  /** The clock's time since its start: running time plus adjustments (0 before the start, the schedule's total once finished). */
  readonly elapsedMs: number;
  /** The period the clock is in (the first before the start); null once finished. */
  readonly period: ClockPeriod | null;
  /** Milliseconds left in that period (0 once finished). */
  readonly msLeft: number;
  /** The next break to come (not the one the clock is in): the level it follows, and the clock's time to its start. */
  readonly nextBreak: { readonly afterLevel: number; readonly msTo: number } | null;
}

const MINUTE = 60_000;

/**
 * The periods of a validated structure: each level its minutes, each break its own. Refuses a
 * structure whose levels are not all timed (the clock cannot know when such a level ends), naming
 * the first level without minutes.
 */
export function clockSchedule(structure: Pick<TournamentStructure, 'levels' | 'breaks'>): ClockSchedule {
  const untimed = structure.levels.find((level) => level.minutes === null);
  if (untimed !== undefined) throw new InputError(`levels[${untimed.index}].minutes`, { key: 'clock.noMinutes', params: { level: untimed.level } });
  const entries = [
    ...structure.levels.map((level) => ({ index: level.index, period: { kind: 'level' as const, level: level.level, ms: (level.minutes as number) * MINUTE } })),
    ...structure.breaks.map((entry) => ({ index: entry.index, period: { kind: 'break' as const, afterLevel: entry.afterLevel, ms: entry.minutes * MINUTE } })),
  ].sort((a, b) => a.index - b.index);
  let startMs = 0;
  const periods = entries.map(({ period }) => {
    const placed: ClockPeriod = { ...period, startMs };
    startMs += period.ms;
    return placed;
  });
  return { periods, totalMs: startMs };
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= AT_MAX;

/** Reads one clock event, refusing anything else by field (`field`.at, `field`.by …). */
export function readClockEvent(value: unknown, field = 'event'): ClockEvent {
  if (!isRecord(value)) throw new InputError(field, { key: 'clock.event.notObject', params: { example: '{"type": "start", "at": 1764547200000}', got: valueParam(value) } });
  const type = value.type;
  if (typeof type !== 'string' || !(CLOCK_EVENT_TYPES as readonly string[]).includes(type)) {
    throw new InputError(`${field}.type`, { key: 'clock.event.type', params: { got: valueParam(type) } });
  }
  const known = type === 'adjust' ? ['type', 'at', 'by'] : ['type', 'at'];
  const extra = Object.keys(value).find((key) => value[key] !== undefined && !known.includes(key));
  if (extra !== undefined) throw new InputError(`${field}.${extra}`, { key: 'clock.event.unknownKey', params: { key: extra, type } });
  if (!isTime(value.at)) throw new InputError(`${field}.at`, { key: 'clock.event.at', params: { got: valueParam(value.at) } });
  const at = value.at;
  if (type !== 'adjust') return { type: type as 'start' | 'pause' | 'resume', at };
  const by = value.by;
  if (typeof by !== 'number' || !Number.isSafeInteger(by) || by === 0 || Math.abs(by) > CLOCK_ADJUST_MAX_MS) {
    throw new InputError(`${field}.by`, { key: 'clock.event.by', params: { max: CLOCK_ADJUST_MAX_MS, got: valueParam(by) } });
  }
  return { type, at, by };
}

/** Reads a list of clock events (shape only; their order is `readClock`'s and `foldClock`'s to check). */
export function readClockEvents(value: unknown, field = 'events'): ClockEvent[] {
  if (!Array.isArray(value)) throw new InputError(field, { key: 'clock.events.notList', params: { got: valueParam(value) } });
  if (value.length > CLOCK_EVENTS_MAX) throw new InputError(field, { key: 'clock.events.tooMany', params: { max: CLOCK_EVENTS_MAX, n: value.length } });
  return value.map((event: unknown, index) => readClockEvent(event, `${field}[${index}]`));
}

/** The clock after its events: the clock time `base` it had at `since`, running on from there or not. */
export interface ClockRun {
  readonly started: boolean;
  readonly running: boolean;
  /** The clock's time at `since`, ms. */
  readonly base: number;
  /** The event time `base` was taken at. */
  readonly since: number;
}

const NOT_STARTED: ClockRun = { started: false, running: false, base: 0, since: 0 };

/** The clock time at `at`: running time counts from `since`, never past the schedule's end, never back. */
export function clockTimeAt(run: ClockRun, at: number, totalMs: number): number {
  return Math.min(totalMs, run.base + (run.running ? Math.max(0, at - run.since) : 0));
}

/**
 * One event applied; refuses one out of order (an event before the one before it, anything before
 * the start, a start twice, a pause while paused, a resume while running). An adjust moves the
 * clock by exactly `by`, held within the schedule (not before its start, not past its end).
 */
export function applyClockEvent(run: ClockRun, event: ClockEvent, totalMs: number, field = 'event'): ClockRun {
  if (run.started && event.at < run.since) throw new InputError(`${field}.at`, { key: 'clock.order.before', params: { at: event.at, before: run.since } });
  if (event.type === 'start') {
    if (run.started) throw new InputError(field, { key: 'clock.order.started' });
    return { started: true, running: true, base: 0, since: event.at };
  }
  if (!run.started) throw new InputError(field, { key: 'clock.order.notStarted' });
  const now = clockTimeAt(run, event.at, totalMs);
  switch (event.type) {
    case 'pause':
      if (!run.running) throw new InputError(field, { key: 'clock.order.paused' });
      return { started: true, running: false, base: now, since: event.at };
    case 'resume':
      if (run.running) throw new InputError(field, { key: 'clock.order.running' });
      return { started: true, running: true, base: now, since: event.at };
    case 'adjust':
      return { ...run, base: Math.max(0, Math.min(totalMs, now + event.by)), since: event.at };
  }
}

/** The clock after all its events, refusing the first out of order (its field `events[i]`). */
export function foldClock(events: readonly ClockEvent[], totalMs: number): ClockRun {
  return events.reduce((run, event, index) => applyClockEvent(run, event, totalMs, `events[${index}]`), NOT_STARTED);
}

/**
 * The events folded into an equivalent short list as of `at` (taken no earlier than the last
 * event): the same start, adjusts that bring the clock to the time it shows at `at`, and a pause
 * if it stands then. Read at any moment from `at` on, or continued with the same later events, it
 * reads exactly as the whole history does (a property test holds it to that), so a clock is never
 * full: a long night's presses cost at most CLOCK_EVENTS_KEPT events. The start is kept as it was
 * (a station counts a break marked since it as marked). Events not yet started are returned as they are.
 */
export function compactClock(events: readonly ClockEvent[], totalMs: number, at: number): ClockEvent[] {
  const run = foldClock(events, totalMs);
  const start = events[0];
  if (!run.started || start?.type !== 'start') return [...events];
  const when = Math.max(at, run.since);
  const target = clockTimeAt(run, when, totalMs);
  const compacted: ClockEvent[] = [start];
  // What the start alone gives at `when`; then as many adjusts as CLOCK_ADJUST_MAX_MS needs (a
  // night's pause or a structure longer than ten hours), each within the schedule, as both ends are.
  let reached = clockTimeAt({ started: true, running: true, base: 0, since: start.at }, when, totalMs);
  while (reached !== target) {
    const by = Math.max(-CLOCK_ADJUST_MAX_MS, Math.min(CLOCK_ADJUST_MAX_MS, target - reached));
    compacted.push({ type: 'adjust', at: when, by });
    reached += by;
  }
  if (!run.running) compacted.push({ type: 'pause', at: when });
  return compacted;
}

/** The period holding clock time `ms` (a period ends where the next begins), or null at or past the end. */
function periodAt(schedule: ClockSchedule, ms: number): number {
  return schedule.periods.findIndex((period) => ms >= period.startMs && ms < period.startMs + period.ms);
}

/**
 * Where the tournament is at `now` (epoch ms, the caller's clock), after `events`. Refuses events
 * out of order, as foldClock does. A `now` before the last event reads as that event's moment.
 */
export function readClock(schedule: ClockSchedule, events: readonly ClockEvent[], now: number): ClockReading {
  const run = foldClock(events, schedule.totalMs);
  const elapsedMs = run.started ? clockTimeAt(run, now, schedule.totalMs) : 0;
  const finished = run.started && elapsedMs >= schedule.totalMs;
  const status: ClockStatus = !run.started ? 'idle' : finished ? 'finished' : run.running ? 'running' : 'paused';
  const index = finished ? -1 : periodAt(schedule, elapsedMs);
  const period = index === -1 ? null : (schedule.periods[index] as ClockPeriod);
  const coming = index === -1 ? undefined : schedule.periods.slice(index + 1).find((next) => next.kind === 'break');
  return {
    status,
    elapsedMs,
    period,
    msLeft: period === null ? 0 : period.startMs + period.ms - elapsedMs,
    nextBreak: coming?.kind === 'break' ? { afterLevel: coming.afterLevel, msTo: coming.startMs - elapsedMs } : null,
  };
}

/**
 * The epoch moment, from `now`, the clock enters its next period (the period's end), when it is
 * running; null when paused, idle or finished. What a caller sets its one timer for.
 */
export function nextClockChange(schedule: ClockSchedule, events: readonly ClockEvent[], now: number): number | null {
  const reading = readClock(schedule, events, now);
  return reading.status === 'running' ? now + reading.msLeft : null;
}

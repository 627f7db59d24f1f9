import { readClock, type ClockEvent, type ClockSchedule, type ClockStatus } from '../../engine/clock/clock';
import type { ColorUp } from '../../engine/plan/planner';
import type { StructureLevel } from '../../engine/plan/structure';

/**
 * The room's tournament clock read at a moment: pure (the clock's events, its schedule, the
 * structure's levels, the colour-up plan and `now` in; what the player display shows out), so a
 * property test holds it to the engine's own readClock. No time is kept here.
 */

/** A playing level's blinds and ante (null: no ante), as the structure gives them. */
export interface LevelBlinds {
  readonly level: number;
  readonly sb: number;
  readonly bb: number;
  readonly ante: number | null;
}

export interface RoomClockReading {
  readonly status: ClockStatus;
  /** The period the clock is in: a level, or the break after `afterLevel`; null once finished. */
  readonly period: { readonly kind: 'level'; readonly level: number } | { readonly kind: 'break'; readonly afterLevel: number } | null;
  /** Milliseconds left in that period (0 once finished). */
  readonly msLeft: number;
  /** The level being played (on a break: none). */
  readonly now: LevelBlinds | null;
  /** The next playing level after the period the clock is in; null after the last. */
  readonly next: LevelBlinds | null;
  /** The clock's time to the next break's start; null on a break or with no break to come. */
  readonly msToBreak: number | null;
  /** The break whose colour-up `leaving` names: the one the clock is in, else the next to come; null with none. */
  readonly breakAfter: number | null;
  /** The denominations that colour up at that break (ascending), from the plan; empty: none. */
  readonly leaving: readonly number[];
  /** Names the period, changing exactly when the clock enters another (what the room's sound rings on); '' before the start. */
  readonly periodKey: string;
}

type Levels = readonly Pick<StructureLevel, 'level' | 'sb' | 'bb' | 'ante'>[];

function blindsOf(levels: Levels, level: number): LevelBlinds | null {
  const found = levels.find((entry) => entry.level === level);
  return found === undefined ? null : { level: found.level, sb: found.sb, bb: found.bb, ante: found.ante };
}

/**
 * Where the room's tournament is at `now` (epoch ms): the period and its time left, the blinds now
 * and next, the time to the next break and the chips leaving at it. Null when the events are out of
 * order (the service refuses those; the room is shown no clock rather than a wrong one).
 */
export function roomClockReading(schedule: ClockSchedule, events: readonly ClockEvent[], levels: Levels, colorUps: readonly ColorUp[], now: number): RoomClockReading | null {
  let reading;
  try {
    reading = readClock(schedule, events, now);
  } catch {
    return null;
  }
  const { period } = reading;
  const index = period === null ? -1 : schedule.periods.findIndex((entry) => entry.startMs === period.startMs && entry.kind === period.kind);
  const nextLevel = index === -1 ? undefined : schedule.periods.slice(index + 1).find((entry) => entry.kind === 'level');
  const breakAfter = period?.kind === 'break' ? period.afterLevel : (reading.nextBreak?.afterLevel ?? null);
  const colorUp = breakAfter === null ? undefined : colorUps.find((entry) => entry.afterLevel === breakAfter);
  const shown = period === null ? null : period.kind === 'level' ? { kind: 'level' as const, level: period.level } : { kind: 'break' as const, afterLevel: period.afterLevel };
  return {
    status: reading.status,
    period: shown,
    msLeft: reading.msLeft,
    now: period?.kind === 'level' ? blindsOf(levels, period.level) : null,
    next: nextLevel?.kind === 'level' ? blindsOf(levels, nextLevel.level) : null,
    msToBreak: period?.kind === 'level' && reading.nextBreak !== null ? reading.nextBreak.msTo : null,
    breakAfter,
    leaving: colorUp === undefined ? [] : [...colorUp.remove].sort((a, b) => a - b),
    periodKey: reading.status === 'idle' ? '' : period === null ? 'finished' : `${index}:${period.kind}`,
  };
}

/**
 * Whether the room's sound rings between two readings: the clock entered another level or break
 * (or finished) after it had started. Not at the first reading, not at the start, not on a pause.
 */
export function ringsBetween(before: RoomClockReading | null, after: RoomClockReading | null): boolean {
  if (before === null || after === null) return false;
  return before.periodKey !== '' && after.periodKey !== '' && after.periodKey !== before.periodKey;
}

/** A countdown as the room reads it: `m:ss`, or `h:mm:ss` past an hour; a started second counted whole. */
export function countdownText(ms: number): string {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

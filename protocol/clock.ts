/**
 * The tournament clock as the station, the floor link and the screens share it: the floor's clock
 * handed to a station (`FloorClock`), and the clock the state carries (`ClockView`). The screens
 * read the countdown from it themselves (engine/clock `readClock`, with their own time each second):
 * the service pushes a state only when the clock's events or structure change.
 */
import { clockSchedule, readClockEvents, type ClockEvent, type ClockSchedule } from '../engine/clock/clock';
import { isInputError } from '../engine/errors';
import type { Message } from '../engine/messages';
import type { StructureInput } from '../engine/plan/csv';
import { readHouseRules } from '../engine/plan/tournament';
import { readStructure } from '../engine/plan/structure';
import { custom, nullable, object, optional, type Infer } from './schema';

/** A structure as the planner reads it (engine/plan): taken as it is, the planner checks it (scheduleOf). */
const structure = custom((value) => value as StructureInput);
/** The clock's events, read by the engine's own reader (engine/clock readClockEvents), naming `events[i]` at fault. */
const events = custom((value): readonly ClockEvent[] => readClockEvents(value));
/** The house's rules for every table (rule set, decks per shoe), read by the engine's reader; absent or null: each table's own. */
const house = optional(custom((value) => readHouseRules(value, 'house')));

/** The break the floor holds (engine/clock/hold.ts): the level it follows and the tables not done yet. */
export interface HeldBreak {
  readonly afterLevel: number;
  readonly tables: number;
}

/** The floor's hold as its row keeps it: absent, null or malformed, none (a station never refuses the floor's clock for it). */
const held = optional(
  custom((value): HeldBreak | null => {
    const hold = value as { afterLevel?: unknown; tables?: unknown } | null;
    return typeof hold === 'object' && hold !== null && Number.isSafeInteger(hold.afterLevel) && Number.isSafeInteger(hold.tables) ? { afterLevel: hold.afterLevel as number, tables: hold.tables as number } : null;
  }),
);
const notObject = { key: 'command.notObject' } as const;

/**
 * The floor's clock row as `floor_clock` holds it, the one description the floor (floor/clock.ts)
 * and every station following it (station/service/clock.ts) read it by: the tournament's structure
 * (null while the floor has none), the house's rules and the clock's events.
 */
export const FLOOR_CLOCK_ROW = object({ structure: nullable(structure), events, house, held }, notObject);
export type FloorClockRowShape = Infer<typeof FLOOR_CLOCK_ROW>;

/**
 * The floor's clock as a station follows it (the row, with a structure), and `offsetMs`: the
 * floor's time less the station's (ms) when the link read it. The events carry the floor's time,
 * and a station follows it, not its own clock (absent, or no whole number: the same time).
 */
export const FLOOR_CLOCK = object({
  structure,
  events,
  house,
  held,
  /** The floor holds its breaks with a colour-up (`floor_clock.hold_breaks`); absent (a floor without the option), it holds none. */
  holdBreaks: optional(custom((value) => value === true)),
  offsetMs: custom((value) => (Number.isSafeInteger(value) ? (value as number) : undefined)),
}, notObject);

/** The floor's clock, as the floor link reads it from the database: the tournament's structure, the house's rules and the clock's events. */
export type FloorClock = Infer<typeof FLOOR_CLOCK>;

/** Who runs the station's clock: the station itself (a home game), or the floor. */
export type ClockSource = 'local' | 'floor';

/** The most minutes one press of the clock's adjust moves it, either way. */
export const CLOCK_ADJUST_MINUTES_MAX = 600;

export interface ClockView {
  readonly source: ClockSource;
  /** The periods of the structure the clock runs on; null without a structure, or when `problem` says why not. */
  readonly schedule: ClockSchedule | null;
  /** The clock's events since its start (none before it is started). */
  readonly events: readonly ClockEvent[];
  /** Why there is no schedule (a level without minutes, a structure the planner refuses); null otherwise. */
  readonly problem: Message | null;
  /** The break the floor holds until every table is done, and how many are not (the floor's clock only); null or absent otherwise. */
  readonly held?: HeldBreak | null;
}

/** The schedule of a structure as the planner reads it, or why it has none. */
export function scheduleOf(structure: unknown): { readonly schedule: ClockSchedule | null; readonly problem: Message | null } {
  if (structure === null || structure === undefined) return { schedule: null, problem: null };
  try {
    return { schedule: clockSchedule(readStructure(structure)), problem: null };
  } catch (error) {
    if (!isInputError(error)) throw error;
    return { schedule: null, problem: error.said ?? { key: 'clock.noMinutes', params: { level: 1 } } };
  }
}

import type { Message } from '../../engine/messages';
import { isRecord, MAX_NESTING, nestedDeeperThan } from '../../engine/validate';

/**
 * The floor's clock row as the station's link reads it (`floor_clock`: the floor writes it, every
 * station reads it), taken only when it is one: a row nested deeper than anything the console reads
 * (MAX_NESTING, asked before anything walks it: comparing or quoting it, JSON.stringify, recursed and
 * overflowed the stack, which took the link offline), larger than a tournament's clock can be, or
 * not shaped as the floor writes it (a structure object, a list of events, the house rules and the
 * held break objects or nothing) is refused: a finding, said once; the clock the station follows
 * stays as it was, and the link stays connected and goes on sending records. What the parts hold
 * is the station's clock's to read (station/service/clock.ts, protocol/clock.ts FLOOR_CLOCK): it keeps
 * the clock it had for events it cannot read, and says what is wrong with a structure it cannot plan.
 */

/** The columns the link reads of the row (house, held and hold_breaks through its JSON: absent on a floor not yet migrated to hold them). */
export interface ClockRowColumns {
  readonly structure: unknown;
  readonly events: unknown;
  readonly house: unknown;
  readonly held: unknown;
  readonly hold_breaks: unknown;
}

/** The row as handed on (offsetMs aside): null while the floor has no structure. */
export interface ClockRowRead {
  readonly structure: unknown;
  readonly events: unknown;
  readonly house: unknown;
  readonly held: unknown;
  readonly holdBreaks: boolean;
}

/**
 * The most characters the row's JSON may have: a structure of the most entries and chips the
 * planner takes (a few tens of KB), the clock's most events (engine/clock CLOCK_EVENTS_MAX, some
 * 60 characters each) and the house's rules fit several times over.
 */
export const CLOCK_ROW_MAX_CHARS = 2 * 1024 * 1024;

/**
 * What the link makes of the row: the clock (null: no structure) or why it refuses it, and `seen`,
 * what tells one reading from the next (the row's JSON; a refusal's reason for a row too deep to
 * write out), so neither is passed on again while the row stays the same.
 */
export type ClockRowReading = { readonly clock: ClockRowRead | null; readonly seen: string } | { readonly refused: Message; readonly seen: string };

const objectOrNothing = (value: unknown): boolean => value === null || value === undefined || isRecord(value);

export function readClockRow(row: ClockRowColumns | undefined): ClockRowReading {
  if (row === undefined || row.structure === null) return { clock: null, seen: 'null' };
  const { structure, events, house, held } = row;
  // Before anything walks it.
  if ([structure, events, house, held].some((value) => nestedDeeperThan(value, MAX_NESTING))) return { refused: { key: 'value.tooDeep', params: { n: MAX_NESTING } }, seen: 'too-deep' };
  const clock: ClockRowRead = { structure, events, house, held, holdBreaks: row.hold_breaks === true };
  const seen = JSON.stringify(clock);
  if (seen.length > CLOCK_ROW_MAX_CHARS) return { refused: { key: 'clock.floorRow.tooLarge', params: { kb: Math.round(CLOCK_ROW_MAX_CHARS / 1024) } }, seen: `too-large:${seen.length}` };
  // Its parts as the floor writes them; the events' and house rules' own contents are the station's clock's to read (it keeps the clock it had when they are wrong).
  const part = !isRecord(structure) ? 'structure' : !Array.isArray(events) ? 'events' : !objectOrNothing(house) ? 'house' : !objectOrNothing(held) ? 'held' : null;
  if (part !== null) return { refused: { key: 'clock.floorRow.malformed', params: { part } }, seen };
  return { clock, seen };
}

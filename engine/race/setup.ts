import { isMultipleOf } from '../chips';
import { InputError } from '../errors';
import { valueParam, type Message } from '../messages';
import type { en } from '../messages/en';
import { isRecord, isWhole } from '../validate';
import { readRuleChoice, type RaceSettings, type RuleSetName } from './rules';

export interface SeatSetup {
  readonly seat: number;
  readonly name: string;
  /** How many chips of the removed denomination the player holds. */
  readonly chips: number;
  /** Value of the player's chips in denominations that stay in play. */
  readonly other: number;
}

/** A validated race: every number checked, seats in ascending seat order. */
export interface RaceSetup {
  readonly rules: RuleSetName;
  readonly settings: RaceSettings;
  readonly removed: number;
  readonly next: number;
  readonly button: number | null;
  readonly decks: number;
  readonly seats: readonly SeatSetup[];
}

export const CARDS_PER_DECK = 52;

/** A whole number of at least `min`; `what` names it in the refusal (`race.setup.what.*`). */
export function readCount(value: unknown, field: string, min: number, what: Message): number {
  if (isWhole(value, min)) return value;
  const params = { what: { message: what }, value: valueParam(value), min };
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InputError(field, { key: 'race.setup.number.notNumber', params });
  if (!Number.isInteger(value)) throw new InputError(field, { key: 'race.setup.number.notWhole', params });
  if (value < min) throw new InputError(field, { key: 'race.setup.number.tooSmall', params });
  throw new InputError(field, { key: 'race.setup.number.tooLarge', params });
}

/** Refuses a field the race needs and does not have; `key` under `race.setup.missing` says why it is needed. */
function missing(field: string, key: keyof typeof en.race.setup.needed, params?: Message['params']): never {
  throw new InputError(field, { key: 'race.setup.missing', params: { why: { message: { key: `race.setup.needed.${key}`, params } } } });
}

function readSeat(value: unknown, index: number, removed: number): SeatSetup {
  const field = `seats[${index}]`;
  if (!isRecord(value)) throw new InputError(field, { key: 'race.setup.seatNotObject', params: { value: valueParam(value) } });
  // A valid number is taken as is: the words of a refusal cost more than the race itself, so they
  // are put together only when readCount is about to refuse.
  const seat = isWhole(value.seat, 1) ? value.seat : readCount(value.seat, `${field}.seat`, 1, { key: 'race.setup.what.seat' });
  const chipsValue = value.chips ?? missing(`${field}.chips`, 'chips', { seat, removed });
  const chips = isWhole(chipsValue, 0) ? chipsValue : readCount(chipsValue, `${field}.chips`, 0, { key: 'race.setup.what.chips', params: { seat, removed } });
  const otherValue = value.other ?? 0;
  const other = isWhole(otherValue, 0) ? otherValue : readCount(otherValue, `${field}.other`, 0, { key: 'race.setup.what.other', params: { seat } });
  if (value.name !== undefined && typeof value.name !== 'string') {
    throw new InputError(`${field}.name`, { key: 'race.setup.nameNotText', params: { seat, value: valueParam(value.name) } });
  }
  if (chips === 0 && other === 0) throw new InputError(field, { key: 'race.setup.noChips', params: { seat, removed } });
  return { seat, name: (value.name ?? '').trim(), chips, other };
}

/**
 * Validates a race as the console, the journal or the command line hands it over and returns the
 * normalised setup. Refuses with an InputError naming the field and the reason.
 */
export function readRaceSetup(input: unknown): RaceSetup {
  if (!isRecord(input)) throw new InputError('race', { key: 'race.setup.notObject', params: { value: valueParam(input) } });
  const { rules, settings } = readRuleChoice(input.rules ?? missing('rules', 'rules'), input);
  const removed = readCount(input.removed ?? missing('removed', 'removed'), 'removed', 1, { key: 'race.setup.what.removed' });
  const next = readCount(input.next ?? missing('next', 'next'), 'next', 1, { key: 'race.setup.what.next' });
  if (next <= removed) throw new InputError('next', { key: 'race.setup.nextNotLarger', params: { next, removed } });
  if (!isMultipleOf(next, removed)) throw new InputError('next', { key: 'race.setup.nextNotMultiple', params: { next, removed } });
  const decks = readCount(input.decks ?? 1, 'decks', 1, { key: 'race.setup.what.decks' });
  let button: number | null = null;
  if (input.button !== undefined && input.button !== null) {
    button = readCount(input.button, 'button', 1, { key: 'race.setup.what.button' });
  } else if (settings.dealStart === 'left-of-button') {
    missing('button', 'button');
  } else if (settings.dealStart === 'button') {
    missing('button', 'buttonSeat');
  }
  if (!Array.isArray(input.seats)) throw new InputError('seats', { key: 'race.setup.seatsNotList', params: { value: valueParam(input.seats) } });
  if (input.seats.length === 0) throw new InputError('seats', { key: 'race.setup.noSeats' });
  const seats = input.seats.map((seat, index) => readSeat(seat, index, removed));
  // Seats listed in rising order, as tables list them, cannot repeat one: the check for a seat
  // given twice and the sort are for the other lists (together a quarter of a race's setup).
  let ascending = true;
  for (let index = 1; index < seats.length && ascending; index += 1) ascending = (seats[index - 1] as SeatSetup).seat < (seats[index] as SeatSetup).seat;
  if (!ascending) {
    const seen = new Map<number, number>();
    seats.forEach((seat, index) => {
      const first = seen.get(seat.seat);
      if (first !== undefined) throw new InputError(`seats[${index}].seat`, { key: 'race.setup.seatTwice', params: { seat: seat.seat, first: `seats[${first}]` } });
      seen.set(seat.seat, index);
    });
  }
  return { rules, settings, removed, next, button, decks, seats: ascending ? seats : seats.sort((a, b) => a.seat - b.seat) };
}

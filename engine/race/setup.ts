import { describeValue } from '../cards';
import { isMultipleOf } from '../chips';
import { InputError } from '../errors';
import { isRecord, isWhole, missing, readWhole } from '../validate';
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

function readSeat(value: unknown, index: number, removed: number): SeatSetup {
  const field = `seats[${index}]`;
  if (!isRecord(value)) throw new InputError(field, `each seat must be an object like {"seat": 1, "chips": 7, "other": 5000} (got ${describeValue(value)})`);
  // A valid number is taken as is: the words of a refusal cost more than the race itself, so they
  // are put together only when readWhole is about to refuse.
  const seat = isWhole(value.seat, 1) ? value.seat : readWhole(value.seat, `${field}.seat`, 1, 'the seat number');
  const chipsValue = value.chips ?? missing(`${field}.chips`, `seat ${seat} needs a count of its ${removed} chips`);
  const chips = isWhole(chipsValue, 0) ? chipsValue : readWhole(chipsValue, `${field}.chips`, 0, `seat ${seat}'s count of ${removed} chips`);
  const otherValue = value.other ?? 0;
  const other = isWhole(otherValue, 0) ? otherValue : readWhole(otherValue, `${field}.other`, 0, `seat ${seat}'s value of other chips`);
  if (value.name !== undefined && typeof value.name !== 'string') {
    throw new InputError(`${field}.name`, `seat ${seat}'s name must be text (got ${describeValue(value.name)})`);
  }
  if (chips === 0 && other === 0) {
    throw new InputError(field, `seat ${seat} has no chips at all (no ${removed} chips and no other chips); remove the seat or enter its chips`);
  }
  return { seat, name: (value.name ?? '').trim(), chips, other };
}

/**
 * Validates a race as the console, the journal or the command line hands it over and returns the
 * normalised setup. Refuses with an InputError naming the field and the reason.
 */
export function readRaceSetup(input: unknown): RaceSetup {
  if (!isRecord(input)) throw new InputError('race', `a race must be a JSON object (got ${describeValue(input)})`);
  const { rules, settings } = readRuleChoice(input.rules ?? missing('rules', 'name a rule set'), input);
  const removed = readWhole(input.removed ?? missing('removed', 'the denomination leaving play'), 'removed', 1, 'the removed denomination');
  const next = readWhole(input.next ?? missing('next', 'the smallest denomination staying in play'), 'next', 1, 'the next denomination');
  if (next <= removed) throw new InputError('next', `the next denomination (${next}) must be larger than the removed one (${removed})`);
  if (!isMultipleOf(next, removed)) {
    throw new InputError('next', `${next} is not a whole multiple of the removed denomination ${removed}, so ${removed} chips cannot be exchanged for it`);
  }
  const decks = readWhole(input.decks ?? 1, 'decks', 1, 'the number of decks in the shoe');
  let button: number | null = null;
  if (input.button !== undefined && input.button !== null) {
    button = readWhole(input.button, 'button', 1, 'the button seat');
  } else if (settings.dealStart === 'left-of-button') {
    missing('button', 'this rule set deals from the left of the button, so the button seat is needed');
  }
  if (!Array.isArray(input.seats)) throw new InputError('seats', `must be a list of seats (got ${describeValue(input.seats)})`);
  if (input.seats.length === 0) throw new InputError('seats', 'at least one seat is needed');
  const seats = input.seats.map((seat, index) => readSeat(seat, index, removed));
  const seen = new Map<number, number>();
  seats.forEach((seat, index) => {
    const first = seen.get(seat.seat);
    if (first !== undefined) throw new InputError(`seats[${index}].seat`, `seat ${seat.seat} appears twice (also seats[${first}])`);
    seen.set(seat.seat, index);
  });
  return {
    rules,
    settings,
    removed,
    next,
    button,
    decks,
    seats: [...seats].sort((a, b) => a.seat - b.seat),
  };
}

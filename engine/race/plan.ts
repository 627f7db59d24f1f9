import { exchangeRatio } from '../chips';
import { InputError } from '../errors';
import { holdsHalfChip, PROTECTION_RULES, ROUNDING_RULES, type PositionOutcome } from './roundings';
import { takesAll, type DealStart } from './rules';
import { CARDS_PER_DECK, type RaceSetup, type SeatSetup } from './setup';

/** What one seat does at the colour-up, before any card is dealt. */
export interface SeatExchange {
  readonly seat: number;
  /** New chips received for full groups of removed chips. */
  readonly up: number;
  /** Removed chips left over, 0 … k−1. */
  readonly odd: number;
  /** Whole stack is odd chips worth less than one new chip: the race must not knock them out. */
  readonly broke: boolean;
}

export interface DealRun {
  readonly seat: number;
  readonly cards: number;
}

export { holdsHalfChip, type PositionOutcome } from './roundings';

/** Everything the setup decides before the first card. */
export interface RacePlan {
  /** Removed chips per new chip. */
  readonly ratio: number;
  readonly exchange: readonly SeatExchange[];
  /** All odd chips at the table; they all leave play. */
  readonly oddChips: number;
  /** Odd chips the race hands out chips for, after protected players (may be negative under first-from-pool). */
  readonly poolChips: number;
  /** Seats in the race, in deal order (whether or not cards are needed). */
  readonly racers: readonly number[];
  /** Each racer's odd chips, in the order of `racers`. */
  readonly racerOdds: readonly number[];
  /** Seats given a chip before the race (exempt and first-from-pool protection). */
  readonly protectedBefore: readonly number[];
  /** Outcome of each position in the best-card-first order of the racers; empty for per-player rounding. */
  readonly positions: readonly PositionOutcome[];
  /** Fewest and most chips the race can hand out, whatever the cards. */
  readonly raceChipsRange: readonly [number, number];
  /**
   * Cards to deal, in order; empty when no card can change the outcome. Under high-card-takes-all
   * one card a racer, whatever their odd chips.
   */
  readonly deal: readonly DealRun[];
  readonly cardsNeeded: number;
  readonly shoeCapacity: number;
}

/**
 * Indexes into `seats` (ascending seat numbers) in deal order: from the first seat after the
 * button clockwise, from the button's own seat (or, when it holds no racer, the first one
 * clockwise after it), or from the lowest seat.
 */
function dealOrder(setup: RaceSetup, seats: readonly number[]): number[] {
  return dealOrderOf(setup.settings.dealStart, setup.button, seats);
}

/**
 * The seats in the order a deal from `dealStart` goes round them (`seats` ascending): the setup
 * screen names the first before any count is in, with every seat in play (issue 25).
 */
export function seatsInDealOrder(dealStart: DealStart, button: number | null, seats: readonly number[]): number[] {
  return dealOrderOf(dealStart, button, seats).map((index) => seats[index] as number);
}

function dealOrderOf(dealStart: DealStart, button: number | null, seats: readonly number[]): number[] {
  const order: number[] = [];
  let start = 0;
  if (dealStart !== 'seat-1' && button !== null) {
    const before = dealStart === 'button' ? (seat: number) => seat < button : (seat: number) => seat <= button;
    while (start < seats.length && before(seats[start] as number)) start += 1;
  }
  for (let index = start; index < seats.length; index += 1) order.push(index);
  for (let index = 0; index < start; index += 1) order.push(index);
  return order;
}

function exchangeFor(seat: SeatSetup, ratio: number): SeatExchange {
  const up = Math.floor(seat.chips / ratio);
  return { seat: seat.seat, up, odd: seat.chips % ratio, broke: seat.other === 0 && up === 0 };
}

/**
 * Whether the order of these players over these positions can change who wins. Used for the whole
 * race (are cards needed at all?) and for a group of identical best cards (is a tie-break needed?).
 */
export function orderMatters(positions: readonly PositionOutcome[], odds: readonly number[], ratio: number): boolean {
  if (positions.length <= 1) return false;
  let canWin = false;
  let canLose = false;
  for (const position of positions) {
    if (position === 'win') canWin = true;
    else if (position === 'lose') canLose = true;
    else for (const odd of odds) if (holdsHalfChip(odd, ratio)) canWin = true; else canLose = true;
  }
  return canWin && canLose;
}

/** Decides exchange, pool, protection and the deal from a validated setup. Refuses a race the shoe cannot deal. */
export function planRace(setup: RaceSetup): RacePlan {
  const ratio = exchangeRatio(setup.removed, setup.next);
  const rounding = ROUNDING_RULES[setup.settings.rounding];
  const protection = PROTECTION_RULES[setup.settings.protection];
  const exchange = setup.seats.map((seat) => exchangeFor(seat, ratio));
  let oddChips = 0;
  let protectedOdd = 0;
  const protectedBefore: number[] = [];
  // Seats in the race and their odd chips, in ascending seat order (setup.seats is sorted).
  const inRace: number[] = [];
  const inRaceOdds: number[] = [];
  for (const seat of exchange) {
    oddChips += seat.odd;
    if (seat.broke && protection.before) {
      protectedBefore.push(seat.seat);
      protectedOdd += seat.odd;
    } else if (seat.odd > 0) {
      inRace.push(seat.seat);
      inRaceOdds.push(seat.odd);
    }
  }
  const poolChips = protection.poolChips(oddChips, protectedOdd, protectedBefore.length, ratio);
  const order = dealOrder(setup, inRace);
  const racers = order.map((index) => inRace[index] as number);
  const odds = order.map((index) => inRaceOdds[index] as number);
  const positions = rounding.positions(poolChips, ratio, racers.length);
  const range = rounding.range(positions, odds, ratio);
  // High card takes all: whoever holds the best card takes every race chip, so with two racers or
  // more the cards matter whenever the race can hand out a chip at all; one card each decides it.
  const all = takesAll(setup.settings);
  const cardsMatter = all ? racers.length > 1 && range[1] > 0 : orderMatters(positions, odds, ratio);
  const deal = cardsMatter ? racers.map((seat, index) => ({ seat, cards: all ? 1 : (odds[index] as number) })) : [];
  const cardsNeeded = deal.reduce((sum, run) => sum + run.cards, 0);
  const shoeCapacity = setup.decks * CARDS_PER_DECK;
  if (cardsNeeded > shoeCapacity) {
    throw new InputError('decks', {
      key: 'race.setup.shoeTooSmall',
      params: { cards: cardsNeeded, n: setup.decks, capacity: shoeCapacity, decks: Math.ceil(cardsNeeded / CARDS_PER_DECK) },
    });
  }
  return { ratio, exchange, oddChips, poolChips, racers, racerOdds: odds, protectedBefore, positions, raceChipsRange: range, deal, cardsNeeded, shoeCapacity };
}

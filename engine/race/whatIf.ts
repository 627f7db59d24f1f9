import type { Card } from '../cards';
import { InputError } from '../errors';
import type { ListParam, Message, MessageKey } from '../messages';
import { seatOf } from './next';
import { applyRaceEvent, startRace, type RaceResult, type RaceState } from './race';
import { PROTECTION_RULES } from './roundings';
import { NO_RACE_ROUNDING, RULE_SET_NAMES, RULE_SETS, type RaceSettings, type RuleSetName } from './rules';

/**
 * "What would the other rules say?" — for the same counts and the same dealt cards, what each rule
 * set, and the house's own settings, would have given: who wins, the protection chips, the value
 * change, with what differs from the house's result flagged. Pure: a complete race in, plain data
 * and message keys out (the result screen lays it out; nothing here is journaled).
 *
 * How the same cards are used again, in the rules page's terms. Another rule set may race other
 * players (protection exempts a broke player, or deals them in), deal another number of cards (one
 * card per odd chip, one card each under high-card-takes-all, none when no card can change the
 * outcome) and start the deal at another seat. The cards in the shoe would then have fallen
 * differently; what can be said without inventing cards is what each seat's OWN cards would give:
 * - each seat's cards are the ones it was dealt, in the order it received them: its run of the race
 *   deal, then the further cards it drew in tie-breaks;
 * - under another rule set, every card dealt to a seat (its run, then any tie-break draw) is the next
 *   of that seat's own cards, whatever the order the seats are dealt in;
 * - a seat that rule set would deal MORE cards than it was dealt (more odd chips than cards under
 *   high-card-takes-all, a player raced in who was exempt, a tie-break the race never had) leaves it
 *   without a result: `otherCards`, naming the seat, "would have needed other cards"; no card is made up;
 * - a seat it would deal FEWER cards uses the first ones it received (those it would have got had
 *   the deal stopped there), and the cards left over are counted (`cardsUnused`) and said (`note`).
 * Under the house's own settings every seat takes exactly its own cards in the order it received
 * them, so that outcome is the race's real result (whatIf.test.ts proves it for any race).
 */

/** The house's own settings, or one of the rule sets. */
export type WhatIfName = 'house' | RuleSetName;

/** What differs from the house's result; null where this outcome is not known (other cards needed). */
export interface WhatIfDiffers {
  /** Who gets race chips (and how many each), regardless of order. */
  readonly awards: boolean | null;
  readonly protected: boolean | null;
  readonly raceChips: boolean | null;
  readonly valueDelta: boolean | null;
  /** Any of them. */
  readonly any: boolean | null;
}

export interface WhatIfOutcome {
  readonly name: WhatIfName;
  /** How the screens name it: `race.whatIf.house`, or the rule set's own name (`rules.<name>.name`, "Round (no race)"). */
  readonly label: MessageKey;
  readonly settings: RaceSettings;
  /** Whether it races at all: false where each player's odd chips are rounded and no card is dealt (`round`). */
  readonly races: boolean;
  /** Exactly the house's settings (a rule set the house runs unchanged): its outcome is the house's. */
  readonly sameSettings: boolean;
  /**
   * decided: the seats' own cards decide it; otherCards: a seat would have been dealt more cards than
   * it got (no result given); refused: this race cannot be set up under it (`said` says why, e.g. no
   * button seat for a deal from the button).
   */
  readonly status: 'decided' | 'otherCards' | 'refused';
  /** Seats winning a race chip, best card first, a seat once for each chip (as RaceResult.awards); null unless decided. */
  readonly awards: readonly number[] | null;
  /** The card that decided each award; null unless decided. */
  readonly winningCards: ReadonlyArray<{ readonly seat: number; readonly card: Card }> | null;
  /** Seats given a protection chip; known without cards when given before the race, else null unless decided. */
  readonly protected: readonly number[] | null;
  /** Race chips handed out; known without cards when the rounding fixes them, else null unless decided. */
  readonly raceChips: number | null;
  /** (race chips + protection chips) × next − value of all odd chips, when both are known. */
  readonly valueDelta: number | null;
  /** Cards it took from the seats' own. */
  readonly cardsUsed: number;
  /** Cards dealt in the race that it did not use (it deals some seats fewer). */
  readonly cardsUnused: number;
  /** The seat whose own cards ran out first, and how many it was dealt (otherCards); null otherwise. */
  readonly short: { readonly seat: number; readonly dealt: number } | null;
  readonly differs: WhatIfDiffers;
  /** One line, in keys: `classic: winners: seat 1, seat 2 (+25)`, or why there is no result. */
  readonly said: Message;
  /** A note to the line: fewer cards used than were dealt; null when none, and where it deals no card at all. */
  readonly note: Message | null;
}

export interface WhatIf {
  /** The house's own first, then classic, tda, roberts, round. */
  readonly outcomes: readonly WhatIfOutcome[];
  /** How the same cards were used, for the screen's footnote. */
  readonly how: Message;
}

interface Played {
  readonly status: WhatIfOutcome['status'];
  readonly state: RaceState | null;
  readonly result: RaceResult | null;
  readonly cardsUsed: number;
  readonly short: WhatIfOutcome['short'];
  readonly refusal: Message | null;
}

/** Each seat's own cards, in the order it received them (the race deal, then its tie-break draws). */
function cardsBySeat(state: RaceState): Map<number, Card[]> {
  const bySeat = new Map<number, Card[]>();
  for (const { seat, card } of state.cards) {
    const own = bySeat.get(seat);
    if (own === undefined) bySeat.set(seat, [card]);
    else own.push(card);
  }
  return bySeat;
}

/** The race's counts under `rules` with `settings` chosen on their own (none: the rule set's). */
function inputFor(state: RaceState, rules: RuleSetName, settings: Partial<RaceSettings>) {
  const { setup } = state;
  return {
    rules,
    ...settings,
    removed: setup.removed,
    next: setup.next,
    ...(setup.button === null ? {} : { button: setup.button }),
    decks: setup.decks,
    seats: setup.seats.map(({ seat, name, chips, other }) => ({ seat, name, chips, other })),
  };
}

/** The race run again under other rules, each card the awaited seat's next own card. */
function play(input: unknown, bySeat: ReadonlyMap<number, readonly Card[]>): Played {
  let state: RaceState;
  try {
    state = startRace(input);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { status: 'refused', state: null, result: null, cardsUsed: 0, short: null, refusal: error.said ?? { key: 'race.whatIf.cannotRun' } };
  }
  const taken = new Map<number, number>();
  let used = 0;
  while (state.progress.status !== 'complete') {
    const { seat } = state.progress.awaiting;
    const own = bySeat.get(seat) ?? [];
    const next = taken.get(seat) ?? 0;
    const card = own[next];
    if (card === undefined) return { status: 'otherCards', state, result: null, cardsUsed: used, short: { seat, dealt: own.length }, refusal: null };
    taken.set(seat, next + 1);
    used += 1;
    // The seat's own cards are a part of the race's, so no card comes more often than the shoe holds it.
    state = applyRaceEvent(state, { type: 'card', card });
  }
  return { status: 'decided', state, result: state.progress.result, cardsUsed: used, short: null, refusal: null };
}

function sameSettings(a: RaceSettings, b: RaceSettings): boolean {
  return a.rounding === b.rounding && a.dealStart === b.dealStart && a.protection === b.protection && a.award === b.award;
}

const sorted = (seats: readonly number[]): number[] => [...seats].sort((a, b) => a - b);
const sameSeats = (a: readonly number[], b: readonly number[]): boolean => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

/** What is known of an outcome: everything once decided; without cards, what the plan fixes. */
function figures(played: Played): Pick<WhatIfOutcome, 'awards' | 'winningCards' | 'protected' | 'raceChips' | 'valueDelta'> {
  const { result } = played;
  if (result !== null) {
    return { awards: [...result.awards], winningCards: result.winningCards.map(({ seat, card }) => ({ seat, card })), protected: [...result.protected], raceChips: result.raceChips, valueDelta: result.valueDelta };
  }
  const planned = played.state;
  if (planned === null) return { awards: null, winningCards: null, protected: null, raceChips: null, valueDelta: null };
  const { plan, setup } = planned;
  const [fewest, most] = plan.raceChipsRange;
  const raceChips = fewest === most ? fewest : null;
  // Protection before the race is known from the counts; after it, only once the cards said who was raced out.
  const before = PROTECTION_RULES[setup.settings.protection].before;
  const protectedSeats = before || plan.exchange.every((seat) => !seat.broke) ? [...plan.protectedBefore] : null;
  const known = raceChips !== null && protectedSeats !== null;
  return {
    awards: null,
    winningCards: null,
    protected: protectedSeats,
    raceChips,
    valueDelta: known ? (raceChips + protectedSeats.length) * setup.next - plan.oddChips * setup.removed : null,
  };
}

function differsFrom(house: Pick<WhatIfOutcome, 'awards' | 'protected' | 'raceChips' | 'valueDelta'>, outcome: Pick<WhatIfOutcome, 'awards' | 'protected' | 'raceChips' | 'valueDelta'>): WhatIfDiffers {
  const compare = <T>(a: T | null, b: T | null, same: (x: T, y: T) => boolean): boolean | null => (a === null || b === null ? null : !same(a, b));
  const awards = compare(house.awards, outcome.awards, sameSeats);
  const protectedSeats = compare(house.protected, outcome.protected, sameSeats);
  const raceChips = compare(house.raceChips, outcome.raceChips, (x, y) => x === y);
  const valueDelta = compare(house.valueDelta, outcome.valueDelta, (x, y) => x === y);
  const all = [awards, protectedSeats, raceChips, valueDelta];
  const any = all.some((flag) => flag === true) ? true : all.some((flag) => flag === null) ? null : false;
  return { awards, protected: protectedSeats, raceChips, valueDelta, any };
}

/** The outcome's line in keys: its name, who gets chips (a seat × n for several), the value change. */
function lineOf(state: RaceState, label: MessageKey, outcome: Omit<WhatIfOutcome, 'said' | 'note' | 'name' | 'label' | 'settings' | 'sameSettings' | 'differs'>, refusal: Message | null): Message {
  // Without a race no chip is raced for: the players given one rounded their own odd chips up.
  const awarded: MessageKey = outcome.races ? 'race.whatIf.winners' : 'race.whatIf.roundedUp';
  const rules = { message: { key: label } };
  if (outcome.status === 'refused') return { key: 'race.whatIf.refused', params: { rules, reason: { message: refusal ?? { key: 'race.whatIf.cannotRun' } } } };
  if (outcome.status === 'otherCards' || outcome.awards === null || outcome.protected === null || outcome.valueDelta === null) {
    const short = outcome.short ?? { seat: 0, dealt: 0 };
    return { key: 'race.whatIf.otherCards', params: { rules, seat: seatOf(state, short.seat), n: short.dealt } };
  }
  const seatsOf = (seats: readonly number[], counted: boolean): ListParam => {
    const items: Message[] = [];
    for (const seat of new Set(seats)) {
      const n = seats.filter((other) => other === seat).length;
      items.push(counted && n > 1 ? { key: 'race.whatIf.seatChips', params: { seat: seatOf(state, seat), n } } : { key: 'race.next.seat', params: { seat: seatOf(state, seat) } });
    }
    return { items, join: ',' };
  };
  const given: Message[] = [];
  if (outcome.awards.length > 0) given.push({ key: awarded, params: { seats: seatsOf(outcome.awards, true), next: state.setup.next } });
  if (outcome.protected.length > 0) given.push({ key: 'race.next.protected', params: { seats: seatsOf(outcome.protected, false) } });
  if (given.length === 0) given.push({ key: 'race.whatIf.nobody' });
  const delta = `${outcome.valueDelta >= 0 ? '+' : ''}${outcome.valueDelta}`;
  return { key: 'race.whatIf.decided', params: { rules, given: { items: given, join: ';' }, delta } };
}

/**
 * What each rule set, and the house's own settings, would have given for this race's counts and the
 * cards its seats were dealt (see the top of this file for how the cards are used again); null while
 * the race is not complete.
 */
export function whatOtherRulesSay(state: RaceState): WhatIf | null {
  if (state.progress.status !== 'complete') return null;
  const bySeat = cardsBySeat(state);
  const dealt = state.cards.length;
  const { setup } = state;
  const candidates: Array<{ name: WhatIfName; label: MessageKey; input: unknown }> = [
    { name: 'house', label: 'race.whatIf.house', input: inputFor(state, setup.rules, setup.settings) },
    ...RULE_SET_NAMES.map((rules) => ({ name: rules, label: `rules.${rules}.name` as const satisfies MessageKey, input: inputFor(state, rules, {}) })),
  ];
  const played = candidates.map((candidate) => ({ candidate, played: play(candidate.input, bySeat) }));
  const houseFigures = figures((played[0] as (typeof played)[number]).played);
  const outcomes = played.map(({ candidate, played: run }): WhatIfOutcome => {
    const known = figures(run);
    const settings = run.state?.setup.settings ?? (candidate.name === 'house' ? setup.settings : RULE_SETS[candidate.name]);
    const cardsUnused = run.status === 'decided' ? dealt - run.cardsUsed : 0;
    const races = settings.rounding !== NO_RACE_ROUNDING;
    const body = { status: run.status, races, ...known, cardsUsed: run.cardsUsed, cardsUnused, short: run.short };
    return {
      name: candidate.name,
      label: candidate.label,
      settings,
      sameSettings: sameSettings(settings, setup.settings),
      ...body,
      differs: differsFrom(houseFigures, known),
      said: lineOf(state, candidate.label, body, run.refusal),
      note: races && cardsUnused > 0 ? { key: 'race.whatIf.fewerCards', params: { n: cardsUnused } } : null,
    };
  });
  return { outcomes, how: { key: 'race.whatIf.how' } };
}

import { cardStrength, parseCard, readCard, type Card } from '../cards';
import { InputError } from '../errors';
import { valueParam } from '../messages';
import { holdsHalfChip, orderMatters, planRace, type DealRun, type RacePlan } from './plan';
import { PROTECTION_RULES, ROUNDING_RULES } from './roundings';
import { takesAll } from './rules';
import { readRaceSetup, type RaceSetup } from './setup';

/** The only ways a race changes. Plain data, so the journal can store and replay them. */
export type RaceEvent =
  | { readonly type: 'setup'; readonly race: unknown }
  | { readonly type: 'card'; readonly card: string }
  | { readonly type: 'void'; readonly count?: number; readonly reason?: string };

export interface DealtCard {
  readonly card: Card;
  readonly seat: number;
  /** 0 for the race deal, 1, 2, … for tie-break rounds. */
  readonly round: number;
}

/** A voided card stays on record: disputes are settled from the corrections, not from memory. */
export interface Correction {
  readonly voided: DealtCard;
  readonly reason: string;
  /** Where the card stood in the deal (0 = first card dealt). */
  readonly position: number;
}

export interface Awaiting {
  readonly seat: number;
  /** Cards this seat still gets in the current run. */
  readonly cards: number;
  readonly round: number;
}

export interface RaceResult {
  /**
   * Seats winning a chip in the race, best card first, a seat once for each chip it wins: one chip
   * each, every seat at most once; under high-card-takes-all the best card's seat as many times as
   * there are race chips.
   */
  readonly awards: readonly number[];
  /** The card that decided each award, in the order of `awards` (absent when no cards were dealt). */
  readonly winningCards: ReadonlyArray<{ readonly seat: number; readonly card: Card }>;
  /** Seats given a chip because the race may not knock them out. */
  readonly protected: readonly number[];
  readonly raceChips: number;
  /** (race chips + protection chips) × next − value of all odd chips. */
  readonly valueDelta: number;
  /** Racers ranked best first, as the cards (and tie-breaks) decided; deal order when no cards. */
  readonly ranking: readonly number[];
}

export type RaceProgress =
  | { readonly status: 'dealing' | 'tiebreak'; readonly awaiting: Awaiting; readonly result: null }
  | { readonly status: 'complete'; readonly awaiting: null; readonly result: RaceResult };

export interface RaceState {
  readonly setup: RaceSetup;
  readonly plan: RacePlan;
  readonly cards: readonly DealtCard[];
  readonly corrections: readonly Correction[];
  readonly progress: RaceProgress;
}

function lexicographicDescending(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const difference = (b[index] as number) - (a[index] as number);
    if (difference !== 0) return difference;
  }
  return b.length - a.length;
}

/**
 * Racer indexes ordered by their keys, best first, equal keys in deal order. An insertion sort: a
 * table has at most a few racers, and this runs once a race (and per tie-break round), where
 * Array.prototype.sort with a comparator costs more than the rest of the ranking.
 */
function rankedBestFirst(keys: readonly (readonly number[])[]): number[] {
  const ranking: number[] = [];
  for (let racer = 0; racer < keys.length; racer += 1) {
    let at = ranking.length;
    // Move back past the racers this one beats; an equal key stays behind the earlier racer.
    while (at > 0 && lexicographicDescending(keys[ranking[at - 1] as number] as number[], keys[racer] as number[]) > 0) {
      ranking[at] = ranking[at - 1] as number;
      at -= 1;
    }
    ranking[at] = racer;
  }
  return ranking;
}

function sameKey(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/** Whether `racer` (an index into plan.racers), ranked at `index` in the best-first order, wins a chip. */
export function winsAt(setup: RaceSetup, plan: RacePlan, racer: number, index: number): boolean {
  const position = ROUNDING_RULES[setup.settings.rounding].positionAt(plan.positions, index);
  return position === 'win' || (position === 'half' && holdsHalfChip(plan.racerOdds[racer] as number, plan.ratio));
}

/**
 * Racers (as indexes into plan.racers) who win a chip, given the racers ranked best first, a racer
 * once for each chip: the places that win, one chip each; under high-card-takes-all as many chips
 * as those places make, all to the first.
 */
function awardsFromRanking(setup: RaceSetup, plan: RacePlan, ranking: readonly number[]): number[] {
  const winners = ranking.filter((racer, index) => winsAt(setup, plan, racer, index));
  if (!takesAll(setup.settings)) return winners;
  return winners.map(() => ranking[0] as number);
}

/** Whether the racer ranked at `index` of `ranking` (best first) wins any chip: under high-card-takes-all only the first, when the race hands one out. */
export function winsRanked(setup: RaceSetup, plan: RacePlan, ranking: readonly number[], index: number): boolean {
  if (!takesAll(setup.settings)) return winsAt(setup, plan, ranking[index] as number, index);
  return index === 0 && ranking.some((racer, at) => winsAt(setup, plan, racer, at));
}

/**
 * Whether the order among the racers ranked `start` to `end` (exclusive), whose cards are identical
 * so far, can change who gets which chip: the tie a further card must break (tiebreaks.ts).
 * One chip each: whether those places win differently (orderMatters). High card takes all: every
 * race chip goes to the first place, so the order decides who is first (the tie is at the top and
 * the race hands out a chip), and, under next-player-half, how many chips are raced (the tie holds
 * the next player's place and some of its racers hold half a chip of their own, some not).
 */
export function tieMatters(setup: RaceSetup, plan: RacePlan, ranking: readonly number[], start: number, end: number): boolean {
  if (end - start < 2) return false;
  const odds = ranking.slice(start, end).map((racer) => plan.racerOdds[racer] as number);
  if (!takesAll(setup.settings)) return orderMatters(plan.positions.slice(start, end), odds, plan.ratio);
  const half = plan.positions.indexOf('half');
  const halfHere = half >= start && half < end;
  const holding = odds.filter((odd) => holdsHalfChip(odd, plan.ratio)).length;
  if (halfHere && holding > 0 && holding < odds.length) return true;
  if (start !== 0) return false;
  // At the top: a chip is raced for sure once a place wins outright, or when the next player's chance is this tie's and they all hold half.
  return plan.positions.includes('win') || (halfHere && holding === odds.length);
}

/**
 * What the race saw at one step of its tie-breaks, once the deal was complete: handed to the
 * tracer of `traceTieBreaks` (tiebreaks.ts builds the record of the tie-breaks from these).
 * Racers are indexes into plan.racers.
 */
export interface TieBreakStep {
  /** The tie-break round this step deals (1, 2, …), as DealtCard.round. */
  readonly round: number;
  /** Each racer's best card of the race deal. */
  readonly best: readonly Card[];
  /** Racers best first by the cards so far (equal ones in deal order). */
  readonly ranking: readonly number[];
  /** Each racer's comparison key: best card's strength, then one per tie-break card drawn. Read it during the call. */
  readonly keys: readonly (readonly number[])[];
  /** The tied racers whose order decides a chip, in deal order, drawing one card each this round; null: no such tie is left. */
  readonly tied: readonly number[] | null;
  /** Index in the race's cards of this round's first card. */
  readonly first: number;
}

type TieBreakTracer = (step: TieBreakStep) => void;

function complete(setup: RaceSetup, plan: RacePlan, ranking: readonly number[], best: readonly (Card | undefined)[]): RaceProgress {
  const winners = awardsFromRanking(setup, plan, ranking);
  const awards = winners.map((racer) => plan.racers[racer] as number);
  // Protected before the race (exempt, first-from-pool), or raced out with nothing left and helped after it.
  const protectedSeats = PROTECTION_RULES[setup.settings.protection].before
    ? plan.protectedBefore.slice()
    : plan.exchange.filter((seat) => seat.broke && !awards.includes(seat.seat)).map((seat) => seat.seat);
  const winningCards: Array<{ seat: number; card: Card }> = [];
  for (const racer of winners) {
    const card = best[racer];
    if (card !== undefined) winningCards.push({ seat: plan.racers[racer] as number, card });
  }
  return {
    status: 'complete',
    awaiting: null,
    result: {
      awards,
      winningCards,
      protected: protectedSeats,
      raceChips: awards.length,
      valueDelta: (awards.length + protectedSeats.length) * setup.next - plan.oddChips * setup.removed,
      ranking: ranking.map((racer) => plan.racers[racer] as number),
    },
  };
}

/**
 * Works out, from the cards dealt so far, whose card comes next or how the race ended. Cards are
 * attributed in deal order; once the deal is done, identical best cards (several decks) that decide
 * a chip get one more card each, in deal order, until they differ. Racers are handled by their
 * index in the deal order.
 */
function progressOf(setup: RaceSetup, plan: RacePlan, cards: readonly DealtCard[], trace?: TieBreakTracer): RaceProgress {
  if (plan.deal.length === 0) return complete(setup, plan, plan.racers.map((_, racer) => racer), []);
  if (cards.length < plan.cardsNeeded) {
    // Still dealing: the run the next card belongs to.
    let dealt = 0;
    for (let index = 0; ; index += 1) {
      const run = plan.deal[index] as DealRun;
      dealt += run.cards;
      if (cards.length < dealt) return { status: 'dealing', awaiting: { seat: run.seat, cards: dealt - cards.length, round: 0 }, result: null };
    }
  }
  const dealt = plan.cardsNeeded;
  // Deal complete: each racer's best card, walking the runs again (run i belongs to racer i).
  const best: Card[] = [];
  let first = 0;
  for (const run of plan.deal) {
    let top = (cards[first] as DealtCard).card;
    for (let index = first + 1; index < first + run.cards; index += 1) {
      const card = (cards[index] as DealtCard).card;
      if (cardStrength(card) > cardStrength(top)) top = card;
    }
    best.push(top);
    first += run.cards;
  }
  const keys = best.map((card) => [cardStrength(card)]);
  let next = dealt;
  for (let round = 1; ; round += 1) {
    // Ties left standing (because they decide nothing) stay in deal order, so listings are predictable.
    const ranking = rankedBestFirst(keys);
    const tied = decidingTie(setup, plan, ranking, keys)?.sort((a, b) => a - b) ?? null;
    trace?.({ round, best, ranking, keys, tied, first: next });
    if (tied === null) return complete(setup, plan, ranking, best);
    for (const racer of tied) {
      const dealtCard = cards[next];
      if (dealtCard === undefined) return { status: 'tiebreak', awaiting: { seat: plan.racers[racer] as number, cards: 1, round }, result: null };
      (keys[racer] as number[]).push(cardStrength(dealtCard.card));
      next += 1;
    }
  }
}

/** The first group of identical keys whose order decides a chip, or null when none does. */
function decidingTie(setup: RaceSetup, plan: RacePlan, ranking: readonly number[], keys: readonly (readonly number[])[]): number[] | null {
  let start = 0;
  while (start < ranking.length) {
    const key = keys[ranking[start] as number] as readonly number[];
    let end = start + 1;
    while (end < ranking.length && sameKey(keys[ranking[end] as number] as readonly number[], key)) end += 1;
    if (tieMatters(setup, plan, ranking, start, end)) return ranking.slice(start, end);
    start = end;
  }
  return null;
}

/**
 * Walks the race's tie-breaks as the race itself decides them, calling `trace` at every step
 * (the last call has `tied` null when no deciding tie is left). Nothing is called while the race
 * deal is still under way or when no cards are dealt at all.
 */
export function traceTieBreaks(state: RaceState, trace: TieBreakTracer): void {
  progressOf(state.setup, state.plan, state.cards, trace);
}

function withCards(state: RaceState, cards: readonly DealtCard[], corrections: readonly Correction[]): RaceState {
  return { setup: state.setup, plan: state.plan, cards, corrections, progress: progressOf(state.setup, state.plan, cards) };
}

/** The card `event` adds to the deal, to the seat the race is waiting for; refuses one the race cannot take. */
function nextCard(setup: RaceSetup, progress: RaceProgress, cards: readonly DealtCard[], event: { readonly card?: unknown }): DealtCard {
  if (progress.status === 'complete') {
    const card = typeof event.card === 'string' ? parseCard(event.card) : null;
    throw new InputError('card', { key: 'race.refused.complete', params: { value: card === null ? valueParam(event.card) : { card } } });
  }
  const card = readCard(event.card, 'card');
  let copies = 0;
  for (let index = 0; index < cards.length; index += 1) if ((cards[index] as DealtCard).card === card) copies += 1;
  if (copies >= setup.decks) {
    const seats = { seats: cards.filter((dealt) => dealt.card === card).map((dealt) => ({ seat: dealt.seat })) };
    throw new InputError(
      'card',
      setup.decks === 1
        ? { key: 'race.refused.duplicate', params: { card: { card }, seats } }
        : { key: 'race.refused.duplicateDecks', params: { card: { card }, copies, seats, decks: setup.decks } },
    );
  }
  const { seat, round } = progress.awaiting;
  return { card, seat, round };
}

/** The corrections `event` records, last card dealt first; refuses a void the deal cannot take. */
function voidedCards(cards: readonly DealtCard[], event: { readonly count?: unknown; readonly reason?: unknown }): Correction[] {
  const count = event.count ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
    throw new InputError('count', { key: 'race.refused.voidCount', params: { value: valueParam(count) } });
  }
  if (count > cards.length) {
    throw new InputError('count', { key: 'race.refused.voidTooMany', params: { n: count, dealt: cards.length } });
  }
  if (event.reason !== undefined && typeof event.reason !== 'string') {
    throw new InputError('reason', { key: 'race.refused.voidReason', params: { value: valueParam(event.reason) } });
  }
  const reason = event.reason?.trim() ?? '';
  return cards
    .slice(cards.length - count)
    .reverse()
    .map((card, index) => ({ voided: card, reason, position: cards.length - index - 1 }));
}

/** Which change `event` makes to a race that is set up; refuses the others. */
function changeOf(state: RaceState | null, event: RaceEvent): 'setup' | 'card' | 'void' {
  const type: unknown = (event as { type?: unknown } | null)?.type;
  if (type === 'setup') {
    if (state !== null) throw new InputError('event', { key: 'race.refused.alreadySetUp' });
    return type;
  }
  if (type !== 'card' && type !== 'void') {
    throw new InputError('event', { key: 'race.refused.unknownEvent', params: { value: valueParam(type) } });
  }
  if (state === null) throw new InputError('event', { key: 'race.refused.needsSetup', params: { type } });
  return type;
}

export function startRace(race: unknown): RaceState {
  const setup = readRaceSetup(race);
  const plan = planRace(setup);
  return { setup, plan, cards: [], corrections: [], progress: progressOf(setup, plan, []) };
}

/**
 * The race reducer: the state after `event`. Pure; refuses an invalid event with an InputError and
 * leaves the given state untouched, so a refused card loses nothing.
 */
export function applyRaceEvent(state: RaceState | null, event: RaceEvent): RaceState {
  const change = changeOf(state, event);
  if (change === 'setup' || state === null) return startRace((event as { race: unknown }).race);
  if (change === 'card') {
    const cards = state.cards.slice();
    cards.push(nextCard(state.setup, state.progress, state.cards, event as { card?: unknown }));
    return withCards(state, cards, state.corrections);
  }
  const added = voidedCards(state.cards, event as { count?: unknown; reason?: unknown });
  return withCards(state, state.cards.slice(0, state.cards.length - added.length), [...state.corrections, ...added]);
}

/** A batch of events applied: the state after the accepted ones, and each refused one with its error. */
export interface RaceBatch {
  readonly state: RaceState;
  readonly refused: ReadonlyArray<{ readonly index: number; readonly error: unknown }>;
}

/**
 * The state after `events`, exactly as `applyRaceEvent` one by one gives it, an event it refuses
 * being skipped and reported. Builds the card list once rather than copying it for every card, so
 * replaying a long journal costs time in proportion to its length.
 */
export function applyRaceEvents(state: RaceState, events: readonly RaceEvent[]): RaceBatch {
  const { setup, plan } = state;
  const cards = state.cards.slice();
  const corrections = state.corrections.slice();
  let progress = state.progress;
  const refused: { index: number; error: unknown }[] = [];
  events.forEach((event, index) => {
    try {
      if (changeOf(state, event) === 'card') cards.push(nextCard(setup, progress, cards, event as { card?: unknown }));
      else {
        const added = voidedCards(cards, event as { count?: unknown; reason?: unknown });
        cards.length -= added.length;
        corrections.push(...added);
      }
      progress = progressOf(setup, plan, cards);
    } catch (error) {
      refused.push({ index, error });
    }
  });
  return { state: { setup, plan, cards, corrections, progress }, refused };
}

/** Rebuilds a race from its events, as the journal does on start. */
export function replayRace(events: readonly RaceEvent[]): RaceState {
  let state: RaceState | null = null;
  for (const event of events) state = applyRaceEvent(state, event);
  if (state === null) throw new InputError('events', { key: 'race.refused.noEvents' });
  return state;
}

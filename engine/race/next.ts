import type { Message, SeatParam } from '../messages';
import type { RaceState } from './race';
import { takesAll } from './rules';

/** A seat of the race with its player's name, as messages carry it. */
export function seatOf(state: RaceState, seat: number, start = false): SeatParam {
  const name = state.setup.seats.find((entry) => entry.seat === seat)?.name ?? '';
  return name === '' ? (start ? { seat, start } : { seat }) : start ? { seat, name, start } : { seat, name };
}

/**
 * What the dealer does next, as a key and its parameters: the screens say it in the dealer's
 * language, the command line in English (`Deal 3 cards to seat 1 — Matti`).
 */
export function nextStep(state: RaceState): Message {
  const { progress, setup } = state;
  if (progress.status !== 'complete') {
    const { seat, cards } = progress.awaiting;
    return { key: progress.status === 'tiebreak' ? 'race.next.tiebreak' : 'race.next.deal', params: { n: cards, seat: seatOf(state, seat) } };
  }
  const { awards, winningCards } = progress.result;
  const chips = { next: setup.next, removed: setup.removed };
  if (awards.length + progress.result.protected.length === 0) return { key: 'race.next.noChips', params: chips };
  // High card takes all: the one seat, once, with the number of chips it takes.
  const all = takesAll(setup.settings) && awards.length > 0;
  const won = (all ? awards.slice(0, 1) : awards).map((seat): Message => {
    const card = winningCards.find((entry) => entry.seat === seat)?.card;
    if (card === undefined) return { key: 'race.next.seat', params: { seat: seatOf(state, seat) } };
    return { key: 'race.next.wonWith', params: { seat: seatOf(state, seat), card: { card } } };
  });
  const given: Message[] = [];
  // Under per-player rounding nothing is raced: each player's own odd chips were rounded up.
  const rounded = setup.settings.rounding === 'per-player-half-up';
  if (all) given.push({ key: 'race.next.takesAll', params: { n: awards.length, winner: { message: won[0] as Message } } });
  else if (won.length > 0) given.push({ key: rounded ? 'race.next.rounded' : 'race.next.raced', params: { seats: { items: won, join: ',' } } });
  if (progress.result.protected.length > 0) {
    const seats: Message[] = progress.result.protected.map((seat) => ({ key: 'race.next.seat', params: { seat: seatOf(state, seat) } }));
    given.push({ key: 'race.next.protected', params: { seats: { items: seats, join: ',' } } });
  }
  return { key: all ? 'race.next.awardAll' : 'race.next.award', params: { ...chips, given: { items: given, join: ';' } } };
}

import { ALL_CARDS, type Card } from '../cards';
import { applyRaceEvent, type RaceState } from './race';

/** Deals cards into a race one by one, as a shoe would. Shared by the race tests and the benchmark. */
export function dealAll(state: RaceState, cards: readonly string[]): RaceState {
  return cards.reduce((current, card) => applyRaceEvent(current, { type: 'card', card }), state);
}

/**
 * A shoe of `decks` decks in an order chosen by `shuffle` (a list of random numbers in [0, 1)),
 * so tests and benchmarks draw cards without a clock or a random source of the engine's own.
 */
export function shuffledShoe(decks: number, random: () => number): Card[] {
  const shoe = Array.from({ length: decks }, () => ALL_CARDS).flat();
  for (let index = shoe.length - 1; index > 0; index -= 1) {
    const swap = Math.floor(random() * (index + 1));
    [shoe[index], shoe[swap]] = [shoe[swap] as Card, shoe[index] as Card];
  }
  return shoe;
}

/** Deals from `shoe` until the race is complete; returns the final state. */
export function dealUntilComplete(state: RaceState, shoe: readonly Card[]): RaceState {
  let current = state;
  let next = 0;
  while (current.progress.status !== 'complete') {
    const card = shoe[next];
    if (card === undefined) throw new Error('shoe ran out before the race completed');
    current = applyRaceEvent(current, { type: 'card', card });
    next += 1;
  }
  return current;
}

import type { Card } from '../cards';
import { applyRaceEvent, type RaceState } from './race';

/** Deals cards into a race one by one, as a shoe would. Shared by the race tests and the benchmark. */
export function dealAll(state: RaceState, cards: readonly string[]): RaceState {
  return cards.reduce((current, card) => applyRaceEvent(current, { type: 'card', card }), state);
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

import { InputError } from '../errors';
import { applyRaceEvent, startRace, type RaceState } from './race';

/**
 * Plays a whole race given as one JSON object (setup fields plus optional `cards` in the order
 * dealt, tie-break cards after them). A refused card is reported as `cards[i]`.
 */
export function raceFromInput(input: unknown): RaceState {
  let state = startRace(input);
  const cards = (input as { cards?: unknown }).cards;
  if (cards === undefined) return state;
  if (!Array.isArray(cards)) throw new InputError('cards', { key: 'race.refused.cardsList' });
  cards.forEach((card: unknown, index) => {
    try {
      state = applyRaceEvent(state, { type: 'card', card: card as string });
    } catch (error) {
      if (error instanceof InputError) throw new InputError(`cards[${index}]`, error.said ?? error.reason);
      throw error;
    }
  });
  return state;
}

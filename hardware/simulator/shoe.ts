import type { Card } from '../../engine/cards';
import { seededRandom, shuffleDecks } from '../../engine/shoe';
import type { DeviceProfile } from '../profile';

export { seededRandom } from '../../engine/shoe';

/** `decks` full decks shuffled together, in dealing order. Deterministic in `seed`. */
export function shuffledShoe(seed: number, decks = 1): Card[] {
  return shuffleDecks(decks, seededRandom(seed));
}

/**
 * Milliseconds between two cards at `rate` cards per second. A reader that frames by silence
 * needs a pause of at least twice its idle time between cards, whatever the rate.
 */
export function cardInterval(rate: number, profile: DeviceProfile): number {
  const interval = 1000 / rate;
  return profile.framing.kind === 'silence' ? Math.max(interval, profile.framing.idleMs * 2) : interval;
}

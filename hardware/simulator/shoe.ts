import { ALL_CARDS, type Card } from '../../engine/cards';
import type { DeviceProfile } from '../profile';

/** mulberry32: a small, fast, well-mixed 32-bit PRNG; the same seed always gives the same shoe. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `decks` full decks shuffled together (Fisher–Yates), in dealing order. Deterministic in `seed`. */
export function shuffledShoe(seed: number, decks = 1): Card[] {
  const random = seededRandom(seed);
  const shoe: Card[] = [];
  for (let deck = 0; deck < decks; deck += 1) shoe.push(...ALL_CARDS);
  for (let index = shoe.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [shoe[index], shoe[other]] = [shoe[other] as Card, shoe[index] as Card];
  }
  return shoe;
}

/**
 * Milliseconds between two cards at `rate` cards per second. A reader that frames by silence
 * needs a pause of at least twice its idle time between cards, whatever the rate.
 */
export function cardInterval(rate: number, profile: DeviceProfile): number {
  const interval = 1000 / rate;
  return profile.framing.kind === 'silence' ? Math.max(interval, profile.framing.idleMs * 2) : interval;
}

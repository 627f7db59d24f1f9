import { ALL_CARDS, type Card } from './cards';

/**
 * Shuffling for simulators, tests and benchmarks. The engine never draws randomness itself: the
 * caller hands in a generator, and a seeded one makes every shoe reproducible from its seed.
 */

/** mulberry32: a small, fast, well-mixed 32-bit generator; the same seed always gives the same numbers. */
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

/** A Fisher–Yates shuffle of a copy of `items`. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = items.slice();
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const swap = Math.floor(random() * (index + 1));
    [copy[index], copy[swap]] = [copy[swap] as T, copy[index] as T];
  }
  return copy;
}

/** The most decks a shoe holds (the table's `decks`, the floor's house rules). */
export const MAX_DECKS = 8;

/** `decks` full decks shuffled together, in dealing order. */
export function shuffleDecks(decks: number, random: () => number): Card[] {
  return shuffled(Array.from({ length: decks }, () => ALL_CARDS).flat(), random);
}

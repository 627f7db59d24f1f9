import { describe, expect, it } from 'vitest';
import { ALL_CARDS } from '../../engine/cards';
import { BUILT_IN_PROFILES, DEFAULT_PROFILE, type DeviceProfile } from '../profile';
import { cardInterval, seededRandom, shuffledShoe } from './shoe';

describe('simulated shoe', () => {
  it('the same seed deals the same shoe; another seed another', () => {
    expect(shuffledShoe(7)).toEqual(shuffledShoe(7));
    expect(shuffledShoe(7)).not.toEqual(shuffledShoe(8));
    // Pinned so a change of generator (which would change every recorded demo) is noticed.
    expect(shuffledShoe(7).slice(0, 5)).toEqual(['7s', '4d', 'Ah', '6d', 'Kd']);
  });

  it('holds every card of every deck exactly once per deck', () => {
    for (const decks of [1, 2, 6]) {
      const shoe = shuffledShoe(123, decks);
      expect(shoe).toHaveLength(52 * decks);
      expect([...shoe].sort()).toEqual(ALL_CARDS.flatMap((card) => Array<string>(decks).fill(card)).sort());
    }
  });

  it('the generator stays in [0, 1)', () => {
    const random = seededRandom(0);
    for (let index = 0; index < 10_000; index += 1) {
      const value = random();
      expect(value >= 0 && value < 1).toBe(true);
    }
  });

  it('paces cards by the rate, and at least twice the idle time for silence framing', () => {
    expect(cardInterval(2, DEFAULT_PROFILE)).toBe(500);
    expect(cardInterval(50, DEFAULT_PROFILE)).toBe(20);
    const barcode = BUILT_IN_PROFILES.barcode as DeviceProfile;
    expect(cardInterval(50, barcode)).toBe(100);
    expect(cardInterval(1, barcode)).toBe(1000);
  });
});

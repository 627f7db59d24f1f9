import { describe, expect, it } from 'vitest';
import { createGuessPacer } from './guesses';

describe('the wrong-token pacer', () => {
  it('answers one address\'s wrong guesses spacingMs apart, refuses beyond maxWaiting, and leaves other addresses alone', async () => {
    const pacer = createGuessPacer({ spacingMs: 40, maxWaiting: 3 });
    const started = Date.now();
    const outcomes = await Promise.all([pacer.pace('10.0.0.5', false), pacer.pace('10.0.0.5', false), pacer.pace('10.0.0.5', false), pacer.pace('10.0.0.5', false)]);
    expect(outcomes).toEqual([true, true, true, false]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
    const other = Date.now();
    expect(await pacer.pace('10.0.0.6', true)).toBe(true);
    expect(Date.now() - other).toBeLessThan(20);
  });

  it('makes a right guess wait for the wrong ones before it (a fast answer would tell which was right)', async () => {
    const pacer = createGuessPacer({ spacingMs: 60, maxWaiting: 10 });
    const started = Date.now();
    const wrong = pacer.pace('10.0.0.7', false);
    await pacer.pace('10.0.0.7', true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    await wrong;
  });
});

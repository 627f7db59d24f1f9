import { describe, expect, it } from 'vitest';
import { createGuessPacer, guessSource } from './guesses';

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

describe('whose guesses a request\'s are', () => {
  it('an IPv4 address (also IPv4-mapped), or an IPv6 address\'s /64', () => {
    expect(guessSource('192.0.2.7')).toBe('192.0.2.7');
    expect(guessSource('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(guessSource('fd00::2')).toBe('fd00:0:0:0::/64');
    expect(guessSource('fd00:0:0:0:1234:5678:9abc:def0')).toBe('fd00:0:0:0::/64');
    expect(guessSource('2001:db8:aa:bb::1')).toBe(guessSource('2001:0db8:00aa:00bb:ffff::2'));
    expect(guessSource('::1')).toBe('0:0:0:0::/64');
  });
});

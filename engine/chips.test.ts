import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMultipleOf } from './chips';

describe('isMultipleOf: one answer to "do these chips exchange exactly"', () => {
  it('is true exactly for whole multiples', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 99_999 }), (unit, times, off) => {
        expect(isMultipleOf(unit * times, unit)).toBe(true);
        expect(isMultipleOf(unit * times + (off % unit), unit)).toBe(off % unit === 0);
      }),
    );
    expect(isMultipleOf(25, 10)).toBe(false);
    expect(isMultipleOf(100, 25)).toBe(true);
    expect(isMultipleOf(5, 0)).toBe(false);
  });
});

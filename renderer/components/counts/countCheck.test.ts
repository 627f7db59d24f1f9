import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNT_STACK_CHOICES } from '../../../protocol/contract';
import { unlikelyCountLimit, unlikelyCounts, USUAL_STACK } from './countCheck';

const ratios = fc.constantFrom(2, 4, 5, 10, 20, 25, 40);
const stacks = fc.constantFrom(...COUNT_STACK_CHOICES);

describe('the counts asked about before a race', () => {
  it('asks about 4 → 44 and 9 → 98 at 25 → 100 and 100 → 500, never about a stack and a bit (22) or two (40)', () => {
    for (const ratio of [4, 5]) {
      const limit = unlikelyCountLimit(0, ratio);
      expect(unlikelyCounts([{ seat: 1, chips: 4 }, { seat: 2, chips: 44 }, { seat: 3, chips: 98 }, { seat: 4, chips: 22 }, { seat: 5, chips: 40 }], limit).map((count) => count.seat)).toEqual([2, 3]);
    }
  });

  it('never asks about a count within two full stacks or twice the exchange ratio; always about one past both', () => {
    fc.assert(
      fc.property(stacks, ratios, fc.nat(1000), (stack, ratio, chips) => {
        const limit = unlikelyCountLimit(stack, ratio);
        const asked = unlikelyCounts([{ chips }], limit).length === 1;
        const past = chips > 2 * Math.max(USUAL_STACK, stack) && chips > 2 * ratio;
        expect(asked).toBe(past);
      }),
    );
  });

  it('asks about every one-digit count of 4 or more with a digit typed after it, where a stack is at most 20 and the ratio at most 20', () => {
    fc.assert(
      fc.property(fc.constantFrom(0, 5, 10, 20), fc.constantFrom(2, 4, 5, 10, 20), fc.integer({ min: 4, max: 9 }), fc.integer({ min: 1, max: 9 }), (stack, ratio, first, typed) => {
        expect(unlikelyCounts([{ chips: first * 10 + typed }], unlikelyCountLimit(stack, ratio))).toHaveLength(1);
      }),
    );
  });
});

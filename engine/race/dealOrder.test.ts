import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seatsInDealOrder } from './plan';
import { DEAL_STARTS } from './rules';

describe('seatsInDealOrder (the setup screen names the first seat the deal goes to)', () => {
  it("the rules page's case: seats 1, 2, 3, the button on 2", () => {
    expect(seatsInDealOrder('button', 2, [1, 2, 3])).toEqual([2, 3, 1]);
    expect(seatsInDealOrder('left-of-button', 2, [1, 2, 3])).toEqual([3, 1, 2]);
    expect(seatsInDealOrder('seat-1', 2, [1, 2, 3])).toEqual([1, 2, 3]);
  });

  it('a button on an empty seat: the first seat clockwise after it, under both button starts', () => {
    expect(seatsInDealOrder('button', 5, [2, 4, 7, 9])).toEqual([7, 9, 2, 4]);
    expect(seatsInDealOrder('left-of-button', 5, [2, 4, 7, 9])).toEqual([7, 9, 2, 4]);
  });

  it('property: every seat once, clockwise from where it starts; the button first under "button" when it holds a seat', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 10 }), fc.constantFrom(...DEAL_STARTS), (unsorted, button, dealStart) => {
        const seats = [...unsorted].sort((a, b) => a - b);
        const order = seatsInDealOrder(dealStart, button, seats);
        expect([...order].sort((a, b) => a - b)).toEqual(seats);
        const at = seats.indexOf(order[0] as number);
        expect(order).toEqual([...seats.slice(at), ...seats.slice(0, at)]);
        if (dealStart === 'button' && seats.includes(button)) expect(order[0]).toBe(button);
        if (dealStart === 'seat-1') expect(order[0]).toBe(seats[0]);
      }),
    );
  });
});

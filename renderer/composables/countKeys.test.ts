import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyedFrom, NOTHING_KEYED, pressKey, totalOf, type CountKey, type KeyedCount } from './countKeys';

const press = (keys: readonly CountKey[], from: KeyedCount = NOTHING_KEYED): KeyedCount => keys.reduce(pressKey, from);
const digit = fc.integer({ min: 0, max: 9 }).map((value): CountKey => ({ digit: value }));
const key = fc.oneof(digit, fc.constant<CountKey>('stack'), fc.constant<CountKey>('erase'));
const stack = fc.constantFrom(5, 10, 20, 25, 100);

describe('the count keypad', () => {
  it('+20 +20 7 is 47; 1 2 is 12; nothing keyed is no count; ⌫ takes the 7, then a stack', () => {
    const keyed = press(['stack', 'stack', { digit: 7 }]);
    expect(totalOf(keyed, 20)).toBe(47);
    expect(totalOf(press([{ digit: 1 }, { digit: 2 }]), 20)).toBe(12);
    expect(totalOf(NOTHING_KEYED, 20)).toBe('');
    expect(totalOf(press(['erase'], keyed), 20)).toBe(40);
    expect(totalOf(press(['erase', 'erase'], keyed), 20)).toBe(20);
    expect(totalOf(press(['erase', 'erase', 'erase', 'erase'], keyed), 20)).toBe('');
  });

  it('goes on from a count typed or kept: its digits, then the keys', () => {
    expect(totalOf(press([{ digit: 5 }], keyedFrom(12)), 20)).toBe(125);
    expect(totalOf(press(['stack'], keyedFrom(7)), 20)).toBe(27);
    expect(keyedFrom('')).toEqual(NOTHING_KEYED);
    expect(keyedFrom(2.5)).toEqual(NOTHING_KEYED);
  });

  it('property: k stacks and then digits are k stacks of chips and the digits as a number', () => {
    fc.assert(
      fc.property(stack, fc.nat({ max: 6 }), fc.array(digit, { maxLength: 4 }), (size, stacks, digits) => {
        const keyed = press([...Array.from({ length: stacks }, (): CountKey => 'stack'), ...digits]);
        const expected = stacks === 0 && digits.length === 0 ? '' : stacks * size + Number(digits.map((entry) => (entry as { digit: number }).digit).join('') || '0');
        expect(totalOf(keyed, size)).toBe(expected);
      }),
    );
  });

  it('property: ⌫ takes back a digit or a stack exactly, and never makes a count below none', () => {
    fc.assert(
      fc.property(stack, fc.array(key, { maxLength: 12 }), fc.oneof(digit, fc.constant<CountKey>('stack')), (size, keys, last) => {
        const before = press(keys);
        expect(totalOf(press([last, 'erase'], before), size)).toBe(totalOf(before, size));
        const total = totalOf(press([...keys, 'erase']), size);
        expect(total === '' || (Number.isInteger(total) && total >= 0)).toBe(true);
      }),
    );
  });
});

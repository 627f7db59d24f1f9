import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInputError } from '../errors';
import { exchangeAtEqualValue, readChipExchange } from './exchange';

describe('chips exchanged at equal value outside a race (TDA 24C, 25B)', () => {
  it("the rules' case: 5 late-found 25s, D = 100: 1 chip of 100, one 25 taken off (−25)", () => {
    expect(exchangeAtEqualValue({ removed: 25, next: 100, count: 5 })).toEqual({ given: 1, lost: 1, valueDelta: -25 });
    expect(exchangeAtEqualValue({ removed: 25, next: 100, count: 8 })).toEqual({ given: 2, lost: 0, valueDelta: 0 });
    expect(exchangeAtEqualValue({ removed: 25, next: 100, count: 3 })).toEqual({ given: 0, lost: 3, valueDelta: -75 });
  });

  it('never gives more than the chips are worth, and takes off less than one chip of the next', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 2, max: 40 }), fc.integer({ min: 1, max: 100_000 }), (removed, ratio, count) => {
        const next = removed * ratio;
        const { given, lost, valueDelta } = exchangeAtEqualValue({ removed, next, count });
        expect(given * next + lost * removed).toBe(count * removed);
        expect(lost).toBeGreaterThanOrEqual(0);
        expect(lost).toBeLessThan(ratio);
        expect(valueDelta).toBe(lost === 0 ? 0 : -lost * removed);
        expect(given).toBe(Math.floor((count * removed) / next));
      }),
    );
  });

  it.each([
    ['not an object', 7, 'exchange', 'race.exchange.notObject'],
    ['an unknown reason', { reason: 'found', removed: 25, next: 100, count: 1 }, 'reason', 'race.setup.unknownOption'],
    ['no count', { reason: 'discretionary', removed: 25, next: 100, note: 'x' }, 'count', 'race.setup.number.notNumber'],
    ['a count of 0', { reason: 'discretionary', removed: 25, next: 100, count: 0, note: 'x' }, 'count', 'race.setup.number.tooSmall'],
    ['a next not a multiple', { reason: 'discretionary', removed: 25, next: 110, count: 1, note: 'x' }, 'next', 'race.setup.nextNotMultiple'],
    ['a next not larger', { reason: 'discretionary', removed: 100, next: 100, count: 1, note: 'x' }, 'next', 'race.setup.nextNotLarger'],
    ['late-found chips without their race', { reason: 'late-found', removed: 25, next: 100, count: 1 }, 'raceId', 'race.exchange.raceNeeded'],
    ['a discretionary colour-up without its reason', { reason: 'discretionary', removed: 25, next: 100, count: 1, note: '  ' }, 'note', 'race.exchange.reasonNeeded'],
    ['a note too long', { reason: 'discretionary', removed: 25, next: 100, count: 1, note: 'x'.repeat(201) }, 'note', 'race.exchange.noteTooLong'],
  ])('refuses %s, naming the field', (_what, input, field, key) => {
    try {
      readChipExchange(input);
      expect.unreachable();
    } catch (error) {
      expect(isInputError(error)).toBe(true);
      expect((error as { field: string }).field).toBe(field);
      expect((error as { said: { key: string } }).said.key).toBe(key);
    }
  });
});

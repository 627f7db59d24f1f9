import { describe, expect, it } from 'vitest';
import { ENGINE_CATALOGS, type Message } from '../messages';
import { formatMessage } from '../messages/message';
import { refusal } from '../testing';
import { MAX_NESTING, nestedDeeperThan } from '../validate';
import { planColorUps } from './planner';
import { MAX_STRUCTURE_CHIPS, MAX_STRUCTURE_ENTRIES } from './structure';

// A structure is kept in the settings as entered and pushed to every page with the state, so its
// size has a bound: so many entries, so many chips, and no keys the planner does not read.

const CHIPS = [25, 100, 500, 1000, 5000];

/** `count` entries: a level, then a break after every fourth level. */
function entries(count: number): ({ sb: number; bb: number } | { break: number })[] {
  return Array.from({ length: count }, (_, index) => (index % 5 === 4 ? { break: 10 } : { sb: 25 * (index + 1), bb: 50 * (index + 1) }));
}

describe('the size of a structure is bounded', () => {
  it(`takes ${MAX_STRUCTURE_ENTRIES} levels and breaks, and refuses one more, naming levels`, () => {
    expect(MAX_STRUCTURE_ENTRIES).toBe(500);
    expect(planColorUps({ chips: CHIPS, levels: entries(MAX_STRUCTURE_ENTRIES) }).needs).toHaveLength(400);
    const error = refusal(() => planColorUps({ chips: CHIPS, levels: entries(MAX_STRUCTURE_ENTRIES + 1) }));
    expect(error.field).toBe('levels');
    expect(error.message).toBe('levels: at most 500 levels and breaks in all (got 501)');
  });

  it('counts the entries before reading any of them: a huge list is refused at once, not entry by entry', () => {
    const huge = new Array<unknown>(1_000_000).fill({ sb: 'not a number' });
    expect(refusal(() => planColorUps({ chips: CHIPS, levels: huge })).message).toBe('levels: at most 500 levels and breaks in all (got 1000000)');
  });

  it(`takes ${MAX_STRUCTURE_CHIPS} chips and refuses more`, () => {
    const twelve = Array.from({ length: MAX_STRUCTURE_CHIPS }, (_, index) => 25 * 2 ** index);
    expect(planColorUps({ chips: twelve, levels: [{ sb: 25, bb: 50 }] }).colorUps).toBeDefined();
    const error = refusal(() => planColorUps({ chips: [...twelve, 25 * 2 ** 12], levels: [{ sb: 25, bb: 50 }] }));
    expect(error.field).toBe('chips');
    expect(error.message).toBe('chips: at most 12 chips (got 13)');
  });

  it.each([
    ['the structure', { chips: CHIPS, levels: [{ sb: 25, bb: 50 }], name: 'Sunday' }, 'name', '"name" is not part of a structure, which has "chips", "levels", "startingStack", "rebuys" and "overrides" only'],
    ['a level', { chips: CHIPS, levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100, bigBlind: 100 }] }, 'levels[1].bigBlind', '"bigBlind" is not part of a level, which has "sb", "bb", "ante" and "minutes" only'],
    ['a break', { chips: CHIPS, levels: [{ sb: 25, bb: 50 }, { break: 15, note: 'x'.repeat(100_000) }] }, 'levels[1].note', '"note" is not part of a break, which has "break" only'],
    ['a rebuy', { chips: CHIPS, levels: [{ sb: 25, bb: 50 }], rebuys: { amount: 1000, untilLevel: 1, price: 20 } }, 'rebuys.price', '"price" is not part of a rebuy, which has "amount" and "untilLevel" only'],
  ])('refuses a key %s does not have, naming it', (_, input, field, reason) => {
    const error = refusal(() => planColorUps(input));
    expect(error.field).toBe(field);
    expect(error.message).toBe(`${field}: ${reason}`);
  });

  it('takes a key left undefined as absent, as JSON would', () => {
    expect(planColorUps({ chips: CHIPS, levels: [{ sb: 25, bb: 50, ante: undefined }, { break: 10, sb: undefined }], rebuys: undefined }).colorUps).toBeDefined();
  });
});

describe('a structure nested deep', () => {
  /** 60,000 lists inside each other: JSON.stringify of it (quoting it in a refusal) overflowed the stack. */
  const deep = (depth: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < depth; level += 1) value = [value];
    return value;
  };

  it('is refused with a clear message in each language, not a RangeError, wherever it is nested', () => {
    for (const structure of [{ chips: CHIPS, levels: deep(60_000) }, { chips: deep(60_000), levels: entries(3) }, { chips: CHIPS, levels: [{ sb: deep(60_000), bb: 50 }] }, deep(60_000)]) {
      const error = refusal(() => planColorUps(structure));
      expect(error.field).toBe('structure');
      expect(error.said).toEqual({ key: 'value.tooDeep', params: { n: MAX_NESTING } });
      expect(error.message).toBe('structure: nested more than 64 levels deep (lists or objects inside each other); nothing the console reads goes that deep');
      const said = error.said as Message;
      expect(formatMessage(said, 'fi', ENGINE_CATALOGS.fi)).toBe('sisäkkäin yli 64 tasoa syvältä (listoja tai olioita toistensa sisällä); mikään konsolin lukema ei ole niin syvä');
      expect(formatMessage(said, 'ru', ENGINE_CATALOGS.ru)).toBe('вложено глубже 64 уровней (списки или объекты друг в друге); ничто из того, что читает консоль, не бывает таким глубоким');
    }
  });

  it('takes what nests as deep as the limit, and a wide value is walked without recursion', () => {
    expect(nestedDeeperThan(deep(MAX_NESTING - 1), MAX_NESTING)).toBe(false);
    expect(nestedDeeperThan(deep(MAX_NESTING), MAX_NESTING)).toBe(false);
    expect(nestedDeeperThan(deep(MAX_NESTING + 1), MAX_NESTING)).toBe(true);
    expect(nestedDeeperThan(new Array(100_000).fill([1]), MAX_NESTING)).toBe(false);
    // The structure an ordinary table plays is untouched by the check.
    expect(planColorUps({ chips: CHIPS, levels: entries(10) }).needs.length).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import { expectSaid } from '../messages/testing';
import { refusal } from '../testing';
import { planColorUps } from './planner';

const CHIPS = [25, 100, 500, 1000, 5000];
const valid = {
  chips: CHIPS,
  levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100, ante: 0 }, { break: 15 }, { sb: 100, bb: 200 }],
  startingStack: 10000,
  rebuys: { amount: 10000, untilLevel: 2 },
};
const levels = valid.levels;

describe('every invalid structure is refused, naming the field and the reason', () => {
  it.each([
    ['not an object', [], 'structure', /a structure must be a JSON object/],
    ['no chips', { ...valid, chips: undefined }, 'chips', /missing: the chip values in play/],
    ['chips not a list', { ...valid, chips: 25 }, 'chips', /must be a list of the chip values in play, ascending/],
    ['an empty chip set', { ...valid, chips: [] }, 'chips', /at least one chip is needed/],
    ['a chip that is not a number', { ...valid, chips: [25, '100'] }, 'chips[1]', /a chip value must be a number \(got "100"\)/],
    ['a fractional chip', { ...valid, chips: [2.5, 100] }, 'chips[0]', /whole number \(got 2.5\)/],
    ['a zero chip', { ...valid, chips: [0, 100] }, 'chips[0]', /at least 1 \(got 0\)/],
    ['a negative chip', { ...valid, chips: [-25, 100] }, 'chips[0]', /at least 1 \(got -25\)/],
    ['a chip twice', { ...valid, chips: [25, 100, 100, 500] }, 'chips[2]', /100 appears twice \(also chips\[1\]\)/],
    ['chips out of order', { ...valid, chips: [25, 500, 100] }, 'chips[2]', /100 comes after 500; list the chips in ascending order/],
    ['no levels', { ...valid, levels: undefined }, 'levels', /missing: the levels and breaks/],
    ['levels not a list', { ...valid, levels: { sb: 25, bb: 50 } }, 'levels', /must be a list of levels and breaks/],
    ['an empty structure', { ...valid, levels: [] }, 'levels', /at least one level is needed/],
    ['an entry that is not an object', { ...valid, levels: [...levels, 7] }, 'levels[4]', /each entry must be a level like .* or a break like/],
    ['a break before the first level', { ...valid, levels: [{ break: 10 }, ...levels] }, 'levels[0]', /a break cannot come before the first level/],
    ['only breaks', { ...valid, levels: [{ break: 10 }] }, 'levels[0]', /a break cannot come before the first level/],
    ['a break with blinds', { ...valid, levels: [levels[0], { break: 10, sb: 50, bb: 100 }] }, 'levels[1]', /either a level or a break, not both/],
    ['a break of no minutes', { ...valid, levels: [levels[0], { break: 0 }] }, 'levels[1].break', /the break's length in minutes must be at least 1/],
    ['a break of fractional minutes', { ...valid, levels: [levels[0], { break: 7.5 }] }, 'levels[1].break', /whole number \(got 7.5\)/],
    ['a level without blinds', { ...valid, levels: [...levels, { ante: 25 }] }, 'levels[4]', /level 4 has no blinds; a level needs "sb" and "bb"/],
    ['an empty level', { ...valid, levels: [{}] }, 'levels[0]', /level 1 has no blinds/],
    ['a level without a small blind', { ...valid, levels: [...levels, { bb: 400 }] }, 'levels[4].sb', /missing: level 4's small blind/],
    ['a level without a big blind', { ...valid, levels: [...levels, { sb: 200 }] }, 'levels[4].bb', /missing: level 4's big blind/],
    ['a negative small blind', { ...valid, levels: [{ sb: -25, bb: 50 }] }, 'levels[0].sb', /level 1's small blind must be at least 1 \(got -25\)/],
    ['a zero small blind', { ...valid, levels: [{ sb: 0, bb: 50 }] }, 'levels[0].sb', /at least 1 \(got 0\)/],
    ['a fractional big blind', { ...valid, levels: [{ sb: 25, bb: 50.5 }] }, 'levels[0].bb', /level 1's big blind must be a whole number \(got 50.5\)/],
    ['a blind as text', { ...valid, levels: [{ sb: '25', bb: 50 }] }, 'levels[0].sb', /must be a number \(got "25"\)/],
    ['a blind too large', { ...valid, levels: [{ sb: 25, bb: 2 ** 60 }] }, 'levels[0].bb', /too large/],
    ['a big blind below the small blind', { ...valid, levels: [{ sb: 100, bb: 50 }] }, 'levels[0].bb', /level 1's big blind 50 is smaller than its small blind 100/],
    ['a small blind no chip divides (level counted without breaks)', { ...valid, levels: [...levels, { sb: 110, bb: 200 }] }, 'levels[4].sb', /level 4's small blind 110 is not a multiple of any chip \(25, 100, 500, 1000, 5000\), so it cannot be paid/],
    ['a big blind no chip divides', { ...valid, levels: [{ sb: 25, bb: 60 }] }, 'levels[0].bb', /level 1's big blind 60 is not a multiple of any chip/],
    ['a negative ante', { ...valid, levels: [{ sb: 25, bb: 50, ante: -5 }] }, 'levels[0].ante', /level 1's ante must be at least 0 \(got -5\)/],
    ['an ante no chip divides', { ...valid, levels: [{ sb: 25, bb: 50, ante: 10 }] }, 'levels[0].ante', /level 1's ante 10 is not a multiple of any chip/],
    ['a level of no minutes', { ...valid, levels: [{ sb: 25, bb: 50, minutes: 0 }] }, 'levels[0].minutes', /level 1's length in minutes must be at least 1 \(got 0\)/],
    ['a level of fractional minutes', { ...valid, levels: [{ sb: 25, bb: 50, minutes: 12.5 }] }, 'levels[0].minutes', /level 1's length in minutes must be a whole number \(got 12.5\)/],
    ['a level of minutes as text', { ...valid, levels: [{ sb: 25, bb: 50, minutes: '20' }] }, 'levels[0].minutes', /must be a number \(got "20"\)/],
    ['a level longer than ten hours', { ...valid, levels: [levels[0], { break: 10 }, { sb: 50, bb: 100, minutes: 601 }] }, 'levels[2].minutes', /level 2 can be played at most 600 minutes \(got 601\)/],
    ['a break with a level\'s minutes', { ...valid, levels: [levels[0], { break: 10, minutes: 10 }] }, 'levels[1]', /either a level or a break, not both/],
    ['a starting stack no chip divides', { ...valid, startingStack: 10010 }, 'startingStack', /the starting stack 10010 is not a multiple of any chip/],
    ['a fractional starting stack', { ...valid, startingStack: 1500.5 }, 'startingStack', /whole number/],
    ['a zero starting stack', { ...valid, startingStack: 0 }, 'startingStack', /at least 1/],
    ['rebuys not an object', { ...valid, rebuys: 10000 }, 'rebuys', /must be an object like \{"amount": 10000, "untilLevel": 4\}/],
    ['a rebuy without an amount', { ...valid, rebuys: { untilLevel: 2 } }, 'rebuys.amount', /missing: the chips a rebuy or add-on gives/],
    ['a rebuy without a last level', { ...valid, rebuys: { amount: 10000 } }, 'rebuys.untilLevel', /missing: the last level a rebuy or add-on is offered/],
    ['a rebuy amount no chip divides', { ...valid, rebuys: { amount: 10010, untilLevel: 2 } }, 'rebuys.amount', /the rebuy amount 10010 is not a multiple of any chip/],
    ['a rebuy until level 0', { ...valid, rebuys: { amount: 10000, untilLevel: 0 } }, 'rebuys.untilLevel', /the last rebuy level must be at least 1/],
  ])('%s', (_, input, field, reason) => {
    const error = refusal(() => planColorUps(input));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
    expectSaid(error);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });
});

describe('every invalid override is refused, naming the override and the reason', () => {
  // Ten levels, breaks after levels 2, 5 and 8. Needs: 25, 25, 25, 100, 25, 100, 100, 100, 500, 1000.
  const tenLevels = [
    { sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 10 }, { sb: 75, bb: 150 }, { sb: 100, bb: 200 }, { sb: 150, bb: 300 }, { break: 10 },
    { sb: 200, bb: 400 }, { sb: 300, bb: 600 }, { sb: 400, bb: 800 }, { break: 10 }, { sb: 500, bb: 1000 }, { sb: 1000, bb: 2000 },
  ];
  const structure = { chips: CHIPS, levels: tenLevels };
  const noBreaks = { chips: CHIPS, levels: tenLevels.filter((entry) => !('break' in entry)) };

  it.each([
    ['overrides not an object', structure, [25], 'overrides', /must map a level number to the chips leaving after it, e.g. \{"4": \[25\]\}/],
    ['a key that is not a level number', structure, { four: [25] }, 'overrides.four', /"four" is not a level number/],
    ['level 0', structure, { 0: [25] }, 'overrides.0', /"0" is not a level number/],
    ['a level beyond the structure', structure, { 11: [25] }, 'overrides.11', /there is no level 11: the structure has 10 levels/],
    ['a level without a break after it', structure, { 3: [25] }, 'overrides.3', /there is no break after level 3, and colour-ups happen at breaks \(possible after levels 2, 5, 8\)/],
    ['the last level of a structure without breaks', noBreaks, { 10: [25] }, 'overrides.10', /level 10 is the last level, so no play follows it/],
    ['a list that is not a list', structure, { 5: 25 }, 'overrides.5', /must be a list of the chips leaving after level 5, e.g. \[25\], or \[\] for none/],
    ['a value that is not a chip', structure, { 5: [30] }, 'overrides.5[0]', /30 is not one of the chips \(25, 100, 500, 1000, 5000\)/],
    ['a fractional value', structure, { 5: [2.5] }, 'overrides.5[0]', /a chip value must be a whole number/],
    ['the largest chip', structure, { 8: [25, 5000] }, 'overrides.8[1]', /5000 is the largest chip, which never leaves play/],
    ['a chip twice in one list', structure, { 5: [25, 25] }, 'overrides.5[1]', /25 is listed twice/],
    ['a chip in two overrides', structure, { 5: [25], 8: [25, 100] }, 'overrides.8[0]', /25 already leaves after level 5 \(overrides.5\); a chip leaves once/],
    ['a chip a later level still needs', structure, { 2: [25] }, 'overrides.2[0]', /25 cannot leave after level 2: level 3 still needs it \(its small blind 75\)/],
    ['a chip needed to the end', noBreaks, { 9: [100, 500, 1000] }, 'overrides.9[2]', /1000 cannot leave after level 9: level 10 still needs it \(its small blind 1000\)/],
    ['a chip before a smaller one a later level needs', structure, { 2: [100] }, 'overrides.2[0]', /100 cannot leave after level 2: level 3 still needs the smaller 25 \(its small blind 75\), and chips leave smallest first/],
    ['a chip leaving while a smaller one stays', structure, { 5: [], 8: [100] }, 'overrides.8[0]', /100 cannot leave after level 8 while the smaller 25 stays in play \(it never leaves\); chips leave smallest first, so list 25 there too/],
    ['a smaller chip kept after a larger one leaves', noBreaks, { 9: [25] }, 'overrides.9[0]', /25 cannot stay in play until after level 9 while the larger 100 leaves after level 8; chips leave smallest first/],
  ])('%s', (_, base, overrides, field, reason) => {
    const error = refusal(() => planColorUps({ ...base, overrides }));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
    expectSaid(error);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });

  it('a break after the last level cannot remove a chip the last level needs', () => {
    const trailing = { chips: CHIPS, levels: [{ sb: 25, bb: 50 }, { sb: 100, bb: 200 }, { break: 15 }] };
    expect(planColorUps({ ...trailing, overrides: { 2: [25] } }).colorUps).toStrictEqual([{ afterLevel: 2, remove: [25], next: 100 }]);
    const error = refusal(() => planColorUps({ ...trailing, overrides: { 2: [25, 100] } }));
    expect(error.field).toBe('overrides.2[1]');
    expect(error.message).toMatch(/100 cannot leave after level 2: it is the last level and needs 100 \(its small blind 100\), and a chip needed to the end never leaves/);
  });

  it('a structure with a single level and no break has no moment for an override', () => {
    expect(refusal(() => planColorUps({ chips: CHIPS, levels: [{ sb: 25, bb: 50 }], overrides: { 1: [] } })).message).toMatch(
      /overrides.1: level 1 is the last level, so no play follows it \(this structure has no moment for one\)/,
    );
  });

  it('accepts null as no overrides, rebuys or starting stack', () => {
    expect(planColorUps({ ...structure, overrides: null, rebuys: null, startingStack: null }).colorUps).toStrictEqual(planColorUps(structure).colorUps);
  });
});

import { describe, expect, it } from 'vitest';
import { colorUpSummary, planColorUps, proposeColorUp } from './planner';
import { colorUpMoments } from './structure';
import { englishText } from '../messages';

const CHIPS = [25, 100, 500, 1000, 5000];

// The contract example. Level 1 needs 25 (25 → 25; 50 → 25; 10000 → 5000), level 2 needs 25
// (50 → 25; 100 → 100; ante 0 is no ante), level 3 needs 100 (100 → 100; 200 → 100). The 25 is last
// needed at level 2 and the break follows level 2; the 100 is needed at the last level, so it stays.
const contractExample = {
  chips: CHIPS,
  levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100, ante: 0 }, { break: 15 }, { sb: 100, bb: 200 }],
  startingStack: 10000,
  rebuys: { amount: 10000, untilLevel: 4 },
};

// Ten levels, no breaks. Needs: 25, 25, 25 (75), 100, 25 (150), 100, 100, 100, 500, 1000.
const tenLevels = [
  { sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { sb: 75, bb: 150 }, { sb: 100, bb: 200 }, { sb: 150, bb: 300 },
  { sb: 200, bb: 400 }, { sb: 300, bb: 600 }, { sb: 400, bb: 800 }, { sb: 500, bb: 1000 }, { sb: 1000, bb: 2000 },
];

/** The ten levels with a break after each level listed. */
function withBreaks(levels: readonly object[], after: readonly number[]): object[] {
  return levels.flatMap((level, index) => (after.includes(index + 1) ? [level, { break: 15 }] : [level]));
}

const colorUps = (input: unknown) => planColorUps(input).colorUps;

describe('the colour-up plan (worked examples)', () => {
  it('the contract example: the 25 leaves at the break after level 2, and the 100 takes its place', () => {
    expect(colorUpSummary(planColorUps(contractExample))).toStrictEqual({ colorUps: [{ afterLevel: 2, remove: [25], next: 100 }] });
  });

  it('records the smallest chip each level needs and which amount needs it', () => {
    expect(planColorUps(contractExample).needs).toStrictEqual([
      { level: 1, chip: 25, source: 'sb', amount: 25 },
      { level: 2, chip: 25, source: 'sb', amount: 50 },
      { level: 3, chip: 100, source: 'sb', amount: 100 },
    ]);
  });

  it('without breaks, a chip leaves right after the last level that needs it; a chip needed at the last level stays', () => {
    // 25 last needed at level 5 (150 = 6 × 25), 100 at level 8, 500 at level 9; 1000 is needed at level 10.
    expect(colorUps({ chips: CHIPS, levels: tenLevels })).toStrictEqual([
      { afterLevel: 5, remove: [25], next: 100 },
      { afterLevel: 8, remove: [100], next: 500 },
      { afterLevel: 9, remove: [500], next: 1000 },
    ]);
  });

  it('with breaks, a chip leaves at the first break after its last level; chips leaving together are listed together', () => {
    // Breaks after levels 4 and 8: the 25 (last level 5) and the 100 (last level 8) both go at the break after 8.
    // The 500 is last needed at level 9 and no break follows it, so it stays to the end.
    expect(colorUps({ chips: CHIPS, levels: withBreaks(tenLevels, [4, 8]) })).toStrictEqual([{ afterLevel: 8, remove: [25, 100], next: 500 }]);
  });

  it('an ante counts like a blind; an ante of 0 or null is no ante', () => {
    // Level 9 with an ante of 100 needs the 100 until level 9, so it leaves with the 500.
    const levels = tenLevels.map((level, index) => (index === 8 ? { ...level, ante: 100 } : index === 4 ? { ...level, ante: 0 } : { ...level, ante: null }));
    expect(colorUps({ chips: CHIPS, levels })).toStrictEqual([
      { afterLevel: 5, remove: [25], next: 100 },
      { afterLevel: 9, remove: [100, 500], next: 1000 },
    ]);
    const antes = [{ sb: 100, bb: 200 }, { sb: 100, bb: 200, ante: 25 }, { sb: 200, bb: 400, ante: 0 }, { sb: 200, bb: 400 }];
    expect(colorUps({ chips: [25, 100, 500], levels: antes })).toStrictEqual([{ afterLevel: 2, remove: [25], next: 100 }]);
  });

  it('a chip no level needs leaves at the first moment after level 1', () => {
    // The 1 is never needed; the 25 is last needed at level 2; the 100 at the last level.
    const levels = [{ sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { sb: 100, bb: 200 }, { sb: 200, bb: 400 }];
    expect(colorUps({ chips: [1, 25, 100, 500], levels })).toStrictEqual([
      { afterLevel: 1, remove: [1], next: 25 },
      { afterLevel: 2, remove: [25], next: 100 },
    ]);
    // With the only break after level 3, both wait for it.
    expect(colorUps({ chips: [1, 25, 100, 500], levels: withBreaks(levels, [3]) })).toStrictEqual([{ afterLevel: 3, remove: [1, 25], next: 100 }]);
  });

  it('a chip above the needed one stays while a smaller chip stays, then leaves with it', () => {
    // Level 1 needs 25 (the 50 is never the smallest needed), levels 2–3 need 100, level 4 needs 500.
    const levels = [{ sb: 25, bb: 50 }, { sb: 100, bb: 200 }, { sb: 200, bb: 400 }, { sb: 500, bb: 1000 }];
    expect(colorUps({ chips: [25, 50, 100, 500], levels })).toStrictEqual([
      { afterLevel: 1, remove: [25, 50], next: 100 },
      { afterLevel: 3, remove: [100], next: 500 },
    ]);
  });

  it('the rebuy amount keeps its smallest chip while rebuys are offered', () => {
    const levels = [{ sb: 100, bb: 200 }, { sb: 100, bb: 200 }, { break: 10 }, { sb: 200, bb: 400 }, { sb: 300, bb: 600 }, { break: 10 }, { sb: 500, bb: 1000 }];
    // Without rebuys the 25 is never needed and goes at the first break (after level 2).
    expect(colorUps({ chips: [25, 100, 500, 1000], levels })).toStrictEqual([
      { afterLevel: 2, remove: [25], next: 100 },
      { afterLevel: 4, remove: [100], next: 500 },
    ]);
    // A rebuy of 1025 (41 × 25) offered until level 3 keeps the 25 until the break after level 4.
    expect(colorUps({ chips: [25, 100, 500, 1000], levels, rebuys: { amount: 1025, untilLevel: 3 } })).toStrictEqual([{ afterLevel: 4, remove: [25, 100], next: 500 }]);
    // Offered beyond the last level listed: offered through every listed level, so the 25 never leaves.
    expect(colorUps({ chips: [25, 100, 500, 1000], levels, rebuys: { amount: 1025, untilLevel: 12 } })).toStrictEqual([]);
  });

  it('the starting stack only counts at level 1, where it changes nothing unless the structure is a single level', () => {
    const levels = [{ sb: 100, bb: 200 }, { sb: 200, bb: 400 }, { sb: 500, bb: 1000 }];
    expect(colorUps({ chips: [25, 100, 500], levels, startingStack: 1525 })).toStrictEqual(colorUps({ chips: [25, 100, 500], levels }));
    // One level and a break after it: a 25 the stack needs is needed to the end; one nothing needs leaves at that break.
    const single = [{ sb: 100, bb: 200 }, { break: 20 }];
    expect(colorUps({ chips: [25, 100, 500], levels: single, startingStack: 1525 })).toStrictEqual([]);
    expect(colorUps({ chips: [25, 100, 500], levels: single, startingStack: 1500 })).toStrictEqual([{ afterLevel: 1, remove: [25], next: 100 }]);
  });

  it('a break after the last level is a moment like any other; consecutive breaks are one moment', () => {
    const trailing = [{ sb: 25, bb: 50 }, { sb: 100, bb: 200 }, { break: 15 }];
    expect(colorUps({ chips: CHIPS, levels: trailing })).toStrictEqual([{ afterLevel: 2, remove: [25], next: 100 }]);
    // The same levels without the break: right after level 1.
    expect(colorUps({ chips: CHIPS, levels: trailing.slice(0, 2) })).toStrictEqual([{ afterLevel: 1, remove: [25], next: 100 }]);
    const twice = [{ sb: 25, bb: 50 }, { break: 10 }, { break: 30 }, { sb: 100, bb: 200 }];
    const plan = planColorUps({ chips: CHIPS, levels: twice });
    expect(plan.moments).toStrictEqual([1]);
    expect(plan.colorUps).toStrictEqual([{ afterLevel: 1, remove: [25], next: 100 }]);
  });

  it('a break before level 1 is no moment, yet makes colour-ups wait for a break (the Structure screen asks the same function)', () => {
    const level = (n: number) => ({ level: n });
    // A break before level 1 and one after level 2: only the second is a moment.
    expect(colorUpMoments({ levels: [level(1), level(2), level(3)], breaks: [{ afterLevel: 0 }, { afterLevel: 2 }] })).toStrictEqual([2]);
    // Only a break before level 1: no moment at all, not the moments between levels.
    expect(colorUpMoments({ levels: [level(1), level(2), level(3)], breaks: [{ afterLevel: 0 }] })).toStrictEqual([]);
    expect(colorUpMoments({ levels: [level(1), level(2), level(3)], breaks: [] })).toStrictEqual([1, 2]);
    // The planner refuses such a break: a structure never holds one.
    expect(() => planColorUps({ chips: CHIPS, levels: [{ break: 10 }, { sb: 25, bb: 50 }] })).toThrow(/a break cannot come before the first level/);
  });

  it('nothing leaves when there is one chip, one level without a break after it, or every chip is needed to the end', () => {
    expect(colorUps({ chips: [25], levels: tenLevels.slice(0, 3) })).toStrictEqual([]);
    expect(colorUps({ chips: [1, 25, 100], levels: [{ sb: 100, bb: 200 }] })).toStrictEqual([]);
    expect(colorUps({ chips: CHIPS, levels: [...tenLevels, { sb: 25, bb: 50 }] })).toStrictEqual([]);
  });

  it('equal blinds are allowed', () => {
    expect(colorUps({ chips: [25, 100], levels: [{ sb: 25, bb: 25 }, { sb: 100, bb: 100 }] })).toStrictEqual([{ afterLevel: 1, remove: [25], next: 100 }]);
  });

  it('leaves its input untouched and gives the same plan every time', () => {
    const input = structuredClone(contractExample);
    expect(planColorUps(input)).toStrictEqual(planColorUps(input));
    expect(input).toStrictEqual(contractExample);
  });
});

describe('overrides: the floor decides a colour-up moment', () => {
  // Breaks after levels 2, 5 and 8: the plan removes the 25 after 5 and the 100 after 8; the 500 stays.
  const structure = { chips: CHIPS, levels: withBreaks(tenLevels, [2, 5, 8]) };

  it('the plan without overrides', () => {
    expect(colorUps(structure)).toStrictEqual([
      { afterLevel: 5, remove: [25], next: 100 },
      { afterLevel: 8, remove: [100], next: 500 },
    ]);
  });

  it('an empty override cancels a colour-up: its chips wait for the next moment', () => {
    const plan = planColorUps({ ...structure, overrides: { 5: [] } });
    expect(plan.colorUps).toStrictEqual([{ afterLevel: 8, remove: [25, 100], next: 500 }]);
    expect(plan.automatic).toStrictEqual(colorUps(structure));
  });

  it('an override can delay a chip to a later moment', () => {
    expect(colorUps({ ...structure, overrides: { 8: [100, 25] } })).toStrictEqual([{ afterLevel: 8, remove: [25, 100], next: 500 }]);
  });

  it('chips left out of an overridden moment wait, and may then stay to the end', () => {
    expect(colorUps({ ...structure, overrides: { 8: [] } })).toStrictEqual([{ afterLevel: 5, remove: [25], next: 100 }]);
  });

  it('an override that repeats the plan changes nothing in the output', () => {
    expect(colorUpSummary(planColorUps({ ...structure, overrides: { 5: [25], 8: [100] } }))).toStrictEqual(colorUpSummary(planColorUps(structure)));
  });
});

describe('proposeColorUp: what the console offers at a break', () => {
  const plan = planColorUps({ chips: CHIPS, levels: withBreaks(tenLevels, [4, 8]), overrides: null });

  it('pre-fills the chips leaving and the races to run, smallest chip first', () => {
    expect(proposeColorUp(plan, 8)).toStrictEqual({
      afterLevel: 8,
      remove: [25, 100],
      next: 500,
      overridden: false,
      races: [{ removed: 25, next: 100 }, { removed: 100, next: 500 }],
    });
  });

  it('is null at a break where no chip leaves', () => {
    expect(proposeColorUp(plan, 4)).toBeNull();
    expect(proposeColorUp(plan, 3)).toBeNull();
  });

  it('follows the override', () => {
    // Only the 25 goes after level 8; the 100 has no later break, so it stays to the end.
    const overridden = planColorUps({ chips: CHIPS, levels: withBreaks(tenLevels, [4, 8]), overrides: { 8: [25] } });
    expect(proposeColorUp(overridden, 8)).toStrictEqual({ afterLevel: 8, remove: [25], next: 100, overridden: true, races: [{ removed: 25, next: 100 }] });
    expect(proposeColorUp(overridden, 4)).toBeNull();
  });

  it('the plan warns when a race cannot exchange the chips exactly', () => {
    // 5-10-25: the 10 leaving alone would have to be raced into 25s.
    const warned = planColorUps({ chips: [5, 10, 25, 100], levels: [{ sb: 5, bb: 10 }, { sb: 10, bb: 20 }, { sb: 25, bb: 50 }, { sb: 50, bb: 100 }] });
    expect(warned.colorUps).toStrictEqual([
      { afterLevel: 1, remove: [5], next: 10 },
      { afterLevel: 2, remove: [10], next: 25 },
    ]);
    // Warnings are messages (key and parameters, said in the dealer's language); the English as before.
    expect(warned.warnings).toStrictEqual([{ key: 'plan.warning.notMultiple', params: { level: 2, next: 25, removed: 10 } }]);
    expect(warned.warnings.map((warning) => englishText(warning))).toStrictEqual(['after level 2: 25 is not a whole multiple of 10, so the 10 chips cannot be exchanged for 25 chips in a race']);
    expect(planColorUps(contractExample).warnings).toStrictEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors';
import { planColorUps, proposeColorUp, type ColorUpPlan } from './planner';
import { englishText } from '../messages';

const RUNS = 3000;

const REAL_CHIP_SETS = [
  [25, 100, 500, 1000, 5000],
  [1, 5, 25, 100, 500, 1000, 5000, 25000],
  [5, 10, 25, 50, 100, 500, 1000],
  [25, 50, 100, 500, 1000],
  [100, 500, 1000, 5000, 25000, 100000],
];

/** Any ascending chip set: real ones, and arbitrary ones whose chips need not divide each other. */
const chipSets = fc.oneof(
  fc.constantFrom(...REAL_CHIP_SETS),
  fc.uniqueArray(fc.integer({ min: 1, max: 600 }), { minLength: 1, maxLength: 6 }).map((chips) => [...chips].sort((a, b) => a - b)),
);

/** Real structures mostly raise the blinds: the same entries with the levels sorted by big blind, breaks kept in place. */
function risingBlinds<T extends object>(entries: T[]): T[] {
  const levels = entries.filter((entry) => !('break' in entry)).sort((a, b) => (a as { bb: number }).bb - (b as { bb: number }).bb);
  return entries.map((entry) => ('break' in entry ? entry : (levels.shift() as T)));
}

/** A random structure every amount of which some chip divides (so it is never refused). */
const structures = chipSets.chain((chips) => {
  const chip = fc.constantFrom(...chips);
  const level = fc.record({ chip, times: fc.integer({ min: 1, max: 12 }), raise: fc.integer({ min: 0, max: 12 }), ante: fc.option(fc.tuple(chip, fc.nat(6)), { nil: undefined }) })
    .map(({ chip: unit, times, raise, ante }) => ({ sb: unit * times, bb: unit * (times + raise), ...(ante === undefined ? {} : { ante: ante[0] * ante[1] }) }));
  const entry = fc.oneof({ weight: 4, arbitrary: level }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((minutes) => ({ break: minutes })) });
  return fc
    .record({
      first: level,
      rest: fc.array(entry, { maxLength: 14 }),
      startingStack: fc.option(fc.tuple(chip, fc.integer({ min: 1, max: 400 })), { nil: undefined }),
      rebuys: fc.option(fc.record({ unit: chip, times: fc.integer({ min: 1, max: 400 }), untilLevel: fc.integer({ min: 1, max: 16 }) }), { nil: undefined }),
      rising: fc.boolean(),
    })
    .map(({ first, rest, startingStack, rebuys, rising }) => ({
      chips,
      levels: (rising ? risingBlinds([first, ...rest]) : [first, ...rest]) as ({ sb: number; bb: number; ante?: number } | { break: number })[],
      ...(startingStack === undefined ? {} : { startingStack: startingStack[0] * startingStack[1] }),
      ...(rebuys === undefined ? {} : { rebuys: { amount: rebuys.unit * rebuys.times, untilLevel: rebuys.untilLevel } }),
    }));
});

type Structure = typeof structures extends fc.Arbitrary<infer T> ? T : never;

/** The levels as the test reads them, independently of the planner: playing levels and break positions. */
function readBack(structure: Structure) {
  const levels: { sb: number; bb: number; ante?: number }[] = [];
  const breaks: number[] = [];
  for (const entry of structure.levels) {
    if ('break' in entry) breaks.push(levels.length);
    else levels.push(entry);
  }
  const largestDividing = (amount: number) => Math.max(...structure.chips.filter((chip) => amount % chip === 0));
  const needs = levels.map((level, index) => {
    const amounts = [level.sb, level.bb];
    if (level.ante) amounts.push(level.ante);
    if (index === 0 && structure.startingStack !== undefined) amounts.push(structure.startingStack);
    if (structure.rebuys && index + 1 <= structure.rebuys.untilLevel) amounts.push(structure.rebuys.amount);
    return Math.min(...amounts.map(largestDividing));
  });
  return { levels, breaks, needs };
}

/** The moment each chip leaves in the plan, or null. */
function departures(plan: ColorUpPlan): Map<number, number> {
  const leaving = new Map<number, number>();
  for (const colorUp of plan.colorUps) for (const chip of colorUp.remove) leaving.set(chip, colorUp.afterLevel);
  return leaving;
}

/** The invariants every plan keeps, with or without overrides. */
function checkInvariants(structure: Structure, plan: ColorUpPlan): void {
  const { levels, breaks, needs } = readBack(structure);
  const chips = structure.chips;
  const largest = chips[chips.length - 1] as number;
  const removedSoFar: number[] = [];
  let previous = 0;
  for (const colorUp of plan.colorUps) {
    // Moments ascend, each colour-up removes something, removals ascend.
    expect(colorUp.afterLevel).toBeGreaterThan(previous);
    previous = colorUp.afterLevel;
    expect(colorUp.remove.length).toBeGreaterThan(0);
    expect(colorUp.remove).toStrictEqual([...colorUp.remove].sort((a, b) => a - b));
    // Only at breaks when the structure has any; otherwise between two levels.
    if (breaks.length > 0) expect(breaks).toContain(colorUp.afterLevel);
    else expect(colorUp.afterLevel).toBeLessThan(levels.length);
    expect(colorUp.afterLevel).toBeGreaterThanOrEqual(1);
    for (const chip of colorUp.remove) {
      expect(chips).toContain(chip);
      // The largest chip never leaves; a chip leaves at most once.
      expect(chip).not.toBe(largest);
      expect(removedSoFar).not.toContain(chip);
      // Never removed while a later level needs a chip as small as it.
      const stillNeeded = needs.findIndex((need, index) => index >= colorUp.afterLevel && need <= chip);
      expect(stillNeeded, `${chip} left after level ${colorUp.afterLevel} but level ${stillNeeded + 1} needs ${needs[stillNeeded]}`).toBe(-1);
      // A chip needed at the last level never leaves, not even at a break after it.
      expect(chip).toBeLessThan(needs[needs.length - 1] as number);
    }
    removedSoFar.push(...colorUp.remove);
    // `next` is the smallest chip still in play, and every removed chip is smaller than it.
    expect(colorUp.next).toBe(Math.min(...chips.filter((chip) => !removedSoFar.includes(chip))));
    for (const chip of removedSoFar) expect(chip).toBeLessThan(colorUp.next);
    // What the console proposes there is exactly that colour-up.
    expect(proposeColorUp(plan, colorUp.afterLevel)).toMatchObject({ afterLevel: colorUp.afterLevel, remove: colorUp.remove, next: colorUp.next });
  }
}

describe('colour-up plan properties (random structures)', () => {
  const options = { numRuns: RUNS };

  it('random structures are planned, and every plan keeps the invariants', () => {
    fc.assert(
      fc.property(structures, (structure) => {
        checkInvariants(structure, planColorUps(structure));
      }),
      options,
    );
  });

  it('each chip leaves at the first moment after the last level needing it (level 1 at the earliest), or never if there is none', () => {
    fc.assert(
      fc.property(structures, (structure) => {
        const plan = planColorUps(structure);
        const { levels, breaks, needs } = readBack(structure);
        const moments = breaks.length > 0 ? breaks : levels.slice(0, -1).map((_, index) => index + 1);
        const leaving = departures(plan);
        const largest = structure.chips[structure.chips.length - 1];
        for (const chip of structure.chips) {
          const last = needs.reduce((found, need, index) => (need <= chip ? index + 1 : found), 0);
          const moment = chip === largest || last === levels.length ? undefined : moments.find((candidate) => candidate >= Math.max(last, 1));
          expect(leaving.get(chip), `chip ${chip}, last needed at level ${last}`).toBe(moment);
        }
        expect(plan.automatic).toStrictEqual(plan.colorUps);
      }),
      options,
    );
  });

  it('overrides are either refused (naming an override) or followed exactly, and the plan keeps the invariants', () => {
    let followed = 0;
    const withOverrides = structures.chain((structure) => {
      const plan = planColorUps(structure);
      const moments = plan.moments.length > 0 ? plan.moments : [1];
      // Empty overrides, the planned chips swept into a later moment, or any chips at all.
      const choice = fc.record({
        moment: fc.constantFrom(...moments),
        kind: fc.constantFrom('empty', 'sweep', 'any'),
        any: fc.subarray([...structure.chips]),
      });
      return fc.tuple(fc.constant(structure), fc.uniqueArray(choice, { maxLength: 3, selector: (entry) => entry.moment }));
    });
    fc.assert(
      fc.property(withOverrides, ([structure, choices]) => {
        const automatic = planColorUps(structure).colorUps;
        const overrides: Record<string, number[]> = {};
        for (const { moment, kind, any } of choices) {
          overrides[moment] =
            kind === 'empty' ? [] : kind === 'any' ? any : automatic.filter((colorUp) => colorUp.afterLevel <= moment).flatMap((colorUp) => colorUp.remove);
        }
        let plan: ColorUpPlan;
        try {
          plan = planColorUps({ ...structure, overrides });
        } catch (error) {
          expect(error).toBeInstanceOf(InputError);
          expect((error as InputError).field).toMatch(/^overrides\.\d+/);
          return;
        }
        followed += 1;
        checkInvariants(structure, plan);
        for (const [moment, remove] of Object.entries(overrides)) {
          const colorUp = plan.colorUps.find((entry) => entry.afterLevel === Number(moment));
          expect(colorUp?.remove ?? []).toStrictEqual([...remove].sort((a, b) => a - b));
          if (remove.length > 0) expect(proposeColorUp(plan, Number(moment))?.overridden).toBe(true);
        }
      }),
      options,
    );
    // Most random overrides are valid: the property is not vacuous.
    expect(followed).toBeGreaterThan(RUNS / 3);
  });

  it('the races of a proposal run smallest chip first, each into the chip above it, ending at `next`', () => {
    fc.assert(
      fc.property(structures, (structure) => {
        const plan = planColorUps(structure);
        for (const colorUp of plan.colorUps) {
          const races = proposeColorUp(plan, colorUp.afterLevel)?.races ?? [];
          expect(races.map((race) => race.removed)).toStrictEqual(colorUp.remove);
          races.forEach((race, index) => expect(race.next).toBe(index + 1 < races.length ? races[index + 1]?.removed : colorUp.next));
          const inexact = races.filter((race) => race.next % race.removed !== 0).length;
          expect(plan.warnings.filter((warning) => englishText(warning).startsWith(`after level ${colorUp.afterLevel}:`))).toHaveLength(inexact);
        }
      }),
      options,
    );
  });
});

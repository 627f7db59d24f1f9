import { isMultipleOf } from '../chips';
import { InputError } from '../errors';
import type { Message, NestedParam } from '../messages';
import { colorUpMoments, largestDividingChip, readStructure, type StructureLevel, type TournamentStructure } from './structure';

/** The amounts a level's chips must pay. */
export type NeedSource = 'sb' | 'bb' | 'ante' | 'startingStack' | 'rebuys';

/** The smallest chip a level needs, and the amount that needs it (the first such, in source order). */
export interface LevelNeed {
  readonly level: number;
  readonly chip: number;
  readonly source: NeedSource;
  readonly amount: number;
}

/** One colour-up: after `afterLevel`, the `remove` chips (ascending) leave; `next` is the smallest chip left. */
export interface ColorUp {
  readonly afterLevel: number;
  readonly remove: readonly number[];
  readonly next: number;
}

export interface ColorUpPlan {
  readonly structure: TournamentStructure;
  /** Per playing level, in order. */
  readonly needs: readonly LevelNeed[];
  /** Where a colour-up can happen, as the levels it follows (ascending). */
  readonly moments: readonly number[];
  /** The rule's plan, before the overrides. */
  readonly automatic: readonly ColorUp[];
  /** The plan with the overrides applied: what the console proposes and the command line prints. */
  readonly colorUps: readonly ColorUp[];
  /** Colour-ups whose chips the race cannot exchange exactly (a chip that does not divide the one it is raced into), as messages (`plan.warning.*`). */
  readonly warnings: readonly Message[];
}

/** One race of a colour-up: the race engine's `removed` and `next`. */
export interface RaceStep {
  readonly removed: number;
  readonly next: number;
}

/** What the console offers at a colour-up moment, ready to start the race(s). */
export interface ColorUpProposal extends ColorUp {
  /** Whether the floor's override decided this colour-up rather than the rule. */
  readonly overridden: boolean;
  /** Smallest chip first, each raced into the chip above it (which may itself leave in the next step). */
  readonly races: readonly RaceStep[];
}

function levelNeed(structure: TournamentStructure, level: StructureLevel): LevelNeed {
  const amounts: [NeedSource, number | null][] = [
    ['sb', level.sb],
    ['bb', level.bb],
    ['ante', level.ante],
    ['startingStack', level.level === 1 ? structure.startingStack : null],
    ['rebuys', structure.rebuys && level.level <= structure.rebuys.untilLevel ? structure.rebuys.amount : null],
  ];
  let need: LevelNeed | null = null;
  for (const [source, amount] of amounts) {
    if (amount === null) continue;
    // readStructure has refused every amount no chip divides.
    const chip = largestDividingChip(structure.chips, amount) as number;
    if (need === null || chip < need.chip) need = { level: level.level, chip, source, amount };
  }
  return need as LevelNeed;
}

/** "its small blind 75": the amount that needs the chip (`plan.need.*`), a parameter of the refusals below. */
function needParam(need: LevelNeed): NestedParam {
  return { message: { key: `plan.need.${need.source}`, params: { amount: need.amount } } };
}

/** Builds the colour-ups from each leaving chip's moment (null: never leaves); `next` is the smallest chip not yet gone. */
function colorUpsFrom(chips: readonly number[], departures: ReadonlyMap<number, number | null>): ColorUp[] {
  const byMoment = new Map<number, number[]>();
  for (const chip of chips) {
    const moment = departures.get(chip) ?? null;
    if (moment === null) continue;
    byMoment.set(moment, [...(byMoment.get(moment) ?? []), chip]);
  }
  return [...byMoment.entries()]
    .sort(([a], [b]) => a - b)
    .map(([afterLevel, remove]) => {
      const next = chips.find((chip) => {
        const moment = departures.get(chip) ?? null;
        return moment === null || moment > afterLevel;
      }) as number;
      return { afterLevel, remove: [...remove].sort((a, b) => a - b), next };
    });
}

function raceSteps(chips: readonly number[], colorUp: ColorUp): RaceStep[] {
  return colorUp.remove.map((removed) => ({ removed, next: chips.find((chip) => chip > removed) as number }));
}

/**
 * Plans the colour-ups of a validated structure (DD Poker's rule): a level needs the smallest, over its
 * blinds, ante, the starting stack (level 1) and the rebuy (while offered), of the largest chip dividing
 * that amount. A chip leaves once no later level needs a chip as small as it: at the first break from
 * then on when the structure has breaks (never if none follows), otherwise right after that level. A
 * chip no level needs leaves at the first moment after level 1; a chip still needed at the last level,
 * and the largest chip, never leave. Overrides then move chips to the moment they name; a planned chip
 * left out of an overridden moment waits for the next moment. Refuses an override that removes a chip
 * a later level still needs, or a chip before a smaller one.
 */
export function planStructure(structure: TournamentStructure): ColorUpPlan {
  const { chips, levels, overrides } = structure;
  const lastLevel = levels.length;
  const needs = levels.map((level) => levelNeed(structure, level));
  const moments = colorUpMoments(structure);
  const firstMomentFrom = (level: number): number | null => moments.find((moment) => moment >= level) ?? null;
  const largest = chips[chips.length - 1] as number;
  /** The last level needing a chip as small as `chip` (0 if none does). */
  const lastNeeding = (chip: number): number => needs.reduce((last, need) => (need.chip <= chip ? need.level : last), 0);

  const automatic = new Map<number, number | null>();
  for (const chip of chips) {
    const last = lastNeeding(chip);
    automatic.set(chip, chip === largest || last >= lastLevel ? null : firstMomentFrom(Math.max(last, 1)));
  }

  const overrideAt = new Map(overrides.map((override) => [override.afterLevel, override]));
  const listedAt = new Map<number, number>();
  for (const override of overrides) for (const chip of override.remove) listedAt.set(chip, override.afterLevel);
  const departures = new Map<number, number | null>();
  for (const chip of chips) {
    const listed = listedAt.get(chip);
    if (listed !== undefined) {
      departures.set(chip, listed);
      continue;
    }
    let moment = automatic.get(chip) ?? null;
    while (moment !== null && overrideAt.has(moment)) {
      const after: number = moment;
      moment = moments.find((candidate) => candidate > after) ?? null;
    }
    departures.set(chip, moment);
  }

  for (const [chip, afterLevel] of listedAt) {
    const field = `overrides.${afterLevel}[${overrideAt.get(afterLevel)?.remove.indexOf(chip)}]`;
    // A break after the last level: play goes on at the last level, so what it needs stays.
    const later = needs.find((need) => (need.level > afterLevel || need.level === lastLevel) && need.chip <= chip);
    if (later === undefined) continue;
    if (later.level === afterLevel) {
      throw new InputError(field, { key: 'plan.override.neededToEnd', params: { chip, level: afterLevel, needed: later.chip, need: needParam(later) } });
    }
    if (later.chip === chip) {
      throw new InputError(field, { key: 'plan.override.stillNeeded', params: { chip, level: afterLevel, later: later.level, need: needParam(later) } });
    }
    throw new InputError(field, { key: 'plan.override.smallerNeeded', params: { chip, level: afterLevel, later: later.level, needed: later.chip, need: needParam(later) } });
  }
  const when = (moment: number | null): Message => (moment === null ? { key: 'plan.override.neverLeaves' } : { key: 'plan.override.leavesAfter', params: { level: moment } });
  chips.forEach((smaller, index) => {
    for (const larger of chips.slice(index + 1)) {
      const early = departures.get(larger) ?? null;
      const late = departures.get(smaller) ?? null;
      if (early === null || (late !== null && late <= early)) continue;
      const largerAt = listedAt.get(larger);
      if (largerAt !== undefined) {
        throw new InputError(
          `overrides.${largerAt}[${overrideAt.get(largerAt)?.remove.indexOf(larger)}]`,
          { key: 'plan.override.smallerStays', params: { chip: larger, level: largerAt, smaller, when: { message: when(late) } } },
        );
      }
      const smallerAt = late as number;
      throw new InputError(`overrides.${smallerAt}[${overrideAt.get(smallerAt)?.remove.indexOf(smaller)}]`, {
        key: 'plan.override.largerLeaves',
        params: { chip: smaller, level: smallerAt, larger, early },
      });
    }
  });

  const colorUps = colorUpsFrom(chips, departures);
  const warnings: Message[] = [];
  for (const colorUp of colorUps) {
    for (const step of raceSteps(chips, colorUp)) {
      if (!isMultipleOf(step.next, step.removed)) {
        warnings.push({ key: 'plan.warning.notMultiple', params: { level: colorUp.afterLevel, next: step.next, removed: step.removed } });
      }
    }
  }
  return { structure, needs, moments, automatic: colorUpsFrom(chips, automatic), colorUps, warnings };
}

/** Validates a structure and plans its colour-ups; refuses with an InputError naming the field. */
export function planColorUps(input: unknown): ColorUpPlan {
  return planStructure(readStructure(input));
}

/**
 * The colour-up the console proposes at the break (or, without breaks, the level end) after
 * `afterLevel`, with the races to run smallest chip first; null when no chip leaves then.
 */
export function proposeColorUp(plan: ColorUpPlan, afterLevel: number): ColorUpProposal | null {
  const colorUp = plan.colorUps.find((entry) => entry.afterLevel === afterLevel);
  if (colorUp === undefined) return null;
  return {
    afterLevel: colorUp.afterLevel,
    remove: [...colorUp.remove],
    next: colorUp.next,
    overridden: plan.structure.overrides.some((override) => override.afterLevel === afterLevel),
    races: raceSteps(plan.structure.chips, colorUp),
  };
}

/** The plan as one JSON document: the command line's output contract. */
export function colorUpSummary(plan: ColorUpPlan): { colorUps: ColorUp[] } {
  return { colorUps: plan.colorUps.map(({ afterLevel, remove, next }) => ({ afterLevel, remove: [...remove], next })) };
}

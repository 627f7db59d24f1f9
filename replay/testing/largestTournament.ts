import type { StructureInput } from '../../engine/plan/csv';

/**
 * The largest tournament the planner takes: 500 levels (breaks are shorter), every amount the
 * largest safe whole number the chips pay, 12 chips, every chip but the largest leaving by an
 * override, a starting stack and rebuys.
 */
export function largestTournament(): { structure: StructureInput; house: Record<string, unknown> } {
  const chips = [1, 5, 25, 100, 500, 1000, 5000, 25_000, 100_000, 1_000_000, 10_000_000, 100_000_000];
  const big = Math.floor(Number.MAX_SAFE_INTEGER / 100_000_000) * 100_000_000;
  const levels = Array.from({ length: 500 }, () => ({ sb: big, bb: big, ante: big, minutes: 600 }));
  const overrides = Object.fromEntries(chips.slice(0, -1).map((chip, index) => [String(100 + index), [chip]]));
  return { structure: { chips, levels, startingStack: big, rebuys: { amount: big, untilLevel: 250 }, overrides }, house: { rules: 'roberts', decks: 8, rounding: 'per-player-half-up', dealStart: 'left-of-button', protection: 'first-from-pool', award: 'high-card-takes-all' } };
}

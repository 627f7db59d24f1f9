import type { Message, MessageKey, SeatParam } from '../messages';
import type { Protection, Rounding } from './rules';

/**
 * Where a position in the best-card-first order stands: `win` and `lose` regardless of who sits
 * there, `half` wins only if that player holds at least half a new chip in odd chips (DD Poker).
 */
export type PositionOutcome = 'win' | 'lose' | 'half';

export function holdsHalfChip(odd: number, ratio: number): boolean {
  return 2 * odd >= ratio;
}

/** What a rounding's explanation line is made of: the pool and the denominations. */
export interface PoolFacts {
  readonly poolChips: number;
  readonly ratio: number;
  readonly removed: number;
  readonly next: number;
}

/**
 * One way odd chips become race chips, as data: how it turns the pool into positions, what each
 * racer's position means, and how the explanation says it. Adding a rounding is adding an entry to
 * ROUNDING_RULES (and its name to ROUNDINGS); the planner, the reducer and the explanation ask it.
 * Whether the order of the cards matters (cards dealt at all, a tie broken) follows from the
 * positions it gives (plan.ts orderMatters): none for per-player rounding.
 */
export interface RoundingRule {
  /** The outcome of each of `racers` positions, best card first; empty when no cards decide. */
  positions(poolChips: number, ratio: number, racers: number): PositionOutcome[];
  /** The outcome of the position at `index` of `positions` (per-player rounding: everyone on their own half chip). */
  positionAt(positions: readonly PositionOutcome[], index: number): PositionOutcome | undefined;
  /** Fewest and most chips the race can hand out, whatever the cards, given the racers' odd chips. */
  range(positions: readonly PositionOutcome[], odds: readonly number[], ratio: number): [number, number];
  /** The pool line of the explanation. */
  explainPool(facts: PoolFacts): Message;
}

/** The range over positions: the sure wins, and the next player's chance if one of them holds half a chip. */
function positionsRange(positions: readonly PositionOutcome[], odds: readonly number[], ratio: number): [number, number] {
  let sure = 0;
  let half = false;
  for (const position of positions) {
    if (position === 'win') sure += 1;
    else if (position === 'half') half = true;
  }
  if (!half) return [sure, sure];
  const eligible = odds.filter((odd) => holdsHalfChip(odd, ratio)).length;
  return [sure + (eligible === odds.length ? 1 : 0), sure + (eligible > 0 ? 1 : 0)];
}

/** Race chips a pool of `poolChips` odd chips makes: whole chips, and what the remainder makes of itself. */
function pooled(remainderChip: (remainder: number, ratio: number) => boolean): (poolChips: number, ratio: number) => number {
  return (poolChips, ratio) => {
    if (poolChips <= 0) return 0;
    const remainder = poolChips % ratio;
    return Math.floor(poolChips / ratio) + (remainder !== 0 && remainderChip(remainder, ratio) ? 1 : 0);
  };
}

/** A pooled rounding: the best `chips` cards win, the others lose; the explanation names how the remainder went. */
function pooledRule(chipsOf: (poolChips: number, ratio: number) => number, over: (over: number, next: number) => Message): RoundingRule {
  return {
    positions(poolChips, ratio, racers) {
      const chips = chipsOf(poolChips, ratio);
      // Plain loops: a plan is made for every race, and Array.from with a callback costs more than the rest of it.
      const positions: PositionOutcome[] = [];
      for (let index = 0; index < racers; index += 1) positions.push(index < chips ? 'win' : 'lose');
      return positions;
    },
    positionAt: (positions, index) => positions[index],
    range: positionsRange,
    explainPool({ poolChips, ratio, removed, next }) {
      const value = poolChips * removed;
      const whole = Math.max(0, Math.floor(value / next));
      const left = Math.max(0, value - whole * next);
      const n = chipsOf(poolChips, ratio);
      const params = { chips: poolChips, removed, value, whole, next, n };
      return left === 0 ? { key: 'race.explain.pool', params } : { key: 'race.explain.poolOver', params: { ...params, over: { message: over(left, next) } } };
    },
  };
}

// Half up: 2·remainder ≥ ratio keeps the comparison in whole numbers.
const HALF_UP = pooledRule(pooled((remainder, ratio) => 2 * remainder >= ratio), (over, next) => ({
  key: over * 2 >= next ? 'race.explain.overHalf' : 'race.explain.underHalf',
  params: { over, next },
}));
// More than half: 2·remainder > ratio, strictly (a remainder of exactly half a chip is dropped).
const MORE_THAN_HALF = pooledRule(pooled((remainder, ratio) => 2 * remainder > ratio), (over, next) => ({
  key: over * 2 > next ? 'race.explain.overMoreThanHalf' : 'race.explain.notOverHalf',
  params: { over, next },
}));
const DOWN = pooledRule(pooled(() => false), (over) => ({ key: 'race.explain.overDropped', params: { over } }));
const UP = pooledRule(pooled(() => true), (over) => ({ key: 'race.explain.overMakesChip', params: { over } }));

export const ROUNDING_RULES: Readonly<Record<Rounding, RoundingRule>> = {
  'pooled-half-up': HALF_UP,
  'pooled-more-than-half': MORE_THAN_HALF,
  'pooled-down': DOWN,
  'pooled-up': UP,
  // DD Poker: a chip per full k in the pool, then one chance for the next player.
  'next-player-half': {
    positions(poolChips, ratio, racers) {
      const full = poolChips > 0 ? Math.floor(poolChips / ratio) : 0;
      const remainder = poolChips > 0 ? poolChips % ratio : 0;
      const positions: PositionOutcome[] = [];
      for (let index = 0; index < racers; index += 1) positions.push(index < full ? 'win' : index === full && remainder > 0 ? 'half' : 'lose');
      return positions;
    },
    positionAt: (positions, index) => positions[index],
    range: positionsRange,
    explainPool: ({ poolChips, ratio }) => ({ key: 'race.explain.poolHalf', params: { chips: poolChips, n: poolChips, k: ratio, half: ratio / 2 } }),
  },
  // No cards: each player rounds their own odd chips, as if on the next player's half chip.
  'per-player-half-up': {
    positions: () => [],
    positionAt: () => 'half',
    range(_positions, odds, ratio) {
      const count = odds.filter((odd) => holdsHalfChip(odd, ratio)).length;
      return [count, count];
    },
    explainPool: ({ next }) => ({ key: 'race.explain.perPlayer', params: { half: next / 2, next } }),
  },
};

/** What one protection does with a broke player, as data the planner, the reducer and the explanation ask. */
export interface ProtectionRule {
  /** Given a chip before the race and not dealt in (false: races like everyone, helped afterwards). */
  readonly before: boolean;
  /** Odd chips the race hands out chips for, once the players protected before the race are served. */
  poolChips(oddChips: number, protectedOdd: number, protectedCount: number, ratio: number): number;
  /** The explanation's line for a protected seat: before the race, or raced out and given a chip after it. */
  explain(seat: SeatParam, next: number, ratio: number): Message;
  /** Key of the counts screen's line on how the rule set keeps a broke player in (params: next). */
  readonly guidance: MessageKey;
}

export const PROTECTION_RULES: Readonly<Record<Protection, ProtectionRule>> = {
  // Exempt players keep their odd chips out of the pool.
  exempt: {
    before: true,
    poolChips: (oddChips, protectedOdd) => oddChips - protectedOdd,
    explain: (seat, next) => ({ key: 'race.explain.exempt', params: { seat, next } }),
    guidance: 'race.protection.exempt',
  },
  // First-from-pool players take k each out of the pool.
  'first-from-pool': {
    before: true,
    poolChips: (oddChips, _protectedOdd, protectedCount, ratio) => oddChips - protectedCount * ratio,
    explain: (seat, next, ratio) => ({ key: 'race.explain.servedFirst', params: { seat, next, k: ratio } }),
    guidance: 'race.protection.servedFirst',
  },
  'after-race': {
    before: false,
    poolChips: (oddChips) => oddChips,
    explain: (seat, next) => ({ key: 'race.explain.racedOut', params: { seat, next } }),
    guidance: 'race.protection.afterRace',
  },
};

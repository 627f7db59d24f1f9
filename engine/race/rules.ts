import { InputError } from '../errors';
import { valueParam, type MessageKey } from '../messages';

/**
 * How the odd chips become race chips. The seeds disagree, so each reading is a named option:
 * - pooled-half-up: whole chips of the pool, plus one if the remainder is at least half a chip (seeds 000, 001);
 * - pooled-down / pooled-up: drop any remainder / any remainder makes a chip (house variants);
 * - next-player-half: DD Poker's loop, where the player after the last full chip wins only with
 *   half a chip of their own (seed 003);
 * - per-player-half-up: no cards; each player rounds their own odd chips.
 */
export const ROUNDINGS = ['pooled-half-up', 'pooled-down', 'pooled-up', 'next-player-half', 'per-player-half-up'] as const;
/** Where the deal begins: the first seat clockwise after the button, or the lowest seat number. */
export const DEAL_STARTS = ['left-of-button', 'seat-1'] as const;
/**
 * How a player whose whole stack is odd chips is kept in the tournament:
 * - exempt: given a chip before the race, not dealt in, odd chips not pooled (seed 000);
 * - first-from-pool: served first from the pool, k odd chips each, not dealt in (seed 003);
 * - after-race: races like everyone; if left with nothing, given one chip afterwards (TDA, seed 001).
 */
export const PROTECTIONS = ['exempt', 'first-from-pool', 'after-race'] as const;
export const RULE_SET_NAMES = ['classic', 'tda', 'roberts', 'round'] as const;

export type Rounding = (typeof ROUNDINGS)[number];
export type DealStart = (typeof DEAL_STARTS)[number];
export type Protection = (typeof PROTECTIONS)[number];
export type RuleSetName = (typeof RULE_SET_NAMES)[number];

export interface RaceSettings {
  readonly rounding: Rounding;
  readonly dealStart: DealStart;
  readonly protection: Protection;
}

export const RULE_SETS: Readonly<Record<RuleSetName, RaceSettings>> = {
  classic: { rounding: 'pooled-half-up', dealStart: 'left-of-button', protection: 'exempt' },
  tda: { rounding: 'pooled-half-up', dealStart: 'seat-1', protection: 'after-race' },
  roberts: { rounding: 'next-player-half', dealStart: 'seat-1', protection: 'first-from-pool' },
  // No cards are dealt under `round`; the deal start only matters if a house switches rounding back on.
  round: { rounding: 'per-player-half-up', dealStart: 'seat-1', protection: 'after-race' },
};

/** One line per rule set, for the setup screen and the README. */
export const RULE_SET_SUMMARIES: Readonly<Record<RuleSetName, string>> = {
  classic: 'Pool rounded half up; deal from the left of the button; a broke player gets a chip without racing.',
  tda: 'Pool rounded half up; deal from seat 1; anyone raced out gets one chip afterwards.',
  roberts: "DD Poker / Robert's Rules: chips while the pool holds a full one, then the next player wins with half a chip of their own; broke players served first.",
  round: 'No race: each player with at least half a new chip in odd chips gets one.',
};

/** The catalog keys (`race.names.*`) of every rule set and setting, for the explanation's first line. */
export const RULE_NAMES = {
  rules: { classic: 'race.names.classic', tda: 'race.names.tda', roberts: 'race.names.roberts', round: 'race.names.round' },
  rounding: {
    'pooled-half-up': 'race.names.pooledHalfUp',
    'pooled-down': 'race.names.pooledDown',
    'pooled-up': 'race.names.pooledUp',
    'next-player-half': 'race.names.nextPlayerHalf',
    'per-player-half-up': 'race.names.perPlayerHalfUp',
  },
  dealStart: { 'left-of-button': 'race.names.leftOfButton', 'seat-1': 'race.names.seat1' },
  protection: { exempt: 'race.names.exempt', 'first-from-pool': 'race.names.firstFromPool', 'after-race': 'race.names.afterRace' },
} as const satisfies {
  rules: Record<RuleSetName, MessageKey>;
  rounding: Record<Rounding, MessageKey>;
  dealStart: Record<DealStart, MessageKey>;
  protection: Record<Protection, MessageKey>;
};

export interface RuleChoice {
  readonly rules: RuleSetName;
  readonly settings: RaceSettings;
}

function readOption<T extends string>(value: unknown, options: readonly T[], field: string): T {
  if (typeof value === 'string' && (options as readonly string[]).includes(value)) return value as T;
  throw new InputError(field, { key: 'race.setup.unknownOption', params: { value: valueParam(value), options: options.join(', ') } });
}

/**
 * Resolves a named rule set plus any setting chosen on its own. `overrides` holds the optional
 * `rounding`, `dealStart` and `protection` fields of the input.
 */
export function readRuleChoice(rules: unknown, overrides: Readonly<Record<string, unknown>>): RuleChoice {
  const name = readOption(rules, RULE_SET_NAMES, 'rules');
  const base = RULE_SETS[name];
  return {
    rules: name,
    settings: {
      rounding: overrides.rounding === undefined ? base.rounding : readOption(overrides.rounding, ROUNDINGS, 'rounding'),
      dealStart: overrides.dealStart === undefined ? base.dealStart : readOption(overrides.dealStart, DEAL_STARTS, 'dealStart'),
      protection: overrides.protection === undefined ? base.protection : readOption(overrides.protection, PROTECTIONS, 'protection'),
    },
  };
}

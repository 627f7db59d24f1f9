import { InputError } from '../errors';
import { valueParam, type MessageKey } from '../messages';

/**
 * How the odd chips become race chips. The seeds disagree, so each reading is a named option:
 * - pooled-half-up: whole chips of the pool, plus one if the remainder is at least half a chip (seeds 000, 001);
 * - pooled-more-than-half: the same, but only a remainder of strictly more than half a chip makes one
 *   (the older Wikipedia text; a house variant);
 * - pooled-down / pooled-up: drop any remainder / any remainder makes a chip (house variants);
 * - next-player-half: DD Poker's loop, where the player after the last full chip wins only with
 *   half a chip of their own (seed 003);
 * - per-player-half-up: no cards; each player rounds their own odd chips.
 */
export const ROUNDINGS = ['pooled-half-up', 'pooled-more-than-half', 'pooled-down', 'pooled-up', 'next-player-half', 'per-player-half-up'] as const;
/**
 * Where the deal begins: the first seat clockwise after the button, the lowest seat number, or the
 * button's own seat (a house variant: when the button's seat is not in the race, the first racer
 * clockwise after it, as left-of-button would).
 */
export const DEAL_STARTS = ['left-of-button', 'seat-1', 'button'] as const;
/**
 * How a player whose whole stack is odd chips is kept in the tournament:
 * - exempt: given a chip before the race, not dealt in, odd chips not pooled (seed 000);
 * - first-from-pool: served first from the pool, k odd chips each, not dealt in (seed 003);
 * - after-race: races like everyone; if left with nothing, given one chip afterwards (TDA, seed 001).
 */
export const PROTECTIONS = ['exempt', 'first-from-pool', 'after-race'] as const;
/**
 * How the race chips are handed out once the cards are compared:
 * - one-chip-each: the best card wins a chip, then the next best, …; nobody wins more than one (every seed);
 * - high-card-takes-all: a home-game variant, the one that breaks "one chip per player": every
 *   player in the race gets one card whatever their odd chips, and the best card takes all the
 *   race chips the rounding makes. Under next-player-half those chips still count the next
 *   player's chance: the player whose single card ranks just after the full chips makes one more
 *   chip raced (for the best card) only with half a chip of odd chips of their own. Under
 *   per-player-half-up nothing is raced (no card is dealt), so there is nothing for a best card to
 *   take: each player's own rounding stands.
 */
export const AWARDS = ['one-chip-each', 'high-card-takes-all'] as const;
export const RULE_SET_NAMES = ['classic', 'tda', 'roberts', 'round'] as const;

export type Rounding = (typeof ROUNDINGS)[number];
export type DealStart = (typeof DEAL_STARTS)[number];
export type Protection = (typeof PROTECTIONS)[number];
export type Award = (typeof AWARDS)[number];
export type RuleSetName = (typeof RULE_SET_NAMES)[number];

export interface RaceSettings {
  readonly rounding: Rounding;
  readonly dealStart: DealStart;
  readonly protection: Protection;
  /** Every rule set says one-chip-each; a race set up before the award could be chosen (a journal's record) reads as one-chip-each. */
  readonly award: Award;
}

/** The award every rule set has, and every race set up without one. */
export const DEFAULT_AWARD: Award = 'one-chip-each';

/** The rounding under which nothing is raced: each player rounds their own odd chips, no card is dealt. */
export const NO_RACE_ROUNDING: Rounding = 'per-player-half-up';

/** Whether the best card takes all the race chips: high-card-takes-all, where the rounding races at all. */
export function takesAll(settings: RaceSettings): boolean {
  return settings.award === 'high-card-takes-all' && settings.rounding !== NO_RACE_ROUNDING;
}

export const RULE_SETS: Readonly<Record<RuleSetName, RaceSettings>> = {
  classic: { rounding: 'pooled-half-up', dealStart: 'left-of-button', protection: 'exempt', award: DEFAULT_AWARD },
  tda: { rounding: 'pooled-half-up', dealStart: 'seat-1', protection: 'after-race', award: DEFAULT_AWARD },
  roberts: { rounding: 'next-player-half', dealStart: 'seat-1', protection: 'first-from-pool', award: DEFAULT_AWARD },
  // No cards are dealt under `round`; the deal start only matters if a house switches rounding back on.
  round: { rounding: 'per-player-half-up', dealStart: 'seat-1', protection: 'after-race', award: DEFAULT_AWARD },
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
    'pooled-more-than-half': 'race.names.pooledMoreThanHalf',
    'pooled-down': 'race.names.pooledDown',
    'pooled-up': 'race.names.pooledUp',
    'next-player-half': 'race.names.nextPlayerHalf',
    'per-player-half-up': 'race.names.perPlayerHalfUp',
  },
  dealStart: { 'left-of-button': 'race.names.leftOfButton', 'seat-1': 'race.names.seat1', button: 'race.names.button' },
  protection: { exempt: 'race.names.exempt', 'first-from-pool': 'race.names.firstFromPool', 'after-race': 'race.names.afterRace' },
  award: { 'one-chip-each': 'race.names.oneChipEach', 'high-card-takes-all': 'race.names.highCardTakesAll' },
} as const satisfies {
  rules: Record<RuleSetName, MessageKey>;
  rounding: Record<Rounding, MessageKey>;
  dealStart: Record<DealStart, MessageKey>;
  protection: Record<Protection, MessageKey>;
  award: Record<Award, MessageKey>;
};

/** The settings a race can choose one by one, each with its options: what the readers check and the screens offer. */
export const SETTING_OPTIONS = {
  rounding: ROUNDINGS,
  dealStart: DEAL_STARTS,
  protection: PROTECTIONS,
  award: AWARDS,
} as const satisfies { readonly [K in keyof RaceSettings]: readonly RaceSettings[K][] };

export type SettingName = keyof typeof SETTING_OPTIONS;
export const SETTING_NAMES = Object.keys(SETTING_OPTIONS) as readonly SettingName[];

/** The settings a race ran that its rule set does not have (the house variants that ran), in SETTING_NAMES order. */
export function houseVariants(rules: RuleSetName, settings: RaceSettings): SettingName[] {
  return SETTING_NAMES.filter((name) => settings[name] !== RULE_SETS[rules][name]);
}

export interface RuleChoice {
  readonly rules: RuleSetName;
  readonly settings: RaceSettings;
}

function readOption<T extends string>(value: unknown, options: readonly T[], field: string): T {
  if (typeof value === 'string' && (options as readonly string[]).includes(value)) return value as T;
  throw new InputError(field, { key: 'race.setup.unknownOption', params: { value: valueParam(value), options: options.join(', ') } });
}

/** One setting chosen on its own, read by its name (the field a refusal names): one of its options. */
export function readSetting<K extends SettingName>(name: K, value: unknown, field: string = name): RaceSettings[K] {
  return readOption<string>(value, SETTING_OPTIONS[name], field) as RaceSettings[K];
}

/**
 * Resolves a named rule set plus any setting chosen on its own. `overrides` holds the optional
 * `rounding`, `dealStart`, `protection` and `award` fields of the input; one left out (a race
 * journaled before it could be chosen) is the rule set's.
 */
export function readRuleChoice(rules: unknown, overrides: Readonly<Record<string, unknown>>): RuleChoice {
  const name = readOption(rules, RULE_SET_NAMES, 'rules');
  const base = RULE_SETS[name];
  // Each setting read by its own name, not by a closure or helper taking the name: this runs once
  // a race, and under tsx (the benchmark, browser mode) a named closure made here is given its name
  // with Object.defineProperty each time (esbuild's keepNames), which with a keyed read per setting
  // cost the `round` races (setup is all they do) about a fifth of their time (issue 42's profile).
  const { rounding, dealStart, protection, award } = overrides;
  return {
    rules: name,
    settings: {
      rounding: rounding === undefined ? base.rounding : readSetting('rounding', rounding),
      dealStart: dealStart === undefined ? base.dealStart : readSetting('dealStart', dealStart),
      protection: protection === undefined ? base.protection : readSetting('protection', protection),
      award: award === undefined ? base.award : readSetting('award', award),
    },
  };
}

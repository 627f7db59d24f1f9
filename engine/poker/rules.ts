import type { HandCategory } from './hands';

/** The games the console scores: Pistepokeri and its descendant Chicago, a variant of its own. */
export const GAMES = ['pistepokeri', 'chicago'] as const;
export type GameName = (typeof GAMES)[number];

/**
 * What a player must play to a trick once it is led.
 * - `beat-opening-card` (Pistepokeri): a card of the led suit higher than the opening (led) card if
 *   the player has one; otherwise any card (a lower card of the led suit need not be given up).
 * - `follow-suit` (Chicago): a card of the led suit if the player has one; otherwise any card.
 * Neither game has trumps: the highest card of the led suit wins the trick.
 */
export type TrickDuty = 'beat-opening-card' | 'follow-suit';

export interface GameRules {
  readonly game: GameName;
  /** Exchange rounds in a deal (a player may stand pat in any of them). */
  readonly exchangeRounds: number;
  readonly lastTrickPoints: number;
  /** The game is won by the first player to reach at least this many points. */
  readonly target: number;
  readonly duty: TrickDuty;
  /** Points for the single best hand; high card scores nothing. */
  readonly handPoints: Readonly<Record<HandCategory, number>>;
  /** Chicago: a royal flush (10-J-Q-K-A suited) scores this many points and wins at once. */
  readonly royalFlushPoints: number | null;
}

const HAND_POINTS: Readonly<Record<HandCategory, number>> = {
  'high-card': 0,
  pair: 1,
  'two-pair': 2,
  'three-of-a-kind': 3,
  straight: 4,
  flush: 5,
  'full-house': 6,
  'four-of-a-kind': 7,
  'straight-flush': 8,
};

export const GAME_RULES: Readonly<Record<GameName, GameRules>> = {
  pistepokeri: {
    game: 'pistepokeri',
    exchangeRounds: 1,
    lastTrickPoints: 2,
    target: 13,
    duty: 'beat-opening-card',
    handPoints: HAND_POINTS,
    royalFlushPoints: null,
  },
  chicago: {
    game: 'chicago',
    exchangeRounds: 3,
    lastTrickPoints: 5,
    target: 52,
    duty: 'follow-suit',
    handPoints: HAND_POINTS,
    royalFlushPoints: 52,
  },
};

/** Chicago house options; all off by default, and none of them exists in Pistepokeri. */
export interface HouseOptions {
  /** Hand points are also scored after the first and the second exchange, not only after the last. */
  readonly handPointsEachExchange: boolean;
  /**
   * A player may call "Chicago" after the showdown, before the first card, and then leads the first
   * trick: +15 for taking all five tricks (on top of the last trick's points), −15 as soon as a trick
   * is lost. At most one call per deal.
   */
  readonly chicagoCall: boolean;
  /** A player with at least this many points may no longer exchange (the usual choice is 42); null: off. */
  readonly buyStop: number | null;
}

/** The buy stop Chicago players usually agree on, the one a start screen offers. */
export const USUAL_BUY_STOP = 42;

export const NO_HOUSE_OPTIONS: HouseOptions = { handPointsEachExchange: false, chicagoCall: false, buyStop: null };

export const CHICAGO_CALL_POINTS = 15;

/** Hand size, tricks per deal, and the deck: one 52-card pack. */
export const HAND_SIZE = 5;
export const TRICKS = 5;
export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 6;

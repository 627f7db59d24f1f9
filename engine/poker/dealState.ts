/**
 * A deal of a points game as plain data: the events that change it and the state they build
 * (engine/poker/deal.ts applies them; engine/poker/dealQueries.ts reads the state).
 */
import type { Card } from '../cards';
import type { HandCategory, HandValue } from './hands';
import type { PokerSetup } from './setup';

/**
 * The only ways a deal changes. Plain data, so the journal can store and replay them. Where
 * `player` is optional the engine knows whose turn it is; when given, it must be that player.
 * - setup: `{ game, players, scores?, exchangeOrder?, options? }` (see readPokerSetup).
 * - deal: cards dealt; to `player`, or one at a time round the table from the dealer's left.
 * - discard: the exchanging player's discards; none means standing pat.
 * - draw: cards the dealer gives the player who discarded, from the stock.
 * - reshuffle: the stock has run out; the discards are shuffled into a new stock.
 * - end-exchanges: everyone still to exchange stands pat, in every remaining round.
 * - call: Chicago house option, before the first card: `player` will take all five tricks.
 * - play: the next card to the current trick.
 */
export type PokerEvent =
  | { readonly type: 'setup'; readonly deal: unknown }
  | { readonly type: 'deal'; readonly cards: readonly string[]; readonly player?: string }
  | { readonly type: 'discard'; readonly cards: readonly string[]; readonly player?: string }
  | { readonly type: 'draw'; readonly cards: readonly string[]; readonly player?: string }
  | { readonly type: 'reshuffle' }
  | { readonly type: 'end-exchanges' }
  | { readonly type: 'call'; readonly player: string }
  | { readonly type: 'play'; readonly card: string; readonly player?: string };

export type PokerEventType = PokerEvent['type'];
/** The event of one type, with its own fields. Its values are still checked: the journal and the command line hand in plain JSON. */
export type EventOf<T extends PokerEventType> = Extract<PokerEvent, { type: T }>;
export const POKER_EVENT_TYPES: readonly PokerEventType[] = ['setup', 'deal', 'discard', 'draw', 'reshuffle', 'end-exchanges', 'call', 'play'];

export type PokerPhase = 'dealing' | 'exchanging' | 'playing' | 'complete';

/** One player's exchange in one round (standing pat: nothing discarded). */
export interface ExchangeRecord {
  readonly round: number;
  readonly player: number;
  readonly discarded: readonly Card[];
  /** Grows as the dealer gives the cards; complete when as long as `discarded`. */
  readonly drawn: readonly Card[];
}

/** Whose exchange it is: `owed` 0 means the player has yet to discard (or stand pat). */
export interface ExchangeTurn {
  /** 1, 2, 3 … */
  readonly round: number;
  /** Index into setup.exchangeOrder. */
  readonly turn: number;
  readonly owed: number;
}

export interface Reshuffle {
  readonly round: number;
  /** The discards that became the new stock. */
  readonly cards: readonly Card[];
}

/** The hands shown after an exchange round and what they scored. */
export interface HandScore {
  readonly round: number;
  /** True for the showdown after the last exchange; false for the Chicago house option's earlier ones. */
  readonly final: boolean;
  readonly hands: readonly (readonly Card[])[];
  readonly values: readonly HandValue[];
  /** The single best hand's holder, or null when the best hands tie exactly. */
  readonly best: number | null;
  /** Everyone holding the best hand when it is an exact tie; empty otherwise. */
  readonly tied: readonly number[];
  readonly category: HandCategory;
  /** 0 when nobody scores (a tie or a best hand of high card). */
  readonly points: number;
  readonly royalFlush: boolean;
}

export interface Trick {
  readonly leader: number;
  /** In the order played, starting with the leader's card. */
  readonly cards: readonly Card[];
  readonly winner: number | null;
}

export type ScoreReason = 'hand' | 'last-trick' | 'chicago-call';

/** One change to a total. Scores change only by these, in this order. */
export interface ScoreEntry {
  readonly player: number;
  readonly points: number;
  readonly reason: ScoreReason;
  /** The exchange round for hand points, the trick (1–5) for trick points. */
  readonly at: number;
}

export interface Winner {
  readonly player: number;
  readonly reason: 'target' | 'royal-flush';
}

export interface PokerState {
  readonly setup: PokerSetup;
  readonly phase: PokerPhase;
  /** Each player's cards now, by player index (cards leave as they are discarded or played). */
  readonly hands: readonly (readonly Card[])[];
  /** The five cards each player was dealt. */
  readonly dealt: readonly (readonly Card[])[];
  /** The discards since the last reshuffle: out of this deal unless reshuffled into the stock. */
  readonly discards: readonly Card[];
  readonly exchanges: readonly ExchangeRecord[];
  readonly exchange: ExchangeTurn | null;
  readonly reshuffles: readonly Reshuffle[];
  readonly handScores: readonly HandScore[];
  /** Chicago house option: who called "Chicago", if anyone. */
  readonly call: number | null;
  readonly tricks: readonly Trick[];
  readonly scoring: readonly ScoreEntry[];
  /** Totals: setup.scores plus every scoring entry. */
  readonly scores: readonly number[];
  /**
   * The first player to reach the target in scoring order, or the holder of a Chicago royal flush.
   * Kept once decided: the rest of the deal may still be recorded and scored (the command line's
   * whole deal), but cannot change it. At the console a royal flush ends the game at once: the match
   * (match.ts) takes nothing more.
   */
  readonly winner: Winner | null;
}

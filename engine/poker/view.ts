import type { Card } from '../cards';
import { callOpen, legalCards, type Winner } from './deal';
import { handCategory, type HandCategory } from './hands';
import type { GameName, HouseOptions } from './rules';
import { endedByRoyalFlush, type MatchState } from './match';
import { pointsOutput, pokerAwaiting, type PokerAwaiting, type PointsOutput } from './summary';

/** A game of Pistepokeri or Chicago at the console: the current deal as the screens show it. */
export interface GameView {
  readonly id: string;
  readonly startedAt: string;
  readonly game: GameName;
  /** The house options chosen at the start (Chicago's; all off in Pistepokeri). */
  readonly options: HouseOptions;
  /** Clockwise, as at the start. */
  readonly players: readonly string[];
  readonly dealNumber: number;
  readonly dealer: string;
  /** The deal's phase; `complete` too once a royal flush has ended the game in the middle of a deal. */
  readonly phase: 'dealing' | 'exchanging' | 'playing' | 'complete';
  /** What the deal waits for: a card to deal, discards, a draw, a play; null when the deal (or the game) is over. */
  readonly awaiting: PokerAwaiting | null;
  /** Each player's cards now, in deal order (the dealer's left first). */
  readonly hands: ReadonlyArray<{ readonly player: string; readonly cards: readonly Card[] }>;
  /** The cards the player in turn may play (empty outside the tricks). */
  readonly legal: readonly Card[];
  /** Who called "Chicago" in this deal (the house option), if anyone. */
  readonly call: string | null;
  /** Whether a player may call "Chicago" now (the option on, before the first card of the tricks). */
  readonly callOpen: boolean;
  /** The hands shown after the last exchange, with the best one named. */
  readonly showdown: {
    readonly hands: ReadonlyArray<{ readonly player: string; readonly cards: readonly Card[]; readonly category: HandCategory }>;
    readonly best: string | null;
    readonly category: HandCategory;
    readonly points: number;
    /** Chicago: the best hand is a royal flush (its own points, and it wins the game at once). */
    readonly royalFlush: boolean;
  } | null;
  readonly tricks: ReadonlyArray<{ readonly cards: ReadonlyArray<{ readonly player: string; readonly card: Card }>; readonly winner: string | null }>;
  /** The command line's summary of the deal (hand points, trick winners, last trick, totals, winner). */
  readonly points: PointsOutput;
  /** Totals after each finished deal. */
  readonly finished: ReadonlyArray<Readonly<Record<string, number>>>;
  readonly winner: string | null;
  /** How the game was won: reaching the target, or (Chicago) a royal flush, which ends it at once. */
  readonly winReason: Winner['reason'] | null;
}

/** The game as the screens show it: names instead of indexes, the deal's next step, the legal cards. */
export function gameViewOf(state: MatchState, id: string, startedAt: string): GameView {
  const { deal } = state;
  const players = deal.setup.players;
  const name = (index: number) => players[index] as string;
  const showdown = deal.handScores.findLast((score) => score.final) ?? deal.handScores.at(-1);
  // A royal flush ends the game at once: nothing is awaited, whatever the deal's own phase.
  const over = endedByRoyalFlush(state);
  return {
    id,
    startedAt,
    game: deal.setup.game,
    options: deal.setup.options,
    players: state.players,
    dealNumber: state.dealNumber,
    dealer: state.players[state.dealer] as string,
    phase: over ? 'complete' : deal.phase,
    awaiting: over ? null : pokerAwaiting(deal),
    hands: deal.hands.map((cards, index) => ({ player: name(index), cards: cards.slice() })),
    legal: !over && deal.phase === 'playing' ? legalCards(deal) : [],
    call: deal.call === null ? null : name(deal.call),
    callOpen: !over && callOpen(deal),
    showdown: showdown
      ? {
          hands: showdown.hands.map((cards, index) => ({ player: name(index), cards: cards.slice(), category: handCategory(showdown.values[index] as number) })),
          best: showdown.best === null ? null : name(showdown.best),
          category: showdown.category,
          points: showdown.points,
          royalFlush: showdown.royalFlush,
        }
      : null,
    tricks: deal.tricks.map((trick) => ({
      cards: trick.cards.map((card, offset) => ({ player: name((trick.leader + offset) % players.length), card })),
      winner: trick.winner === null ? null : name(trick.winner),
    })),
    points: pointsOutput(deal),
    finished: state.finished,
    winner: state.winner,
    winReason: deal.winner?.reason ?? null,
  };
}

import type { Card } from '../cards';
import { legalCards } from './deal';
import { handCategory, type HandCategory } from './hands';
import type { GameName } from './rules';
import type { MatchState } from './match';
import { pointsOutput, pokerAwaiting, type PokerAwaiting, type PointsOutput } from './summary';

/** A game of Pistepokeri or Chicago at the console: the current deal as the screens show it. */
export interface GameView {
  readonly id: string;
  readonly startedAt: string;
  readonly game: GameName;
  /** Clockwise, as at the start. */
  readonly players: readonly string[];
  readonly dealNumber: number;
  readonly dealer: string;
  readonly phase: 'dealing' | 'exchanging' | 'playing' | 'complete';
  /** What the deal waits for: a card to deal, discards, a draw, a play; null when the deal is over. */
  readonly awaiting: PokerAwaiting | null;
  /** Each player's cards now, in deal order (the dealer's left first). */
  readonly hands: ReadonlyArray<{ readonly player: string; readonly cards: readonly Card[] }>;
  /** The cards the player in turn may play (empty outside the tricks). */
  readonly legal: readonly Card[];
  /** The hands shown after the last exchange, with the best one named. */
  readonly showdown: {
    readonly hands: ReadonlyArray<{ readonly player: string; readonly cards: readonly Card[]; readonly category: HandCategory }>;
    readonly best: string | null;
    readonly category: HandCategory;
    readonly points: number;
  } | null;
  readonly tricks: ReadonlyArray<{ readonly cards: ReadonlyArray<{ readonly player: string; readonly card: Card }>; readonly winner: string | null }>;
  /** The command line's summary of the deal (hand points, trick winners, last trick, totals, winner). */
  readonly points: PointsOutput;
  /** Totals after each finished deal. */
  readonly finished: ReadonlyArray<Readonly<Record<string, number>>>;
  readonly winner: string | null;
}

/** The game as the screens show it: names instead of indexes, the deal's next step, the legal cards. */
export function gameViewOf(state: MatchState, id: string, startedAt: string): GameView {
  const { deal } = state;
  const players = deal.setup.players;
  const name = (index: number) => players[index] as string;
  const showdown = deal.handScores.findLast((score) => score.final) ?? deal.handScores.at(-1);
  return {
    id,
    startedAt,
    game: deal.setup.game,
    players: state.players,
    dealNumber: state.dealNumber,
    dealer: state.players[state.dealer] as string,
    phase: deal.phase,
    awaiting: pokerAwaiting(deal),
    hands: deal.hands.map((cards, index) => ({ player: name(index), cards: cards.slice() })),
    legal: deal.phase === 'playing' ? legalCards(deal) : [],
    showdown: showdown
      ? {
          hands: showdown.hands.map((cards, index) => ({ player: name(index), cards: cards.slice(), category: handCategory(showdown.values[index] as number) })),
          best: showdown.best === null ? null : name(showdown.best),
          category: showdown.category,
          points: showdown.points,
        }
      : null,
    tricks: deal.tricks.map((trick) => ({
      cards: trick.cards.map((card, offset) => ({ player: name((trick.leader + offset) % players.length), card })),
      winner: trick.winner === null ? null : name(trick.winner),
    })),
    points: pointsOutput(deal),
    finished: state.finished,
    winner: state.winner,
  };
}

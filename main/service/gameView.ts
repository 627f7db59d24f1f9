import { legalCards } from '../../engine/poker/deal';
import { handCategory } from '../../engine/poker/hands';
import { pointsOutput, pokerAwaiting } from '../../engine/poker/summary';
import type { GameView } from '../ipc/contract';
import type { ActiveGame } from './session';

/** The open game as the screens show it: names instead of indexes, the deal's next step, the legal cards. */
export function gameView(game: ActiveGame): GameView {
  const { state } = game;
  const { deal } = state;
  const players = deal.setup.players;
  const name = (index: number) => players[index] as string;
  const showdown = deal.handScores.findLast((score) => score.final) ?? deal.handScores.at(-1);
  return {
    id: game.id,
    startedAt: game.startedAt,
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

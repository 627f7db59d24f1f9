import { gameViewOf } from '../../engine/poker/view';
import type { GameView } from '../../protocol/contract';
import type { ActiveGame } from '../../replay/session';

/** The open game as the screens show it. */
export function gameView(game: ActiveGame): GameView {
  return gameViewOf(game.state, game.id, game.startedAt);
}

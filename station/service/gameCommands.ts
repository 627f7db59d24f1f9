import { isInputError } from '../../engine/errors';
import type { MatchEvent } from '../../engine/poker/match';
import type { GameName, HouseOptions } from '../../engine/poker/rules';
import type { CommandResult, GameAction, InputSource } from '../../protocol/contract';
import type { ActiveGame } from '../../replay/session';
import { stillOpen, type CommandContext } from './commandContext';
import { failure, ok, refused } from './failures';
import { refusalFor } from './refusalRuns';

/** The points games' commands (Pistepokeri, Chicago): started, played, closed, from the same shoe. */
export class GameCommands {
  constructor(private readonly ctx: CommandContext) {}

  private openGame(gameId: string): { game: ActiveGame } | { refusal: CommandResult<never> } {
    const game = this.ctx.session().game;
    if (!game) return { refusal: refused('game', { key: 'service.noGame' }) };
    if (game.id !== gameId) return { refusal: refused('game', { key: 'service.notOpenGame', params: { given: gameId, open: game.id } }) };
    return { game };
  }

  async applyToGame(game: ActiveGame, event: MatchEvent, input: string, source: InputSource): Promise<CommandResult> {
    try {
      await this.ctx.commit({ kind: 'game-event', gameId: game.id, event, source });
    } catch (error) {
      if (!isInputError(error)) throw error;
      await this.ctx.refusals.refuse(refusalFor({ gameId: game.id }, input, error.reason, source, error.said));
      return failure(error);
    }
    return ok(null);
  }

  /**
   * Starts a points game. The house options (Chicago's) go into the journal's start event as given
   * (the argument check hands them over in full); the engine checks them again when the event is
   * applied, now and on every replay. A journal's start event without them reads as all off.
   */
  startGame(game: GameName, players: readonly string[], options?: Partial<HouseOptions>): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      const busy = stillOpen(this.ctx.session()) ?? this.ctx.readerSetUp();
      if (busy !== null) return busy;
      const event: MatchEvent = { type: 'start', game, players, ...(options === undefined ? {} : { options }) };
      await this.ctx.commit({ kind: 'game-event', gameId: `game-${this.ctx.session().gamesStarted + 1}`, event, source: 'manual' });
      return ok(null);
    });
  }

  gameAction(gameId: string, action: GameAction): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      const open = this.openGame(gameId);
      return 'refusal' in open ? open.refusal : this.applyToGame(open.game, action, action.type, 'manual');
    });
  }

  closeGame(gameId: string, reason: string): Promise<CommandResult> {
    return this.ctx.kernel.serial(async () => {
      const open = this.openGame(gameId);
      if ('refusal' in open) return open.refusal;
      await this.ctx.refuseHeldFor(gameId, 'game');
      await this.ctx.commit({ kind: 'game-close', gameId, reason });
      return ok(null);
    });
  }
}

/** The fake service's start of a points game (fakeApi.ts), on the real engine, and a card to it; a game's actions and its close are the real kernel's (kernelApi.ts). */
import type { CommandResult } from '../../protocol/contract';
import { applyMatchEvent, type MatchEvent } from '../../engine/poker/match';
import { push, refused, type FakeHandlers, type FakeStation } from './fakeStation';
import { gameViewOf } from './gameFixtures';

/** Applies a game event on the engine and pushes the new view; refusals as the service words them. */
export function applyGame(station: FakeStation, event: MatchEvent): CommandResult {
  if (station.game === null) return { ok: false, error: { field: 'game', message: 'no game is open: start one first' } };
  try {
    station.game = applyMatchEvent(station.game, event);
    push(station, { ...station.current, game: gameViewOf(station.game, `game-${station.gameNumber}`) });
    return { ok: true, value: null };
  } catch (error) {
    return refused(error);
  }
}

export function gameCommands(station: FakeStation): FakeHandlers<'startGame'> {
  return {
    startGame: (name: string, players: readonly string[], houseOptions?: unknown) => {
      if (station.race !== null) return { ok: false, error: { field: 'race', message: 'a race is open: confirm or abandon it first' } };
      if (station.game !== null) return { ok: false, error: { field: 'game', message: 'a game is still open: close it first' } };
      try {
        station.game = applyMatchEvent(null, { type: 'start', game: name, players, ...(houseOptions === undefined ? {} : { options: houseOptions }) });
        station.gameNumber += 1;
        push(station, { ...station.current, game: gameViewOf(station.game, `game-${station.gameNumber}`) });
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
  };
}

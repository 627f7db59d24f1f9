import { racedOffSaid } from '../../protocol/colorUp';
import type { CommandResult, ConsoleSettings } from '../../protocol/contract';
import type { ColorUpLog } from '../../replay/colorUps';
import { refused } from './failures';

/**
 * Why a race of `removed` cannot start (or be set up as the colour-up's) now: those chips were
 * already raced off at this break, in a race confirmed there. "This break" is the one the settings
 * mark (`tournament.atBreakAfter`, by hand or by the clock) and the colour-up log marked last (a
 * break marked afresh starts with none raced off); with no break marked (playing, or a home game
 * without a structure) nothing is refused. Null when the race may start.
 */
export function racedOffRefusal(settings: ConsoleSettings, colorUps: ColorUpLog, removed: number): CommandResult<never> | null {
  const at = settings.tournament?.atBreakAfter ?? null;
  if (at === null) return null;
  const race = colorUps.racedOffAt(at, removed);
  return race === null ? null : refused('removed', racedOffSaid(removed, at, race.raceId, race.confirmedAt));
}

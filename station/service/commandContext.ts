import type { CommandResult } from '../../protocol/contract';
import type { Session, SessionRecord } from '../../replay/session';
import { refused } from './failures';
import type { Kernel } from './kernel';
import type { StationView } from './ports';
import type { RefusalRuns } from './refusalRuns';

/** What a command module works with: the kernel, the station as it stands (session, settings, plan), and the console's commit (ports.ts StationPorts). */
export interface CommandContext extends StationView {
  readonly kernel: Kernel;
  readonly refusals: RefusalRuns;
  /** A command's record journaled, with what follows from it for the console (the screens told, stale held cards dropped). */
  commit(record: SessionRecord): Promise<void>;
  /** Cards still held for `target` go on record as refused before it ends (station/service/service.ts). */
  refuseHeldFor(target: string, kind: 'race' | 'game'): Promise<void>;
  /** The station kept with each race (the host name unless given). */
  readonly station: string | undefined;
  /** Why no race or game may start now because the card reader is being set up (ReaderSession.busy: a deck registered, antennas mapped, settings found), or null. */
  readerSetUp(): CommandResult<never> | null;
}

/** Why nothing new can start: a race or a game still open. */
export function stillOpen(session: Session): CommandResult<never> | null {
  const { race, game } = session;
  if (race) return refused('race', { key: 'service.raceStillOpen', params: { race: race.id } });
  if (game) return refused('game', { key: 'service.gameStillOpen', params: { game: game.id } });
  return null;
}

import type { ConsoleSettings, CommandResult, PlanView } from '../../protocol/contract';
import type { Session, SessionRecord } from '../../replay/session';
import { refused } from './failures';
import type { Kernel } from './kernel';
import type { RefusalRuns } from './refusalRuns';

/** What a command module works with: the kernel, the session and settings now, and the console's commit. */
export interface CommandContext {
  readonly kernel: Kernel;
  readonly refusals: RefusalRuns;
  session(): Session;
  settings(): ConsoleSettings;
  /** A command's record journaled, with what follows from it for the console (the screens told, stale held cards dropped). */
  commit(record: SessionRecord): Promise<void>;
  /** Cards still held for `target` go on record as refused before it ends (main/service/service.ts). */
  refuseHeldFor(target: string, kind: 'race' | 'game'): Promise<void>;
  /** The structure's plan and its colour-up proposal, as the state carries it. */
  plan(): PlanView | null;
  /** The station kept with each race (the host name unless given). */
  readonly station: string | undefined;
  /** Why no race or game may start now because the card reader is being set up (readerSetUp), or null. */
  readerSetUp(): CommandResult<never> | null;
}

/** Why nothing new can start: a race or a game still open. */
export function stillOpen(session: Session): CommandResult<never> | null {
  const { race, game } = session;
  if (race) return refused('race', { key: 'service.raceStillOpen', params: { race: race.id } });
  if (game) return refused('game', { key: 'service.gameStillOpen', params: { game: game.id } });
  return null;
}

/** What of the card reader's set-up is under way: each takes its reads, so none of them may overlap a race, a game or another. */
export interface ReaderSetUp {
  readonly registering: boolean;
  readonly mappingSeats: boolean;
  readonly detecting: boolean;
}

/**
 * Why nothing that needs the card reader's reads may start: a deck being registered, the antennas
 * being mapped to seats, or the reader's settings being found (each takes every read meanwhile,
 * or has the port closed). Null when none is under way.
 */
export function readerSetUpRefusal(setUp: ReaderSetUp): CommandResult<never> | null {
  if (setUp.registering) return refused('registration', { key: 'service.registering' });
  if (setUp.mappingSeats) return refused('seatMapping', { key: 'service.seatMap.mapping' });
  if (setUp.detecting) return refused('detection', { key: 'service.detecting' });
  return null;
}

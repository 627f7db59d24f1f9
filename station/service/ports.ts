import type { CommandResult, ConsoleSettings, InputSource, PlanView } from '../../protocol/contract';
import type { Session } from '../../replay/session';
import type { HeldTaken } from './heldCards';

/**
 * The ports ConsoleService wires its modules with (issue 45 point 3): each module's constructor
 * takes these, never a closure over the service. Declared once here:
 * - StationView: the station as it stands (the session, the settings in force, the structure's plan);
 * - Dealing: a card to whatever a target names (the open race or game);
 * - SourceControl: the card source reopened as the settings and the reader's mode now say;
 * - CommandContext (commandContext.ts): what a command module works with, a StationView with the kernel and commit.
 * Their implementations, StationNow and StationPorts, are in stationPorts.ts (these import no module, so none is on a cycle).
 */

/** The station as it stands: what the journal's session follower holds, the settings in force, their plan. */
export interface StationView {
  session(): Session;
  settings(): ConsoleSettings;
  /** The structure's plan and its colour-up proposal, as the state carries it (the same object while the tournament stays). */
  plan(): PlanView | null;
}

/** A card to whatever `target` names (the open race or game), from the keyboard, a scan or the shoe. */
export interface Dealing {
  deal(target: string, code: string, source: InputSource, held?: HeldTaken): Promise<CommandResult>;
}

/** The card source closed and opened again as the settings (and the reader's mode) now say. */
export interface SourceControl {
  reopenSource(): Promise<void>;
}

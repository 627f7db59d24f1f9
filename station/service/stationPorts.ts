import type { CommandResult, ConsoleSettings, InputSource, PlanView } from '../../protocol/contract';
import { planView } from '../../protocol/views';
import type { Session, SessionRecord } from '../../replay/session';
import type { CardInputs } from './cardInputs';
import type { CommandContext } from './commandContext';
import type { CountDrafts } from './countDrafts';
import { refused } from './failures';
import type { GameCommands } from './gameCommands';
import type { HeldTaken } from './heldCards';
import type { Kernel } from './kernel';
import { lastOf } from './memo';
import type { Dealing, SourceControl, StationView } from './ports';
import type { RaceCommands } from './raceCommands';
import type { ReaderSession } from './readerMode';
import type { RefusalRuns } from './refusalRuns';
import type { StationSettings } from './stationSettings';

/** The StationView of the journal's session follower and the settings' one write path. */
export class StationNow implements StationView {
  private readonly planOf = lastOf(planView);

  constructor(
    private readonly sessions: { readonly session: { readonly session: Session } },
    private readonly stationSettings: StationSettings,
  ) {}

  session(): Session {
    return this.sessions.session.session;
  }

  settings(): ConsoleSettings {
    return this.stationSettings.current;
  }

  plan(): PlanView | null {
    return this.planOf(this.stationSettings.current.tournament);
  }
}

/** The modules StationPorts hands on to, once they are built (they are built on it). */
export interface WiredModules {
  readonly cards: CardInputs;
  readonly races: RaceCommands;
  readonly games: GameCommands;
  readonly countDrafts: CountDrafts;
}

/**
 * The command modules' ports in one object: the CommandContext, Dealing and SourceControl. Their
 * graph has cycles (a race commits through the card inputs, which deal through the races), so the
 * modules are built on this object first and wired to it once (`wire`), by the service alone.
 */
export class StationPorts implements CommandContext, Dealing, SourceControl {
  private modules: WiredModules | null = null;

  constructor(
    readonly kernel: Kernel,
    readonly refusals: RefusalRuns,
    private readonly view: StationView,
    private readonly reader: ReaderSession,
    readonly station: string | undefined,
  ) {}

  wire(modules: WiredModules): void {
    this.modules = modules;
  }

  private get wired(): WiredModules {
    if (this.modules === null) throw new Error('StationPorts: used before the service wired its modules');
    return this.modules;
  }

  session(): Session {
    return this.view.session();
  }

  settings(): ConsoleSettings {
    return this.view.settings();
  }

  plan(): PlanView | null {
    return this.view.plan();
  }

  readerSetUp(): CommandResult<never> | null {
    return this.reader.busy();
  }

  /** A command's record journaled, then what follows from it for the console beyond the journal's followers. */
  async commit(record: SessionRecord): Promise<void> {
    const { cards, countDrafts } = this.wired;
    await this.kernel.commit(record);
    cards.committed(record);
    // A race begins afresh: the counts typed for it are its own now.
    if (record.kind === 'race-start') await countDrafts.clear();
    this.kernel.publish();
  }

  refuseHeldFor(target: string, kind: 'race' | 'game'): Promise<void> {
    return this.wired.cards.refuseHeldFor(target, kind);
  }

  reopenSource(): Promise<void> {
    return this.wired.cards.reopenSource();
  }

  async deal(target: string, code: string, source: InputSource, held: HeldTaken = false): Promise<CommandResult> {
    const { races, games } = this.wired;
    const { race, game } = this.session();
    if (game && game.id === target) return games.applyToGame(game, { type: 'card', card: code }, code, source);
    if (race && race.id === target) return races.applyToRace(race, { type: 'card', card: code }, code, source, held);
    const open = race ?? game;
    if (open === null) return refused('race', { key: 'service.noRaceStart' });
    return refused(race ? 'race' : 'game', { key: 'service.notOpen', params: { given: target, open: open.id } });
  }
}

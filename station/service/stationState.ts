import type { StationView } from './ports';
import { countsAsConfirmed, type ConsoleSettings, type ConsoleState, type HistoryEntry, type HistorySummary } from '../../protocol/contract';
import { raceView, valueDeltaOf, type ActiveGame, type ActiveRace } from '../../replay/session';
import type { CardInputs } from './cardInputs';
import type { CountDrafts } from './countDrafts';
import type { FloorFollowing } from './floorFollowing';
import { gameView } from './gameView';
import type { Kernel } from './kernel';
import { lastOf } from './memo';
import type { ProfileCommands } from './profileCommands';
import type { ReaderDetections } from './readerDetection';
import { shownFloor } from './settings';

/** Where the state's parts come from. */
export interface StateParts {
  readonly kernel: Kernel;
  /** The station as it stands: the session, the settings in force, the structure's plan. */
  readonly view: StationView;
  readonly inputs: CardInputs;
  readonly profiles: ProfileCommands;
  readonly detection: ReaderDetections;
  readonly countDrafts: CountDrafts;
  readonly floor: FloorFollowing;
}

/**
 * The state as the screens see it, assembled from the station's parts without side effects. A
 * part that has not changed is the very same object as in the previous state (each view is
 * remembered with what it was made from), so the transports send only the parts that did.
 */
export class StationState {
  constructor(private readonly parts: StateParts) {}

  /** The settings as the screens get them: the floor's URL without its password. */
  private readonly shownSettingsOf = lastOf((settings: ConsoleSettings): ConsoleSettings => (settings.floor === undefined ? settings : { ...settings, floor: shownFloor(settings.floor) }));

  private readonly raceViewOf = lastOf((race: ActiveRace | null) => (race ? raceView(race) : null));
  private readonly gameViewOf = lastOf((game: ActiveGame | null) => (game ? gameView(game) : null));
  /** A race a damaged line cut short (its end lost) is on the history but not confirmed: not in the value, counted apart. */
  private readonly historyOf = lastOf((history: readonly HistoryEntry[]): HistorySummary => {
    let valueDelta = 0;
    let unconfirmed = 0;
    for (const entry of history) {
      if (countsAsConfirmed(entry)) valueDelta += valueDeltaOf(entry) ?? 0;
      else unconfirmed++;
    }
    return { total: history.length, ...(unconfirmed === 0 ? {} : { unconfirmed }), valueDelta, latest: history.at(-1) ?? null };
  });

  assemble(): ConsoleState {
    const session = this.parts.view.session();
    const settings = this.parts.view.settings();
    const inputs = this.parts.inputs.view;
    return {
      settings: this.shownSettingsOf(settings),
      race: this.raceViewOf(session.race),
      source: inputs.source,
      lastInput: inputs.lastInput,
      inputs: inputs.inputs,
      shoeRefusal: inputs.shoeRefusal,
      history: this.historyOf(session.history),
      held: inputs.held,
      profiles: this.parts.profiles.list,
      registration: this.parts.profiles.registration,
      seatMapping: this.parts.profiles.seatMapping,
      detection: this.parts.detection.current,
      game: this.gameViewOf(session.game),
      games: session.games,
      plan: this.parts.view.plan(),
      colorUp: this.parts.kernel.followers.colorUps.progress(settings.tournament?.atBreakAfter ?? null, session.race?.id ?? null),
      journal: this.parts.kernel.journalReport,
      countDrafts: this.parts.countDrafts.current,
      clock: this.parts.kernel.followers.clock.view(settings.tournament?.structure ?? null),
      floorLink: this.parts.floor.current,
      floorCalls: this.parts.kernel.followers.floorDecisions.view,
      chipExchanges: this.parts.kernel.followers.chipExchanges.view,
      readerHealth: this.parts.inputs.readerHealth,
    };
  }
}

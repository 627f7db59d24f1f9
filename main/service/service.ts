import { performance } from 'node:perf_hooks';
import type { GameName, HouseOptions } from '../../engine/poker/rules';
import type { StructureInput } from '../../engine/plan/csv';
import { journalPath } from '../../journal/location';
import type { FloorClock } from '../../protocol/clock';
import {
  HISTORY_PAGE_MAX,
  type CommandResult, type ConsoleSettings, type ConsoleState, type DeviceProfileInfo, type GameAction, type HistoryEntry, type HistoryPage, type InputSource, type JournalReport,
  type Language, type PortInfo, type RaceRecord, type SeatCount, type SeatCountDraft, type SettingsInput,
} from '../../protocol/contract';
import { historyCsv, historyJson } from '../../replay/historyExport';
import type { Session, SessionRecord } from '../../replay/session';
import type { JournalWriter } from '../journal/journal';
import { CardInputs } from './cardInputs';
import { ClockCommands } from './clockCommands';
import type { CommandContext } from './commandContext';
import { CountDrafts } from './countDrafts';
import { prepareDataFolder } from './dataFolder';
import { lockDataFolder } from './dataLock';
import { ok, refused } from './failures';
import { FloorFollowing } from './floorFollowing';
import type { StationFollowers } from './followers';
import { GameCommands } from './gameCommands';
import { Kernel } from './kernel';
import { ProfileCommands } from './profileCommands';
import type { ProfileStore } from './profiles';
import { RaceCommands } from './raceCommands';
import { readRaceRecord } from './raceRecord';
import { RefusalRuns } from './refusalRuns';
import type { ServiceOptions } from './serviceOptions';
import { SettingsCommands } from './settingsCommands';
import { openStation } from './startup';
import { StationSettings } from './stationSettings';
import { StationState } from './stationState';



/**
 * The console's session, with no knowledge of Electron: settings, the race in progress, the card
 * source, the journal and the history. Every change is journaled (fsynced) before listeners see
 * it, and commands run one at a time, so the screen, the shoe and the keyboard never race.
 */
export class ConsoleService {
  /** The cards coming in: the card source, held cards, scans. */
  private readonly cardInputs: CardInputs;
  /** The counts being typed for the next race. */
  private readonly countDrafts: CountDrafts;
  /** The settings, and their one write path. */
  private readonly stationSettings: StationSettings;
  /** The link replicating the journal to the floor, when one is set up; its last state. */
  /** The link to the floor, as the settings (or the environment) say. */
  private readonly floor: FloorFollowing;
  private readonly state: StationState;
  /** The station's core: the command queue, the journal and its followers, commit. */
  private readonly kernel: Kernel;
  /** Refusals counted rather than written one by one, and the order their counts keep. */
  private readonly refusals: RefusalRuns;
  private readonly races: RaceCommands;
  private readonly games: GameCommands;
  private readonly clockCommands: ClockCommands;
  private readonly settingsCommands: SettingsCommands;
  private readonly profileCommands: ProfileCommands;

  private constructor(
    private readonly options: ServiceOptions,
    journal: JournalWriter<SessionRecord> | null,
    private readonly followers: StationFollowers,
    settings: ConsoleSettings,
    report: JournalReport,
    lastSeq: number,
    /** Gives the data folder back (the lock file) on close. */
    private readonly unlock: () => Promise<void>,
    private readonly profiles: ProfileStore,
  ) {
    const monotonic = options.monotonic ?? (() => performance.now());
    this.countDrafts = new CountDrafts(options.dataDir);
    this.stationSettings = new StationSettings(options.dataDir, settings, () => this.countDrafts.clear());
    this.kernel = new Kernel(journal, followers, report, lastSeq, () => this.getState());
    this.refusals = new RefusalRuns(this.kernel, { ...options, monotonic });
    this.kernel.order = this.refusals;
    this.floor = new FloorFollowing(this.kernel, this.stationSettings, options, (clock) => this.followFloorClock(clock));
    this.kernel.appended = (seq) => this.floor.appended(seq);
    const commands: CommandContext = {
      kernel: this.kernel,
      refusals: this.refusals,
      session: () => this.session,
      settings: () => this.settings,
      commit: (record) => this.commit(record),
      refuseHeldFor: (target, kind) => this.cardInputs.refuseHeldFor(target, kind),
      plan: () => this.state.planOf(this.settings.tournament),
      station: options.station,
    };
    const reopenSource = async () => {
      await this.cardInputs.closeSource();
      this.cardInputs.openSource();
    };
    this.profileCommands = new ProfileCommands(this.kernel, profiles, this.stationSettings, {
      session: () => this.session,
      reopenSource,
    });
    this.cardInputs = new CardInputs(this.kernel, this.refusals, this.stationSettings, profiles, this.profileCommands, options, {
      session: () => this.session,
      deal: (target, code, source, held) => this.deal(target, code, source, held),
    });
    this.settingsCommands = new SettingsCommands(this.kernel, this.stationSettings, {
      session: () => this.session,
      plan: () => this.state.planOf(this.settings.tournament),
      hasProfile: (name) => this.profiles.has(name),
      registering: () => this.profileCommands.registrationDecoder !== null,
      reopenSource,
      followFloor: () => this.floor.follow(),
    });
    this.races = new RaceCommands(commands);
    this.games = new GameCommands(commands);
    // The clock's next change is armed whenever the clock the screens are shown changes (building the state does nothing).
    this.clockCommands = new ClockCommands(this.kernel, followers.clock, this.stationSettings, options.clock);
    this.state = new StationState({ kernel: this.kernel, session: () => this.session, settings: () => this.settings, inputs: this.cardInputs, profiles: this.profileCommands, countDrafts: this.countDrafts, floor: this.floor });
  }

  private get session(): Session {
    return this.followers.session.session;
  }

  /**
   * Starts the console on its data folder. A folder it cannot write, or a journal key it cannot
   * use, is refused with one line (DataFolderError, JournalKeyError) before anything is read.
   */
  static async start(options: ServiceOptions): Promise<ConsoleService> {
    await prepareDataFolder(options.dataDir, options.chooseAnotherFolder === undefined ? {} : { chooseAnother: options.chooseAnotherFolder });
    const unlock = await lockDataFolder(options.dataDir);
    try {
      return await ConsoleService.open(options, unlock);
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  private static async open(options: ServiceOptions, unlock: () => Promise<void>): Promise<ConsoleService> {
    const opened = await openStation(options);
    const { journal, followers, settings, report, lastSeq, profiles, tornNote } = opened;
    const service = new ConsoleService({ ...options, journalKey: opened.key }, journal, followers, settings, report, lastSeq, unlock, profiles);
    const { session } = followers.session;
    if (session.race === null) await service.countDrafts.load(`race-${session.racesStarted + 1}`, settings.table);
    // The torn tail's bytes were kept beside the journal; the journal itself says so, in its chain.
    if (journal !== null && tornNote !== null) {
      // On a full disk it waits: the finding is shown all the same, and the next record ends the torn line.
      await service.kernel.write(tornNote).catch(() => undefined);
    }
    service.cardInputs.openSource();
    service.clockCommands.follow();
    await service.floor.follow();
    return service;
  }

  onState(listener: (state: ConsoleState) => void): () => void {
    return this.kernel.onState(listener);
  }

  /**
   * The state as the screens see it. A part that has not changed is the very same object as in
   * the previous state, so the transports send only the parts that did (main/ipc/stateFeed).
   */
  getState(): ConsoleState {
    return this.state.assemble();
  }

  /** A command's record journaled, then what follows from it for the console beyond the journal's followers. */
  private async commit(record: SessionRecord): Promise<void> {
    await this.kernel.commit(record);
    this.cardInputs.committed(record);
    // A race begins afresh: the counts typed for it are its own now.
    if (record.kind === 'race-start') await this.countDrafts.clear();
    this.kernel.publish();
  }


  private get settings(): ConsoleSettings {
    return this.stationSettings.current;
  }

  /** The counts being typed for the table's next race (main/service/countDrafts.ts). */
  saveCountDrafts(counts: readonly SeatCountDraft[]): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const open = this.session.race;
      if (open) return refused('race', { key: 'service.draftsRaceOpen', params: { race: open.id } });
      if (await this.countDrafts.save(counts, `race-${this.session.racesStarted + 1}`, this.settings.table)) this.kernel.publish();
      return ok(null);
    });
  }

  saveSettings(value: SettingsInput): Promise<CommandResult> {
    return this.settingsCommands.saveSettings(value);
  }

  markBreak(afterLevel: number | null): Promise<CommandResult> {
    return this.settingsCommands.markBreak(afterLevel);
  }

  startColorUp(afterLevel: number, removed: number): Promise<CommandResult> {
    return this.settingsCommands.startColorUp(afterLevel, removed);
  }

  setLanguage(language: Language): Promise<CommandResult> {
    return this.settingsCommands.setLanguage(language);
  }

  saveStructure(structure: StructureInput): Promise<CommandResult> {
    return this.settingsCommands.saveStructure(structure);
  }

  clockStart(): Promise<CommandResult> {
    return this.clockCommands.clockStart();
  }

  clockPause(): Promise<CommandResult> {
    return this.clockCommands.clockPause();
  }

  clockResume(): Promise<CommandResult> {
    return this.clockCommands.clockResume();
  }

  clockAdjust(minutes: number): Promise<CommandResult> {
    return this.clockCommands.clockAdjust(minutes);
  }

  /** The floor's clock from now on (the floor link calls this with what it reads); null gives the station its own clock back. */
  followFloorClock(floor: FloorClock | null): Promise<CommandResult> {
    return this.clockCommands.followFloorClock(floor);
  }

  previewRace(counts: readonly SeatCount[]): ReturnType<RaceCommands['previewRace']> {
    return this.races.previewRace(counts);
  }

  startRace(counts: readonly SeatCount[]): Promise<CommandResult> {
    return this.races.startRace(counts);
  }

  voidCards(raceId: string, count: number, reason: string): Promise<CommandResult> {
    return this.races.voidCards(raceId, count, reason);
  }

  confirmRace(raceId: string): Promise<CommandResult> {
    return this.races.confirmRace(raceId);
  }

  abandonRace(raceId: string, reason: string): Promise<CommandResult> {
    return this.races.abandonRace(raceId, reason);
  }

  startGame(game: GameName, players: readonly string[], options?: Partial<HouseOptions>): Promise<CommandResult> {
    return this.games.startGame(game, players, options);
  }

  gameAction(gameId: string, action: GameAction): Promise<CommandResult> {
    return this.games.gameAction(gameId, action);
  }

  closeGame(gameId: string, reason: string): Promise<CommandResult> {
    return this.games.closeGame(gameId, reason);
  }

  /** A card to whatever `target` names (the open race or game), from the keyboard or the shoe. */
  private async deal(target: string, code: string, source: InputSource, held = false): Promise<CommandResult> {
    const { race, game } = this.session;
    if (game && game.id === target) return this.games.applyToGame(game, { type: 'card', card: code }, code, source);
    if (race && race.id === target) return this.races.applyToRace(race, { type: 'card', card: code }, code, source, held);
    const open = race ?? game;
    if (open === null) return refused('race', { key: 'service.noRaceStart' });
    return refused(race ? 'race' : 'game', { key: 'service.notOpen', params: { given: target, open: open.id } });
  }

  dealCard(target: string, code: string): Promise<CommandResult> {
    return this.kernel.serial(() => this.deal(target, code, 'manual'));
  }







  listPorts(): Promise<CommandResult<readonly PortInfo[]>> {
    return this.kernel.serial(async () => ok(this.options.listPorts ? await this.options.listPorts() : []));
  }

  exportHistory(format: 'csv' | 'json'): Promise<CommandResult<string>> {
    return this.kernel.serial(async () => ok(format === 'csv' ? historyCsv(this.history(), this.kernel.journalReport) : historyJson(this.history(), this.kernel.journalReport)));
  }

  historyPage(before: number | null, count: number): Promise<CommandResult<HistoryPage>> {
    return this.kernel.serial(async () => {
      const { history } = this.session;
      const end = before === null ? history.length : before;
      if (!Number.isInteger(end) || end < 0 || end > history.length) return refused('before', { key: 'service.history.before', params: { total: history.length, got: String(before) } });
      if (!Number.isInteger(count) || count < 1 || count > HISTORY_PAGE_MAX) return refused('count', { key: 'command.wholeRange', params: { min: 1, max: HISTORY_PAGE_MAX } });
      const start = Math.max(0, end - count);
      return ok({ total: history.length, start, entries: history.slice(start, end) });
    });
  }

  raceRecord(raceId: string): Promise<CommandResult<RaceRecord>> {
    return this.kernel.serial(async () => {
      const span = this.followers.raceSpans.of(raceId);
      const record = span === undefined ? null : await readRaceRecord(journalPath(this.options.dataDir), raceId, span, this.kernel.journalReport);
      return record === null ? refused('race', { key: 'service.notInJournal', params: { race: raceId } }) : ok(record);
    });
  }

  /** A keyboard-wedge scan (main/service/cardInputs.ts). */
  dealScan(target: string, raw: string): Promise<CommandResult> {
    return this.cardInputs.dealScan(target, raw);
  }

  takeHeldCard(target: string, heldId: number): Promise<CommandResult> {
    return this.cardInputs.takeHeldCard(target, heldId);
  }

  discardHeldCard(target: string, heldId: number): Promise<CommandResult> {
    return this.cardInputs.discardHeldCard(target, heldId);
  }

  importProfile(value: unknown): Promise<CommandResult<DeviceProfileInfo>> {
    return this.profileCommands.importProfile(value);
  }

  registerDeck(name: string | null): Promise<CommandResult> {
    return this.profileCommands.registerDeck(name);
  }

  history(): readonly HistoryEntry[] {
    return this.session.history;
  }

  async close(): Promise<void> {
    this.followers.clock.close();
    await this.cardInputs.closeSource();
    await this.kernel.idle();
    await this.floor.close();
    // The counts of refusals still only counted go on record before the journal closes.
    await this.refusals.close();
    await this.kernel.close();
    await this.unlock();
  }
}

import type { GameName, HouseOptions } from '../../engine/poker/rules';
import type { StructureInput } from '../../engine/plan/csv';
import type { ChipExchange } from '../../engine/race/exchange';
import type { FloorClock } from '../../protocol/clock';
import {
  type CommandResult, type ConsoleSettings, type ConsoleState, type DeviceProfileInfo, type GameAction, type HistoryEntry, type HistoryPage, type JournalReport,
  type Language, type PortInfo, type RaceRecord, type ScanReading, type SeatCount, type SeatCountDraft, type SettingsInput,
} from '../../protocol/contract';
import type { SessionRecord } from '../../replay/session';
import type { JournalWriter } from '../journal/journal';
import { CardInputs } from './cardInputs';
import { ClockCommands } from './clockCommands';
import { CountDrafts } from './countDrafts';
import { CoverChecking } from './coverCheck';
import { prepareDataFolder } from './dataFolder';
import { lockDataFolder } from './dataLock';
import { ok } from './failures';
import { FloorFollowing } from './floorFollowing';
import { FloorSeatsFollowing } from './floorSeatsFollowing';
import type { FloorDecisionRow, FloorSeatsRow } from '../floorLink/inbox';
import { FloorCommands } from './floorCommands';
import type { StationFollowers } from './followers';
import { GameCommands } from './gameCommands';
import { ExchangeCommands } from './exchangeCommands';
import { HistoryCommands, type ExportFormat, type ExportSaved, type HistoryExport } from './historyCommands';
import { Kernel } from './kernel';
import { ProfileCommands } from './profileCommands';
import { ReaderDetections } from './readerDetection';
import { ReaderSession } from './readerMode';
import { StationNow, StationPorts } from './stationPorts';
import type { ProfileStore } from './profiles';
import { RaceCommands } from './raceCommands';
import { RefusalRuns } from './refusalRuns';
import type { ServiceOptions } from './serviceOptions';
import { SettingsCommands } from './settingsCommands';
import type { CsvSeparator } from '../../replay/csv';
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
  /** The link to the floor, as the settings (or the environment) say. */
  private readonly floor: FloorFollowing;
  /** The floor's seating taken as the table's seats while linked (never during a race). */
  private readonly floorSeats: FloorSeatsFollowing;
  private readonly state: StationState;
  /** The station's core: the command queue, the journal and its followers, commit. */
  private readonly kernel: Kernel;
  /** Refusals counted rather than written one by one, and the order their counts keep. */
  private readonly refusals: RefusalRuns;
  private readonly races: RaceCommands;
  private readonly games: GameCommands;
  private readonly exchanges: ExchangeCommands;
  private readonly clockCommands: ClockCommands;
  private readonly settingsCommands: SettingsCommands;
  private readonly profileCommands: ProfileCommands;
  private readonly readerDetections: ReaderDetections;
  private readonly historyCommands: HistoryCommands;
  private readonly coverChecking: CoverChecking;
  private readonly floorCommands: FloorCommands;
  /** The command modules' ports (ports.ts): the keyboard's cards are dealt through them. */
  private readonly ports: StationPorts;

  private constructor(
    private readonly options: ServiceOptions,
    journal: JournalWriter<SessionRecord> | null,
    private readonly followers: StationFollowers,
    settings: ConsoleSettings,
    report: JournalReport,
    lastSeq: number,
    /** Gives the data folder back (the lock file) on close. */
    private readonly unlock: () => Promise<void>,
    profiles: ProfileStore,
  ) {
    const reader = new ReaderSession();
    this.countDrafts = new CountDrafts(options.dataDir);
    this.stationSettings = new StationSettings(options.dataDir, settings, followers.floorFacts, this.countDrafts);
    const view = new StationNow(followers, this.stationSettings);
    this.kernel = new Kernel(journal, followers, report, lastSeq, this);
    this.coverChecking = new CoverChecking(this.kernel, options.clock);
    this.refusals = new RefusalRuns(this.kernel, options);
    this.kernel.order = this.refusals;
    // The command modules' ports (ports.ts, stationPorts.ts): the CommandContext, Dealing and SourceControl, wired once the modules exist.
    const ports = new StationPorts(this.kernel, this.refusals, view, reader, options.station);
    this.profileCommands = new ProfileCommands(this.kernel, profiles, this.stationSettings, reader, ports);
    this.cardInputs = new CardInputs({ kernel: this.kernel, refusals: this.refusals, settings: this.stationSettings, profiles, reader, setUpReads: this.profileCommands }, options, ports);
    this.readerDetections = new ReaderDetections(this.kernel, { view, reader, cards: this.cardInputs }, options.detectReader);
    this.historyCommands = new HistoryCommands(this.kernel, options.dataDir, followers.raceSpans, view, { clock: options.clock, chooseExportFile: options.chooseExportFile }, followers);
    this.races = new RaceCommands(ports, this.countDrafts);
    this.games = new GameCommands(ports);
    this.exchanges = new ExchangeCommands(ports);
    ports.wire({ cards: this.cardInputs, races: this.races, games: this.games, countDrafts: this.countDrafts });
    // The clock's next change is armed whenever the clock the screens are shown changes (building the state does nothing).
    this.clockCommands = new ClockCommands(this.kernel, followers.clock, this.stationSettings, options.clock);
    this.floorSeats = new FloorSeatsFollowing(this.kernel, this.stationSettings, view);
    this.floorCommands = new FloorCommands(ports, followers, this.clockCommands, this.floorSeats, this.races);
    // The floor link: its inbox's messages to the floor commands, the reader's health from the card inputs.
    this.floor = new FloorFollowing(this.kernel, this.stationSettings, options, this.floorCommands, this.cardInputs);
    this.kernel.outbox = this.floor;
    this.settingsCommands = new SettingsCommands(this.kernel, this.stationSettings, { view, profiles, reader, source: ports, floor: this.floor });
    this.state = new StationState({ kernel: this.kernel, view, inputs: this.cardInputs, profiles: this.profileCommands, detection: this.readerDetections, countDrafts: this.countDrafts, floor: this.floor });
    this.ports = ports;
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
    // A settings file of an older version holding the floor's tournament or seats: journaled once, the file the station's own again.
    if (journal !== null) {
      await service.kernel.serial(async () => {
        await service.stationSettings.migrateFloorCopies((record) => service.kernel.save(record));
        return ok(null);
      });
    }
    // Stopped between the journaled decision closing the open race and its abandon: abandoned now, as it would have been then.
    if (journal !== null) {
      await service.kernel.serial(async () => {
        await service.races.abandonClosedOnFloor();
        return ok(null);
      });
    }
    service.cardInputs.openSource();
    service.clockCommands.follow();
    await service.floor.startUnlinked();
    await service.floor.follow();
    // The bytes the checkpoint covers, read while the console serves: its start did not wait on them.
    if (opened.coverToCheck !== null) service.coverChecking.start(opened.coverToCheck);
    return service;
  }

  onState(listener: (state: ConsoleState) => void): () => void {
    return this.kernel.onState(listener);
  }

  /**
   * The state as the screens see it. A part that has not changed is the very same object as in
   * the previous state, so the transports send only the parts that did (station/ipc/stateFeed).
   */
  getState(): ConsoleState {
    return this.state.assemble();
  }

  // The commands of protocol/commands.ts, each its module's (station/ipc/validate.ts has checked the arguments).

  /** The counts being typed for the table's next race (station/service/countDrafts.ts). */
  readonly saveCountDrafts = (counts: readonly SeatCountDraft[]): Promise<CommandResult> => this.races.saveCountDrafts(counts);
  readonly saveSettings = (value: SettingsInput): Promise<CommandResult> => this.settingsCommands.saveSettings(value);
  readonly markBreak = (afterLevel: number | null): Promise<CommandResult> => this.settingsCommands.markBreak(afterLevel);
  readonly startColorUp = (afterLevel: number, removed: number): Promise<CommandResult> => this.settingsCommands.startColorUp(afterLevel, removed);
  readonly setLanguage = (language: Language): Promise<CommandResult> => this.settingsCommands.setLanguage(language);
  readonly setClockSound = (on: boolean): Promise<CommandResult> => this.settingsCommands.setClockSound(on);
  readonly setResultMinutes = (minutes: number): Promise<CommandResult> => this.settingsCommands.setResultMinutes(minutes);
  readonly setCountStack = (stack: number): Promise<CommandResult> => this.settingsCommands.setCountStack(stack);
  readonly saveStructure = (structure: StructureInput): Promise<CommandResult> => this.settingsCommands.saveStructure(structure);
  readonly clockStart = (): Promise<CommandResult> => this.clockCommands.clockStart();
  readonly clockPause = (): Promise<CommandResult> => this.clockCommands.clockPause();
  readonly clockResume = (): Promise<CommandResult> => this.clockCommands.clockResume();
  readonly clockAdjust = (minutes: number): Promise<CommandResult> => this.clockCommands.clockAdjust(minutes);
  /** The floor's clock from now on (the floor link calls this with what it reads); null gives the station its own clock back. */
  readonly followFloorClock = (floor: FloorClock | null): Promise<CommandResult> => this.clockCommands.followFloorClock(floor);
  /** This table's seating from the floor (the floor link calls this with what it reads; null: the station's own seats again). */
  readonly followFloorSeats = (seats: FloorSeatsRow | null): Promise<CommandResult> => this.floorSeats.follow(seats);
  readonly previewRace = (counts: readonly SeatCount[]): ReturnType<RaceCommands['previewRace']> => this.races.previewRace(counts);
  readonly startRace = (counts: readonly SeatCount[]): Promise<CommandResult> => this.races.startRace(counts);
  readonly voidCards = (raceId: string, count: number, reason: string): Promise<CommandResult> => this.races.voidCards(raceId, count, reason);
  readonly confirmRace = (raceId: string): Promise<CommandResult> => this.races.confirmRace(raceId);
  readonly abandonRace = (raceId: string, reason: string): Promise<CommandResult> => this.races.abandonRace(raceId, reason);
  /** Chips exchanged outside a race: late-found chips, a colour-up of a player (station/service/exchangeCommands.ts). */
  readonly recordChipExchange = (exchange: ChipExchange): Promise<CommandResult> => this.exchanges.recordChipExchange(exchange);
  /** The dealer calls the floor (station/service/floorCommands.ts). */
  readonly callFloor = (note: string): Promise<CommandResult> => this.floorCommands.callFloor(note);
  /** The director's decisions the floor link read, each journaled once (station/service/floorCommands.ts). */
  readonly takeFloorDecisions = (rows: readonly FloorDecisionRow[]): Promise<CommandResult> => this.floorCommands.takeDecisions(rows);
  readonly startGame = (game: GameName, players: readonly string[], options?: Partial<HouseOptions>): Promise<CommandResult> => this.games.startGame(game, players, options);
  readonly gameAction = (gameId: string, action: GameAction): Promise<CommandResult> => this.games.gameAction(gameId, action);
  readonly closeGame = (gameId: string, reason: string): Promise<CommandResult> => this.games.closeGame(gameId, reason);
  readonly dealCard = (target: string, code: string): Promise<CommandResult> => this.kernel.serial(() => this.ports.deal(target, code, 'manual'));
  /** A keyboard-wedge scan (station/service/cardInputs.ts). */
  readonly dealScan = (target: string, raw: string): Promise<CommandResult> => this.cardInputs.dealScan(target, raw);
  readonly readScan = (raw: string): Promise<CommandResult<ScanReading>> => this.cardInputs.readScan(raw);
  readonly takeHeldCard = (target: string, heldId: number): Promise<CommandResult> => this.cardInputs.takeHeldCard(target, heldId);
  readonly discardHeldCard = (target: string, heldId: number): Promise<CommandResult> => this.cardInputs.discardHeldCard(target, heldId);
  readonly importProfile = (value: unknown): Promise<CommandResult<DeviceProfileInfo>> => this.profileCommands.importProfile(value);
  readonly registerDeck = (name: string | null): Promise<CommandResult> => this.profileCommands.registerDeck(name);
  readonly mapSeats = (start: boolean): Promise<CommandResult> => this.profileCommands.mapSeats(start);
  /** "Find the settings for this reader" (station/service/readerDetection.ts). */
  readonly detectReader = (start: boolean): Promise<CommandResult> => this.readerDetections.detectReader(start);
  readonly exportHistory = (format: ExportFormat): Promise<CommandResult<ExportSaved>> => this.historyCommands.exportHistory(format);
  /** The history's export streamed, a page of races at a time (browser mode's download, station/web/exportRoute.ts). */
  readonly historyExport = (format: ExportFormat, separator?: CsvSeparator): Promise<HistoryExport> => this.historyCommands.historyExport(format, separator);
  readonly historyPage = (before: number | null, count: number): Promise<CommandResult<HistoryPage>> => this.historyCommands.historyPage(before, count);
  readonly raceRecord = (raceId: string): Promise<CommandResult<RaceRecord>> => this.historyCommands.raceRecord(raceId);
  readonly history = (): readonly HistoryEntry[] => this.historyCommands.history();

  listPorts(): Promise<CommandResult<readonly PortInfo[]>> {
    return this.kernel.serial(async () => ok(this.options.listPorts ? await this.options.listPorts() : []));
  }

  async close(): Promise<void> {
    await this.coverChecking.close();
    this.followers.clock.close();
    await this.readerDetections.close();
    await this.cardInputs.closeSource();
    await this.kernel.idle();
    await this.floor.close();
    // The counts of refusals still only counted go on record before the journal closes.
    await this.refusals.close();
    await this.kernel.close();
    await this.unlock();
  }
}

import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { InputError } from '../../engine/errors';
import { ProfileStore, PROFILES_FOLDER } from './profiles';
import type { JournalFinding } from '../../journal/findings';
import { JournalWriter, scanJournal } from '../journal/journal';
import { journalPath } from '../../journal/location';
import {
  HISTORY_PAGE_MAX,
  type CommandResult, type ConsoleSettings, type Language, type SettingsInput, type DeviceProfileInfo, type InputSource, type ConsoleState, type GameAction, type HistoryEntry, type HistoryPage, type HistorySummary, type JournalReport,
  TABLE_NAME_MAX, type PortInfo, type RaceRecord, type SeatCount, type SeatCountDraft,
} from '../../protocol/contract';
import type { GameName, HouseOptions } from '../../engine/poker/rules';
import { loadJournalKey } from '../journal/key';
import { prepareDataFolder, tightenDataFolder } from './dataFolder';
import { LOCK_FILE, lockDataFolder } from './dataLock';
import { historyCsv, historyJson } from '../../replay/historyExport';
import { readRaceRecord } from './raceRecord';
import { COUNT_DRAFTS_FILE, CountDrafts } from './countDrafts';
import { SETTINGS_FILE, StationSettings } from './stationSettings';
import { gameView } from './gameView';
import { planView } from '../../protocol/views';
import { isSessionRecord, raceView, valueDeltaOf, type ActiveGame, type ActiveRace, type Session, type SessionRecord } from '../../replay/session';
import { loadSettings, shownFloor } from './settings';
import type { FloorLinkTiming } from '../floorLink/link';
import { floorTargetOf } from '../floorLink/target';
import { isTableName } from '../../protocol/tableName';
import type { CardSourceFactory } from './cardSource';
import type { StructureInput } from '../../engine/plan/csv';
import type { ClockTimers } from './clock';
import type { JournalFollower } from '../../replay/follower';
import { stationFollowers, type StationFollowers } from './followers';
import { ok, refused } from './failures';
import { Kernel } from './kernel';
import { RefusalRuns } from './refusalRuns';
import type { CommandContext } from './commandContext';
import { RaceCommands } from './raceCommands';
import { GameCommands } from './gameCommands';
import { ClockCommands } from './clockCommands';
import { SettingsCommands } from './settingsCommands';
import { ProfileCommands } from './profileCommands';
import { CardInputs } from './cardInputs';
import { lastOf } from './memo';
import { FloorFollowing } from './floorFollowing';
import type { FloorClock } from '../../protocol/clock';

export interface ServiceOptions {
  readonly dataDir: string;
  readonly clock?: () => Date;
  /** Milliseconds that only go forward, kept in every journal line beside the wall clock. */
  readonly monotonic?: () => number;
  /** The key that seals the journal with HMAC-SHA256 (kept outside the data folder), or none. */
  readonly journalKey?: Buffer | null;
  /** The file to read that key from (CHIP_RACE_JOURNAL_KEY), when `journalKey` is not given. */
  readonly journalKeyFile?: string;
  /** How the dealer chooses another data folder where this runs, in words (for the refusal of an unusable one). */
  readonly chooseAnotherFolder?: string;
  /** How long a run of identical refusals is counted in memory before its count is written. */
  readonly repeatFlushMs?: number;
  /** Distinct refusals written one by one per input source before they are only counted (REFUSAL_BURST), and how often one more is (REFUSAL_REFILL_MS). */
  readonly refusalBurst?: number;
  readonly refusalRefillMs?: number;
  readonly cardSources?: CardSourceFactory;
  readonly listPorts?: () => Promise<readonly PortInfo[]>;
  /** Pace of the simulated shoe (tests deal faster). */
  readonly simulatedCardMs?: number;
  /** The station's name kept with each race (the dealer's station in the history): the computer's host name unless given. */
  readonly station?: string;
  /** The tournament clock's one timer (tests fire it themselves); its time is `clock`'s. */
  readonly timers?: ClockTimers;
  /** The floor link CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE set up: over the settings' floor and table name. */
  readonly floor?: { readonly url: string; readonly table: string };
  /** The floor link's waits (tests make them short). */
  readonly floorTiming?: Partial<FloorLinkTiming>;
  /** More journal followers, fed on start and live exactly as the console's own (main/service/followers.ts). */
  readonly followers?: readonly JournalFollower[];
}



/**
 * The console's session, with no knowledge of Electron: settings, the race in progress, the card
 * source, the journal and the history. Every change is journaled (fsynced) before listeners see
 * it, and commands run one at a time, so the screen, the shoe and the keyboard never race.
 */
export class ConsoleService {
  /** The cards coming in: the card source, held cards, scans. */
  private readonly cardInputs: CardInputs;
  private readonly monotonic: () => number;
  /** The counts being typed for the next race. */
  private readonly countDrafts: CountDrafts;
  /** The settings, and their one write path. */
  private readonly stationSettings: StationSettings;
  /** The link replicating the journal to the floor, when one is set up; its last state. */
  /** The link to the floor, as the settings (or the environment) say. */
  private readonly floor: FloorFollowing;
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
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.countDrafts = new CountDrafts(options.dataDir);
    this.stationSettings = new StationSettings(options.dataDir, settings, () => this.countDrafts.clear());
    this.kernel = new Kernel(journal, followers, report, lastSeq, () => this.getState());
    this.refusals = new RefusalRuns(this.kernel, { monotonic: this.monotonic, ...options });
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
      plan: () => this.planViewOf(this.settings.tournament),
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
      plan: () => this.planViewOf(this.settings.tournament),
      hasProfile: (name) => this.profiles.has(name),
      registering: () => this.profileCommands.registrationDecoder !== null,
      reopenSource,
      followFloor: () => this.floor.follow(),
    });
    this.races = new RaceCommands(commands);
    this.games = new GameCommands(commands);
    // The clock's next change is armed whenever the clock the screens are shown changes (building the state does nothing).
    this.clockCommands = new ClockCommands(this.kernel, followers.clock, this.stationSettings, options.clock);
  }

  private get session(): Session {
    return this.followers.session.session;
  }

  private get colorUps() {
    return this.followers.colorUps;
  }

  private get tournamentClock() {
    return this.followers.clock;
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
    if (options.floor !== undefined) {
      // Never the URL itself in the refusal: it holds the station's password.
      if (floorTargetOf(options.floor.url, options.floor.table, 'environment') === null) throw new InputError('CHIP_RACE_DATABASE_URL', { key: 'settings.floorUrl' });
      if (!isTableName(options.floor.table)) throw new InputError('CHIP_RACE_TABLE', { key: 'settings.floorEnvTable', params: { n: TABLE_NAME_MAX } });
    }
    const path = journalPath(options.dataDir);
    const key = options.journalKey ?? (options.journalKeyFile === undefined ? null : await loadJournalKey(options.journalKeyFile, options.dataDir));
    const followers = stationFollowers(options.timers, options.followers);
    const scan = await scanJournal(path, { key, check: isSessionRecord, onLine: (line, _seal, span) => followers.registry.add(line, span) });
    const problems = followers.session.started();
    const { session } = followers.session;
    const { settings, problem } = await loadSettings(join(options.dataDir, SETTINGS_FILE));
    const profiles = await ProfileStore.load(options.dataDir);
    // A journal sealed with a key is continued only with that key: without it, it stays read-only.
    const keyProblem = scan.findings.find((finding) => finding.code === 'key-missing' || finding.code === 'key-wrong') ?? null;
    const readOnly = scan.readOnly ?? (scan.end.kind === 'hmac-sha256' ? keyProblem : null);
    const journal = readOnly === null ? await JournalWriter.open<SessionRecord>(path, scan, { clock: options.clock, monotonic: options.monotonic, key }) : null;
    // The journal just made (the journal opens it with the umask's mode) and whatever an older version
    // left readable by others: the folder itself was closed before anything in it was read.
    await tightenDataFolder(options.dataDir, { files: [basename(path), SETTINGS_FILE, LOCK_FILE, COUNT_DRAFTS_FILE], folders: [PROFILES_FOLDER] });
    const findings: JournalFinding[] = [
      ...scan.findings,
      ...problems,
      ...(problem ? [{ code: 'settings', message: problem } as const] : []),
      ...profiles.problems.map((message) => ({ code: 'settings', message }) as const),
      ...(profiles.has(settings.source.decoder) ? [] : [{ code: 'settings', message: `the settings name the device profile "${settings.source.decoder}", which is not in the data folder: the text profile is used until another is chosen` } as const]),
    ];
    const report: JournalReport = { path, records: scan.records, findings, chain: scan.chain, unchained: scan.unchained, unchainedThrough: scan.unchainedThrough, readOnly };
    const service = new ConsoleService({ ...options, journalKey: key }, journal, followers, settings, report, scan.lastSeq, unlock, profiles);
    if (session.race === null) await service.countDrafts.load(`race-${session.racesStarted + 1}`, settings.table);
    // The torn tail's bytes were kept beside the journal; the journal itself says so, in its chain.
    if (journal !== null && scan.tornNote !== null) {
      // On a full disk it waits: the finding is shown all the same, and the next record ends the torn line.
      await service.kernel.write(scan.tornNote).catch(() => undefined);
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
    const { session, settings } = this;
    const inputs = this.cardInputs.view;
    return {
      settings: this.shownSettingsOf(settings),
      race: this.raceViewOf(session.race),
      source: inputs.source,
      lastInput: inputs.lastInput,
      inputs: inputs.inputs,
      shoeRefusal: inputs.shoeRefusal,
      history: this.historyOf(session.history),
      held: inputs.held,
      profiles: this.profileCommands.list,
      registration: this.profileCommands.registration,
      game: this.gameViewOf(session.game),
      games: session.games,
      plan: this.planViewOf(settings.tournament),
      colorUp: this.colorUps.progress(settings.tournament?.atBreakAfter ?? null, session.race?.id ?? null),
      journal: this.kernel.journalReport,
      countDrafts: this.countDrafts.current,
      clock: this.tournamentClock.view(settings.tournament?.structure ?? null),
      floorLink: this.floor.current,
    };
  }

  /** The settings as the screens get them: the floor's URL without its password. */
  private readonly shownSettingsOf = lastOf((settings: ConsoleSettings): ConsoleSettings => (settings.floor === undefined ? settings : { ...settings, floor: shownFloor(settings.floor) }));

  private readonly raceViewOf = lastOf((race: ActiveRace | null) => (race ? raceView(race) : null));
  private readonly gameViewOf = lastOf((game: ActiveGame | null) => (game ? gameView(game) : null));
  private readonly planViewOf = lastOf(planView);
  private readonly historyOf = lastOf(
    (history: readonly HistoryEntry[]): HistorySummary => ({
      total: history.length,
      valueDelta: history.reduce((sum, entry) => sum + (valueDeltaOf(entry) ?? 0), 0),
      latest: history.at(-1) ?? null,
    }),
  );

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
    this.tournamentClock.close();
    await this.cardInputs.closeSource();
    await this.kernel.idle();
    await this.floor.close();
    // The counts of refusals still only counted go on record before the journal closes.
    await this.refusals.close();
    await this.kernel.close();
    await this.unlock();
  }
}

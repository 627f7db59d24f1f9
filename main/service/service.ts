import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { InputError } from '../../engine/errors';
import { englishText, type Message } from '../../engine/messages';
import type { ShoeEvent } from '../../hardware/events';
import { FrameDecoder } from '../../hardware/pipeline';
import { effectiveProfile, ProfileStore, PROFILES_FOLDER } from './profiles';
import type { JournalFinding } from '../../journal/findings';
import { JournalWriter, scanJournal } from '../journal/journal';
import { journalPath } from '../../journal/location';
import {
  HISTORY_PAGE_MAX, RECENT_INPUTS_MAX,
  type CommandResult, type ConsoleSettings, type Language, type SettingsInput, type DeviceProfileInfo, type InputSource, type ConsoleState, type GameAction, type HeldCard, type HistoryEntry, type HistoryPage, type HistorySummary, type JournalReport,
  TABLE_NAME_MAX, type NumberedInput, type PortInfo, type FloorLinkState, type FloorTarget, type RaceRecord, type SeatCount, type SeatCountDraft, type ShoeRefusal, type SourceStatus,
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
import type { FloorLink, FloorLinkTiming } from '../floorLink/link';
import { floorTargetOf } from '../floorLink/target';
import { isTableName } from '../../protocol/tableName';
import { simulatedSource } from './simulatedSource';
import type { AwaitedCard, CardSource, CardSourceFactory, ShoeDemand } from './cardSource';
import type { StructureInput } from '../../engine/plan/csv';
import type { ClockTimers } from './clock';
import type { JournalFollower } from '../../replay/follower';
import { stationFollowers, type StationFollowers } from './followers';
import { ok, refused } from './failures';
import { Kernel } from './kernel';
import { RefusalRuns, refusalFor, refusalTarget } from './refusalRuns';
import type { CommandContext } from './commandContext';
import { RaceCommands } from './raceCommands';
import { GameCommands } from './gameCommands';
import { ClockCommands } from './clockCommands';
import { SettingsCommands } from './settingsCommands';
import { ProfileCommands } from './profileCommands';
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

const FLOOR_OFF: FloorLinkState = { state: 'off' };


/** `compute`, remembering its last argument and result: the same input gives the very same object. */
function lastOf<A, R>(compute: (argument: A) => R): (argument: A) => R {
  let last: { argument: A; result: R } | null = null;
  return (argument) => {
    if (last === null || last.argument !== argument) last = { argument, result: compute(argument) };
    return last.result;
  };
}

/** The most cards read from noise held for the dealer's say at once; more are refused (kept on record as one run). */
export const MAX_HELD_CARDS = 10;
export const HELD_DISCARD_REASON = 'discarded by the dealer: read while the line was noisy';
/**
 * The console's session, with no knowledge of Electron: settings, the race in progress, the card
 * source, the journal and the history. Every change is journaled (fsynced) before listeners see
 * it, and commands run one at a time, so the screen, the shoe and the keyboard never race.
 */
export class ConsoleService {
  private source: CardSource | null = null;
  private sourceStatus: SourceStatus;
  private lastInput: ShoeEvent | null = null;
  /** The latest inputs, numbered (the screens' input log is built from them by id). */
  private inputs: readonly NumberedInput[] = [];
  private shoeRefusal: ShoeRefusal | null = null;
  private held: readonly HeldCard[] = [];
  private heldCount = 0;
  private readonly monotonic: () => number;
  /** The counts being typed for the next race. */
  private readonly countDrafts: CountDrafts;
  /** The settings, and their one write path. */
  private readonly stationSettings: StationSettings;
  /** The link replicating the journal to the floor, when one is set up; its last state. */
  private floorLink: FloorLink | null = null;
  private floorLinkKey = '';
  private floorLinkState: FloorLinkState = FLOOR_OFF;
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
    this.sourceStatus = { kind: settings.source.kind, path: settings.source.path, state: 'idle' };
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.countDrafts = new CountDrafts(options.dataDir);
    this.stationSettings = new StationSettings(options.dataDir, settings, () => this.countDrafts.clear());
    this.kernel = new Kernel(journal, followers, report, lastSeq, () => this.getState());
    this.refusals = new RefusalRuns(this.kernel, { monotonic: this.monotonic, ...options });
    this.kernel.order = this.refusals;
    this.kernel.appended = (seq) => this.floorLink?.appended(seq);
    const commands: CommandContext = {
      kernel: this.kernel,
      refusals: this.refusals,
      session: () => this.session,
      settings: () => this.settings,
      commit: (record) => this.commit(record),
      refuseHeldFor: (target, kind) => this.refuseHeldFor(target, kind),
      plan: () => this.planViewOf(this.settings.tournament),
      station: options.station,
    };
    this.profileCommands = new ProfileCommands(this.kernel, profiles, this.stationSettings, {
      session: () => this.session,
      reopenSource: async () => {
        await this.closeSource();
        this.openSource();
      },
    });
    this.settingsCommands = new SettingsCommands(this.kernel, this.stationSettings, {
      session: () => this.session,
      plan: () => this.planViewOf(this.settings.tournament),
      hasProfile: (name) => this.profiles.has(name),
      registering: () => this.profileCommands.registrationDecoder !== null,
      reopenSource: async () => {
        await this.closeSource();
        this.openSource();
      },
      followFloor: () => this.followFloorSettings(),
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
    service.openSource();
    service.clockCommands.follow();
    await service.followFloorSettings();
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
    return {
      settings: this.shownSettingsOf(settings),
      race: this.raceViewOf(session.race),
      source: this.sourceStatus,
      lastInput: this.lastInput,
      inputs: this.inputs,
      shoeRefusal: this.shoeRefusal,
      history: this.historyOf(session.history),
      held: this.held,
      profiles: this.profileCommands.list,
      registration: this.profileCommands.registration,
      game: this.gameViewOf(session.game),
      games: session.games,
      plan: this.planViewOf(settings.tournament),
      colorUp: this.colorUps.progress(settings.tournament?.atBreakAfter ?? null, session.race?.id ?? null),
      journal: this.kernel.journalReport,
      countDrafts: this.countDrafts.current,
      clock: this.tournamentClock.view(settings.tournament?.structure ?? null),
      floorLink: this.floorLinkState,
    };
  }

  /** The settings as the screens get them: the floor's URL without its password. */
  private readonly shownSettingsOf = lastOf((settings: ConsoleSettings): ConsoleSettings => (settings.floor === undefined ? settings : { ...settings, floor: shownFloor(settings.floor) }));

  /** Where the journal goes: the environment's floor, else the settings' when on (the table named); null for none. */
  private floorConfig(): { url: string; table: string; from: FloorTarget['from'] } | null {
    if (this.options.floor !== undefined) return { ...this.options.floor, from: 'environment' };
    const { floor, table } = this.settings;
    return floor?.on === true && floor.url !== '' && table.name !== undefined ? { url: floor.url, table: table.name, from: 'settings' } : null;
  }

  /** Starts, restarts or stops the floor link as the settings (or the environment) now say. */
  private async followFloorSettings(): Promise<void> {
    const config = this.floorConfig();
    const key = JSON.stringify(config);
    if (key === this.floorLinkKey) return;
    this.floorLinkKey = key;
    const old = this.floorLink;
    this.floorLink = null;
    await old?.close();
    if (config === null) {
      this.floorLinkState = FLOOR_OFF;
      // No floor: the station's own clock again (queued after the change that turned the floor off:
      // this runs inside it, and followFloorClock waits its turn like every change).
      if (old !== null) void this.followFloorClock(null);
      return;
    }
    // Loaded only now: a console without a floor never loads the database driver.
    const { FloorLink } = await import('../floorLink/link');
    const link = await FloorLink.start({
      ...config,
      dataDir: this.options.dataDir,
      journalSeq: this.kernel.journalSeq,
      ...(this.options.floorTiming ? { timing: this.options.floorTiming } : {}),
      // The service's time: the link measures the floor's against it.
      ...(this.options.clock ? { now: this.options.clock } : {}),
      // A link closed says nothing more: only the one running now reaches here.
      onState: (state) => {
        this.floorLinkState = state;
        this.kernel.publish();
      },
      // The floor's clock as its row holds it: checked by followFloorClock, which keeps the clock
      // it had when the floor's is malformed.
      onFloorClock: (clock) => {
        void this.followFloorClock(clock as FloorClock | null);
      },
    });
    this.floorLink = link;
    this.floorLinkState = link.current;
  }

  /** What the open race awaits, for the simulated shoe: a new demand after every change of the race (session.race is a new object then). */
  private readonly demandOf = lastOf((race: ActiveRace | null): ShoeDemand | null => {
    const awaiting = race?.state.progress.awaiting ?? null;
    return race === null || awaiting === null ? null : { raceId: race.id, seat: awaiting.seat };
  });
  private readonly awaited: AwaitedCard = () => this.demandOf(this.session.race);
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
    // A change was accepted: an earlier refusal of a shoe card no longer stands.
    this.shoeRefusal = null;
    // A race begins afresh: the counts typed for it are its own now, and the last input was before it.
    if (record.kind === 'race-start') {
      this.lastInput = null;
      await this.countDrafts.clear();
    }
    this.dropStaleHeld();
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

  /**
   * A keyboard-wedge scan: the text decoded as the serial path decodes a frame (symbology prefix
   * stripped, the configured device profile's decoder), then dealt like a shoe's card. Text that
   * is no card is refused with the decoder's reason and kept on record.
   */
  dealScan(target: string, raw: string): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const profile = effectiveProfile(this.settings.source, this.profiles);
      const [event] = new FrameDecoder(profile).decode({ bytes: Buffer.from(raw) });
      if (event?.type === 'card') return this.deal(target, event.card, 'scanner');
      const notACard: Message = { key: 'service.scan.notACard' };
      // The decoder's reason is its own English (hardware/): said inside the refusal as it is.
      const reason = event?.type === 'unknown' ? event.reason : englishText(notACard);
      const open = refusalTarget(this.session, target);
      if (open !== null) await this.refusals.refuse(refusalFor(open, raw, reason, 'scanner'));
      return refused('scan', { key: 'service.scan.refused', params: { raw: JSON.stringify(raw), reason: event?.type === 'unknown' ? event.reason : { message: notACard }, decoder: profile.name } });
    });
  }







  /** The first held card, if it is the one the screen names. */
  private firstHeld(target: string, heldId: number): HeldCard | CommandResult<never> {
    const first = this.held[0];
    if (first === undefined) return refused('held', { key: 'service.held.none' });
    if (first.id !== heldId || first.target !== target) return refused('held', { key: 'service.held.notFirst' });
    return first;
  }

  takeHeldCard(target: string, heldId: number): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const first = this.firstHeld(target, heldId);
      if ('ok' in first) return first;
      const result = await this.dealHeld(first, true);
      if (!result.ok) this.shoeRefusal = { card: first.card, ...result.error };
      await this.releaseQueued();
      this.kernel.publish();
      return result;
    });
  }

  discardHeldCard(target: string, heldId: number): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const first = this.firstHeld(target, heldId);
      if ('ok' in first) return first;
      // A held card waits only for the race or game open (dropStaleHeld): it names one.
      const waitsFor = refusalTarget(this.session, first.target);
      if (waitsFor !== null) await this.refusals.refuse(refusalFor(waitsFor, first.card, HELD_DISCARD_REASON, 'shoe'));
      this.held = this.held.slice(1);
      await this.releaseQueued();
      this.kernel.publish();
      return ok(null);
    });
  }

  /** Clean cards that only waited behind a held one go on, in the order they came. */
  private async releaseQueued(): Promise<void> {
    while (this.held[0]?.why === 'queued') {
      const next = this.held[0];
      const result = await this.dealHeld(next, false);
      if (!result.ok) this.shoeRefusal = { card: next.card, ...result.error };
    }
  }

  /**
   * Deals the first held card: it leaves the queue once dealt, or refused by the race (and kept
   * on record as refused). A write the disk refuses leaves it first in the queue, to try again.
   */
  private async dealHeld(card: HeldCard, taken: boolean): Promise<CommandResult> {
    const result = await this.deal(card.target, card.card, 'shoe', taken);
    this.held = this.held.filter((waiting) => waiting !== card);
    return result;
  }

  /**
   * Cards still waiting when their race or game ends go on record as refused (not decided), so a
   * card the shoe read never vanishes without a trace. Journaled while the race is still open.
   */
  private async refuseHeldFor(target: string, kind: 'race' | 'game'): Promise<void> {
    for (const card of this.held.filter((waiting) => waiting.target === target)) {
      const reason = `read while the line was noisy and not decided before the ${kind} ended: not dealt`;
      await this.kernel.save(refusalFor(kind === 'race' ? { raceId: target } : { gameId: target }, card.card, reason, 'shoe'));
      this.held = this.held.filter((waiting) => waiting !== card);
    }
  }

  /** Held cards wait for the race or game they were read for; once it has ended they go. */
  private dropStaleHeld(): void {
    const open = this.session.race?.id ?? this.session.game?.id ?? null;
    if (this.held.some((card) => card.target !== open)) this.held = this.held.filter((card) => card.target === open);
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

  importProfile(value: unknown): Promise<CommandResult<DeviceProfileInfo>> {
    return this.profileCommands.importProfile(value);
  }

  registerDeck(name: string | null): Promise<CommandResult> {
    return this.profileCommands.registerDeck(name);
  }

  history(): readonly HistoryEntry[] {
    return this.session.history;
  }

  /** A shoe event: cards go to the open race like typed ones; everything is shown to the dealer. */
  private handleShoeEvent(event: ShoeEvent): void {
    if (event.type === 'status') {
      this.sourceStatus = { ...this.sourceStatus, state: event.state, ...(event.code ? { code: event.code } : {}), ...(event.message ? { message: event.message } : {}) };
      // Connected again: a trouble code no longer stands; what the port says of itself (its line settings) does.
      if (event.state === 'connected') this.sourceStatus = { kind: this.sourceStatus.kind, path: this.sourceStatus.path, state: 'connected', ...(event.message ? { message: event.message } : {}) };
      this.kernel.publish();
      return;
    }
    this.lastInput = event;
    const at = (this.options.clock?.() ?? new Date()).toISOString();
    this.inputs = [...this.inputs, { id: (this.inputs.at(-1)?.id ?? 0) + 1, at, event }].slice(-RECENT_INPUTS_MAX);
    if (this.profileCommands.registrationDecoder !== null && (event.type === 'card' || event.type === 'unknown')) {
      void this.kernel.serial(async () => {
        await this.profileCommands.registered(event);
        return ok(null);
      });
      return;
    }
    if (event.type === 'card' && (this.session.race || this.session.game)) {
      void this.kernel.serial(async () => {
        // The card goes to what is open when its turn comes (commands run one at a time).
        const target = this.session.race?.id ?? this.session.game?.id;
        if (target === undefined) {
          this.kernel.publish();
          return ok(null);
        }
        // Read while the line is flagged as noise, or behind such a card: the dealer decides.
        if (event.suspect === true || this.held.length > 0) {
          // Only cards read from noise are ever refused here: a clean card waits its turn, however many wait.
          if (event.suspect === true && this.held.filter((waiting) => waiting.why === 'noise').length >= MAX_HELD_CARDS) {
            // Noise makes cards by the thousand: a run of them is one record with a count.
            const said: Message = { key: 'service.held.tooMany', params: { n: MAX_HELD_CARDS } };
            const reason = englishText(said);
            await this.refusals.refuse(refusalFor(this.session.race ? { raceId: target } : { gameId: target }, event.card, reason, 'shoe'), true);
            this.shoeRefusal = { card: event.card, field: 'card', message: reason, said };
          } else {
            this.heldCount += 1;
            this.held = [...this.held, { id: this.heldCount, target, card: event.card, raw: event.raw, why: event.suspect === true ? 'noise' : 'queued' }];
          }
          this.kernel.publish();
          return ok(null);
        }
        // A card refused (or not saved) changes nothing else, so it is published with why: nobody
        // typed it, and the dealer must see that a card came and was not taken.
        const result = await this.deal(target, event.card, 'shoe');
        if (!result.ok) {
          this.shoeRefusal = { card: event.card, ...result.error };
          this.kernel.publish();
        }
        return result;
      });
    } else {
      this.kernel.publish();
    }
  }

  private openSource(): void {
    const { source } = this.settings;
    this.sourceStatus = { kind: source.kind, path: source.path, state: 'idle' };
    const emit = (event: ShoeEvent) => this.handleShoeEvent(event);
    if (source.kind === 'simulator') this.source = simulatedSource({ emit, awaited: this.awaited, decks: this.settings.table.decks, intervalMs: this.options.simulatedCardMs });
    else if (source.kind === 'serial') {
      const request = { kind: source.kind, path: source.path, profile: effectiveProfile(source, this.profiles) };
      const decoder = this.profileCommands.registrationDecoder;
      this.source = this.options.cardSources?.(decoder === null ? request : { ...request, decoder }, emit) ?? null;
    }
    else this.source = null;
  }

  private async closeSource(): Promise<void> {
    const source = this.source;
    this.source = null;
    await source?.stop();
  }

  async close(): Promise<void> {
    this.tournamentClock.close();
    await this.closeSource();
    await this.kernel.idle();
    await this.floorLink?.close();
    this.floorLink = null;
    // The counts of refusals still only counted go on record before the journal closes.
    await this.refusals.close();
    await this.kernel.close();
    await this.unlock();
  }
}

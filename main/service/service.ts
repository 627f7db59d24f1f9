import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError, isInputError } from '../../engine/errors';
import type { RaceEvent } from '../../engine/race/race';
import { raceSummary } from '../../engine/race/summary';
import { startRace } from '../../engine/race/race';
import type { ShoeEvent } from '../../hardware/events';
import { JournalWriter, scanJournal, type JournalLine } from '../journal/journal';
import type {
  CommandResult, ConsoleSettings, ConsoleState, GameAction, HistoryEntry, JournalReport, PortInfo, RaceView, SeatCount, ShoeRefusal, SourceStatus,
} from '../ipc/contract';
import type { MatchEvent } from '../../engine/poker/match';
import type { GameName } from '../../engine/poker/rules';
import { historyCsv, historyJson } from './export';
import { gameView } from './gameView';
import { planView } from './planView';
import { applySessionLine, isSessionRecord, raceView, SessionReplay, type ActiveGame, type ActiveRace, type Session, type SessionRecord } from './session';
import { loadSettings, readSettings, saveSettings } from './settings';
import { simulatedSource } from './simulatedSource';

/** Where cards come from besides the keyboard: a serial shoe, or anything that emits shoe events. */
export interface CardSource {
  stop(): Promise<void>;
  /** Told after every change of the race, for sources that deal on demand (the simulated shoe). */
  raceChanged?(race: RaceView | null): void;
}

export type CardSourceFactory = (settings: ConsoleSettings['source'], emit: (event: ShoeEvent) => void) => CardSource | null;

export interface ServiceOptions {
  readonly dataDir: string;
  readonly clock?: () => Date;
  readonly cardSources?: CardSourceFactory;
  readonly listPorts?: () => Promise<readonly PortInfo[]>;
  /** Pace of the simulated shoe (tests deal faster). */
  readonly simulatedCardMs?: number;
}

/** `compute`, remembering its last argument and result: the same input gives the very same object. */
function lastOf<A, R>(compute: (argument: A) => R): (argument: A) => R {
  let last: { argument: A; result: R } | null = null;
  return (argument) => {
    if (last === null || last.argument !== argument) last = { argument, result: compute(argument) };
    return last.result;
  };
}

const ok = <T>(value: T): CommandResult<T> => ({ ok: true, value });
const refused = (field: string, message: string): CommandResult<never> => ({ ok: false, error: { field, message } });

/**
 * A change the disk would not take (full, read-only, failing). Nothing of it was kept, on disk or
 * in memory: the console stays as it was, and the dealer is told why and what to do.
 */
class SaveError extends Error {
  constructor(
    readonly field: 'journal' | 'settings',
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | null)?.code;
    const full = code === 'ENOSPC' || code === 'EDQUOT';
    const why = full ? `the disk is full (${code})` : `the disk refused the write (${(cause as Error | null)?.message ?? String(cause)})`;
    const what = field === 'journal' ? 'could not save: ' : 'could not save the settings: ';
    const kept = field === 'journal' ? 'Nothing was recorded' : 'The previous settings stay in use';
    super(`${what}${why}. ${kept}; ${full ? 'free some disk space' : 'check the disk'}, then try again.`);
  }
}

function failure(error: unknown): CommandResult<never> {
  // The field travels on its own: the message is the reason alone, ready to read after the screen's lead-in.
  if (isInputError(error)) return refused(error.field, error.reason);
  if (error instanceof SaveError) return refused(error.field, error.message);
  return refused('service', `unexpected error: ${(error as Error).message}`);
}

/**
 * The console's session, with no knowledge of Electron: settings, the race in progress, the card
 * source, the journal and the history. Every change is journaled (fsynced) before listeners see
 * it, and commands run one at a time, so the screen, the shoe and the keyboard never race.
 */
export class ConsoleService {
  private readonly listeners = new Set<(state: ConsoleState) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private source: CardSource | null = null;
  private sourceStatus: SourceStatus;
  private lastInput: ShoeEvent | null = null;
  private shoeRefusal: ShoeRefusal | null = null;

  private constructor(
    private readonly options: ServiceOptions,
    private readonly journal: JournalWriter<SessionRecord>,
    private session: Session,
    private settings: ConsoleSettings,
    /** What the journal held at start: it does not change while the console runs. */
    private readonly journalReport: JournalReport,
  ) {
    this.sourceStatus = { kind: settings.source.kind, path: settings.source.path, state: 'idle' };
  }

  static async start(options: ServiceOptions): Promise<ConsoleService> {
    await mkdir(options.dataDir, { recursive: true });
    const journalPath = join(options.dataDir, 'journal.jsonl');
    const replay = new SessionReplay();
    const scan = await scanJournal(journalPath, isSessionRecord, (line) => replay.add(line));
    const { session, problems } = replay.finish();
    const { settings, problem } = await loadSettings(join(options.dataDir, 'settings.json'));
    const journal = await JournalWriter.open<SessionRecord>(journalPath, scan.lastSeq, options.clock);
    const allProblems = [...scan.problems, ...problems, ...(problem ? [problem] : [])];
    const service = new ConsoleService(options, journal, session, settings, { path: journalPath, records: scan.records, problems: allProblems });
    service.openSource();
    return service;
  }

  onState(listener: (state: ConsoleState) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * The state as the screens see it. A part that has not changed is the very same object as in
   * the previous state, so the transports send only the parts that did (main/ipc/stateFeed).
   */
  getState(): ConsoleState {
    const { session, settings } = this;
    return {
      settings,
      race: this.raceViewOf(session.race),
      source: this.sourceStatus,
      lastInput: this.lastInput,
      shoeRefusal: this.shoeRefusal,
      history: session.history,
      game: this.gameViewOf(session.game),
      games: session.games,
      plan: this.planViewOf(settings.tournament),
      journal: this.journalReport,
    };
  }

  private readonly raceViewOf = lastOf((race: ActiveRace | null) => (race ? raceView(race) : null));
  private readonly gameViewOf = lastOf((game: ActiveGame | null) => (game ? gameView(game) : null));
  private readonly planViewOf = lastOf(planView);

  /** Runs commands one after another, so each sees the state the previous one left. */
  private serial<T>(work: () => Promise<CommandResult<T>>): Promise<CommandResult<T>> {
    const run = this.queue.then(work, work).catch(failure);
    this.queue = run;
    return run;
  }

  private publish(): void {
    const state = this.getState();
    for (const listener of this.listeners) listener(state);
    this.source?.raceChanged?.(state.race);
  }

  /** Journals a record, then applies it: the screen never shows what the disk does not hold. */
  private async commit(record: SessionRecord): Promise<void> {
    // Applied once before writing, so an event the engine refuses is never journaled as accepted.
    applySessionLine(this.session, { seq: 0, at: new Date(0).toISOString(), record });
    const line = await this.save(record);
    this.session = applySessionLine(this.session, line);
    // A change was accepted: an earlier refusal of a shoe card no longer stands.
    this.shoeRefusal = null;
    this.publish();
  }

  /** Appends to the journal; a write the disk refuses becomes a SaveError (and nothing is kept). */
  private async save(record: SessionRecord): Promise<JournalLine<SessionRecord>> {
    try {
      return await this.journal.append(record);
    } catch (error) {
      throw new SaveError('journal', error);
    }
  }

  private raceInput(counts: readonly SeatCount[]) {
    const { table } = this.settings;
    const names = Object.fromEntries(table.seats.map((seat) => [seat.seat, seat.name]));
    // The counts screen lists the table's seats; a count for any other seat is a stale or forged call.
    counts.forEach((count, index) => {
      if (!(count.seat in names)) throw new InputError(`counts[${index}].seat`, `seat ${count.seat} is not at the table (seats ${table.seats.map((seat) => seat.seat).join(', ')}): add it in the settings first`);
    });
    return {
      names,
      race: {
        rules: table.rules,
        removed: table.removed,
        next: table.next,
        button: table.button,
        decks: table.decks,
        // Only whether a player has other chips matters to the race (a broke player is protected).
        seats: counts.map((count) => ({ seat: count.seat, name: names[count.seat] ?? '', chips: count.chips, other: count.hasOther ? table.next : 0 })),
      },
    };
  }

  saveSettings(value: ConsoleSettings): Promise<CommandResult> {
    return this.serial(async () => {
      // A screen that does not edit the tournament leaves it out: keep the structure already saved.
      const settings = readSettings(value?.tournament === undefined && typeof value === 'object' && value !== null ? { ...value, tournament: this.settings.tournament } : value);
      await saveSettings(join(this.options.dataDir, 'settings.json'), settings).catch((error: unknown) => {
        throw new SaveError('settings', error);
      });
      const sourceChanged = JSON.stringify(settings.source) !== JSON.stringify(this.settings.source);
      this.settings = settings;
      if (sourceChanged) {
        await this.closeSource();
        this.openSource();
      }
      this.publish();
      return ok(null);
    });
  }

  previewRace(counts: readonly SeatCount[]): Promise<CommandResult<ReturnType<typeof raceSummary>>> {
    return this.serial(async () => ok(raceSummary(startRace(this.raceInput(counts).race))));
  }

  startRace(counts: readonly SeatCount[]): Promise<CommandResult> {
    return this.serial(async () => {
      if (this.session.race) return refused('race', `race ${this.session.race.id} is still open: confirm or abandon it first`);
      if (this.session.game) return refused('game', `game ${this.session.game.id} is still open: close it first`);
      const { race, names } = this.raceInput(counts);
      startRace(race); // refuses bad counts before anything is journaled
      await this.commit({ kind: 'race-start', raceId: `race-${this.session.racesStarted + 1}`, race, counts, names });
      return ok(null);
    });
  }

  private async applyToRace(event: RaceEvent, input: string, source: 'manual' | 'shoe'): Promise<CommandResult> {
    const race = this.session.race;
    if (!race) return refused('race', 'no race is open: start one from the counts screen');
    try {
      await this.commit({ kind: 'race-event', raceId: race.id, event, source });
    } catch (error) {
      if (!isInputError(error)) throw error;
      await this.save({ kind: 'refused', raceId: race.id, input, reason: error.reason, source });
      return failure(error);
    }
    return ok(null);
  }

  dealCard(code: string, source: 'manual' | 'shoe' = 'manual'): Promise<CommandResult> {
    return this.serial(() => (this.session.game ? this.applyToGame({ type: 'card', card: code }, code, source) : this.applyToRace({ type: 'card', card: code }, code, source)));
  }

  private async applyToGame(event: MatchEvent, input: string, source: 'manual' | 'shoe'): Promise<CommandResult> {
    const game = this.session.game;
    if (!game) return refused('game', 'no game is open: start one first');
    try {
      await this.commit({ kind: 'game-event', gameId: game.id, event, source });
    } catch (error) {
      if (!isInputError(error)) throw error;
      await this.save({ kind: 'game-refused', gameId: game.id, input, reason: error.reason, source });
      return failure(error);
    }
    return ok(null);
  }

  startGame(game: GameName, players: readonly string[]): Promise<CommandResult> {
    return this.serial(async () => {
      if (this.session.race) return refused('race', `race ${this.session.race.id} is still open: confirm or abandon it first`);
      if (this.session.game) return refused('game', `game ${this.session.game.id} is still open: close it first`);
      await this.commit({ kind: 'game-event', gameId: `game-${this.session.gamesStarted + 1}`, event: { type: 'start', game, players }, source: 'manual' });
      return ok(null);
    });
  }

  gameAction(action: GameAction): Promise<CommandResult> {
    return this.serial(() => this.applyToGame(action, action.type, 'manual'));
  }

  closeGame(reason: string): Promise<CommandResult> {
    return this.serial(async () => {
      const game = this.session.game;
      if (!game) return refused('game', 'no game is open');
      await this.commit({ kind: 'game-close', gameId: game.id, reason });
      return ok(null);
    });
  }

  voidCards(count: number, reason: string): Promise<CommandResult> {
    return this.serial(() => this.applyToRace({ type: 'void', count, reason }, `void ${count}`, 'manual'));
  }

  confirmRace(): Promise<CommandResult> {
    return this.serial(async () => {
      const race = this.session.race;
      if (!race) return refused('race', 'no race is open');
      if (race.state.progress.status !== 'complete') return refused('race', `race ${race.id} is not complete yet: ${raceSummary(race.state).nextStep}`);
      await this.commit({ kind: 'race-confirm', raceId: race.id });
      return ok(null);
    });
  }

  abandonRace(reason: string): Promise<CommandResult> {
    return this.serial(async () => {
      const race = this.session.race;
      if (!race) return refused('race', 'no race is open');
      await this.commit({ kind: 'race-abandon', raceId: race.id, reason });
      return ok(null);
    });
  }

  listPorts(): Promise<CommandResult<readonly PortInfo[]>> {
    return this.serial(async () => ok(this.options.listPorts ? await this.options.listPorts() : []));
  }

  exportHistory(format: 'csv' | 'json'): Promise<CommandResult<string>> {
    return this.serial(async () => ok(format === 'csv' ? historyCsv(this.history()) : historyJson(this.history())));
  }

  history(): readonly HistoryEntry[] {
    return this.session.history;
  }

  /** A shoe event: cards go to the open race like typed ones; everything is shown to the dealer. */
  private handleShoeEvent(event: ShoeEvent): void {
    if (event.type === 'status') {
      this.sourceStatus = { ...this.sourceStatus, state: event.state, ...(event.code ? { code: event.code } : {}), ...(event.message ? { message: event.message } : {}) };
      if (event.state === 'connected') this.sourceStatus = { kind: this.sourceStatus.kind, path: this.sourceStatus.path, state: 'connected' };
      this.publish();
      return;
    }
    this.lastInput = event;
    if (event.type === 'card' && (this.session.race || this.session.game)) {
      // A card refused (or not saved) changes nothing else, so it is published with why: nobody
      // typed it, and the dealer must see that a card came and was not taken.
      void this.dealCard(event.card, 'shoe').then((result) => {
        if (result.ok) return;
        this.shoeRefusal = { card: event.card, field: result.error.field, message: result.error.message };
        this.publish();
      });
    } else {
      this.publish();
    }
  }

  private openSource(): void {
    const { source } = this.settings;
    this.sourceStatus = { kind: source.kind, path: source.path, state: 'idle' };
    const emit = (event: ShoeEvent) => this.handleShoeEvent(event);
    if (source.kind === 'simulator') this.source = simulatedSource(emit, this.settings.table.decks, undefined, this.options.simulatedCardMs);
    else if (source.kind === 'serial') this.source = this.options.cardSources?.(source, emit) ?? null;
    else this.source = null;
    this.source?.raceChanged?.(this.raceViewOf(this.session.race));
  }

  private async closeSource(): Promise<void> {
    const source = this.source;
    this.source = null;
    await source?.stop();
  }

  async close(): Promise<void> {
    await this.closeSource();
    await this.queue.catch(() => undefined);
    await this.journal.close();
    this.listeners.clear();
  }
}

import { applyRaceEvent, applyRaceEvents, startRace, type RaceEvent, type RaceState } from '../engine/race/race';
import { raceSummary, type RaceSummary } from '../engine/race/summary';
import { englishText, type Message } from '../engine/messages';
import { isInputError } from '../engine/errors';
import type { JournalFinding } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import { applyMatchEvent, type MatchEvent, type MatchState } from '../engine/poker/match';
import { TABLE_NAME_MAX, type GameHistoryEntry, type HistoryEntry, type InputSource, type RacePlace, type SeatCount } from '../protocol/contract';
export { raceView } from '../protocol/views';
import { isColorUpRecord, type ColorUpRecord } from './colorUps';
import { isClockRecord, type ClockRecord } from './clockRecord';

/** What the journal holds: every change to the session, in order. */
export type SessionRecord =
  /** With where it ran (RacePlace: the table's name, the station, the colour-up level), each when known. */
  | ({ readonly kind: 'race-start'; readonly raceId: string; readonly race: unknown; readonly counts: readonly SeatCount[]; readonly names: Readonly<Record<number, string>> } & RacePlace)
  /** `held`: a shoe card held for the dealer's say (a noisy line) and taken by the dealer. */
  | { readonly kind: 'race-event'; readonly raceId: string; readonly event: RaceEvent; readonly source: InputSource; readonly held?: true }
  /**
   * A card or correction the engine refused: not applied, kept for the floor supervisor. `reason`
   * in English (the command line, the exports, older consoles); `said`, when the station wrote it,
   * the same in keys, so the record slip says it in its reader's language.
   */
  | { readonly kind: 'refused'; readonly raceId: string; readonly input: string; readonly reason: string; readonly said?: Message; readonly source: InputSource }
  /** The refusal in record `of` came again `count` more times in a row (a stuck or repeating reader). */
  | { readonly kind: 'refused-again'; readonly raceId: string; readonly of: number; readonly count: number }
  /** `by`: the dealer on duty, when one was named. */
  | { readonly kind: 'race-confirm'; readonly raceId: string; readonly by?: string }
  | { readonly kind: 'race-abandon'; readonly raceId: string; readonly reason: string }
  | { readonly kind: 'game-event'; readonly gameId: string; readonly event: MatchEvent; readonly source: InputSource }
  | { readonly kind: 'game-refused'; readonly gameId: string; readonly input: string; readonly reason: string; readonly said?: Message; readonly source: InputSource }
  | { readonly kind: 'game-refused-again'; readonly gameId: string; readonly of: number; readonly count: number }
  | { readonly kind: 'game-close'; readonly gameId: string; readonly reason: string }
  /** The colour-ups' own records (replay/colorUps.ts): they change no race or game. */
  | ColorUpRecord
  /** The station's own tournament clock (main/service/clock.ts): it changes no race or game. */
  | ClockRecord;

/** The kinds of a race's own records (each names its race: `raceId`). */
export const RACE_RECORD_KINDS: readonly string[] = ['race-start', 'race-event', 'refused', 'refused-again', 'race-confirm', 'race-abandon'];
const RACE_KINDS: ReadonlySet<string> = new Set(RACE_RECORD_KINDS);
const GAME_KINDS = new Set(['game-event', 'game-refused', 'game-refused-again', 'game-close']);
const SOURCES: ReadonlySet<unknown> = new Set<InputSource>(['manual', 'shoe', 'scanner']);

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;
const isCount = (value: unknown, min = 0): value is number => Number.isSafeInteger(value) && (value as number) >= min;
const isId = (value: unknown, prefix: 'race' | 'game'): value is string => typeof value === 'string' && value.length <= 20 && value.startsWith(`${prefix}-`);

/**
 * A refusal's `said` as the journal may hold it: an object of bounded size. Whether this version
 * can say it (a newer one may have written keys this one does not know) is for its readers
 * (isSayableMessage): such a record is replayed all the same, and told by its English.
 */
function isStoredSaid(value: unknown): boolean {
  return isObject(value) && JSON.stringify(value).length <= 4000;
}

function isSeatCounts(value: unknown): boolean {
  return Array.isArray(value) && value.length <= 10 && value.every((count) => isObject(count) && isCount(count.seat, 1) && isCount(count.chips) && typeof count.hasOther === 'boolean');
}

function isNames(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length <= 10 && Object.values(value).every((name) => isText(name, 40));
}

/** The longest station name a race-start may carry (a host name is at most 64 characters). */
export const STATION_MAX = 64;

/** A race-start's place, each part absent or of its shape. */
function isPlace(record: Fields): boolean {
  return (record.table === undefined || isText(record.table, TABLE_NAME_MAX)) && (record.station === undefined || isText(record.station, STATION_MAX)) && (record.level === undefined || isCount(record.level, 1));
}

/** The place a race-start record carries, only the parts it has. */
export function placeOf(record: RacePlace): RacePlace {
  return { ...(record.table !== undefined ? { table: record.table } : {}), ...(record.station !== undefined ? { station: record.station } : {}), ...(record.level !== undefined ? { level: record.level } : {}) };
}

function isRaceEvent(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (value.type === 'card') return isText(value.card, 32);
  if (value.type === 'void') return (value.count === undefined || isCount(value.count, 1)) && (value.reason === undefined || isText(value.reason, 200));
  return false;
}

function isMatchEvent(value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'start':
      // The engine checks the game, the players and the options; here only that nothing unbounded rides along.
      return isText(value.game, 40) && Array.isArray(value.players) && value.players.length <= 6 && value.players.every((player) => isText(player, 40)) && (value.options === undefined || (isObject(value.options) && JSON.stringify(value.options).length <= 1000));
    case 'card':
      return isText(value.card, 32);
    case 'discard':
      return Array.isArray(value.cards) && value.cards.length <= 5 && value.cards.every((card) => isText(card, 32));
    case 'call':
      return isText(value.player, 40);
    case 'end-exchanges':
    case 'next-deal':
      return true;
    default:
      return false;
  }
}

/**
 * Whether a journal record is one this console knows, every field of the shape it writes. A line
 * of another shape is never replayed (it could carry anything into the state the screens get: a
 * name nested a hundred thousand levels deep, a count that is text).
 */
export function isSessionRecord(value: unknown): value is SessionRecord {
  if (!isObject(value)) return false;
  const record = value;
  if (RACE_KINDS.has(record.kind as string) && !isId(record.raceId, 'race')) return false;
  if (GAME_KINDS.has(record.kind as string) && !isId(record.gameId, 'game')) return false;
  switch (record.kind) {
    case 'race-start':
      // The race itself goes through the engine's own checks (readRaceSetup) when replayed.
      return isObject(record.race) && JSON.stringify(record.race).length <= 10_000 && isSeatCounts(record.counts) && isNames(record.names) && isPlace(record);
    case 'race-event':
      return isRaceEvent(record.event) && SOURCES.has(record.source) && (record.held === undefined || record.held === true);
    case 'refused':
    case 'game-refused':
      return isText(record.input, 256) && isText(record.reason, 1000) && SOURCES.has(record.source) && (record.said === undefined || isStoredSaid(record.said));
    case 'refused-again':
    case 'game-refused-again':
      return isCount(record.of, 1) && isCount(record.count, 1);
    case 'race-confirm':
      return record.by === undefined || isText(record.by, 40);
    case 'race-abandon':
    case 'game-close':
      return isText(record.reason, 200);
    case 'game-event':
      return isMatchEvent(record.event) && SOURCES.has(record.source);
    default:
      return isColorUpRecord(record) || isClockRecord(record);
  }
}

export interface ActiveGame {
  readonly id: string;
  readonly startedAt: string;
  readonly state: MatchState;
}

export interface ActiveRace {
  readonly id: string;
  readonly startedAt: string;
  /** The seq of its race-start record. */
  readonly firstSeq: number;
  /** Refusals so far, repeats counted. */
  readonly refusals: number;
  readonly counts: readonly SeatCount[];
  readonly names: Readonly<Record<number, string>>;
  /** The table, station and colour-up level it ran at, as its start recorded them. */
  readonly place: RacePlace;
  readonly state: RaceState;
}

export interface Session {
  readonly race: ActiveRace | null;
  readonly history: readonly HistoryEntry[];
  /** Races started so far: the next race's id comes from it, so ids need no clock or randomness. */
  readonly racesStarted: number;
  readonly game: ActiveGame | null;
  readonly games: readonly GameHistoryEntry[];
  readonly gamesStarted: number;
}

export const EMPTY_SESSION: Session = { race: null, history: [], racesStarted: 0, game: null, games: [], gamesStarted: 0 };

/** What only the written line knows of a record: its seq and when it was written. */
export type LineStamp = Pick<JournalLine<SessionRecord>, 'seq' | 'at'>;

/**
 * A record checked and its engine work done, waiting for its line: given the session as it is when
 * the line is on disk and the line's stamp, the session after it. Between the two, only a count of
 * repeated refusals may have been applied (the journal writes it first), which no engine state
 * depends on; anything else is refused rather than merged.
 */
export type SessionStep = (current: Session, stamp: LineStamp) => Session;

/** Game records: a `start` event opens a game, the others change the open one, `game-close` ends it. */
function stepGame(session: Session, record: SessionRecord): SessionStep {
  if (record.kind === 'game-event' && record.event.type === 'start') {
    if (session.game) misfit({ key: 'replay.gameWhileGame', params: { game: record.gameId, open: session.game.id } });
    if (session.race) misfit({ key: 'replay.gameWhileRace', params: { game: record.gameId, open: session.race.id } });
    const state = applyMatchEvent(null, record.event);
    return (current, { at }) => ({ ...current, game: { id: record.gameId, startedAt: at, state }, gamesStarted: current.gamesStarted + 1 });
  }
  const game = session.game;
  if (!game || !('gameId' in record) || game.id !== record.gameId) misfit({ key: 'replay.noGame', params: { kind: record.kind } });
  switch (record.kind) {
    case 'game-event': {
      const state = applyMatchEvent(game.state, record.event);
      return (current) => ({ ...current, game: { ...game, state } });
    }
    case 'game-refused':
    case 'game-refused-again':
      return (current) => current;
    default: {
      const { state } = game;
      return (current, { at }) => {
        const entry: GameHistoryEntry = {
          id: game.id,
          game: state.deal.setup.game,
          players: state.players,
          deals: state.dealNumber,
          scores: Object.fromEntries(state.deal.setup.players.map((player, index) => [player, state.deal.scores[index] as number])),
          winner: state.winner,
          closedAt: at,
        };
        return { ...current, game: null, games: [...current.games, entry] };
      };
    }
  }
}

/**
 * The session reducer: journal lines in, session out. Pure, so replaying the journal on start
 * rebuilds exactly the session the dealer had. Throws on a line that does not fit the session.
 */
export function applySessionLine(session: Session, line: JournalLine<SessionRecord>): Session {
  return stepSession(session, line.record)(session, line);
}

/**
 * The reducer's work for a record before it is written: throws on a record that does not fit (so
 * a refused event is never journaled), and otherwise keeps the result for its line. The service
 * runs the engine once per event this way; `applySessionLine` is this with the line at hand.
 */
export function stepSession(session: Session, record: SessionRecord): SessionStep {
  const step = stepOf(session, record);
  return (current, stamp) => {
    if (current.race?.state !== session.race?.state || current.game?.state !== session.game?.state) misfit({ key: 'replay.changed', params: { kind: record.kind } });
    return step(current, stamp);
  };
}

function stepOf(session: Session, record: SessionRecord): SessionStep {
  // The colour-up's progress records are the ColorUpLog's (./colorUps): the session passes them by.
  if (isColorUpRecord(record) || isClockRecord(record)) return (current) => current;
  if (GAME_KINDS.has(record.kind)) return stepGame(session, record);
  if (record.kind === 'race-start') {
    if (session.game) misfit({ key: 'replay.raceWhileGame', params: { race: record.raceId, open: session.game.id } });
    if (session.race) misfit({ key: 'replay.raceWhileRace', params: { race: record.raceId, open: session.race.id } });
    const state = startRace(record.race);
    return (current, { seq, at }) => ({
      ...current,
      race: { id: record.raceId, startedAt: at, firstSeq: seq, refusals: 0, counts: record.counts, names: record.names, place: placeOf(record), state },
      racesStarted: current.racesStarted + 1,
    });
  }
  if (!('raceId' in record) || !session.race || session.race.id !== record.raceId) misfit({ key: 'replay.noRace', params: { kind: record.kind } });
  const race = session.race;
  // `current.race` is this race with (at most) more refusals counted: see SessionStep.
  const open = (current: Session): ActiveRace => current.race ?? race;
  switch (record.kind) {
    case 'race-event': {
      const state = applyRaceEvent(race.state, record.event);
      return (current) => ({ ...current, race: { ...open(current), state } });
    }
    case 'refused':
      return (current) => ({ ...current, race: { ...open(current), refusals: open(current).refusals + 1 } });
    case 'refused-again':
      return (current) => ({ ...current, race: { ...open(current), refusals: open(current).refusals + record.count } });
    case 'race-confirm': {
      if (race.state.progress.status !== 'complete') misfit({ key: 'replay.confirmedEarly', params: { race: race.id } });
      const summary = raceSummary(race.state);
      return (current, stamp) => ({ ...current, race: null, history: [...current.history, historyEntry(open(current), stamp, record.by, summary)] });
    }
    case 'race-abandon':
      return (current) => ({ ...current, race: null });
  }
}

/** A confirmed race as the history keeps it; `summary` is its summary, or how to make it when first read. */
function historyEntry(race: ActiveRace, line: LineStamp, by: string | undefined, summary: RaceSummary | (() => RaceSummary)): HistoryEntry {
  const entry: HistoryEntry = {
    id: race.id,
    ...race.place,
    startedAt: race.startedAt,
    confirmedAt: line.at,
    names: race.names,
    summary: typeof summary === 'function' ? (null as unknown as RaceSummary) : summary,
    corrections: race.state.corrections.length,
    ...(by ? { confirmedBy: by } : {}),
    voided: race.state.corrections.map(({ voided, reason }) => ({ card: voided.card, seat: voided.seat, round: voided.round, reason })),
    refusals: race.refusals,
    seqs: { first: race.firstSeq, last: line.seq },
  };
  if (typeof summary !== 'function') return entry;
  // Made when first read, then kept as a plain value: to anything that reads the entry (a page,
  // the IPC's structured clone, JSON), it is the same data as a summary made at once.
  Object.defineProperty(entry, 'summary', {
    enumerable: true,
    configurable: true,
    get(): RaceSummary {
      const made = summary();
      Object.defineProperty(entry, 'summary', { value: made, enumerable: true, writable: false, configurable: false });
      unsummarised.delete(entry);
      return made;
    },
  });
  unsummarised.set(entry, race.state);
  return entry;
}

/** Entries whose summary is not made yet, with the race they summarise (see SessionReplay). */
const unsummarised = new WeakMap<HistoryEntry, RaceState>();

/** A history entry's chip value created (removed when negative), null when none: without making a summary not made yet. */
export function valueDeltaOf(entry: HistoryEntry): number | null {
  const state = unsummarised.get(entry);
  return state === undefined ? entry.summary.valueDelta : (state.progress.result?.valueDelta ?? null);
}

/**
 * A history entry's summary for its numbers only (the floor's fold): without the explanation, and
 * without making the entry's own full summary when it is not made yet (an export makes that).
 */
export function summaryFiguresOf(entry: HistoryEntry): HistoryEntry['summary'] {
  const state = unsummarised.get(entry);
  return state === undefined ? entry.summary : raceSummary(state, { explain: false });
}

/** A record that does not fit the session, and why: in keys, its message their English. */
export class RecordMisfit extends Error {
  readonly said: Message;
  constructor(said: Message) {
    super(englishText(said));
    this.name = 'RecordMisfit';
    this.said = said;
  }
}

function misfit(said: Message): never {
  throw new RecordMisfit(said);
}

/** Why a record could not be applied, in keys when it was said so (an engine refusal with the field it names). */
function saidOf(error: unknown): Message | undefined {
  if (error instanceof RecordMisfit) return error.said;
  if (isInputError(error) && error.said !== undefined) return { key: 'common.field', params: { field: error.field, reason: { message: error.said } } };
  return undefined;
}

const skipped = (line: JournalLine<SessionRecord>, error: unknown): JournalFinding => {
  const said = saidOf(error);
  return { code: 'skipped', seq: line.seq, kind: line.record.kind, reason: (error as Error).message, ...(said === undefined ? {} : { said }) };
};

/**
 * Replays journal lines one at a time, as they are read: a line that does not fit is skipped and
 * reported, never fatal. The session it ends with is what applying the lines one by one with
 * `applySessionLine` gives; the cards of a race are only gathered and applied in one batch
 * (`applyRaceEvents`), which is much cheaper on a long journal than a new state per card.
 */
export class SessionReplay {
  private session: Session;
  private readonly problems: JournalFinding[] = [];
  /** Cards and corrections for the open race, not yet applied. */
  private pending: JournalLine<SessionRecord>[] = [];
  /**
   * The confirmed races so far. The reducer only ever appends to a session's history (it never
   * reads it), so the replay hands it an empty one and keeps the entries here: otherwise every
   * confirmation would copy the whole history, thousands of times on a long journal.
   */
  private readonly history: HistoryEntry[] = [];

  /** `start`: a session to go on from (the floor's fold resumes a table's replay where it stopped). */
  constructor(start: Session = EMPTY_SESSION) {
    this.session = start;
  }

  /** The race open after the lines added so far: its id, start and place (its cards may still wait to be applied). */
  get openRace(): ActiveRace | null {
    return this.session.race;
  }

  add(line: JournalLine<SessionRecord>): void {
    const { record } = line;
    const open = this.session.race;
    if (open && record.kind === 'race-event' && record.raceId === open.id) {
      this.pending.push(line);
      return;
    }
    this.applyPending();
    try {
      const race = this.session.race;
      if (record.kind === 'race-confirm' && race && race.id === record.raceId && race.state.progress.status === 'complete') {
        // As the reducer confirms it, but its summary is made only when read: a long journal's
        // start confirms thousands of races, and a page shows a few of them.
        const state = race.state;
        this.history.push(historyEntry(race, line, record.by, () => raceSummary(state)));
        this.session = { ...this.session, race: null };
        return;
      }
      const next = applySessionLine(this.session, line);
      if (next.history.length > 0) {
        this.history.push(...next.history);
        this.session = { ...next, history: EMPTY_SESSION.history };
      } else {
        this.session = next;
      }
    } catch (error) {
      this.problems.push(skipped(line, error));
    }
  }

  finish(): { session: Session; problems: JournalFinding[] } {
    this.applyPending();
    return { session: { ...this.session, history: this.history }, problems: this.problems };
  }

  private applyPending(): void {
    const race = this.session.race;
    if (!race || this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    const batch = applyRaceEvents(race.state, lines.map((line) => (line.record as { event: RaceEvent }).event));
    for (const { index, error } of batch.refused) this.problems.push(skipped(lines[index] as JournalLine<SessionRecord>, error));
    this.session = { ...this.session, race: { ...race, state: batch.state } };
  }
}

/** Replays journal lines held in memory (see SessionReplay). */
export function replaySession(lines: readonly JournalLine<SessionRecord>[]): { session: Session; problems: JournalFinding[] } {
  const replay = new SessionReplay();
  for (const line of lines) replay.add(line);
  return replay.finish();
}

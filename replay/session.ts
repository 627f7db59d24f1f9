import { applyRaceEvent, applyRaceEvents, startRace, type RaceEvent } from '../engine/race/race';
import { raceSummary } from '../engine/race/summary';
import { englishText, type Message } from '../engine/messages';
import { isInputError } from '../engine/errors';
import type { JournalFinding } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import { applyMatchEvent } from '../engine/poker/match';
import type { GameHistoryEntry, HistoryEntry } from '../protocol/contract';
import { GAME_KINDS, isSideRecord, placeOf, type SessionRecord } from './sessionRecord';
import { EMPTY_SESSION, historyEntry, type ActiveGame, type ActiveRace, type LineStamp, type RaceRecall, type Session, type SessionStep } from './sessionState';
export { raceView } from '../protocol/views';
export { isSessionRecord, placeOf, RACE_RECORD_KINDS, STATION_MAX, type SessionRecord } from './sessionRecord';
export { EMPTY_SESSION, sessionRestored, sessionSnapshot, summaryFiguresOf, valueDeltaOf, type ActiveGame, type ActiveRace, type LineStamp, type RaceRecall, type Session, type SessionStep } from './sessionState';

/** Game records: a `start` event opens a game, the others change the open one, `game-close` ends it. */
function stepGame(session: Session, record: SessionRecord): SessionStep {
  if (record.kind === 'game-event' && record.event.type === 'start') {
    if (session.game) misfit({ key: 'replay.gameWhileGame', params: { game: record.gameId, open: session.game.id } });
    if (session.race) misfit({ key: 'replay.gameWhileRace', params: { game: record.gameId, open: session.race.id } });
    const state = applyMatchEvent(null, record.event);
    return (current, { at }) => ({ ...current, game: { id: record.gameId, startedAt: at, state }, gamesStarted: Math.max(current.gamesStarted + 1, idNumber(record.gameId)) });
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
    default:
      return (current, { at }) => ({ ...current, game: null, games: [...current.games, gameEntry(game, at, true)] });
  }
}

/** A game closed as the history keeps it (`confirmed` false: cut short by a damaged line, see cutShort). */
function gameEntry(game: ActiveGame, closedAt: string, confirmed: boolean): GameHistoryEntry {
  const { state } = game;
  return {
    id: game.id,
    game: state.deal.setup.game,
    players: state.players,
    deals: state.dealNumber,
    scores: Object.fromEntries(state.deal.setup.players.map((player, index) => [player, state.deal.scores[index] as number])),
    winner: state.winner,
    closedAt,
    ...(game.damaged === undefined && confirmed ? {} : { damaged: { seq: game.damaged ?? null, confirmed } }),
  };
}

/**
 * The number in a race's or game's id (`race-12`: 12), 0 for an id of another form. The console
 * names the next one after the count started so far; a start whose line was damaged is not
 * counted, so the next start's number is taken as the count (no id given twice after a restart).
 */
function idNumber(id: string): number {
  const match = /^(?:race|game)-(\d{1,9})$/.exec(id);
  return match === null ? 0 : Number(match[1]);
}

/**
 * A record of a race (game) numbered past those started so far: its start is a line the journal
 * could not read. Counted as started, so the console does not give its id again (idNumber).
 */
function startLost(session: Session, record: SessionRecord): Session {
  if (isSideRecord(record)) return session;
  const race = 'raceId' in record && typeof record.raceId === 'string' ? idNumber(record.raceId) : 0;
  const game = 'gameId' in record && typeof record.gameId === 'string' ? idNumber(record.gameId) : 0;
  if (race <= session.racesStarted && game <= session.gamesStarted) return session;
  return { ...session, racesStarted: Math.max(session.racesStarted, race), gamesStarted: Math.max(session.gamesStarted, game) };
}

/** Whether a record starts a race or a game: the console writes one only when none is open. */
const startsSomething = (record: SessionRecord): boolean => record.kind === 'race-start' || (record.kind === 'game-event' && record.event.type === 'start');

/**
 * A start in the journal while a race or a game is still open: the console wrote it, so it had
 * none open then, and what ended the open one (its confirmation, its abandon, or a card it needed)
 * is on a line the journal could not read. The open one is ended as damaged (on the history as it
 * replayed, not confirmed), and the start then starts as written: a damaged line costs its own
 * race, never the races after it. `line`: the start's. The live console refuses such a start
 * (stepSession): only a journal's line comes here.
 */
function cutShort(session: Session, line: LineStamp, raceEntry: (race: ActiveRace, last: LineStamp) => HistoryEntry): Session {
  const last = { seq: line.seq - 1, at: line.at };
  const { race, game } = session;
  return {
    ...session,
    race: null,
    game: null,
    history: race === null ? session.history : [...session.history, raceEntry(race, last)],
    games: game === null ? session.games : [...session.games, gameEntry(game, line.at, false)],
  };
}

/**
 * The session reducer: journal lines in, session out. Pure, so replaying the journal on start
 * rebuilds exactly the session the dealer had. Throws on a line that does not fit the session. The
 * line is in the journal, so the console took it: a start while a race or game is open ends that
 * one as damaged first (cutShort), and a confirmation of a race not complete ends it as damaged.
 */
export function applySessionLine(session: Session, line: JournalLine<SessionRecord>): Session {
  const { record } = line;
  const { race } = session;
  if (record.kind === 'race-confirm' && race !== null && race.id === record.raceId && race.state.progress.status !== 'complete') {
    // Confirmed by the console, so complete then: a card it needed is on a line the journal could
    // not read. On the history as it replayed, marked damaged.
    return { ...session, race: null, history: [...session.history, historyEntry(race, line, record.by, raceSummary(race.state), undefined, true, true)] };
  }
  const from = startsSomething(line.record) && (session.race !== null || session.game !== null) ? cutShort(session, line, (race, last) => historyEntry(race, last, undefined, raceSummary(race.state), undefined, false, true)) : session;
  return stepSession(from, line.record)(from, line);
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
  // The colour-up's progress records are the ColorUpLog's (./colorUps), the others beside the races their followers': the session passes them by.
  if (isSideRecord(record)) return (current) => current;
  if (GAME_KINDS.has(record.kind)) return stepGame(session, record);
  if (record.kind === 'race-start') {
    if (session.game) misfit({ key: 'replay.raceWhileGame', params: { race: record.raceId, open: session.game.id } });
    if (session.race) misfit({ key: 'replay.raceWhileRace', params: { race: record.raceId, open: session.race.id } });
    const state = startRace(record.race);
    return (current, { seq, at }) => ({
      ...current,
      race: { id: record.raceId, startedAt: at, firstSeq: seq, refusals: 0, counts: record.counts, names: record.names, place: placeOf(record), state },
      racesStarted: Math.max(current.racesStarted + 1, idNumber(record.raceId)),
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


/** A record that does not fit the session, and why: in keys, its message their English. */
export class RecordMisfit extends Error {
  readonly said: Message;
  constructor(said: Message) {
    super(englishText(said));
    this.name = 'RecordMisfit';
    this.said = said;
  }
}

/**
 * Throws a RecordMisfit without a stack: a misfit is the journal's, not the code's, and a journal
 * may hold many of them (a stack for each was most of a damaged journal's start).
 */
function misfit(said: Message): never {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let error: RecordMisfit;
  try {
    error = new RecordMisfit(said);
  } finally {
    Error.stackTraceLimit = limit;
  }
  throw error;
}

/** Why a record could not be applied, in keys when it was said so (an engine refusal with the field it names). */
function saidOf(error: unknown): Message | undefined {
  if (error instanceof RecordMisfit) return error.said;
  if (isInputError(error) && error.said !== undefined) return { key: 'common.field', params: { field: error.field, reason: { message: error.said } } };
  return undefined;
}

/** A line the session could not apply, as the start reports it. */
export const skipped = (line: JournalLine<SessionRecord>, error: unknown): JournalFinding => {
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
  private readonly problems: JournalFinding[];
  /** Cards and corrections for the open race, not yet applied. */
  private pending: JournalLine<SessionRecord>[] = [];
  /** The seq of the line added last (with `gaps`): null before the first. */
  private lastSeq: number | null = null;
  /**
   * The confirmed races so far. The reducer only ever appends to a session's history (it never
   * reads it), so the replay hands it an empty one and keeps the entries here: otherwise every
   * confirmation would copy the whole history, thousands of times on a long journal.
   */
  private readonly history: HistoryEntry[];

  /**
   * `start`: a session to go on from (the floor's fold resumes a table's replay where it stopped;
   * a checkpoint's session, with the problems found before it, resumes the start).
   */
  constructor(
    start: Session = EMPTY_SESSION,
    problems: readonly JournalFinding[] = [],
    /** With it, a confirmed race's state is not kept for its summary: it is recalled when the summary is read. */
    private readonly recall?: RaceRecall,
    /**
     * `gaps`: every line of the journal is added (the station's start), so a seq skipped is a line
     * the journal could not read (damaged, unreadable), and the race or game open then is marked
     * damaged (`damagedLine`). A reader that passes lines over itself (the floor's fold) says so
     * with `passOver` (and `damaged` for a line kept as evidence only). `after`: the seq of the line before the first added (a checkpoint's).
     */
    private readonly options: { readonly gaps?: boolean; readonly after?: number } = {},
  ) {
    this.lastSeq = options.after ?? null;
    this.history = [...start.history];
    this.session = { ...start, history: EMPTY_SESSION.history };
    this.problems = [...problems];
  }

  /** The race open after the lines added so far: its id, start and place (its cards may still wait to be applied). */
  get openRace(): ActiveRace | null {
    return this.session.race;
  }

  /**
   * A line of the journal that could not be read (damaged at the station): the race or game open
   * now contains it, and its history entry says so (the first such line's seq).
   */
  damagedLine(seq: number): void {
    const { race, game } = this.session;
    if (race !== null && race.damaged === undefined) this.session = { ...this.session, race: { ...race, damaged: seq } };
    if (game !== null && game.damaged === undefined) this.session = { ...this.session, game: { ...game, damaged: seq } };
  }

  /**
   * A line of the journal read but not applied (with `gaps`, no line missing): one the floor's fold
   * passes over itself (problemOf, a record of another shape), or, `damaged`, one kept as evidence
   * only (damagedLine).
   */
  passOver(seq: number, damaged = false): void {
    this.seen(seq);
    if (damaged) this.damagedLine(seq);
  }

  /** With `gaps`: a line missing before `seq` is a damaged one. */
  private seen(seq: number): void {
    if (this.options.gaps !== true) return;
    if (this.lastSeq !== null && seq > this.lastSeq + 1) this.damagedLine(this.lastSeq + 1);
    this.lastSeq = seq;
  }

  add(line: JournalLine<SessionRecord>): void {
    const { record } = line;
    this.seen(line.seq);
    const open = this.session.race;
    if (open && record.kind === 'race-event' && record.raceId === open.id) {
      this.pending.push(line);
      return;
    }
    this.applyPending();
    if (startsSomething(record) && (open !== null || this.session.game !== null)) {
      // Ended as damaged (cutShort), its summary made when read as a confirmed race's is.
      const cut = cutShort(this.session, line, (race, last) => historyEntry(race, last, undefined, 'later', this.recall, false, true));
      this.history.push(...cut.history);
      this.session = { ...cut, history: EMPTY_SESSION.history };
    }
    try {
      const race = this.session.race;
      if (record.kind === 'race-confirm' && race && race.id === record.raceId && race.state.progress.status === 'complete') {
        // As the reducer confirms it, but its summary is made only when read: a long journal's
        // start confirms thousands of races, and a page shows a few of them.

        this.history.push(historyEntry(race, line, record.by, 'later', this.recall));
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
      if (this.options.gaps === true) this.session = startLost(this.session, record);
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

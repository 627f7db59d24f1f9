import { applyRaceEvent, applyRaceEvents, startRace, type RaceEvent, type RaceState } from '../../engine/race/race';
import { raceSummary } from '../../engine/race/summary';
import type { JournalFinding, JournalLine } from '../journal/journal';
import { applyMatchEvent, type MatchEvent, type MatchState } from '../../engine/poker/match';
import type { GameHistoryEntry, HistoryEntry, InputSource, RaceView, SeatCount } from '../ipc/contract';


/** What the journal holds: every change to the session, in order. */
export type SessionRecord =
  | { readonly kind: 'race-start'; readonly raceId: string; readonly race: unknown; readonly counts: readonly SeatCount[]; readonly names: Readonly<Record<number, string>> }
  /** `held`: a shoe card held for the dealer's say (a noisy line) and taken by the dealer. */
  | { readonly kind: 'race-event'; readonly raceId: string; readonly event: RaceEvent; readonly source: InputSource; readonly held?: true }
  /** A card or correction the engine refused: not applied, kept for the floor supervisor. */
  | { readonly kind: 'refused'; readonly raceId: string; readonly input: string; readonly reason: string; readonly source: InputSource }
  /** The refusal in record `of` came again `count` more times in a row (a stuck or repeating reader). */
  | { readonly kind: 'refused-again'; readonly raceId: string; readonly of: number; readonly count: number }
  /** `by`: the dealer on duty, when one was named. */
  | { readonly kind: 'race-confirm'; readonly raceId: string; readonly by?: string }
  | { readonly kind: 'race-abandon'; readonly raceId: string; readonly reason: string }
  | { readonly kind: 'game-event'; readonly gameId: string; readonly event: MatchEvent; readonly source: InputSource }
  | { readonly kind: 'game-refused'; readonly gameId: string; readonly input: string; readonly reason: string; readonly source: InputSource }
  | { readonly kind: 'game-refused-again'; readonly gameId: string; readonly of: number; readonly count: number }
  | { readonly kind: 'game-close'; readonly gameId: string; readonly reason: string };

const RACE_KINDS = new Set(['race-start', 'race-event', 'refused', 'refused-again', 'race-confirm', 'race-abandon']);
const GAME_KINDS = new Set(['game-event', 'game-refused', 'game-refused-again', 'game-close']);

export function isSessionRecord(value: unknown): value is SessionRecord {
  const record = value as { kind?: unknown; raceId?: unknown; gameId?: unknown } | null;
  if (typeof record !== 'object' || record === null) return false;
  return (RACE_KINDS.has(record.kind as string) && typeof record.raceId === 'string') || (GAME_KINDS.has(record.kind as string) && typeof record.gameId === 'string');
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

/** Game records: a `start` event opens a game, the others change the open one, `game-close` ends it. */
function applyGameLine(session: Session, line: JournalLine<SessionRecord>): Session {
  const { record } = line;
  if (record.kind === 'game-event' && record.event.type === 'start') {
    if (session.game) throw new Error(`game ${record.gameId} started while game ${session.game.id} was still open`);
    if (session.race) throw new Error(`game ${record.gameId} started while race ${session.race.id} was open`);
    return { ...session, game: { id: record.gameId, startedAt: line.at, state: applyMatchEvent(null, record.event) }, gamesStarted: session.gamesStarted + 1 };
  }
  const game = session.game;
  if (!game || !('gameId' in record) || game.id !== record.gameId) throw new Error(`${record.kind} for a game that is not open`);
  switch (record.kind) {
    case 'game-event':
      return { ...session, game: { ...game, state: applyMatchEvent(game.state, record.event) } };
    case 'game-refused':
    case 'game-refused-again':
      return session;
    default: {
      const { state } = game;
      const entry: GameHistoryEntry = {
        id: game.id,
        game: state.deal.setup.game,
        players: state.players,
        deals: state.dealNumber,
        scores: Object.fromEntries(state.deal.setup.players.map((player, index) => [player, state.deal.scores[index] as number])),
        winner: state.winner,
        closedAt: line.at,
      };
      return { ...session, game: null, games: [...session.games, entry] };
    }
  }
}

export function raceView(race: ActiveRace): RaceView {
  return { id: race.id, startedAt: race.startedAt, counts: race.counts, names: race.names, summary: raceSummary(race.state), corrections: race.state.corrections.length };
}

/**
 * The session reducer: journal lines in, session out. Pure, so replaying the journal on start
 * rebuilds exactly the session the dealer had. Throws on a line that does not fit the session.
 */
export function applySessionLine(session: Session, line: JournalLine<SessionRecord>): Session {
  const { record } = line;
  if (GAME_KINDS.has(record.kind)) return applyGameLine(session, line);
  if (record.kind === 'race-start') {
    if (session.game) throw new Error(`race ${record.raceId} started while game ${session.game.id} was open`);
    if (session.race) throw new Error(`race ${record.raceId} started while race ${session.race.id} was still open`);
    const race: ActiveRace = { id: record.raceId, startedAt: line.at, firstSeq: line.seq, refusals: 0, counts: record.counts, names: record.names, state: startRace(record.race) };
    return { ...session, race, racesStarted: session.racesStarted + 1 };
  }
  if (!('raceId' in record) || !session.race || session.race.id !== record.raceId) throw new Error(`${record.kind} for a race that is not open`);
  const race = session.race;
  switch (record.kind) {
    case 'race-event':
      return { ...session, race: { ...race, state: applyRaceEvent(race.state, record.event) } };
    case 'refused':
      return { ...session, race: { ...race, refusals: race.refusals + 1 } };
    case 'refused-again':
      return { ...session, race: { ...race, refusals: race.refusals + record.count } };
    case 'race-confirm': {
      if (race.state.progress.status !== 'complete') throw new Error(`race ${race.id} confirmed before it was complete`);
      const view = raceView(race);
      const entry: HistoryEntry = {
        id: race.id,
        startedAt: race.startedAt,
        confirmedAt: line.at,
        names: race.names,
        summary: view.summary,
        corrections: view.corrections,
        ...(record.by ? { confirmedBy: record.by } : {}),
        voided: race.state.corrections.map(({ voided, reason }) => ({ card: voided.card, seat: voided.seat, round: voided.round, reason })),
        refusals: race.refusals,
        seqs: { first: race.firstSeq, last: line.seq },
      };
      return { ...session, race: null, history: [...session.history, entry] };
    }
    case 'race-abandon':
      return { ...session, race: null };
  }
}

const skipped = (line: JournalLine<SessionRecord>, error: unknown): JournalFinding => ({ code: 'skipped', seq: line.seq, kind: line.record.kind, reason: (error as Error).message });

/**
 * Replays journal lines one at a time, as they are read: a line that does not fit is skipped and
 * reported, never fatal. The session it ends with is what applying the lines one by one with
 * `applySessionLine` gives; the cards of a race are only gathered and applied in one batch
 * (`applyRaceEvents`), which is much cheaper on a long journal than a new state per card.
 */
export class SessionReplay {
  private session: Session = EMPTY_SESSION;
  private readonly problems: JournalFinding[] = [];
  /** Cards and corrections for the open race, not yet applied. */
  private pending: JournalLine<SessionRecord>[] = [];
  /**
   * The confirmed races so far. The reducer only ever appends to a session's history (it never
   * reads it), so the replay hands it an empty one and keeps the entries here: otherwise every
   * confirmation would copy the whole history, thousands of times on a long journal.
   */
  private readonly history: HistoryEntry[] = [];

  add(line: JournalLine<SessionRecord>): void {
    const { record } = line;
    const open = this.session.race;
    if (open && record.kind === 'race-event' && record.raceId === open.id) {
      this.pending.push(line);
      return;
    }
    this.applyPending();
    try {
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

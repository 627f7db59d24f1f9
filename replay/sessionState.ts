import type { RaceState } from '../engine/race/race';
import { raceSummary, type RaceSummary } from '../engine/race/summary';
import type { JournalLine } from '../journal/reading';
import type { MatchState } from '../engine/poker/match';
import type { GameHistoryEntry, HistoryEntry, RacePlace, SeatCount } from '../protocol/contract';
import type { SessionRecord } from './sessionRecord';

export interface ActiveGame {
  readonly id: string;
  readonly startedAt: string;
  readonly state: MatchState;
  /** The first of its lines the journal could not read, when the replay found one (see ActiveRace). */
  readonly damaged?: number;
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
  /** The first of its lines the journal could not read (damaged), when the start's replay found one: its entry says so. */
  readonly damaged?: number;
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

/**
 * How a confirmed race's engine state is made again, when its summary is first read, for a history
 * that does not keep every race's state (the station's: a long history's states would fill its
 * memory and its checkpoints). The station reads the race's lines back from the journal.
 */
export type RaceRecall = (entry: HistoryEntry) => RaceState;

/** A summary not made yet: its value delta (known without it), and how to make it. */
interface Unmade {
  readonly valueDelta: number | null;
  readonly make: (options?: { readonly explain: false }) => RaceSummary;
}

/** Entries whose summary is not made yet (see SessionReplay). */
const unsummarised = new WeakMap<HistoryEntry, Unmade>();

/**
 * A confirmed race as the history keeps it; `summary` is its summary, or `later`: made when first
 * read, from the race's state, or (with `recall`) from the state made again then, so the state
 * itself is not kept. `damaged`: a race a damaged line spoilt (replay/session.ts), marked so also
 * when the line was not seen missing; `confirmed` false then: its end is lost, it ended when the
 * next race started (`line`: the last of its lines, and when the next one started).
 */
export function historyEntry(race: ActiveRace, line: LineStamp, by: string | undefined, summary: RaceSummary | 'later', recall?: RaceRecall, confirmed = true, damaged = false): HistoryEntry {
  const entry: HistoryEntry = {
    id: race.id,
    ...race.place,
    startedAt: race.startedAt,
    confirmedAt: line.at,
    names: race.names,
    summary: summary === 'later' ? (null as unknown as RaceSummary) : summary,
    corrections: race.state.corrections.length,
    ...(by ? { confirmedBy: by } : {}),
    voided: race.state.corrections.map(({ voided, reason }) => ({ card: voided.card, seat: voided.seat, round: voided.round, reason })),
    refusals: race.refusals,
    seqs: { first: race.firstSeq, last: line.seq },
    ...(race.damaged === undefined && !damaged ? {} : { damaged: { seq: race.damaged ?? null, confirmed } }),
  };
  if (summary !== 'later') return entry;
  const { state } = race;
  const valueDelta = state.progress.result?.valueDelta ?? null;
  return lazySummary(entry, recall === undefined ? { valueDelta, make: (options) => raceSummary(state, options) } : recalled(entry, valueDelta, recall));
}

const recalled = (entry: HistoryEntry, valueDelta: number | null, recall: RaceRecall): Unmade => ({ valueDelta, make: (options) => raceSummary(recall(entry), options) });

/**
 * The entry's summary made when first read, then kept as a plain value: to anything that reads the
 * entry (a page, the IPC's structured clone, JSON), it is the same data as a summary made at once.
 */
function lazySummary(entry: HistoryEntry, unmade: Unmade): HistoryEntry {
  Object.defineProperty(entry, 'summary', {
    enumerable: true,
    configurable: true,
    get(): RaceSummary {
      const made = unmade.make();
      Object.defineProperty(entry, 'summary', { value: made, enumerable: true, writable: false, configurable: false });
      unsummarised.delete(entry);
      return made;
    },
  });
  unsummarised.set(entry, unmade);
  return entry;
}

/** A history entry's chip value created (removed when negative), null when none: without making a summary not made yet. */
export function valueDeltaOf(entry: HistoryEntry): number | null {
  const unmade = unsummarised.get(entry);
  return unmade === undefined ? entry.summary.valueDelta : unmade.valueDelta;
}

/**
 * A history entry's summary for its numbers only (the floor's fold): without the explanation, and
 * without making the entry's own full summary when it is not made yet (an export makes that).
 */
export function summaryFiguresOf(entry: HistoryEntry): HistoryEntry['summary'] {
  const unmade = unsummarised.get(entry);
  return unmade === undefined ? entry.summary : unmade.make({ explain: false });
}

/**
 * A history entry's summary for one reading (an export, which reads every entry once): when it is
 * not made yet it is made for this reading and not kept on the entry, so reading the whole history
 * leaves the history holding no more than before (the station's memory stays what it was).
 * `explain: false`: without the explanation, for a reader that does not show it (the CSV).
 */
export function summaryOnce(entry: HistoryEntry, options?: { readonly explain: false }): HistoryEntry['summary'] {
  const unmade = unsummarised.get(entry);
  return unmade === undefined ? entry.summary : unmade.make(options);
}

/** A history entry as a checkpoint keeps it: every field in its place, the summary null when it is not made yet (then its value delta). */
interface EntrySnapshot {
  readonly entry: Record<string, unknown>;
  readonly valueDelta?: number | null;
}

/** The session as plain data (a checkpoint's), without making a summary not made yet (nor keeping a race's state for it). */
export function sessionSnapshot(session: Session): unknown {
  const history = session.history.map((entry): EntrySnapshot => {
    const unmade = unsummarised.get(entry);
    if (unmade === undefined) return { entry: { ...entry } };
    // Field by field: spreading the entry would read its summary, and so make it.
    const fields = Object.fromEntries(Object.keys(entry).map((key) => [key, key === 'summary' ? null : entry[key as keyof HistoryEntry]]));
    return { entry: fields, valueDelta: unmade.valueDelta };
  });
  return { ...session, history };
}

/** The session a snapshot holds, its summaries not made yet as they were not: made, when read, from the race recalled. */
export function sessionRestored(snapshot: unknown, recall: RaceRecall): Session {
  const { history, ...rest } = snapshot as Omit<Session, 'history'> & { history: readonly EntrySnapshot[] };
  if (!Array.isArray(history) || typeof rest.racesStarted !== 'number' || typeof rest.gamesStarted !== 'number' || !Array.isArray(rest.games)) throw new Error('session: not a session');
  return {
    ...rest,
    history: history.map(({ entry, valueDelta }) => {
      const restored = entry as unknown as HistoryEntry;
      return valueDelta === undefined ? restored : lazySummary(restored, recalled(restored, valueDelta, recall));
    }),
  };
}

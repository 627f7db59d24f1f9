import type { HistoryEntry } from '../protocol/contract';
import { CHIP_EXCHANGE_KIND, ChipExchanges } from './chipExchange';
import { ColorUpLog } from './colorUps';
import { ColourUpReading, isRaceClosedRecord, type ColourUpReadingState, type ColourUpReadingView, type KeptDecision } from './colourUpReading';
import type { JournalLine } from '../journal/read';
import { FloorDecisions } from './floorDecisions';
import { Followers, type JournalFollower } from './follower';
import { isSessionRecord, type ActiveRace, type SessionRecord } from './session';
import type { RaceRecall } from './sessionState';
import { SessionProjection } from './sessionProjection';
import { abandonedRace, countsChips, foldedRaces, isStatusLine, problemOf, type FoldedExchange, type FoldedRace, type FoldLine, type FoldProblem, type FoldState, type TableFold } from './tableFold';

/**
 * One table's projection of its records, composed of the pure followers of replay/: the session
 * (SessionProjection: the races, the history), the colour-up log (ColorUpLog), the chips exchanged
 * outside a race (ChipExchanges), the floor's calls and decisions (FloorDecisions) and the
 * colour-up status reading (ColourUpReading). One object, TableProjection (below), instantiated by both:
 * - the station: held whole in memory; its followers registry (station/service/followers.ts)
 *   holds its parts, fed every line on start and live, and its checkpoint keeps each part by its
 *   name (station/journal/checkpoint.ts);
 * - the floor's fold (foldLines, foldTableLines below), a step of a table's records at a time
 *   (floor/fold/store.ts): a TableProjection taken up from the table's checkpoint
 *   (floor_table_state.replay, TableCheckpoint: its parts' follower states, without what only
 *   grows with the evening, which the floor writes to its tables) and fed the step's lines as the
 *   station's start feeds its registry, so a fold step reads only the records after it; beside it
 *   the floor's own reading (FloorReading: the races abandoned, the tally of an open race's
 *   corrections and refusals, the chips each start counted, the break an exchange's sheet is on),
 *   and what it makes of the step (replay/tableFold.ts: the races, the exchanges, the problems).
 * For any journal the two say the same of the table (replay/tableProjection.test.ts).
 * Pure: plain data in and out, no clock, no I/O; what it makes changes only by records applied.
 */

/**
 * A table's projection as the station keeps it: its parts, each a journal follower (replay/follower.ts)
 * with its checkpoint under its own name. `recall`: how a confirmed race's state is made again for its
 * summary (replay/sessionState.ts RaceRecall). The colour-up reading takes a station's
 * `floor-decision` record as the floor's own decision when it is one the station journaled (its
 * FloorDecisions), unless `decisions` says which are (the floor's, in a comparison).
 */
export class TableProjection {
  /** The races, the history and the games (SessionReplay on start, the decided steps live). */
  readonly session: SessionProjection;
  /** How far the colour-up of the break marked last has come. */
  readonly colorUps = new ColorUpLog();
  /** The dealer's calls of the floor and the director's decisions. */
  readonly floorDecisions = new FloorDecisions();
  /** Chips exchanged outside a race: late-found, colour-ups of a player. */
  readonly chipExchanges = new ChipExchanges();
  /** The colour-up status the floor reads of the table (readingNow). */
  readonly reading: ColourUpReading;

  constructor(recall?: RaceRecall, options: { readonly decisions?: () => readonly KeptDecision[] } = {}) {
    this.session = new SessionProjection(recall);
    this.reading = new ColourUpReading(undefined, options.decisions ?? (() => this.floorDecisions.all));
  }

  /**
   * Its parts as the followers of one registry, with `others` (a station's own followers) among
   * them: the session last, so that a command's decided step that no longer fits throws there,
   * after every other follower has the line the journal now holds. The floor's decisions before
   * the reading, which reads the decisions journaled up to its line.
   */
  followersWith(others: readonly JournalFollower[] = []): JournalFollower[] {
    return [this.colorUps, this.floorDecisions, this.chipExchanges, this.reading, ...others, this.session];
  }

  /** The colour-up status reading now, the open race complete or not (the floor's TableState.reading, replay/tableProjection.ts). */
  readingNow(): ColourUpReadingView {
    return this.reading.reading(this.session.session.race?.state.progress.status === 'complete');
  }
}

/**
 * The floor's own reading of a table's records, beside its projection (a follower after the
 * session, fed the lines the projection is): the open race's corrections and refusals as its
 * records count them, the races abandoned, the chips each race's start counted, and the break
 * whose sheet each exchange is on. What a step of the fold makes of its lines only.
 */
class FloorReading implements JournalFollower {
  tally: FoldState['tally'];
  breakMarked: number | null;
  lastRaceLevel: number | null;
  /** The chips of the removed denomination each race's start counted (the open race's on resuming), by id. */
  readonly collect = new Map<string, number>();
  /** The races abandoned, by id. */
  readonly abandoned = new Map<string, FoldedRace>();
  /** The break whose sheet each exchange is on, by seq. */
  readonly sheetBreaks = new Map<number, number | null>();
  /** The race open before the line added now (the session's after the line before). */
  private before: ActiveRace | null;

  constructor(private readonly session: SessionProjection, from: FoldState | null) {
    this.tally = from?.tally ?? null;
    this.breakMarked = from?.breakMarked ?? null;
    this.lastRaceLevel = from?.lastRaceLevel ?? null;
    this.before = session.openRace;
    if (this.before !== null) this.collect.set(this.before.id, countsChips(this.before.counts));
  }

  add(line: JournalLine<unknown>): void {
    const record = line.record as SessionRecord;
    const open = this.before;
    const now = this.session.openRace;
    this.before = now;
    // On the sheet of the break the table showed then.
    if (record.kind === CHIP_EXCHANGE_KIND) {
      this.sheetBreaks.set(line.seq, this.breakMarked ?? this.lastRaceLevel);
      return;
    }
    if (record.kind === 'break-marked') this.breakMarked = record.afterLevel;
    const tally = this.tally;
    if (tally !== null && 'raceId' in record && record.raceId === tally.raceId) {
      // As the record slip counts them: for an abandoned race (a confirmed one's come from its state).
      if (record.kind === 'race-event' && record.event.type === 'void') this.tally = { ...tally, corrections: tally.corrections + (record.event.count ?? 1) };
      if (record.kind === 'refused') this.tally = { ...tally, refusals: tally.refusals + 1 };
      if (record.kind === 'refused-again') this.tally = { ...tally, refusals: tally.refusals + record.count };
    }
    if (record.kind === 'race-start') {
      this.collect.set(record.raceId, countsChips(record.counts));
      if (now !== null && now.firstSeq === line.seq) {
        this.tally = { raceId: now.id, corrections: 0, refusals: 0 };
        this.lastRaceLevel = now.place.level ?? this.lastRaceLevel;
      }
    }
    // Abandoned as the reducer abandons it: the race open then.
    if (record.kind === 'race-abandon' && open !== null && open.id === record.raceId && now === null) {
      this.abandoned.set(open.id, abandonedRace(open, line as FoldLine, this.tally !== null && this.tally.raceId === open.id ? this.tally : { corrections: 0, refusals: 0 }));
      this.tally = null;
    }
    if (record.kind === 'race-confirm' && open !== null && now === null) this.tally = null;
  }
}

/**
 * A table's projection taken up where a fold stopped (`from`, `reading`: null for a fresh one),
 * its parts restored by their own follower checkpoints: the session, the colour-ups, the floor's
 * decisions and the colour-up reading; its exchanges start empty (the floor keeps them in its
 * tables). No recall: a confirmed race's state is kept for its summary (the fold keeps no history).
 * Throws when a part's state is not one its snapshot makes.
 */
function projectionFrom(from: FoldState | null, reading: ColourUpReadingState | null, decisions: readonly KeptDecision[]): TableProjection {
  const projection = new TableProjection(undefined, { decisions: () => decisions });
  if (from !== null) {
    if (typeof from.session !== 'object' || from.session === null) throw new Error('table projection: no session');
    projection.session.checkpoint.restore({ session: from.session, problems: [], lastSeq: from.lastSeq ?? null });
    if (from.colorUps !== undefined) projection.colorUps.checkpoint.restore(from.colorUps);
    if (from.floorDecisions !== undefined) projection.floorDecisions.checkpoint.restore(from.floorDecisions);
  }
  if (reading !== null) projection.reading.checkpoint.restore(reading);
  return projection;
}

/**
 * Folds a table's lines, from the journal's start or from where an earlier fold stopped (`from`,
 * with the colour-up reading's state `reading`): the table's projection (TableProjection, as the
 * station's followers hold it) taken up from them and fed the lines as the station's start feeds
 * its registry, the floor's own reading (FloorReading) beside it. Lines that do not fit are
 * passed over as the console's replay passes them over; lines the floor cannot fold safely
 * (problemOf), or of a shape the station's journal never holds (isSessionRecord), are passed over
 * by the fold itself, the first reported, and the session told so (not read as lines missing);
 * a line kept as evidence only (damaged at the station) marks the race open then. The work is that
 * of these lines only, whatever came before them. `decisions`: the floor's on the table, which the
 * colour-up reading reads a station's `floor-decision` record against.
 */
function foldProjection(lines: readonly FoldLine[], lastSeq: number, from: FoldState | null, reading: ColourUpReadingState | null, decisions: readonly KeptDecision[]): { fold: TableFold; projection: TableProjection } {
  const projection = projectionFrom(from, reading, decisions);
  const floor = new FloorReading(projection.session, from);
  // The projection's parts in the station's order, the floor's reading after the session (it reads the race the line left open).
  const registry = new Followers([...projection.followersWith(), floor]);
  const problems: FoldProblem[] = [];
  const damaged: number[] = [];
  const span = { start: 0, end: 0 };
  for (const line of lines) {
    const record = line.record;
    // A line kept as evidence only (damaged at the station): nothing to fold, but the table says so.
    if (record === null || record === undefined) {
      damaged.push(line.seq);
      projection.session.passOver(line.seq, true);
      continue;
    }
    const problem = problemOf(line);
    if (problem !== null) {
      problems.push({ seq: line.seq, reason: problem });
      projection.session.passOver(line.seq);
      continue;
    }
    const read = { seq: line.seq, at: line.at as string, record };
    if (isSessionRecord(record)) {
      registry.add(read, span);
      continue;
    }
    // Of a shape no console writes: the session passes it over; the colour-up status reads the kind (isStatusLine), as the floor's trigger stores it.
    if (isStatusLine(line)) projection.reading.add(read);
    projection.session.passOver(line.seq);
  }
  projection.session.started();
  const { session } = projection.session;
  const exchanges: FoldedExchange[] = projection.chipExchanges.view.exchanges.map((note) => ({ ...note, afterLevel: floor.sheetBreaks.get(note.seq) ?? null }));
  const state: FoldState = {
    session: { ...session, history: [], games: [] }, lastSeq: projection.session.lastSeqRead, colorUps: projection.colorUps.checkpoint.snapshot(), floorDecisions: projection.floorDecisions.checkpoint.snapshot(),
    tally: floor.tally, breakMarked: floor.breakMarked, lastRaceLevel: floor.lastRaceLevel,
  };
  return { fold: { races: foldedRaces(session, floor.abandoned, floor.collect, lastSeq), state, problems, damaged, history: session.history, exchanges }, projection };
}

/** A table's lines folded (foldProjection), from the journal's start or on from `from`: the races, exchanges, problems and history they make. */
export function foldLines(lines: readonly FoldLine[], lastSeq: number, from: FoldState | null = null): TableFold {
  return foldProjection(lines, lastSeq, from, null, []).fold;
}

/** The checkpoint's shape version: a checkpoint of another is not read (the table is folded again from its first record). */
export const TABLE_CHECKPOINT_VERSION = 2;

/** Where a table's projection stands after its records through `seq`, as plain JSON. */
export interface TableCheckpoint {
  readonly version: typeof TABLE_CHECKPOINT_VERSION;
  /** The last seq folded (0: none). */
  readonly seq: number;
  /** The projection's parts but the reading, and the floor's own (null: no line folded yet). */
  readonly fold: FoldState | null;
  /** The colour-up reading's state (null: no line folded yet). */
  readonly reading: ColourUpReadingState | null;
}

export const INITIAL_CHECKPOINT: TableCheckpoint = { version: TABLE_CHECKPOINT_VERSION, seq: 0, fold: null, reading: null };

/** A stored checkpoint read back: null when it is not one this version writes (the table is then folded again from its first record). */
export function readTableCheckpoint(value: unknown): TableCheckpoint | null {
  if (typeof value !== 'object' || value === null) return null;
  const kept = value as Partial<Record<keyof TableCheckpoint, unknown>>;
  if (kept.version !== TABLE_CHECKPOINT_VERSION || !Number.isSafeInteger(kept.seq) || (kept.seq as number) < 0) return null;
  if (kept.fold !== null && typeof kept.fold !== 'object') return null;
  try {
    // Its parts taken up as a fold step takes them up.
    projectionFrom((kept.fold ?? null) as FoldState | null, (kept.reading ?? null) as ColourUpReadingState | null, []);
  } catch {
    return null;
  }
  return value as TableCheckpoint;
}

/** What one step (a batch of lines) of a table's projection made. */
export interface TableStep {
  /** The batch's races (those it ended, and the one open after it), problems, damaged lines, history and exchanges. */
  readonly fold: TableFold;
  /** The colour-up reading after the batch. */
  readonly reading: ColourUpReadingView;
  readonly checkpoint: TableCheckpoint;
}

/** Whether a batch holds a station's record of a race closed on the floor: it needs the floor's decisions to be read (isFloorsDecision). */
export const needsDecisions = (lines: readonly FoldLine[]): boolean => lines.some((line) => isStatusLine(line) && problemOf(line) === null && isRaceClosedRecord(line.record));

/**
 * The next lines of a table (in seq order, after `from.seq`) applied to its projection: the work
 * of these lines only. `decisions`: the floor's decisions on the table (when needsDecisions).
 */
export function foldTableLines(from: TableCheckpoint, lines: readonly FoldLine[], decisions: readonly KeptDecision[] = [], lastSeq = lines.at(-1)?.seq ?? from.seq): TableStep {
  const { fold, projection } = foldProjection(lines, lastSeq, from.fold, from.reading, decisions);
  return { fold, reading: projection.readingNow(), checkpoint: { version: TABLE_CHECKPOINT_VERSION, seq: lastSeq, fold: fold.state, reading: projection.reading.snapshot() } };
}

/** The problems kept per table (then only counted): a station sealing a million bad lines keeps twenty. */
export const PROBLEMS_KEPT = 20;
/** How many of a table's damaged records are kept: the first few say where to look in the station's journal. */
export const DAMAGED_SHOWN = 20;

/**
 * A table as the floor keeps it after its records so far: what the store writes (floor_races by
 * race id, floor_exchanges by seq, floor_table_state with the checkpoint), as plain data. The
 * confirmed races' history is not kept by the floor (it replays them when an export asks): it is
 * here for the comparison with the station's own.
 */
export interface TableState {
  readonly checkpoint: TableCheckpoint;
  /** By race id (a race folded again replaces its row), in the order they started. */
  readonly races: readonly FoldedRace[];
  /** By seq, the first kept. */
  readonly exchanges: readonly FoldedExchange[];
  readonly problems: readonly FoldProblem[];
  readonly problemCount: number;
  readonly damaged: readonly number[];
  readonly reading: ColourUpReadingView;
  readonly openRace: string | null;
  readonly history: readonly HistoryEntry[];
}

export const INITIAL_TABLE: TableState = {
  checkpoint: INITIAL_CHECKPOINT, races: [], exchanges: [], problems: [], problemCount: 0, damaged: [],
  reading: { base: 'not-started', flag: null, leftFinished: [], marked: null }, openRace: null, history: [],
};

/** A step's problems and damaged lines added to those kept (the first PROBLEMS_KEPT, DAMAGED_SHOWN). */
export function keptAfter(kept: { readonly problems: readonly FoldProblem[]; readonly problemCount: number; readonly damaged: readonly number[] }, fold: Pick<TableFold, 'problems' | 'damaged'>): { problems: FoldProblem[]; problemCount: number; damaged: number[] } {
  return { problems: [...kept.problems, ...fold.problems].slice(0, PROBLEMS_KEPT), problemCount: kept.problemCount + fold.problems.length, damaged: [...kept.damaged, ...fold.damaged].slice(0, DAMAGED_SHOWN) };
}

/** A table's state with its next lines applied (a step of the projection, and its result merged as the store writes it). */
export function applyLines(state: TableState, lines: readonly FoldLine[], decisions: readonly KeptDecision[] = []): TableState {
  const step = foldTableLines(state.checkpoint, lines, decisions);
  const races = new Map(state.races.map((race) => [race.raceId, race]));
  for (const race of step.fold.races) races.set(race.raceId, race);
  const seqs = new Set(state.exchanges.map((exchange) => exchange.seq));
  return {
    checkpoint: step.checkpoint,
    races: [...races.values()].sort((a, b) => a.firstSeq - b.firstSeq),
    exchanges: [...state.exchanges, ...step.fold.exchanges.filter((exchange) => !seqs.has(exchange.seq))].sort((a, b) => a.seq - b.seq),
    ...keptAfter(state, step.fold),
    reading: step.reading,
    openRace: step.fold.state.session.race?.id ?? null,
    history: [...state.history, ...step.fold.history],
  };
}

/** One record applied. */
export const applyLine = (state: TableState, line: FoldLine, decisions: readonly KeptDecision[] = []): TableState => applyLines(state, [line], decisions);

/** The state as JSON (the checkpoint and what the store's rows hold). */
export const serializeTable = (state: TableState): string => JSON.stringify(state);

/** A state serialized taken up again: throws when its checkpoint is not one this version reads. */
export function restoreTable(text: string): TableState {
  const state = JSON.parse(text) as TableState;
  const checkpoint = readTableCheckpoint(state.checkpoint);
  if (checkpoint === null) throw new Error('table projection: not a checkpoint of this version');
  return { ...state, checkpoint };
}

import type { HistoryEntry } from '../protocol/contract';
import { ChipExchanges } from './chipExchange';
import { ColorUpLog } from './colorUps';
import { ColourUpReading, isRaceClosedRecord, type ColourUpReadingState, type ColourUpReadingView, type KeptDecision } from './colourUpReading';
import { FloorDecisions } from './floorDecisions';
import type { JournalFollower } from './follower';
import type { RaceRecall } from './sessionState';
import { SessionProjection } from './sessionProjection';
import { foldLines, isStatusLine, problemOf, type FoldedExchange, type FoldedRace, type FoldLine, type FoldProblem, type FoldState, type TableFold } from './tableFold';

/**
 * One table's projection of its records, composed of the pure followers of replay/: the session
 * (SessionReplay: the races, the history), the colour-up log (ColorUpLog), the chips exchanged
 * outside a race (ChipExchanges), the floor's calls and decisions (FloorDecisions) and the
 * colour-up status reading (ColourUpReading). Two forms of it, the same followers in each:
 * - TableProjection (below): the station's, held whole in memory; its followers registry
 *   (station/service/followers.ts) holds its parts, fed every line on start and live, and its
 *   checkpoint keeps each part by its name (station/journal/checkpoint.ts);
 * - foldTableLines: the floor's, a step of a table's records at a time (floor/fold/store.ts), its
 *   checkpoint kept in floor_table_state.replay (TableCheckpoint) so a fold step reads only the
 *   records after it: the race fold (replay/tableFold.ts: SessionReplay, the races, the chips
 *   exchanged outside a race by a ChipExchanges of the batch) and the same ColourUpReading.
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

  constructor(recall: RaceRecall, options: { readonly decisions?: () => readonly KeptDecision[] } = {}) {
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

/** The checkpoint's shape version: a checkpoint of another is not read (the table is folded again from its first record). */
export const TABLE_CHECKPOINT_VERSION = 1;

/** Where a table's projection stands after its records through `seq`, as plain JSON. */
export interface TableCheckpoint {
  readonly version: typeof TABLE_CHECKPOINT_VERSION;
  /** The last seq folded (0: none). */
  readonly seq: number;
  /** The race fold's state (null: no line folded yet). */
  readonly fold: FoldState | null;
  /** The colour-up reading's state (null: no status record read yet). */
  readonly reading: ColourUpReadingState | null;
}

export const INITIAL_CHECKPOINT: TableCheckpoint = { version: TABLE_CHECKPOINT_VERSION, seq: 0, fold: null, reading: null };

/** A stored checkpoint read back: null when it is not one this version writes (the table is then folded again from its first record). */
export function readTableCheckpoint(value: unknown): TableCheckpoint | null {
  if (typeof value !== 'object' || value === null) return null;
  const kept = value as Partial<Record<keyof TableCheckpoint, unknown>>;
  if (kept.version !== TABLE_CHECKPOINT_VERSION || !Number.isSafeInteger(kept.seq) || (kept.seq as number) < 0) return null;
  if (kept.fold !== null && (typeof kept.fold !== 'object' || typeof (kept.fold as { session?: unknown }).session !== 'object')) return null;
  if (kept.reading !== null) {
    try {
      new ColourUpReading(kept.reading as ColourUpReadingState);
    } catch {
      return null;
    }
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

/** The status records of a batch the projection reads (the others, and those it passes over, it does not). */
const statusLines = (lines: readonly FoldLine[]): FoldLine[] => lines.filter((line) => isStatusLine(line) && problemOf(line) === null);

/** Whether a batch holds a station's record of a race closed on the floor: it needs the floor's decisions to be read (isFloorsDecision). */
export const needsDecisions = (lines: readonly FoldLine[]): boolean => statusLines(lines).some((line) => isRaceClosedRecord(line.record));

/**
 * The next lines of a table (in seq order, after `from.seq`) applied to its projection: the work
 * of these lines only. `decisions`: the floor's decisions on the table (when needsDecisions).
 */
export function foldTableLines(from: TableCheckpoint, lines: readonly FoldLine[], decisions: readonly KeptDecision[] = [], lastSeq = lines.at(-1)?.seq ?? from.seq): TableStep {
  const fold = foldLines(lines, lastSeq, from.fold);
  // The reading the station's TableProjection holds, taken up from the checkpoint and fed as it is fed.
  const reading = new ColourUpReading(from.reading ?? undefined, () => decisions);
  const status = statusLines(lines);
  for (const line of status) reading.add({ seq: line.seq, at: line.at as string, record: line.record });
  const open = fold.state.session.race;
  const openComplete = open !== null && fold.races.some((race) => race.raceId === open.id && race.status === 'waiting-to-confirm');
  return {
    fold,
    reading: reading.reading(openComplete),
    checkpoint: { version: TABLE_CHECKPOINT_VERSION, seq: lastSeq, fold: fold.state, reading: from.reading === null && status.length === 0 ? null : reading.snapshot() },
  };
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

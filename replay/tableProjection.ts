import type { HistoryEntry } from '../protocol/contract';
import { ColourUpReading, isRaceClosedRecord, type ColourUpReadingState, type ColourUpReadingView, type KeptDecision } from './colourUpReading';
import { foldLines, isStatusLine, problemOf, type FoldedExchange, type FoldedRace, type FoldLine, type FoldProblem, type FoldState, type TableFold } from './tableFold';

/**
 * One table's projection of its records: the race fold (replay/tableFold.ts: the console's
 * session replay, the races, the chips exchanged outside a race) and the colour-up status reading
 * (replay/colourUpReading.ts: the console's ColorUpLog, the calls and the decisions), composed.
 * The floor's fold instantiates it for each table (floor/fold/store.ts) and keeps its checkpoint
 * in floor_table_state.replay, so a fold step reads only the records after it; the station's
 * followers are the same pure followers (ColorUpLog, SessionReplay, ChipExchanges, FloorDecisions).
 * Pure: plain data in and out, no clock, no I/O; what it makes changes only by records applied.
 */

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
  const reading = new ColourUpReading(from.reading ?? undefined);
  const status = statusLines(lines);
  for (const line of status) reading.add({ seq: line.seq, at: line.at as string, record: line.record }, decisions);
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

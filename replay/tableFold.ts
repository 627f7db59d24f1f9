import type { ChipExchange, ChipExchangeResult } from '../engine/race/exchange';
import { addChips, raceChipSheet, raceSummary, type RaceChipSheet } from '../engine/race/summary';
import type { HistoryEntry, SeatCount } from '../protocol/contract';
import { CHIP_EXCHANGE_KIND } from './chipExchange';
import { STATUS_KINDS } from './colourUpReading';
import { summaryFiguresOf, type ActiveRace, type Session } from './session';

/**
 * What the floor's fold of a table's records makes (the fold itself, foldLines, is the table's
 * projection's: replay/tableProjection.ts): the races its lines started, confirmed and abandoned,
 * with the console's own code (the session's follower, the engine's summaries), so the floor says
 * of a race exactly what the station's console says of it; the chips exchanged outside a race;
 * the lines it could not take. Pure: lines in, races out.
 */

/**
 * `damaged`: ended by the station's replay as damaged, its confirmation never read (a line of it lost
 * at the station: HistoryEntry.damaged with `confirmed` false). Not confirmed: no value, no sheet, not counted.
 */
export type FoldedRaceStatus = 'racing' | 'waiting-to-confirm' | 'confirmed' | 'abandoned' | 'damaged';

/** One race as the floor keeps it (a row of floor_races). */
export interface FoldedRace {
  readonly raceId: string;
  readonly status: FoldedRaceStatus;
  /** The level after which the colour-up break it ran a race of falls (absent: a race of its own). */
  readonly level: number | null;
  readonly removed: number;
  readonly next: number;
  /** Chip value created (removed when negative): only a confirmed race has one. */
  readonly valueDelta: number | null;
  readonly winners: readonly number[];
  readonly startedAt: string;
  /** When it was confirmed or abandoned (null while open). */
  readonly endedAt: string | null;
  readonly corrections: number;
  readonly refusals: number;
  /** Chips of the removed denomination taken off the table: the seats' counts. */
  readonly collect: number;
  /** Chips of the next denomination brought to the table: the exchange's, the race's and the protected seats' (the most it may need while it is open, as far as it is known). */
  readonly bring: number;
  /**
   * What the table's screens hand out and take in for it (engine/race/summary.ts raceChipSheet): the
   * chip runner's sheet is made of these. Null while its result is not known, and for an abandoned race.
   */
  readonly sheet: RaceChipSheet | null;
  readonly firstSeq: number;
  readonly lastSeq: number;
  /**
   * A line of it lost at the station (HistoryEntry.damaged): `seq` the first one the replay could not
   * read (null: it could not tell), `confirmed` whether its confirmation was read (status
   * 'confirmed', marked) or not (status 'damaged'). Absent for a race whose lines were all read.
   */
  readonly damaged?: { readonly seq: number | null; readonly confirmed: boolean };
}

/**
 * A record the fold did not take, though its line passed the trigger (a station's own seal can
 * vouch for anything it says): kept beside the table and shown with it, in red.
 * - `number-out-of-range`: a number beyond any count, level or chip a table has (RECORD_NUMBER_MAX);
 * - `bad-time`: a time the floor cannot show (the trigger took it: `infinity`, year 10000);
 * - `fold-failed`: the fold of the table's records stopped on something unforeseen (`detail` says what).
 */
export type FoldProblemReason = 'number-out-of-range' | 'bad-time' | 'fold-failed';
export const FOLD_PROBLEM_REASONS: readonly FoldProblemReason[] = ['number-out-of-range', 'bad-time', 'fold-failed'];

export interface FoldProblem {
  readonly seq: number;
  readonly reason: FoldProblemReason;
  readonly detail?: string;
}

/**
 * The largest number the fold takes from a race's or a colour-up's record: far beyond any seat,
 * chip count, level or denomination, and small enough that no sum the floor keeps can overflow.
 */
export const RECORD_NUMBER_MAX = 2_147_483_647;

/** Whether any number in the record is beyond RECORD_NUMBER_MAX (or not finite); without recursion, however deep the record. */
function hasNumberOutOfRange(record: unknown): boolean {
  const pending: unknown[] = [record];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'number') {
      if (!Number.isFinite(value) || Math.abs(value) > RECORD_NUMBER_MAX) return true;
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) pending.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** The kinds the fold reads numbers from: the races', the colour-ups' and the chips exchanged outside a race (the clock's and the games' records change no race). */
const FOLDED_KINDS: ReadonlySet<string> = new Set(['race-start', 'race-event', 'refused', 'refused-again', 'race-confirm', 'race-abandon', 'break-marked', 'color-up-race', CHIP_EXCHANGE_KIND]);

/** A stored line as the fold reads it: `at` null when the floor cannot show its time; `record` null for a line kept only as evidence. */
export interface FoldLine {
  readonly seq: number;
  readonly at: string | null;
  readonly record: unknown;
}

/** Why the fold passes a line over, or null when it folds it. */
export function problemOf(line: FoldLine): FoldProblemReason | null {
  if (line.at === null) return 'bad-time';
  const kind = (line.record as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && FOLDED_KINDS.has(kind) && hasNumberOutOfRange(line.record) ? 'number-out-of-range' : null;
}

/**
 * What the fold of a table keeps to go on with its next records (with the colour-up reading's
 * state, floor_table_state.replay, as JSON): the table projection's parts (replay/tableProjection.ts
 * TableProjection) as their follower checkpoints keep them, without what only grows with the
 * evening (the floor writes it to its tables: the history, the games, the exchanges, the lines
 * passed over), and the floor's own: the open race's corrections and refusals as its records
 * count them (an abandoned race's, as the record slip counts them), the breaks an exchange's sheet
 * is read from.
 */
export interface FoldState {
  /** The session after the last line folded (its open race), without the history and the games. */
  readonly session: Session;
  /** The seq of the last line the session read (null: none): a line missing after it is a damaged one. */
  readonly lastSeq?: number | null;
  /** The colour-up log's and the floor's decisions' states (TableProjection's colorUps, floorDecisions; absent: none read yet). */
  readonly colorUps?: unknown;
  readonly floorDecisions?: unknown;
  readonly tally: { readonly raceId: string; readonly corrections: number; readonly refusals: number } | null;
  /** The break marked last (null: none, or unmarked) and the break of the last race started at one: the sheet's break when an exchange is recorded (sheetBreakOf). */
  readonly breakMarked?: number | null;
  readonly lastRaceLevel?: number | null;
}

/**
 * Chips a table exchanged outside a race (a `chip-exchange` record, replay/chipExchange.ts): the
 * exchange as the station recorded it, what it gives as exchangeAtEqualValue reads it (the station
 * stores none of it), and the break whose runner's sheet it is on (`afterLevel`).
 *
 * That break is the sheet the table showed when the exchange was recorded (sheetBreakOf then: the
 * break marked, else the last race's break), for a late-found exchange too, whatever break its race
 * ran at: the station hands the chips out when it records them, so the runner brings and collects
 * them on that round, and a round already ticked shows them as a difference (floor/runner.ts). The
 * chip audit (floor/summary.ts) lists a late-found exchange against its race (`raceId`, with the
 * race's break), as the rules record it ("Recorded against the race they belong to"); the two
 * differ only when a later break was marked before the chips were found.
 */
export interface FoldedExchange extends ChipExchange, ChipExchangeResult {
  readonly seq: number;
  readonly at: string;
  readonly afterLevel: number | null;
}

/** What an exchange hands out (`given` chips of `next`) and takes in (`count` chips of `removed`), as a race's sheet says it. */
export function exchangeSheet(exchange: Pick<FoldedExchange, 'removed' | 'count' | 'next' | 'given'>): RaceChipSheet {
  return { bring: addChips({ [String(exchange.next)]: exchange.given }), collect: addChips({ [String(exchange.removed)]: exchange.count }) };
}

export interface TableFold {
  /** The races these lines ended, and the one still open after them, in the order they started. */
  readonly races: readonly FoldedRace[];
  /** Where the next lines' fold goes on from. */
  readonly state: FoldState;
  /** The lines passed over, and why. */
  readonly problems: readonly FoldProblem[];
  /** The lines kept as evidence only (damaged at the station), by seq. */
  readonly damaged: readonly number[];
  /** The races these lines confirmed, as the console's history keeps them (the export's rows: tableHistory; the fold keeps none). */
  readonly history: readonly HistoryEntry[];
  /** The chips these lines exchanged outside a race, in seq order. */
  readonly exchanges: readonly FoldedExchange[];
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
export const countsChips = (counts: readonly SeatCount[]) => sum(counts.map((count) => count.chips));

type BringFigures = Parameters<typeof raceChipSheet>[0] & { readonly raceChips: number | null; readonly raceChipsRange: { readonly max: number } };

/**
 * The next-denomination chips a race needs: once complete, what its screens hand out (the sheet:
 * exchange, race and protected chips); while open, the exchange's, the most the race may hand out
 * and the seats protected before it (a seat protected after the race is known at its end only).
 */
function bringOf(summary: BringFigures, sheet: RaceChipSheet | null): number {
  if (sheet !== null) return sheet.bring[String(summary.next)] ?? 0;
  return sum(summary.exchange.map((seat) => seat.up)) + (summary.raceChips ?? summary.raceChipsRange.max) + summary.protected.length;
}

/** A race abandoned as the reducer abandons it (`open`: the race open then; `line`: its abandon), its corrections and refusals as the record slip counts them. */
export function abandonedRace(open: ActiveRace, line: FoldLine, counted: { readonly corrections: number; readonly refusals: number }): FoldedRace {
  return {
    raceId: open.id, status: 'abandoned', level: open.place.level ?? null, removed: open.state.setup.removed, next: open.state.setup.next,
    valueDelta: null, winners: [], startedAt: open.startedAt, endedAt: line.at as string, corrections: counted.corrections, refusals: counted.refusals, collect: 0, bring: 0, sheet: null,
    firstSeq: open.firstSeq, lastSeq: line.seq,
  };
}

/**
 * The races a step of the fold leaves: those it abandoned (`ended`, by id), those its lines
 * confirmed (the session's `history`: the step's own) and the race open after it (`session.race`),
 * in the order they started. `collect`: the chips of the removed denomination each race's start
 * counted, by id. `lastSeq`: the step's last seq (the open race's last line so far).
 */
export function foldedRaces(session: Session, abandoned: ReadonlyMap<string, FoldedRace>, collect: ReadonlyMap<string, number>, lastSeq: number): FoldedRace[] {
  const ended = new Map(abandoned);
  for (const entry of session.history) {
    // A race id given again (a journal begun afresh, a start cut short): the race that ended last
    // is the one kept, whether these lines are folded at once or in batches (the store keys by id).
    const before = ended.get(entry.id);
    if (before !== undefined && before.lastSeq > entry.seqs.last) continue;
    const summary = summaryFiguresOf(entry);
    const mark = entry.damaged === undefined ? {} : { damaged: { seq: entry.damaged.seq, confirmed: entry.damaged.confirmed } };
    if (entry.damaged?.confirmed === false) {
      // Its end was lost: never confirmed, so nothing of it is counted (no value, not on the runner's sheet).
      ended.set(entry.id, {
        raceId: entry.id, status: 'damaged', level: entry.level ?? null, removed: summary.removed, next: summary.next,
        valueDelta: null, winners: [], startedAt: entry.startedAt, endedAt: entry.confirmedAt,
        corrections: entry.corrections, refusals: entry.refusals, collect: 0, bring: 0, sheet: null,
        firstSeq: entry.seqs.first, lastSeq: entry.seqs.last, ...mark,
      });
      continue;
    }
    const sheet = raceChipSheet(summary);
    ended.set(entry.id, {
      raceId: entry.id, status: 'confirmed', level: entry.level ?? null, removed: summary.removed, next: summary.next,
      valueDelta: summary.valueDelta, winners: summary.awards, startedAt: entry.startedAt, endedAt: entry.confirmedAt,
      corrections: entry.corrections, refusals: entry.refusals, collect: collect.get(entry.id) ?? 0, bring: bringOf(summary, sheet), sheet,
      firstSeq: entry.seqs.first, lastSeq: entry.seqs.last, ...mark,
    });
  }
  const open = session.race;
  // The race open now started after any of its id that ended: it is the one kept.
  if (open !== null) ended.delete(open.id);
  const races = [...ended.values()];
  if (open !== null) {
    const summary = raceSummary(open.state, { explain: false });
    const sheet = raceChipSheet(summary);
    races.push({
      raceId: open.id, status: summary.status === 'complete' ? 'waiting-to-confirm' : 'racing', level: open.place.level ?? null, removed: summary.removed, next: summary.next,
      valueDelta: null, winners: summary.awards, startedAt: open.startedAt, endedAt: null, corrections: open.state.corrections.length, refusals: open.refusals,
      collect: countsChips(open.counts), bring: bringOf(summary, sheet), sheet, firstSeq: open.firstSeq, lastSeq,
    });
  }
  return races.sort((a, b) => a.firstSeq - b.firstSeq);
}

const STATUS_KIND_SET: ReadonlySet<string> = new Set(STATUS_KINDS);

/** Whether a line read is a status record (STATUS_KINDS) as the stored `kind` says it (the trigger's `record->>'kind'`: an object's string kind). */
export function isStatusLine(line: FoldLine): boolean {
  const record = line.record;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
  const kind = (record as { kind?: unknown }).kind;
  return typeof kind === 'string' && STATUS_KIND_SET.has(kind);
}

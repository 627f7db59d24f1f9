import type { ClientBase, QueryResult } from 'pg';
import { exchangeAtEqualValue, type ChipExchange, type ChipExchangeResult } from '../engine/race/exchange';
import { addChips, raceChipSheet, raceSummary, type ChipsByDenomination, type RaceChipSheet } from '../engine/race/summary';
import type { HistoryEntry, RaceRecord, SeatCount } from '../protocol/contract';
import { READER_HEALTH_SUMMARY, type ReaderHealthSummary } from '../protocol/readerHealth';
import { parse } from '../protocol/schema';
import type { ChainReport, ChainStatus, JournalFinding } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import { COLOR_UP_LOG_KINDS, ColorUpLog } from '../replay/colorUps';
import { CHIP_EXCHANGE_KIND, isChipExchangeRecord } from '../replay/chipExchange';
import { buildRecord } from '../replay/raceRecord';
import { allDecisions, settlingDecision, tableDecisions, type FloorDecision } from './decisions';
import { EMPTY_SESSION, isSessionRecord, SessionReplay, summaryFiguresOf, type Session, type SessionRecord } from '../replay/session';

/**
 * The floor's view of each table, folded from the records its station sent, with the console's own
 * code (SessionReplay, ColorUpLog, the engine's summaries): the floor says of a race exactly what
 * the station's console says of it. The fold is kept in summary tables (migration 2:
 * floor_races, floor_table_state) so the status is one or two small queries however long the
 * tournament; a table is folded again only when records arrived for it (or a chain failure was
 * found), and then only from the start of the race that was still open when it was last folded.
 */

/**
 * The colour-up a table is on, as the floor sees it:
 * - `not-started`: no break marked, or the break marked last has no race of its colour-up started;
 * - `racing`: a race of the marked break's colour-up is open and still taking cards;
 * - `waiting-to-confirm`: that race is complete and waits for the dealer to confirm it;
 * - `done`: races of it were confirmed and none is open (the floor does not hold the station's
 *   structure, so it cannot tell a colour-up's last race from the one before a next: the
 *   director sees the chips per denomination beside it);
 * - `disputed`: the table's chain failed verification on the floor (any chain_failures row), or a
 *   race of the marked break's colour-up was abandoned. Either is for the director to settle
 *   before the clock goes on, so it wins over the others;
 * - `floor-called`: the table's dealer called the floor from the station (a `floor-called` record);
 * - `closed`: the director closed the table's race of the colour-up on the floor (a `race-closed`
 *   decision naming its open race: a table broken mid-colour-up), and none is open. Before its
 *   station has abandoned the race, the floor's decision says so (settledStatus); after, the
 *   station's own records do (its `floor-decision` record, then its `race-abandon` of that race),
 *   its copy of the decision counting only when it is one of the floor's own (floor_decisions: the
 *   same id, race, note and who: issue 44, a station cannot write the director's decision itself).
 *   Finished with the break as `done` is (isFinished), with no race of it confirmed.
 * An abandoned race or a call is settled by the director's decision recorded after it on the floor
 * page (floor_decisions, migration 10: settledStatus); a chain failure is not.
 */
export const COLOUR_UP_STATUSES = ['not-started', 'racing', 'waiting-to-confirm', 'done', 'closed', 'disputed', 'floor-called'] as const;
/** The one list's statuses (the page's words, `floor status`'s JSON and the fold's column all say these). */
export type ColourUpStatus = (typeof COLOUR_UP_STATUSES)[number];

/** Whether a table has nothing left to do at the break: its races confirmed, or its race closed by the floor (the progress board's `left`, the held break). */
export const isFinished = (status: ColourUpStatus): boolean => status === 'done' || status === 'closed';

/**
 * Whether the break waits for a table (the progress board's `left`, the held break): one not
 * finished, its station heard from (issue 44: a table no station ever sent a record for, connected
 * or had a line refused, such as one a typo made, holds no break).
 */
export const isWaitedFor = (table: { readonly colourUp: ColourUpStatus; readonly heardFrom?: boolean }): boolean => !isFinished(table.colourUp) && table.heardFrom !== false;

/** What flags a table for the director: its last abandoned race of the marked break's colour-up, or its last call of the floor, whichever came later (`seq`: its record's). */
export interface TableFlag {
  readonly kind: 'disputed' | 'floor-called';
  readonly seq: number;
  /** The race it is about (the abandoned race; the race the call named); null: none named. A decision naming another race does not settle it (issue 43). */
  readonly raceId: string | null;
}

/**
 * A table's status with the director's decisions: a chain failure is disputed whatever was decided;
 * a flag stands until a decision settles it (floor/decisions.ts settlingDecision: one recorded when
 * the table's last record was the flag's or later, about its race or naming none); a race still
 * open that the director closed on the floor (`openRaceClosed`: a `race-closed` decision naming
 * it) is `closed`, whether or not its station has abandoned it yet; otherwise the colour-up's own
 * status.
 */
export function settledStatus(base: ColourUpStatus, flag: TableFlag | null, decisions: readonly Pick<FloorDecision, 'settlesSeq' | 'raceId'>[], chainFailed: boolean, openRaceClosed = false): ColourUpStatus {
  if (chainFailed) return 'disputed';
  if (flag !== null && settlingDecision({ seq: flag.seq, race: flag.raceId }, decisions) === null) return flag.kind;
  if (openRaceClosed && (base === 'racing' || base === 'waiting-to-confirm')) return 'closed';
  return base;
}

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
function problemOf(line: FoldLine): FoldProblemReason | null {
  if (line.at === null) return 'bad-time';
  const kind = (line.record as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && FOLDED_KINDS.has(kind) && hasNumberOutOfRange(line.record) ? 'number-out-of-range' : null;
}

/**
 * What the fold of a table keeps to go on with its next records (floor_table_state.replay, as
 * JSON): the console's session after the last line folded (its open race, without the history),
 * and the open race's corrections and refusals as its records count them (an abandoned race's,
 * as the record slip counts them).
 */
export interface FoldState {
  readonly session: Session;
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
const countsChips = (counts: readonly SeatCount[]) => sum(counts.map((count) => count.chips));

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

/**
 * Folds a table's lines, from the journal's start or from where an earlier fold stopped (`from`):
 * the races they confirmed as the console's history has them, the ones they abandoned, and the
 * race still open. Lines that do not fit are passed over as the console's replay passes them
 * over; lines the floor cannot fold safely (problemOf) are passed over and reported. The work is
 * that of these lines only, whatever came before them.
 */
export function foldLines(lines: readonly FoldLine[], lastSeq: number, from: FoldState | null = null): TableFold {
  const replay = new SessionReplay(from?.session ?? EMPTY_SESSION);
  let tally = from?.tally ?? null;
  const collect = new Map<string, number>();
  const resumed = from?.session.race ?? null;
  if (resumed !== null) collect.set(resumed.id, countsChips(resumed.counts));
  const ended = new Map<string, FoldedRace>();
  const problems: FoldProblem[] = [];
  const damaged: number[] = [];
  const exchanges: FoldedExchange[] = [];
  let breakMarked = from?.breakMarked ?? null;
  let lastRaceLevel = from?.lastRaceLevel ?? null;
  /** Whether the fold cannot take the line safely (problemOf): reported, and passed over. */
  const passedOver = (line: FoldLine): boolean => {
    const problem = problemOf(line);
    if (problem !== null) problems.push({ seq: line.seq, reason: problem });
    return problem !== null;
  };
  for (const line of lines) {
    const record = line.record;
    // A line kept as evidence only (damaged at the station): nothing to fold, but the table says so.
    if (record === null || record === undefined) {
      damaged.push(line.seq);
      // The race open then carries it (the fold passes lines over itself, so the replay cannot see the gap).
      replay.damagedLine(line.seq);
      continue;
    }
    // An exchange the station's reader refuses is passed over as a race's record of another shape is
    // (the station's screens list only what isChipExchangeRecord reads); one it reads, checked as the races' records are.
    if (isChipExchangeRecord(record)) {
      if (!passedOver(line)) {
        const { kind: _kind, ...recorded } = record;
        exchanges.push({ ...recorded, ...exchangeAtEqualValue(recorded), seq: line.seq, at: line.at as string, afterLevel: breakMarked ?? lastRaceLevel });
      }
      continue;
    }
    if (!isSessionRecord(record) || passedOver(line)) continue;
    if (record.kind === 'break-marked') breakMarked = record.afterLevel;
    const typed = line as JournalLine<SessionRecord>;
    const open = replay.openRace;
    if (tally !== null && 'raceId' in record && record.raceId === tally.raceId) {
      // As the record slip counts them: for an abandoned race (a confirmed one's come from its state).
      if (record.kind === 'race-event' && record.event.type === 'void') tally = { ...tally, corrections: tally.corrections + (record.event.count ?? 1) };
      if (record.kind === 'refused') tally = { ...tally, refusals: tally.refusals + 1 };
      if (record.kind === 'refused-again') tally = { ...tally, refusals: tally.refusals + record.count };
    }
    if (record.kind === 'race-start') collect.set(record.raceId, countsChips(record.counts));
    replay.add(typed);
    const now = replay.openRace;
    if (record.kind === 'race-start' && now !== null && now.firstSeq === line.seq) {
      tally = { raceId: now.id, corrections: 0, refusals: 0 };
      lastRaceLevel = now.place.level ?? lastRaceLevel;
    }
    // Abandoned as the reducer abandons it: the race open then.
    if (record.kind === 'race-abandon' && open !== null && open.id === record.raceId && now === null) {
      const counted = tally !== null && tally.raceId === open.id ? tally : { corrections: 0, refusals: 0 };
      ended.set(open.id, {
        raceId: open.id, status: 'abandoned', level: open.place.level ?? null, removed: open.state.setup.removed, next: open.state.setup.next,
        valueDelta: null, winners: [], startedAt: open.startedAt, endedAt: line.at as string, corrections: counted.corrections, refusals: counted.refusals, collect: 0, bring: 0, sheet: null,
        firstSeq: open.firstSeq, lastSeq: line.seq,
      });
      tally = null;
    }
    if (record.kind === 'race-confirm' && open !== null && now === null) tally = null;
  }
  const { session } = replay.finish();
  for (const entry of session.history) {
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
  const races = [...ended.values()];
  const open = session.race;
  if (open !== null) {
    const summary = raceSummary(open.state, { explain: false });
    const sheet = raceChipSheet(summary);
    races.push({
      raceId: open.id, status: summary.status === 'complete' ? 'waiting-to-confirm' : 'racing', level: open.place.level ?? null, removed: summary.removed, next: summary.next,
      valueDelta: null, winners: summary.awards, startedAt: open.startedAt, endedAt: null, corrections: open.state.corrections.length, refusals: open.refusals,
      collect: countsChips(open.counts), bring: bringOf(summary, sheet), sheet, firstSeq: open.firstSeq, lastSeq,
    });
  }
  races.sort((a, b) => a.firstSeq - b.firstSeq);
  return { races, state: { session: { ...session, history: [], games: [] }, tally, breakMarked, lastRaceLevel }, problems, damaged, history: session.history, exchanges };
}

/** The records a table's status reads: the colour-up's (ColorUpLog), the dealer's calls of the floor and the director's decisions the station kept. */
export const STATUS_KINDS: readonly string[] = [...COLOR_UP_LOG_KINDS, 'floor-called', 'floor-decision'];

/** What of the director's decision (floor_decisions) a station's `floor-decision` record must say to stand for it. */
export type KeptDecision = Pick<FloorDecision, 'id' | 'decision' | 'raceId' | 'note' | 'by'>;

/**
 * Whether a station's `floor-decision` record is its copy of one of the floor's decisions: the
 * same id, and the same decision, race, note and who (issue 44). A station writes its own journal:
 * a record it made up, or one the floor never decided, counts for nothing on the floor.
 */
export function isFloorsDecision(record: unknown, decisions: readonly KeptDecision[]): boolean {
  const kept = record as { kind?: unknown; id?: unknown; decision?: unknown; raceId?: unknown; note?: unknown; by?: unknown } | null;
  if (kept === null || typeof kept !== 'object' || kept.kind !== 'floor-decision') return false;
  return decisions.some((decision) => decision.id === kept.id && decision.decision === kept.decision && decision.raceId === (kept.raceId ?? null) && decision.note === kept.note && decision.by === kept.by);
}

/** Whether a status line is a station's record of a decision closing a race (those the fold matches against floor_decisions). */
const isRaceClosedRecord = (record: unknown): boolean => (record as { kind?: unknown; decision?: unknown } | null)?.kind === 'floor-decision' && (record as { decision?: unknown }).decision === 'race-closed';

/**
 * A break the table's station left (marked play, or another break) with its colour-up finished
 * (`base` then: isFinished), and what flagged the table then: finished with it unless that flag
 * stands, as the director's decisions settle it (settledStatus, finishedBreaksOf). The held break
 * counts the table done with it so (floor/hold.ts tablesLeftAt), after its station has left it.
 */
export interface LeftFinished {
  readonly afterLevel: number;
  readonly base: ColourUpStatus;
  readonly flag: TableFlag | null;
}

/**
 * A table's colour-up status from its status records (STATUS_KINDS, in seq order, the whole
 * journal), whether the open race is complete, and the director's decisions on it as the floor
 * keeps them (floor_decisions: a station's `floor-decision` record closes its race only when it is
 * one of these, isFloorsDecision): `base`, the colour-up's own, and `flag`, what flags
 * it for the director (settledStatus puts them together with the decisions); and `leftFinished`,
 * each break its station left with the colour-up finished (the last time it left it), by level.
 */
export function colourUpReadingOf(lines: readonly JournalLine<unknown>[], openComplete: boolean, floorDecisions: readonly KeptDecision[] = []): { readonly base: ColourUpStatus; readonly flag: TableFlag | null; readonly leftFinished: readonly LeftFinished[] } {
  const log = new ColorUpLog();
  let mark: number | null = null;
  let open: string | null = null;
  let abandonedAt: { seq: number; raceId: string } | null = null;
  let calledAt: { seq: number; raceId: string | null } | null = null;
  // The races the director closed on the floor, as the station kept the decisions (before it abandoned them): only the floor's own.
  const closedOnFloor = new Set<string>();
  // The marked break's last race ended was one the floor closed (and none started since).
  let closedByFloor = false;
  const leftFinished = new Map<number, LeftFinished>();
  const flagNow = (): TableFlag | null => {
    const abandoned: TableFlag | null = mark !== null && abandonedAt !== null ? { kind: 'disputed', seq: abandonedAt.seq, raceId: abandonedAt.raceId } : null;
    const called: TableFlag | null = calledAt !== null ? { kind: 'floor-called', seq: calledAt.seq, raceId: calledAt.raceId } : null;
    return abandoned !== null && (called === null || abandoned.seq > called.seq) ? abandoned : called;
  };
  const baseNow = (complete: boolean): ColourUpStatus => {
    if (mark === null) return 'not-started';
    const progress = log.progress(mark, open);
    if (progress === null) return 'not-started';
    if (progress.running !== null) return complete ? 'waiting-to-confirm' : 'racing';
    if (closedByFloor) return 'closed';
    return progress.done.length > 0 ? 'done' : 'not-started';
  };
  for (const line of lines) {
    const record = line.record as { kind?: unknown; raceId?: unknown; afterLevel?: unknown; decision?: unknown };
    if (record.kind === 'floor-called') {
      calledAt = { seq: line.seq, raceId: typeof record.raceId === 'string' ? record.raceId : null };
      continue;
    }
    if (record.kind === 'floor-decision') {
      if (record.decision === 'race-closed' && typeof record.raceId === 'string' && isFloorsDecision(record, floorDecisions)) closedOnFloor.add(record.raceId);
      continue;
    }
    if (record.kind === 'break-marked') {
      const next = typeof record.afterLevel === 'number' ? record.afterLevel : null;
      if (mark !== null && next !== mark) {
        // Left: how it stood then is how the floor remembers it (a race still open then is not finished, complete or not).
        const base = baseNow(false);
        if (isFinished(base)) leftFinished.set(mark, { afterLevel: mark, base, flag: flagNow() });
        else leftFinished.delete(mark);
      }
      mark = next;
      abandonedAt = null;
      closedByFloor = false;
    }
    if (record.kind === 'race-abandon' && mark !== null && typeof record.raceId === 'string' && log.progress(mark, record.raceId)?.running?.raceId === record.raceId) {
      // Abandoned as the director decided: nothing more for the director to settle.
      if (closedOnFloor.has(record.raceId)) closedByFloor = true;
      else abandonedAt = { seq: line.seq, raceId: record.raceId };
    }
    log.add(line);
    if (record.kind === 'race-start' && typeof record.raceId === 'string') {
      open = record.raceId;
      closedByFloor = false;
    }
    if ((record.kind === 'race-confirm' || record.kind === 'race-abandon') && record.raceId === open) open = null;
  }
  return { base: baseNow(openComplete), flag: flagNow(), leftFinished: [...leftFinished.values()].sort((a, b) => a.afterLevel - b.afterLevel) };
}

/**
 * The breaks (by the level they follow) a table finished before its station left them: each
 * LeftFinished whose flag the director's decisions settled; none while its chain failed or the
 * fold could not take a record of it (the table is disputed, as its status is).
 */
export function finishedBreaksOf(leftFinished: readonly LeftFinished[], decisions: readonly Pick<FloorDecision, 'settlesSeq' | 'raceId'>[], disputed: boolean): number[] {
  return leftFinished.filter((left) => isFinished(settledStatus(left.base, left.flag, decisions, disputed))).map((left) => left.afterLevel);
}

/**
 * The colour-up status of a table from its status records (STATUS_KINDS, in seq order, the whole
 * journal), whether the open race is complete, whether its chain failed on the floor, and how far
 * the director's decisions settled it and whether they closed its open race (settledStatus).
 */
export function colourUpStatusOf(lines: readonly JournalLine<unknown>[], openComplete: boolean, chainFailed: boolean, decisions: readonly (Pick<FloorDecision, 'settlesSeq' | 'raceId'> & Partial<KeptDecision>)[] = [], openRaceClosed = false): ColourUpStatus {
  const { base, flag } = colourUpReadingOf(lines, openComplete, decisions.filter((decision): decision is KeptDecision & Pick<FloorDecision, 'settlesSeq'> => decision.id !== undefined));
  return settledStatus(base, flag, decisions, chainFailed, openRaceClosed);
}

/** The break the table's station marked last (its `break-marked` records, in seq order): null when none, or when it was unmarked. */
export function markedBreakOf(lines: readonly JournalLine<unknown>[]): number | null {
  let mark: number | null = null;
  for (const line of lines) {
    const record = line.record as { kind?: unknown; afterLevel?: unknown };
    if (record.kind === 'break-marked') mark = typeof record.afterLevel === 'number' ? record.afterLevel : null;
  }
  return mark;
}

/**
 * The chip runner's sheet of a table: what its screens hand out (`bring`) and take in (`collect`)
 * for the races of its break, as the status and the floor page say it. The break (`afterLevel`) is
 * the one its station marked last (the break in progress, or the last one when the clock went on);
 * when none is marked (never, or unmarked), the break of its last race run at a break. The races
 * counted are those of that break whose result its result screen shows: confirmed, or complete and
 * waiting to be confirmed. A race still taking cards is not on it yet (nothing is handed out before
 * its result), nor an abandoned one. The chips exchanged outside a race while that break's sheet
 * was the table's are on it too (FoldedExchange). readFloorStatus makes the same selection in SQL.
 */
export interface TableSheet {
  readonly afterLevel: number | null;
  readonly bring: ChipsByDenomination;
  readonly collect: ChipsByDenomination;
}

/** The break the sheet is for: the break marked last, else the last race's break (races in the order they started). */
export function sheetBreakOf(races: readonly Pick<FoldedRace, 'level' | 'firstSeq'>[], breakMarked: number | null): number | null {
  if (breakMarked !== null) return breakMarked;
  let last: Pick<FoldedRace, 'level' | 'firstSeq'> | null = null;
  for (const race of races) if (race.level !== null && (last === null || race.firstSeq > last.firstSeq)) last = race;
  return last?.level ?? null;
}

/** A table's sheet from its races and exchanges (the fold's) and the break its station marked last: the break's races and the exchanges recorded at it. */
export function tableSheet(races: readonly Pick<FoldedRace, 'level' | 'firstSeq' | 'status' | 'sheet'>[], breakMarked: number | null, exchanges: readonly Pick<FoldedExchange, 'afterLevel' | 'removed' | 'count' | 'next' | 'given'>[] = []): TableSheet {
  const afterLevel = sheetBreakOf(races, breakMarked);
  const sheets = [
    ...races.filter((race) => afterLevel !== null && race.level === afterLevel && race.status !== 'abandoned' && race.sheet !== null).map((race) => race.sheet as RaceChipSheet),
    ...exchanges.filter((exchange) => afterLevel !== null && exchange.afterLevel === afterLevel).map(exchangeSheet),
  ];
  return { afterLevel, bring: addChips(...sheets.map((sheet) => sheet.bring)), collect: addChips(...sheets.map((sheet) => sheet.collect)) };
}

/** A chain failure the floor's trigger recorded (floor/db/migrations/03-definer-safety.ts and later, verify_station_record). */
export interface ChainFailure {
  readonly seq: number;
  readonly reason: string;
}

/**
 * The floor's chain failures as the console's own findings, so a race's verdict is the console's
 * (journal/findings.ts chainOf): every failure is tampering, or damage in the sealed part.
 */
export function findingOfFailure(failure: ChainFailure): JournalFinding {
  const { seq } = failure;
  switch (failure.reason) {
    case 'bad-seal':
    case 'changed-after-arrival':
      return { code: 'altered', seq, skipped: true };
    case 'broken-link':
      return { code: 'rewritten', seq };
    case 'gap':
      return { code: 'missing', seq: Math.max(1, seq - 1), last: Math.max(1, seq - 1) };
    case 'no-seal':
      return { code: 'unsealed', seq };
    case 'no-header':
    case 'header-unknown':
    case 'header-not-json':
      return { code: 'no-header', seq };
    default:
      return { code: 'unreadable', line: seq, seq, sealed: true };
  }
}

/** A table's chain as the floor checked it on arrival, in the shape the console's verdicts read. */
export function floorChainReport(failures: readonly ChainFailure[], allSealsChecked: boolean, records: number): ChainReport {
  const chain: ChainStatus = failures.length > 0 ? 'broken' : records === 0 ? 'empty' : allSealsChecked ? 'intact' : 'unchecked';
  return { chain, findings: failures.map(findingOfFailure), unchainedThrough: 0 };
}

// ---------------------------------------------------------------------------------------------
// The fold kept in the database.

/**
 * The fold's version. A floor whose fold changed (what it takes from a record, what it keeps) says
 * so here: every table folded by another version is folded again from its first record. 7: the
 * breaks left with the colour-up finished (`left_finished`, migration 17). 8: a station's
 * `floor-decision` record closes its race only when it is one of floor_decisions (issue 44): a
 * table folded by 7 with a decision of its own making is folded again, and flagged. 9: a line
 * damaged at the station marks the race open then, and a race whose end was lost is 'damaged', not
 * confirmed (its `damaged` column, migration 21).
 */
export const FOLD_VERSION = 9;

/** Names the per-table lock folds take: two floors folding one database fold each table once. */
const FOLD_LOCK = 0x666f6c64;
/** The most lines one transaction folds: a first fold of a long table commits as it goes. */
export const FOLD_BATCH = 20_000;
/** How many of a table's damaged records the fold keeps (folded into floor_table_state, so the status reads them with the table): the first few say where to look in the station's journal. */
const DAMAGED_SHOWN = 20;

/** The problems kept per table (then only counted): a station sealing a million bad lines keeps twenty. */
const PROBLEMS_KEPT = 20;
/** The longest reason kept for an unforeseen fold failure. */
const DETAIL_MAX = 200;

/**
 * A line's time as the trigger verified it (the stored timestamptz, written back as the console
 * writes it): never the line's text read again, which may say `"at"` twice. Null when the floor
 * cannot show it (infinity, beyond year 9999).
 */
export const AT_VERIFIED = `CASE WHEN at >= '0001-01-01Z' AND at < '10000-01-01Z' THEN to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END`;

interface StoredLine {
  seq: string;
  at: string | null;
  record: unknown;
}

const foldLine = (row: StoredLine): FoldLine => ({ seq: Number(row.seq), at: row.at, record: row.record });

const COLOUR_UP_KIND_SET: ReadonlySet<string> = new Set(STATUS_KINDS);

/** Whether a line read is a status record (STATUS_KINDS) as the stored `kind` says it (the trigger's `record->>'kind'`: an object's string kind). */
function isColourUpLine(line: FoldLine): boolean {
  const record = line.record;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
  const kind = (record as { kind?: unknown }).kind;
  return typeof kind === 'string' && COLOUR_UP_KIND_SET.has(kind);
}

/** The whole number nearest to `value` that a bigint column and a JavaScript number both hold. */
const bounded = (value: number | null): number | null => (value === null ? null : Number.isFinite(value) ? Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Math.round(value))) : 0);

/** The races' numbers as one small JSON set, read by the state write's json_to_recordset. */
const racesJson = (races: readonly FoldedRace[]): string =>
  JSON.stringify(races.map((race) => ({
    race_id: race.raceId, status: race.status, level: race.level, removed: bounded(race.removed), next: bounded(race.next), value_delta: bounded(race.valueDelta), winners: race.winners, started_at: race.startedAt, ended_at: race.endedAt,
    corrections: bounded(race.corrections), refusals: bounded(race.refusals), collect: bounded(race.collect), bring: bounded(race.bring), sheet: race.sheet, first_seq: race.firstSeq, last_seq: race.lastSeq,
    damaged: race.damaged ?? null,
  })));

/** A floor_exchanges row (`e`) as the JSON of a FoldedExchange, for the status and the summary to read. */
export const EXCHANGE_JSON = `jsonb_build_object('seq', e.seq, 'at', to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'reason', e.reason, 'raceId', e.race_id, 'seat', e.seat, 'removed', e.removed, 'count', e.count, 'next', e.next, 'note', e.note, 'given', e.given, 'lost', e.lost, 'valueDelta', e.value_delta, 'afterLevel', e.after_level)`;

/** The exchanges' numbers as one small JSON set, read as the races' are. */
const exchangesJson = (exchanges: readonly FoldedExchange[]): string =>
  JSON.stringify(exchanges.map((exchange) => ({
    seq: exchange.seq, at: exchange.at, reason: exchange.reason, race_id: exchange.raceId, seat: exchange.seat, removed: exchange.removed, count: exchange.count, next: exchange.next, note: exchange.note,
    given: bounded(exchange.given), lost: bounded(exchange.lost), value_delta: bounded(exchange.valueDelta), after_level: exchange.afterLevel,
  })));

/** A table's stored lines after seq `after` (through `through`, when given), at most FOLD_BATCH, as the fold reads them. */
async function storedLines(client: ClientBase, table: string, after: number, through = Number.MAX_SAFE_INTEGER, limit = FOLD_BATCH): Promise<FoldLine[]> {
  const rows = await client.query<StoredLine>(`SELECT seq, ${AT_VERIFIED} AS at, record FROM station_records WHERE table_name = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT ${Math.max(1, Math.floor(limit))}`, [table, after, through]);
  return rows.rows.map(foldLine);
}

interface KeptState {
  folded_seq: string;
  fold_version: number;
  replay: FoldState | null;
  problems: FoldProblem[];
  problem_count: number;
  damaged: number[];
}

/**
 * Folds the next lines of one table (at most FOLD_BATCH), in a transaction of its own, from the
 * replay state its last fold kept: the work of the new lines only. A table another floor is
 * folding just now is passed by. Returns whether there is more to fold.
 */
async function foldTableStep(client: ClientBase, table: string): Promise<'folded' | 'more' | 'busy'> {
  try {
    // The transaction begun and the table's lock tried in one round trip (a first fold of a floor
    // makes a few of them per table, hundreds of tables over).
    const begun = (await client.query(`BEGIN; SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}, hashtext(${client.escapeLiteral(table)})) AS locked`)) as unknown as QueryResult<{ locked: boolean }>[];
    if (begun[1]?.rows[0]?.locked !== true) {
      await client.query('COMMIT');
      return 'busy';
    }
    const kept = (await client.query<KeptState>('SELECT folded_seq, fold_version, replay, problems, problem_count, damaged FROM floor_table_state WHERE table_name = $1', [table])).rows[0];
    const current = kept !== undefined && kept.fold_version === FOLD_VERSION ? kept : null;
    // Another version's fold: the table is folded again from its first record. (A table never
    // folded has no races: they are written with its state, in one statement.)
    if (kept !== undefined && current === null) await client.query('WITH exchanges AS (DELETE FROM floor_exchanges WHERE table_name = $1) DELETE FROM floor_races WHERE table_name = $1', [table]);
    const foldedSeq = current === null ? 0 : Number(current.folded_seq);
    const lines = await storedLines(client, table, foldedSeq);
    const lastSeq = lines.at(-1)?.seq ?? foldedSeq;
    const fold = foldLines(lines, lastSeq, current?.replay ?? null);
    const openRace = fold.state.session.race;
    const openStatus = fold.races.find((race) => race.raceId === openRace?.id)?.status;
    // The colour-up records: those of the lines folded before read again (none on a first fold), this batch's taken from the lines read above.
    const earlier = foldedSeq === 0 ? [] : (await client.query<StoredLine>(`SELECT seq, ${AT_VERIFIED} AS at, record FROM station_records WHERE table_name = $1 AND kind = ANY($2::text[]) AND seq <= $3 ORDER BY seq`, [table, STATUS_KINDS, foldedSeq])).rows.map(foldLine);
    const colourUpLines = [...earlier, ...lines.filter(isColourUpLine)];
    const colourUpRecords = colourUpLines.filter((line): line is JournalLine<unknown> => problemOf(line) === null);
    // A station's record of a race closed on the floor stands only as the floor's own decision
    // (floor_decisions, read only when there is such a record: most folds have none).
    const floorDecisions = colourUpRecords.some((line) => isRaceClosedRecord(line.record)) ? await tableDecisions(client, table) : [];
    // Kept without the flags' decisions (they are the floor's, not the station's records): readFloorStatus settles the flag with them.
    const reading = colourUpReadingOf(colourUpRecords, openStatus === 'waiting-to-confirm', floorDecisions);
    const colourUp = settledStatus(reading.base, reading.flag, [], false);
    const problems = [...(current?.problems ?? []), ...fold.problems].slice(0, PROBLEMS_KEPT);
    const damaged = [...(current?.damaged ?? []), ...fold.damaged].slice(0, DAMAGED_SHOWN);
    // The races and the state they leave the table in, in one statement.
    await client.query(
      `WITH races AS (
         INSERT INTO floor_races (table_name, race_id, status, level, removed, next, value_delta, winners, started_at, ended_at, corrections, refusals, collect, bring, sheet, first_seq, last_seq, damaged)
         SELECT $1, r.race_id, r.status, r.level, r.removed, r.next, r.value_delta, r.winners, r.started_at, r.ended_at, r.corrections, r.refusals, r.collect, r.bring, r.sheet, r.first_seq, r.last_seq, r.damaged
         FROM json_to_recordset($11::json) AS r(race_id text, status text, level integer, removed bigint, next bigint, value_delta bigint, winners jsonb, started_at timestamptz, ended_at timestamptz, corrections bigint, refusals bigint, collect bigint, bring bigint, sheet jsonb, first_seq bigint, last_seq bigint, damaged jsonb)
         ON CONFLICT (table_name, race_id) DO UPDATE SET status = excluded.status, level = excluded.level, removed = excluded.removed, next = excluded.next, value_delta = excluded.value_delta, winners = excluded.winners,
           started_at = excluded.started_at, ended_at = excluded.ended_at, corrections = excluded.corrections, refusals = excluded.refusals, collect = excluded.collect, bring = excluded.bring, sheet = excluded.sheet, first_seq = excluded.first_seq, last_seq = excluded.last_seq, damaged = excluded.damaged),
       exchanges AS (
         INSERT INTO floor_exchanges (table_name, seq, at, reason, race_id, seat, removed, count, next, note, given, lost, value_delta, after_level)
         SELECT $1, e.seq, e.at, e.reason, e.race_id, e.seat, e.removed, e.count, e.next, e.note, e.given, e.lost, e.value_delta, e.after_level
         FROM json_to_recordset($16::json) AS e(seq bigint, at timestamptz, reason text, race_id text, seat integer, removed bigint, count bigint, next bigint, note text, given bigint, lost bigint, value_delta bigint, after_level integer)
         ON CONFLICT (table_name, seq) DO NOTHING)
       INSERT INTO floor_table_state (table_name, folded_seq, resume_seq, failures, colour_up, open_race, folded_at, fold_version, replay, problems, problem_count, fold_error, error_seq, damaged, break_marked, base_colour_up, flag_kind, flag_seq, flag_race, left_finished)
       VALUES ($1, $2, $3, 0, $4, $5, now(), $6, $7, $8, $9, NULL, NULL, $10, $12, $13, $14, $15, $17, $18)
       ON CONFLICT (table_name) DO UPDATE SET folded_seq = excluded.folded_seq, resume_seq = excluded.resume_seq, failures = excluded.failures, colour_up = excluded.colour_up, open_race = excluded.open_race, folded_at = excluded.folded_at,
         fold_version = excluded.fold_version, replay = excluded.replay, problems = excluded.problems, problem_count = excluded.problem_count, fold_error = NULL, error_seq = NULL, damaged = excluded.damaged, break_marked = excluded.break_marked,
         base_colour_up = excluded.base_colour_up, flag_kind = excluded.flag_kind, flag_seq = excluded.flag_seq, flag_race = excluded.flag_race, left_finished = excluded.left_finished`,
      [table, lastSeq, openRace?.firstSeq ?? lastSeq + 1, colourUp, openRace?.id ?? null, FOLD_VERSION, JSON.stringify(fold.state), JSON.stringify(problems), (current?.problem_count ?? 0) + fold.problems.length, JSON.stringify(damaged), racesJson(fold.races), markedBreakOf(colourUpRecords), reading.base, reading.flag?.kind ?? null, reading.flag?.seq ?? null, exchangesJson(fold.exchanges), reading.flag?.raceId ?? null, JSON.stringify(reading.leftFinished)],
    );
    await client.query('COMMIT');
    return lines.length === FOLD_BATCH ? 'more' : 'folded';
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (isConnectionLost(error)) throw error;
    // One table's fold stopped: that table is flagged with the reason, and the others fold on.
    // It is tried again when its station sends more (or the fold's version changes).
    const detail = (error as Error).message.slice(0, DETAIL_MAX);
    await client.query(
      `INSERT INTO floor_table_state (table_name, folded_seq, resume_seq, failures, colour_up, folded_at, fold_version, fold_error, error_seq)
       VALUES ($1, 0, 1, 0, 'disputed', now(), -1, $2, (SELECT coalesce(max(seq), 0) FROM station_records WHERE table_name = $1))
       ON CONFLICT (table_name) DO UPDATE SET fold_error = excluded.fold_error, error_seq = excluded.error_seq`,
      [table, detail],
    );
    return 'folded';
  }
}

/** The network's errors (Node's) that end a connection. */
const NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * A connection gone (the server stopped or shut down, the network): no table's fault, the pass
 * stops and is tried again later. Anything else (a database error, one of the fold's own) is the
 * table's, flagged on it while the others fold on.
 */
function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code.startsWith('08') || code.startsWith('57P') || NETWORK_CODES.has(code);
  return /connection (terminated|ended)|not queryable|Client has encountered a connection error/i.test((error as Error).message ?? '');
}

/** The tables whose records the fold has not caught up with (or that another fold version folded). */
/**
 * The floor's connections run without PostgreSQL's JIT. Its queries are many short ones over
 * indexes, but the status query's plan over hundreds of tables is estimated past `jit_above_cost`,
 * and compiling it cost more than running it: 23 of 28 ms on 100 tables (EXPLAIN ANALYZE), and
 * far more once the estimate passes the inlining and optimising thresholds. Set once per
 * connection (the floor's own sessions: the page's pool, the command line's client).
 */
const withoutJit = new WeakSet<ClientBase>();
async function noJit(client: ClientBase): Promise<void> {
  if (withoutJit.has(client)) return;
  await client.query('SET jit = off');
  withoutJit.add(client);
}

async function dueTables(client: ClientBase): Promise<string[]> {
  await noJit(client);
  const due = await client.query<{ table_name: string }>(
    `SELECT t.table_name FROM floor_tables t
     LEFT JOIN floor_table_state s USING (table_name)
     LEFT JOIN LATERAL (SELECT max(seq) AS last_seq FROM station_records WHERE table_name = t.table_name) r ON true
     WHERE s.table_name IS NULL
        OR (s.fold_error IS NULL AND (s.fold_version <> $1 OR coalesce(r.last_seq, 0) > s.folded_seq))
        OR (s.fold_error IS NOT NULL AND coalesce(r.last_seq, 0) > s.error_seq)
     ORDER BY t.table_name`,
    [FOLD_VERSION],
  );
  return due.rows.map((row) => row.table_name);
}

/**
 * Brings the summary tables up to the records: each table whose records changed since its last
 * fold is folded on from there, in transactions of its own. With a budget, stops between
 * batches once it is spent (the rest is folded next time; the status says how far behind).
 * Returns the tables folded.
 */
export async function foldFloor(client: ClientBase, budgetMs = Number.POSITIVE_INFINITY): Promise<readonly string[]> {
  const started = performance.now();
  const folded: string[] = [];
  for (const table of await dueTables(client)) {
    let step: Awaited<ReturnType<typeof foldTableStep>>;
    do {
      if (performance.now() - started > budgetMs) return folded;
      step = await foldTableStep(client, table);
    } while (step === 'more');
    if (step === 'folded') folded.push(table);
  }
  return folded;
}

/** Chips of one denomination a table (or the tournament) gives up and needs. */
export interface DenominationChips {
  readonly chip: number;
  readonly collect: number;
  readonly bring: number;
}

/** A race a line damaged at the station cost: its confirmation lost (`confirmed` false: status 'damaged') or a line of it (confirmed, marked). */
export interface DamagedRace {
  readonly raceId: string;
  readonly seq: number | null;
  readonly confirmed: boolean;
}

/** What a damaged line cost a race, in words for the exports and the chip audit (the page says it in its language): `confirmed; record 12 of it damaged at the station`, `damaged: record 12 of it lost at the station; not confirmed`. */
export function damagedInWords(damaged: { readonly seq: number | null; readonly confirmed: boolean }): string {
  const record = damaged.seq === null ? 'a record' : `record ${damaged.seq}`;
  return damaged.confirmed ? `confirmed; ${record} of it damaged at the station` : `damaged: ${record} of it lost at the station; not confirmed`;
}

export interface TableStatus {
  readonly table: string;
  readonly races: number;
  /** The chip value the table's confirmed races and its exchanges outside a race created (negative: removed). */
  readonly valueDelta: number;
  readonly lastSeen: string | null;
  /** At the break its station is on; playing since it finished its last break (the sheet's), that break's: done or closed. */
  readonly colourUp: ColourUpStatus;
  /** Records the station said it still had to send when it was last heard from. */
  readonly behind: number;
  readonly openRace: { readonly raceId: string; readonly status: FoldedRaceStatus } | null;
  /** What flags the table (its last abandoned race or call of the floor, with the race it is about), settled or not; null: nothing. */
  readonly flag?: TableFlag | null;
  /** The director closed the open race on the floor (a `race-closed` decision naming it: a table broken mid-colour-up): who, and why. */
  readonly openRaceClosed?: { readonly by: string; readonly note: string } | null;
  readonly corrections: number;
  readonly refusals: number;
  readonly abandoned: number;
  /** Every break's chips per denomination: its races' (abandoned ones aside) and its exchanges outside a race. */
  readonly chips: readonly DenominationChips[];
  readonly failures: readonly ChainFailure[];
  /** Records the floor holds that the fold has not folded yet: what the page and the status are behind by. */
  readonly foldBehind: number;
  /** Records the fold passed over (the first few), and why: the table is disputed until the director settles them. */
  readonly foldProblems: readonly FoldProblem[];
  /** Damaged lines the station sent as evidence (the first few seqs): amber, the chain verified again from the next record. */
  readonly damaged: readonly number[];
  /** Its races a damaged line cost (FoldedRace.damaged), oldest first: `confirmed` false, the race is 'damaged' (not counted); absent: none. */
  readonly damagedRaces?: readonly DamagedRace[];
  /** The chip runner's sheet (tableSheet): chips to bring to the table and to collect from it, per denomination, for the break `sheetAfterLevel`. */
  readonly bring: ChipsByDenomination;
  readonly collect: ChipsByDenomination;
  /** The break the sheet is for (the level it falls after): null when the table has had none. */
  readonly sheetAfterLevel: number | null;
  /** The breaks (the levels they follow) the table finished before its station left them (finishedBreaksOf); absent: none. */
  readonly finishedBreaks?: readonly number[];
  /** The chips exchanged outside a race on that sheet (its break's: FoldedExchange), in the order recorded: the sheet lists each. */
  readonly exchanges?: readonly FoldedExchange[];
  /** The station's card reader, as it last reported it (protocol/readerHealth.ts): null when it never did, has no reader in use, or sent what does not read. */
  readonly readerHealth?: ReaderHealthSummary | null;
  /** Whether its station was ever heard from: a record stored, a line refused, or a connection (station_contact); false: no break waits for it (isWaitedFor). Absent: heard from. */
  readonly heardFrom?: boolean;
}

/** A station's reader health as its contact row holds it, read again by the one schema (the database's checks aside, a station may send anything): null when none, or when it does not read. */
export function readerHealthOf(row: { readonly reader_verdict: unknown; readonly reader_frames: unknown; readonly reader_unknown: unknown; readonly reader_checksum: unknown; readonly reader_repeats: unknown; readonly reader_held: unknown }): ReaderHealthSummary | null {
  if (row.reader_verdict === null || row.reader_verdict === undefined) return null;
  try {
    return parse(READER_HEALTH_SUMMARY, { verdict: row.reader_verdict, frames: row.reader_frames, unknown: row.reader_unknown, checksum: row.reader_checksum, repeats: row.reader_repeats, held: row.reader_held });
  } catch {
    return null;
  }
}

/**
 * The progress board of the current break: how many tables are at each colour-up status, and how
 * many are left (every table not finished: isFinished), so the director sees at a glance whether play can resume.
 */
export type BreakProgress = Readonly<Record<ColourUpStatus, number>> & { readonly left: number };

/** The board from the tables' statuses: the counts add up to the tables, `left` is every one the break waits for (isWaitedFor: not done nor closed by the floor, its station heard from). */
export function breakProgress(tables: readonly Pick<TableStatus, 'colourUp' | 'heardFrom'>[]): BreakProgress {
  const counts = Object.fromEntries(COLOUR_UP_STATUSES.map((status) => [status, 0])) as Record<ColourUpStatus, number>;
  for (const table of tables) counts[table.colourUp] += 1;
  return { ...counts, left: tables.filter(isWaitedFor).length };
}

export interface FloorStatus {
  readonly tables: readonly TableStatus[];
  /** The current break's progress board (breakProgress). */
  readonly progress: BreakProgress;
  /** Records not folded yet, all tables together. */
  readonly foldBehind: number;
  readonly totals: {
    readonly races: number;
    readonly valueDelta: number;
    readonly corrections: number;
    readonly refusals: number;
    readonly chips: readonly DenominationChips[];
    /** The tables' sheets added together (each table's for its own break: tableSheet). */
    readonly bring: ChipsByDenomination;
    readonly collect: ChipsByDenomination;
  };
}

/** Tables in the order a person reads them: "2" before "10", then by name. */
/** One collator for every comparison (localeCompare with a locale and options makes one each call: 11–15 ms to sort 500 names, 0.5–0.8 with this). */
const TABLE_NAME_ORDER = new Intl.Collator('en', { numeric: true });
export const byTableName = (a: string, b: string) => TABLE_NAME_ORDER.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

function mergeChips(into: Map<number, { collect: number; bring: number }>, chip: number, collect: number, bring: number): void {
  const kept = into.get(chip) ?? { collect: 0, bring: 0 };
  into.set(chip, { collect: kept.collect + collect, bring: kept.bring + bring });
}
const chipsList = (chips: Map<number, { collect: number; bring: number }>): DenominationChips[] => [...chips.entries()].sort(([a], [b]) => a - b).map(([chip, { collect, bring }]) => ({ chip, collect, bring }));


/** The floor's status from the summary tables (what is folded): two queries, whatever the number of records. */
export async function readFloorStatus(client: ClientBase): Promise<FloorStatus> {
  await noJit(client);
  const tables = await client.query<{ table_name: string; colour_up: ColourUpStatus | null; last_seen: Date | null; behind: number | null; open_race: string | null; open_status: FoldedRaceStatus | null; races: number; value_delta: string; corrections: string; refusals: string; abandoned: number; failures: { seq: number; reason: string }[]; fold_behind: string; problems: FoldProblem[] | null; problem_count: number | null; fold_error: string | null; error_seq: string | null; damaged: number[] | null; sheet_break: number | null; sheets: RaceChipSheet[]; base_colour_up: ColourUpStatus | null; flag_kind: TableFlag['kind'] | null; flag_seq: string | null; flag_race: string | null; left_finished: LeftFinished[] | null; break_marked: number | null; open_closed: { by: string; note: string } | null; exchanges: FoldedExchange[]; reader_verdict: unknown; reader_frames: unknown; reader_unknown: unknown; reader_checksum: unknown; reader_repeats: unknown; reader_held: unknown; heard: boolean; damaged_races: DamagedRace[] | null }>(
    `SELECT t.table_name, s.colour_up, coalesce(c.last_seen, (SELECT max(received_at) FROM station_records WHERE table_name = t.table_name AND seq = s.folded_seq)) AS last_seen, c.behind, s.open_race, o.status AS open_status,
       c.reader_verdict, c.reader_frames, c.reader_unknown, c.reader_checksum, c.reader_repeats, c.reader_held,
       coalesce(a.races, 0)::int AS races, (coalesce(a.value_delta, 0) + coalesce((SELECT sum(value_delta) FROM floor_exchanges WHERE table_name = t.table_name), 0))::text AS value_delta, coalesce(a.corrections, 0)::text AS corrections, coalesce(a.refusals, 0)::text AS refusals, coalesce(a.abandoned, 0)::int AS abandoned,
       coalesce((SELECT jsonb_agg(jsonb_build_object('seq', seq, 'reason', reason) ORDER BY seq) FROM chain_failures WHERE table_name = t.table_name), '[]') AS failures,
       greatest(coalesce(r.last_seq, 0) - coalesce(s.folded_seq, 0), 0)::text AS fold_behind,
       (r.last_seq IS NOT NULL OR c.table_name IS NOT NULL OR EXISTS (SELECT FROM chain_failures WHERE table_name = t.table_name)) AS heard,
       s.problems, s.problem_count, s.fold_error, s.error_seq::text, s.damaged, s.base_colour_up, s.flag_kind, s.flag_seq::text, s.flag_race, s.left_finished, s.break_marked,
       (SELECT jsonb_build_object('by', d.decided_by, 'note', d.note) FROM floor_decisions d WHERE d.table_name = t.table_name AND d.decision = 'race-closed' AND d.race_id = s.open_race ORDER BY d.id DESC LIMIT 1) AS open_closed,
       b.level AS sheet_break,
       coalesce((SELECT jsonb_agg(r.sheet ORDER BY r.first_seq) FROM floor_races r WHERE r.table_name = t.table_name AND r.level = b.level AND r.status <> 'abandoned' AND r.sheet IS NOT NULL), '[]') AS sheets,
       coalesce((SELECT jsonb_agg(${EXCHANGE_JSON} ORDER BY e.seq) FROM floor_exchanges e WHERE e.table_name = t.table_name AND e.after_level = b.level), '[]') AS exchanges,
       (SELECT jsonb_agg(jsonb_build_object('raceId', d.race_id, 'seq', d.damaged->'seq', 'confirmed', d.damaged->'confirmed') ORDER BY d.first_seq) FROM floor_races d WHERE d.table_name = t.table_name AND d.damaged IS NOT NULL) AS damaged_races
     FROM floor_tables t
     LEFT JOIN floor_table_state s USING (table_name)
     LEFT JOIN LATERAL (SELECT coalesce(s.break_marked, (SELECT level FROM floor_races WHERE table_name = t.table_name AND level IS NOT NULL ORDER BY first_seq DESC LIMIT 1)) AS level) b ON true
     LEFT JOIN station_contact c USING (table_name)
     LEFT JOIN LATERAL (SELECT max(seq) AS last_seq FROM station_records WHERE table_name = t.table_name) r ON true
     LEFT JOIN floor_races o ON o.table_name = t.table_name AND o.race_id = s.open_race
     LEFT JOIN (SELECT table_name, count(*) FILTER (WHERE status = 'confirmed') AS races, sum(value_delta) FILTER (WHERE status = 'confirmed') AS value_delta,
                  sum(corrections) AS corrections, sum(refusals) AS refusals, count(*) FILTER (WHERE status = 'abandoned') AS abandoned
                FROM floor_races GROUP BY table_name) a ON a.table_name = t.table_name`,
  );
  const chips = await client.query<{ table_name: string; chip: string; collect: string; bring: string }>(
    `SELECT table_name, removed AS chip, sum(collect) AS collect, 0 AS bring FROM floor_races WHERE status <> 'abandoned' GROUP BY table_name, removed
     UNION ALL SELECT table_name, next, 0, sum(bring) FROM floor_races WHERE status <> 'abandoned' GROUP BY table_name, next
     UNION ALL SELECT table_name, removed, sum(count), 0 FROM floor_exchanges GROUP BY table_name, removed
     UNION ALL SELECT table_name, next, 0, sum(given) FROM floor_exchanges GROUP BY table_name, next`,
  );
  // The decisions settle the flags here, by the one rule the pages and exports use too (settlingDecision).
  const decisionsByTable = new Map<string, FloorDecision[]>();
  for (const decision of await allDecisions(client)) decisionsByTable.set(decision.table, [...(decisionsByTable.get(decision.table) ?? []), decision]);
  const flagOf = (row: { flag_kind: TableFlag['kind'] | null; flag_seq: string | null; flag_race: string | null }): TableFlag | null => (row.flag_kind === null || row.flag_seq === null ? null : { kind: row.flag_kind, seq: Number(row.flag_seq), raceId: row.flag_race });
  const byTable = new Map<string, Map<number, { collect: number; bring: number }>>();
  const total = new Map<number, { collect: number; bring: number }>();
  for (const row of chips.rows) {
    let chipsOf = byTable.get(row.table_name);
    if (chipsOf === undefined) byTable.set(row.table_name, (chipsOf = new Map()));
    mergeChips(chipsOf, Number(row.chip), Number(row.collect), Number(row.bring));
    mergeChips(total, Number(row.chip), Number(row.collect), Number(row.bring));
  }
  const list: TableStatus[] = tables.rows
    .map((row) => {
      const failures = row.failures.map((failure) => ({ seq: Number(failure.seq), reason: failure.reason }));
      const foldProblems: FoldProblem[] = [
        ...(row.problems ?? []).map((problem) => ({ seq: Number(problem.seq), reason: problem.reason })),
        ...(row.fold_error === null ? [] : [{ seq: Number(row.error_seq ?? 0), reason: 'fold-failed' as const, detail: row.fold_error }]),
      ];
      // A chain failure, or a record the fold could not take: for the director to settle first.
      const disputed = failures.length > 0 || foldProblems.length > 0 || (row.problem_count ?? 0) > 0;
      const sheets = [...row.sheets, ...row.exchanges.map(exchangeSheet)];
      const decisions = decisionsByTable.get(row.table_name) ?? [];
      const finishedBreaks = finishedBreaksOf(row.left_finished ?? [], decisions, disputed);
      // Its station playing since it finished its last break (the sheet's): finished with it, as the held break counts it.
      const lastLeft = row.break_marked === null && row.sheet_break !== null && finishedBreaks.includes(row.sheet_break) ? (row.left_finished ?? []).find((each) => each.afterLevel === row.sheet_break) : undefined;
      const base = lastLeft?.base ?? row.base_colour_up;
      return {
        table: row.table_name,
        races: row.races,
        valueDelta: Number(row.value_delta),
        lastSeen: row.last_seen === null ? null : row.last_seen.toISOString(),
        colourUp: disputed
          ? 'disputed'
          : base === null
            ? (row.colour_up ?? 'not-started')
            : settledStatus(base, flagOf(row), decisions, false, row.open_closed !== null),
        flag: flagOf(row),
        behind: row.behind ?? 0,
        openRace: row.open_race !== null && row.open_status !== null ? { raceId: row.open_race, status: row.open_status } : null,
        openRaceClosed: row.open_closed,
        corrections: Number(row.corrections),
        refusals: Number(row.refusals),
        abandoned: row.abandoned,
        chips: chipsList(byTable.get(row.table_name) ?? new Map()),
        failures,
        foldBehind: Number(row.fold_behind),
        foldProblems,
        damaged: (row.damaged ?? []).map(Number),
        ...(row.damaged_races === null ? {} : { damagedRaces: row.damaged_races }),
        // The sheet as tableSheet makes it: the races and the exchanges of the break chosen in the query, added up.
        bring: addChips(...sheets.map((sheet) => sheet.bring)),
        collect: addChips(...sheets.map((sheet) => sheet.collect)),
        sheetAfterLevel: row.sheet_break,
        finishedBreaks,
        exchanges: row.exchanges,
        readerHealth: readerHealthOf(row),
        heardFrom: row.heard,
      };
    })
    .sort((a, b) => byTableName(a.table, b.table));
  return {
    tables: list,
    progress: breakProgress(list),
    foldBehind: sum(list.map((table) => table.foldBehind)),
    totals: {
      races: sum(list.map((table) => table.races)),
      valueDelta: sum(list.map((table) => table.valueDelta)),
      corrections: sum(list.map((table) => table.corrections)),
      refusals: sum(list.map((table) => table.refusals)),
      chips: chipsList(total),
      bring: addChips(...list.map((table) => table.bring)),
      collect: addChips(...list.map((table) => table.collect)),
    },
  };
}

/** How long `floor status` (a one-shot, with no floor page folding beside it, perhaps) folds before it reads. */
export const STATUS_FOLD_BUDGET_MS = 1000;

/** Folds what changed for at most `budgetMs`, then reads what is folded (saying how far behind it is). */
export async function floorStatus(client: ClientBase, budgetMs = STATUS_FOLD_BUDGET_MS): Promise<FloorStatus> {
  await foldFloor(client, budgetMs);
  return readFloorStatus(client);
}

/** A table's races as the floor folded them, oldest first. */
export async function tableRaces(client: ClientBase, table: string): Promise<FoldedRace[]> {
  const result = await client.query<{ race_id: string; status: FoldedRaceStatus; level: number | null; removed: string; next: string; value_delta: string | null; winners: number[]; started_at: Date; ended_at: Date | null; corrections: string; refusals: string; collect: string; bring: string; sheet: RaceChipSheet | null; first_seq: string; last_seq: string; damaged: FoldedRace['damaged'] | null }>(
    'SELECT race_id, status, level, removed, next, value_delta, winners, started_at, ended_at, corrections, refusals, collect, bring, sheet, first_seq, last_seq, damaged FROM floor_races WHERE table_name = $1 ORDER BY first_seq',
    [table],
  );
  return result.rows.map((row) => ({
    raceId: row.race_id, status: row.status, level: row.level, removed: Number(row.removed), next: Number(row.next), valueDelta: row.value_delta === null ? null : Number(row.value_delta), winners: row.winners,
    startedAt: row.started_at.toISOString(), endedAt: row.ended_at?.toISOString() ?? null, corrections: Number(row.corrections), refusals: Number(row.refusals), collect: Number(row.collect), bring: Number(row.bring), sheet: row.sheet,
    firstSeq: Number(row.first_seq), lastSeq: Number(row.last_seq), ...(row.damaged == null ? {} : { damaged: row.damaged }),
  }));
}

/**
 * A table's confirmed races as its console's history keeps them (the export's rows), replayed from
 * its records through the last one folded, by the fold's own foldLines: the races the page shows,
 * with the same verdicts. Replayed when asked rather than kept by the fold: some 7 KB a race,
 * written for every race and read by an export only, was a third of the first fold's time.
 */
export async function tableHistory(client: ClientBase, table: string): Promise<HistoryEntry[]> {
  const history: HistoryEntry[] = [];
  for await (const page of tableHistoryPages((use) => use(client), table)) history.push(...page);
  return history;
}

/** Runs `use` with a database client (the floor page's: one from its pool, given back after). */
export type WithClient = <T>(use: (client: ClientBase) => Promise<T>) => Promise<T>;

/**
 * The same races a page at a time: `lines` stored lines read (each page with a client `read` lends
 * for it alone, so a long export holds none between pages) and replayed, their races handed on.
 */
export async function* tableHistoryPages(read: WithClient, table: string, lines = FOLD_BATCH): AsyncGenerator<readonly HistoryEntry[], void, undefined> {
  const kept = await read((client) => client.query<{ folded_seq: string }>('SELECT folded_seq FROM floor_table_state WHERE table_name = $1', [table]));
  const through = Number(kept.rows[0]?.folded_seq ?? 0);
  let state: FoldState | null = null;
  for (let after = 0; after < through; ) {
    const from = after;
    const page = await read((client) => storedLines(client, table, from, through, lines));
    const last = page.at(-1);
    if (last === undefined) break;
    const fold = foldLines(page, last.seq, state);
    yield fold.history;
    state = fold.state;
    after = last.seq;
  }
}

/** A table's chips exchanged outside a race as the floor folded them, in the order recorded. */
export async function tableExchanges(client: ClientBase, table: string): Promise<FoldedExchange[]> {
  const result = await client.query<{ exchange: FoldedExchange }>(`SELECT ${EXCHANGE_JSON} AS exchange FROM floor_exchanges e WHERE e.table_name = $1 ORDER BY e.seq`, [table]);
  return result.rows.map((row) => row.exchange);
}

/** A table's chain failures and whether every stored seal could be checked: its chain as the console's verdicts read it. */
export async function tableChain(client: ClientBase, table: string): Promise<{ report: ChainReport; failures: ChainFailure[] }> {
  const failures = await client.query<{ seq: string; reason: string }>('SELECT seq, reason FROM chain_failures WHERE table_name = $1 ORDER BY seq', [table]);
  const seals = await client.query<{ records: number; checked: boolean | null }>('SELECT count(*)::int AS records, bool_and(seal_checked) AS checked FROM station_records WHERE table_name = $1', [table]);
  const list = failures.rows.map((row) => ({ seq: Number(row.seq), reason: row.reason }));
  const { records = 0, checked = true } = seals.rows[0] ?? {};
  return { report: floorChainReport(list, checked !== false, records), failures: list };
}

/**
 * A race's full record (the console's race record slip) from the lines the floor stored: every
 * card with its seat, round and source, the voids, the refusals, the confirmation, the floor
 * called about it and the decisions on it, and the chain's verdict as the floor checked it on arrival. Null when the floor has no such race.
 */
export async function floorRaceRecord(client: ClientBase, table: string, raceId: string): Promise<RaceRecord | null> {
  const race = await client.query<{ first_seq: string; last_seq: string; status: string }>('SELECT first_seq, last_seq, status FROM floor_races WHERE table_name = $1 AND race_id = $2', [table, raceId]);
  const row = race.rows[0];
  if (row === undefined) return null;
  const open = row.status === 'racing' || row.status === 'waiting-to-confirm';
  // A closed race's lines, and the station's records of the floor called about it or the director's
  // decision on it after its last line (issue 43: the record has no gap where they came).
  const result = await client.query<StoredLine & { hash: string }>(
    `SELECT seq, ${AT_VERIFIED} AS at, record, hash FROM station_records WHERE table_name = $1 AND seq >= $2 ${open ? '' : "AND (seq <= $3 OR (record->>'kind' IN ('floor-called', 'floor-decision') AND record->>'raceId' = $4))"} ORDER BY seq`,
    open ? [table, row.first_seq] : [table, row.first_seq, row.last_seq, raceId],
  );
  const lines: { line: JournalLine<SessionRecord>; seal: string | null }[] = [];
  // The director's decisions as the station kept them: only those that are the floor's own (isFloorsDecision).
  const decided = result.rows.some((stored) => (stored.record as { kind?: unknown } | null)?.kind === 'floor-decision') ? await tableDecisions(client, table) : [];
  for (const stored of result.rows) {
    const record = stored.record;
    if (stored.at === null || problemOf(foldLine(stored)) !== null || !isSessionRecord(record) || !('raceId' in record) || record.raceId !== raceId) continue;
    if (record.kind === 'floor-decision' && !isFloorsDecision(record, decided)) continue;
    lines.push({ line: { seq: Number(stored.seq), at: stored.at, record }, seal: stored.hash });
  }
  const { report } = await tableChain(client, table);
  return buildRecord(raceId, lines, report);
}

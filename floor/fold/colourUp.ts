import type { ChainReport, ChainStatus, JournalFinding } from '../../journal/findings';
import type { JournalLine } from '../../journal/read';
import { addChips, type ChipsByDenomination, type RaceChipSheet } from '../../engine/race/summary';
import { colourUpReadingOf, isFinished, type ColourUpStatus, type KeptDecision, type LeftFinished, type TableFlag } from '../../replay/colourUpReading';
import { exchangeSheet, type FoldedExchange, type FoldedRace } from '../../replay/tableFold';
import { settlingDecision, type FloorDecision } from '../decisions';

/**
 * The colour-up status of a table as the floor reads it (the reading itself is the projection's,
 * replay/colourUpReading.ts), settled with the director's decisions; the chip runner's sheet of a
 * table; its chain as the floor checked it. Pure: the store and the status query read with these.
 */

/**
 * Whether the break waits for a table (the progress board's `left`, the held break): one not
 * finished, its station heard from (issue 44: a table no station ever sent a record for, connected
 * or had a line refused, such as one a typo made, holds no break).
 */
export const isWaitedFor = (table: { readonly colourUp: ColourUpStatus; readonly heardFrom?: boolean }): boolean => !isFinished(table.colourUp) && table.heardFrom !== false;

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

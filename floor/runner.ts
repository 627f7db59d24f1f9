import type { ClientBase } from 'pg';
import { addChips, type ChipsByDenomination } from '../engine/race/summary';
import { NAME_MAX } from '../protocol/constants';
import type { FloorStatus, FoldedExchange, TableStatus } from './fold';

/**
 * The chip runner's round at a break, and its reconciliation: the runner's sheet per table (the
 * chips the table's screens take in and hand out: floor/fold.ts `collect` and `bring`), the
 * runner's ticks ("delivered", "collected": who, when, and the chips the sheet said then, kept in
 * `floor_runner_ticks`, migration 12; every tick kept, migration 20: a runner who goes again ticks
 * again, the latest tick is the one checked against the sheet and the earlier ones are listed), and per table and in total the value taken off and put on
 * the tables, the value the races created, and every difference between what the runner ticked
 * and what the races now give: flagged before play resumes. Chips a table exchanged outside a race
 * (late-found, a discretionary colour-up: FoldedExchange) are on its sheet like a race's, and listed.
 */

export const TICK_KINDS = ['delivered', 'collected'] as const;
export type TickKind = (typeof TICK_KINDS)[number];

export interface RunnerTick {
  readonly table: string;
  readonly afterLevel: number;
  readonly kind: TickKind;
  readonly by: string;
  /** When it was ticked (ISO time, the floor's). */
  readonly at: string;
  /** What the sheet said when it was ticked: the chips delivered or collected. */
  readonly chips: ChipsByDenomination;
}

/** A difference between a tick and the sheet now: the chips of one denomination the runner still owes (+) or took too many of (−). */
export interface SheetDifference {
  readonly kind: TickKind;
  readonly chip: number;
  /** What the sheet says now less what was ticked. */
  readonly more: number;
}

export interface ReconciledTable {
  readonly table: string;
  readonly colourUp: TableStatus['colourUp'];
  readonly collect: ChipsByDenomination;
  readonly bring: ChipsByDenomination;
  /** The chips exchanged outside a race that are on the sheet (in `collect` and `bring` already): listed each on its own. */
  readonly exchanges: readonly FoldedExchange[];
  /** The value of the chips taken off the table (collect × denomination) and put on it (bring × denomination). */
  readonly removedValue: number;
  readonly addedValue: number;
  /** addedValue − removedValue: the value the races and the exchanges created (negative: removed). */
  readonly valueCreated: number;
  /** The latest tick of each kind: the one the sheet is checked against. */
  readonly delivered: RunnerTick | null;
  readonly collected: RunnerTick | null;
  /** The ticks of each kind before the latest, oldest first: kept, listed under it (the runner went again). */
  readonly earlier: { readonly delivered: readonly RunnerTick[]; readonly collected: readonly RunnerTick[] };
  readonly differences: readonly SheetDifference[];
  /** Something to settle before play resumes: chips on the sheet not delivered or collected, or a tick that differs from the sheet now. */
  readonly flagged: boolean;
}

export interface Reconciliation {
  readonly afterLevel: number | null;
  readonly tables: readonly ReconciledTable[];
  readonly totals: { readonly collect: ChipsByDenomination; readonly bring: ChipsByDenomination; readonly removedValue: number; readonly addedValue: number; readonly valueCreated: number; readonly flagged: number };
}

const valueOf = (chips: ChipsByDenomination): number => Object.entries(chips).reduce((total, [chip, count]) => total + Number(chip) * count, 0);
const isEmpty = (chips: ChipsByDenomination): boolean => Object.values(chips).every((count) => count === 0);

/** What the sheet now says less what was ticked, per denomination (none when they agree). */
export function sheetDifferences(kind: TickKind, sheet: ChipsByDenomination, ticked: ChipsByDenomination): SheetDifference[] {
  const chips = [...new Set([...Object.keys(sheet), ...Object.keys(ticked)].map(Number))].sort((a, b) => a - b);
  return chips.map((chip) => ({ kind, chip, more: (sheet[chip] ?? 0) - (ticked[chip] ?? 0) })).filter((difference) => difference.more !== 0);
}

/**
 * The break `afterLevel` reconciled: each table whose sheet is that break's (`sheetAfterLevel`),
 * with its ticks for it (in the order ticked: the latest of each kind counts, the earlier are
 * listed). Pure: the floor's status and the ticks in.
 */
export function reconcile(status: Pick<FloorStatus, 'tables'>, ticks: readonly RunnerTick[], afterLevel: number | null): Reconciliation {
  const tables = status.tables
    .filter((table) => afterLevel !== null && table.sheetAfterLevel === afterLevel)
    .map((table): ReconciledTable => {
      const ticked = (kind: TickKind) => ticks.filter((each) => each.table === table.table && each.afterLevel === afterLevel && each.kind === kind);
      const deliveries = ticked('delivered');
      const collections = ticked('collected');
      const delivered = deliveries.at(-1) ?? null;
      const collected = collections.at(-1) ?? null;
      const differences = [...sheetDifferences('delivered', table.bring, delivered?.chips ?? {}), ...sheetDifferences('collected', table.collect, collected?.chips ?? {})];
      const removedValue = valueOf(table.collect);
      const addedValue = valueOf(table.bring);
      const owed = (!isEmpty(table.bring) && delivered === null) || (!isEmpty(table.collect) && collected === null);
      return { table: table.table, colourUp: table.colourUp, collect: table.collect, bring: table.bring, exchanges: table.exchanges ?? [], removedValue, addedValue, valueCreated: addedValue - removedValue, delivered, collected, earlier: { delivered: deliveries.slice(0, -1), collected: collections.slice(0, -1) }, differences, flagged: owed || differences.length > 0 };
    });
  const removedValue = tables.reduce((total, table) => total + table.removedValue, 0);
  const addedValue = tables.reduce((total, table) => total + table.addedValue, 0);
  return {
    afterLevel,
    tables,
    totals: { collect: addChips(...tables.map((table) => table.collect)), bring: addChips(...tables.map((table) => table.bring)), removedValue, addedValue, valueCreated: addedValue - removedValue, flagged: tables.filter((table) => table.flagged).length },
  };
}

/** The break the runner works now: the latest any table's sheet is for (the one in progress, or the last). */
export function runnerBreak(status: Pick<FloorStatus, 'tables'>): number | null {
  const levels = status.tables.map((table) => table.sheetAfterLevel).filter((level): level is number => level !== null);
  return levels.length === 0 ? null : Math.max(...levels);
}

/** A runner's name as a tick keeps it: trimmed, 1 to NAME_MAX characters, no control characters; null when it is not one. */
export function runnerName(value: string | undefined): string | null {
  const name = (value ?? '').trim();
  // eslint-disable-next-line no-control-regex
  return name.length >= 1 && name.length <= NAME_MAX && !/[\u0000-\u001f\u007f-\u009f]/.test(name) ? name : null;
}

/** Records a tick: a row of its own, beside any earlier one of the same kind for the table and break (the runner went again; the latest counts, nothing is overwritten). */
export async function recordTick(client: ClientBase, tick: Omit<RunnerTick, 'at'>): Promise<void> {
  await client.query('INSERT INTO floor_runner_ticks (table_name, after_level, kind, ticked_by, chips) VALUES ($1, $2, $3, $4, $5)', [tick.table, tick.afterLevel, tick.kind, tick.by, JSON.stringify(tick.chips)]);
}

/** The ticks of the break after `afterLevel`, in the order ticked. */
export async function readTicks(client: ClientBase, afterLevel: number): Promise<RunnerTick[]> {
  const rows = await client.query<{ table_name: string; after_level: number; kind: TickKind; ticked_by: string; ticked_at: Date; chips: ChipsByDenomination }>(
    'SELECT table_name, after_level, kind, ticked_by, ticked_at, chips FROM floor_runner_ticks WHERE after_level = $1 ORDER BY id',
    [afterLevel],
  );
  return rows.rows.map((row) => ({ table: row.table_name, afterLevel: row.after_level, kind: row.kind, by: row.ticked_by, at: row.ticked_at.toISOString(), chips: row.chips }));
}

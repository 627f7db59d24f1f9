import type { JournalFinding } from './findings';

/** One record line's place in the file, for the order and link checks made once all are read. */
export interface Placed {
  readonly seq: number;
  /** Whether its `prev` matched the hash of the line before it (null: could not be checked). */
  readonly linked: boolean | null;
  /** Its place among the placed records (file order). */
  readonly index: number;
  /** Already explained by another finding (altered, moved): a broken link beside it says nothing new. */
  flagged: boolean;
}

/**
 * Indexes (into `seqs`) of one longest strictly increasing subsequence: the records in order.
 * Everything else was moved. O(n log n).
 */
function longestIncreasing(seqs: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous = new Int32Array(seqs.length).fill(-1);
  for (let index = 0; index < seqs.length; index += 1) {
    const value = seqs[index] as number;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((seqs[tails[middle] as number] as number) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1] as number;
    tails[low] = index;
  }
  const kept = new Set<number>();
  for (let index = tails.at(-1) ?? -1; index >= 0; index = previous[index] as number) kept.add(index);
  return kept;
}

/**
 * Consecutive records in file order: `count` of them numbered `seq`, `seq + 1` … The first carries
 * its own link and flag; every one after it is plain (its link not broken, not flagged).
 */
export interface Segment {
  readonly seq: number;
  count: number;
  readonly linked: boolean | null;
  readonly flagged: boolean;
}

/**
 * The records placed so far, in file order, as runs of consecutive numbers (segments): the usual
 * journal, 1, 2, 3 … with every link holding, is one of them, and a damaged line (its number
 * taken, the next record's link unchecked) only starts another. A million lines need no million
 * entries either way, and a checkpoint says the usual run in one number; entries are made only
 * for the order checks of a journal whose numbers go back (moved, inserted).
 */
export class PlacedRecords {
  private readonly segments: Segment[] = [];
  private total = 0;

  /** `run`: the records 1…run, in order and linked (a checkpoint's); or the runs a checkpoint kept. */
  constructor(run = 0, runs?: readonly Readonly<Segment>[]) {
    if (runs !== undefined) {
      for (const segment of runs) {
        this.segments.push({ ...segment });
        this.total += segment.count;
      }
      return;
    }
    if (run > 0) this.segments.push({ seq: 1, count: run, linked: null, flagged: false });
    this.total = run;
  }

  /** Whether every record so far is in the run 1, 2, 3 …, linked (then `length` says it all). */
  get inOrder(): boolean {
    const only = this.segments[0];
    return only === undefined || (this.segments.length === 1 && only.seq === 1 && only.linked !== false && !only.flagged);
  }

  /** Whether the numbers only go up in file order (each run after the one before it): nothing moved. */
  get increasing(): boolean {
    for (let index = 1; index < this.segments.length; index += 1) {
      const before = this.segments[index - 1] as Segment;
      if ((this.segments[index] as Segment).seq <= before.seq + before.count - 1) return false;
    }
    return true;
  }

  get length(): number {
    return this.total;
  }

  get first(): number | undefined {
    return this.segments[0]?.seq;
  }

  get last(): number | undefined {
    const segment = this.segments.at(-1);
    return segment === undefined ? undefined : segment.seq + segment.count - 1;
  }

  add(seq: number, linked: boolean | null, flagged: boolean): void {
    this.total += 1;
    const segment = this.segments.at(-1);
    if (segment !== undefined && seq === segment.seq + segment.count && linked !== false && !flagged) segment.count += 1;
    else this.segments.push({ seq, count: 1, linked, flagged });
  }

  /** The runs, in file order (for the order checks of a journal whose numbers only go up). */
  runs(): readonly Readonly<Segment>[] {
    return this.segments;
  }

  seqs(): number[] {
    return this.all().map((entry) => entry.seq);
  }

  /** Every entry, made afresh: the order checks of a journal whose numbers go back. */
  all(): Placed[] {
    const list: Placed[] = [];
    for (const segment of this.segments) {
      for (let offset = 0; offset < segment.count; offset += 1) {
        list.push({ seq: segment.seq + offset, linked: offset === 0 ? segment.linked : null, index: list.length, flagged: offset === 0 && segment.flagged });
      }
    }
    return list;
  }
}

/**
 * The order findings of a journal whose numbers only go up (the usual one, and one with damaged
 * lines): nothing moved; the numbers no line has, in runs; a broken link where a run starts right
 * after the one before (inside a run every link holds). What orderFindings finds, from the runs.
 */
function increasingFindings(records: PlacedRecords, accounted: ReadonlySet<number>): JournalFinding[] {
  const findings: JournalFinding[] = [];
  const runs = records.runs();
  const highest = records.last ?? 0;
  // The numbers present: the runs, and the lines that could not be read, up to the highest placed.
  const present: Array<readonly [number, number]> = runs.map((run) => [run.seq, run.seq + run.count - 1] as const);
  for (const seq of accounted) if (seq <= highest) present.push([seq, seq]);
  present.sort((a, b) => a[0] - b[0]);
  let expected = 1;
  for (const [from, to] of present) {
    if (from > expected) findings.push({ code: 'missing', seq: expected, last: from - 1 });
    expected = Math.max(expected, to + 1);
  }
  for (let index = 1; index < runs.length; index += 1) {
    const before = runs[index - 1] as Segment;
    const run = runs[index] as Segment;
    if (run.linked !== false) continue;
    // The entry before is the last of its run: flagged only when it is the run's first (and only).
    if (run.seq !== before.seq + before.count || (before.count === 1 && before.flagged) || run.flagged) continue;
    findings.push({ code: 'rewritten', seq: before.seq + before.count - 1 });
  }
  return findings;
}

export function findingSeq(finding: JournalFinding): number {
  return 'seq' in finding && typeof finding.seq === 'number' ? finding.seq : 0;
}

/**
 * Missing, moved and relinked records, from the sequence numbers in file order: the records in
 * order are one longest increasing run of them; a record outside it was moved, a number within
 * its range that no line has was removed, and a broken link between two neighbours in order was
 * a rewrite (a record changed and sealed afresh, or one removed and the numbers closed up).
 */
export function orderFindings(records: PlacedRecords, accounted: ReadonlySet<number>): JournalFinding[] {
  const findings: JournalFinding[] = [];
  // The usual journal: 1, 2, 3 … in order, every link holding. Nothing to look for.
  if (accounted.size === 0 && records.inOrder) return findings;
  if (records.increasing) return increasingFindings(records, accounted);
  return entryFindings(records.all(), accounted);
}

/** orderFindings entry by entry (any order; `placed` is flagged here): what the runs' way must agree with. */
export function entryFindings(placed: Placed[], accounted: ReadonlySet<number>): JournalFinding[] {
  const findings: JournalFinding[] = [];
  const seqs = placed.map((entry) => entry.seq);
  const inOrder = longestIncreasing(seqs);
  const ordered = placed.filter((_, index) => inOrder.has(index));
  const highest = ordered.at(-1)?.seq ?? 0;

  for (const entry of placed) {
    if (inOrder.has(entry.index)) continue;
    entry.flagged = true;
    // The records in order that it stands before while its number is higher: the first it jumped.
    const jumped = ordered.find((other) => other.index > entry.index && other.seq < entry.seq);
    const behind = [...ordered].reverse().find((other) => other.index < entry.index && other.seq > entry.seq);
    // It stands before a lower record (it jumped ahead), or after a higher one (it fell behind).
    if (jumped) findings.push({ code: 'reordered', seq: jumped.seq, after: entry.seq });
    else findings.push({ code: 'reordered', seq: entry.seq, after: behind?.seq ?? entry.seq });
    if (jumped) jumped.flagged = true;
    if (behind) behind.flagged = true;
  }
  // Numbers no line has, from 1 to the highest in order, in runs: the gaps between the numbers
  // present, sorted (never a walk over every number: a forged line may carry a huge one).
  const present = [...new Set([...seqs, ...accounted])].filter((seq) => seq <= highest).sort((a, b) => a - b);
  let expected = 1;
  for (const seq of present) {
    if (seq > expected) findings.push({ code: 'missing', seq: expected, last: seq - 1 });
    expected = seq + 1;
  }
  // Links between neighbours: only where nothing else already explains a break.
  for (let index = 1; index < placed.length; index += 1) {
    const before = placed[index - 1] as Placed;
    const entry = placed[index] as Placed;
    if (entry.linked !== false) continue;
    if (entry.seq !== before.seq + 1 || before.flagged || entry.flagged) continue;
    findings.push({ code: 'rewritten', seq: before.seq });
  }
  return findings;
}

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
 * The records placed so far, in file order. The usual journal numbers them 1, 2, 3 … with every
 * link holding: that run is kept as a count (a million lines need no million entries, and a
 * checkpoint says it in one number); the list is made only once a record breaks the run.
 */
export class PlacedRecords {
  private run: number;
  private list: Placed[] | null = null;

  /** `run`: the records 1…run, in order and linked (a checkpoint's). */
  constructor(run = 0) {
    this.run = run;
  }

  /** Whether every record so far is in the run 1, 2, 3 … (then `length` says it all). */
  get inOrder(): boolean {
    return this.list === null;
  }

  get length(): number {
    return this.list?.length ?? this.run;
  }

  get first(): number | undefined {
    return this.list === null ? (this.run > 0 ? 1 : undefined) : this.list[0]?.seq;
  }

  get last(): number | undefined {
    return this.list === null ? (this.run > 0 ? this.run : undefined) : this.list.at(-1)?.seq;
  }

  add(seq: number, linked: boolean | null, flagged: boolean): void {
    if (this.list === null && seq === this.run + 1 && linked !== false && !flagged) {
      this.run += 1;
      return;
    }
    const list = this.all();
    list.push({ seq, linked, index: list.length, flagged });
  }

  seqs(): number[] {
    return this.all().map((entry) => entry.seq);
  }

  /** Every entry (the run made into entries the first time). */
  all(): Placed[] {
    this.list ??= Array.from({ length: this.run }, (_, index) => ({ seq: index + 1, linked: null, index, flagged: false }));
    return this.list;
  }
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
  // Copies: the entries are flagged here, and the reader may read on (live appends) and judge again.
  const placed = records.all().map((entry) => ({ ...entry }));
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

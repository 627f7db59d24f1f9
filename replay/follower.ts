import type { JournalLine } from '../journal/read';

/** Where a line stands in its journal file, in bytes: from its first to just past its newline. */
export interface LineSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * A follower of the journal (a projection): what it makes of the records of the kinds it reads.
 * It is fed each such line in journal order, the same way on start (as the journal is read) and
 * live (as each record is written), so a console restarted knows exactly what the running one
 * knew. The station's list of them is one registry (main/service/followers.ts); the floor's fold
 * reads with the same objects.
 */
export interface JournalFollower {
  /** The record kinds it reads: a line of another kind never reaches it. Every kind when absent. */
  readonly kinds?: readonly string[];
  add(line: JournalLine<unknown>, span: LineSpan): void;
}

/**
 * Feeds each line to the followers that read its kind, in the order they were listed. The one
 * call both start-up and every write make.
 */
export class Followers {
  private readonly byKind = new Map<unknown, readonly JournalFollower[]>();

  constructor(readonly list: readonly JournalFollower[]) {}

  add(line: JournalLine<unknown>, span: LineSpan): void {
    const kind = (line.record as { kind?: unknown } | null)?.kind;
    let readers = this.byKind.get(kind);
    if (readers === undefined) {
      readers = this.list.filter((follower) => follower.kinds === undefined || (typeof kind === 'string' && follower.kinds.includes(kind)));
      this.byKind.set(kind, readers);
    }
    for (const follower of readers) follower.add(line, span);
  }
}

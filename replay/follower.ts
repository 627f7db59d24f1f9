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
 * knew. The station's list of them is one registry (station/service/followers.ts); the floor's fold
 * reads with the same objects.
 */
export interface JournalFollower {
  /** The record kinds it reads: a line of another kind never reaches it. Every kind when absent. */
  readonly kinds?: readonly string[];
  add(line: JournalLine<unknown>, span: LineSpan): void;
  /**
   * How a checkpoint keeps what it has made (station/journal/checkpoint.ts): its name there, its
   * state as plain data (JSON), and that state taken up again by a follower fresh from its
   * constructor, as though it had been fed every line up to the checkpoint. A follower without it
   * keeps the station from writing checkpoints: every start then replays the whole journal.
   */
  readonly checkpoint?: FollowerCheckpoint;
}

export interface FollowerCheckpoint {
  readonly name: string;
  snapshot(): unknown;
  /** Throws when `state` is not one its snapshot makes (then the start replays the whole journal). */
  restore(state: unknown): void;
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

  /** Every follower's state by its name, or null when one of them cannot be kept in a checkpoint. */
  snapshot(): Record<string, unknown> | null {
    const states: Record<string, unknown> = {};
    for (const { checkpoint } of this.list) {
      if (checkpoint === undefined) return null;
      states[checkpoint.name] = checkpoint.snapshot();
    }
    return states;
  }

  /** Takes up a snapshot's states (the followers fresh): throws when they are not exactly this registry's. */
  restore(states: Readonly<Record<string, unknown>>): void {
    const names = this.list.map((follower) => follower.checkpoint?.name);
    const stored = Object.keys(states);
    if (names.length !== stored.length || names.some((name) => name === undefined || !Object.hasOwn(states, name))) {
      throw new Error(`the checkpoint holds other followers (${stored.join(', ')}) than this station's`);
    }
    for (const { checkpoint } of this.list) checkpoint?.restore(states[checkpoint.name]);
  }
}

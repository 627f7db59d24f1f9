import type { JournalLine } from '../journal/read';
import { ColorUpLog } from './colorUps';
import type { FollowerCheckpoint, JournalFollower } from './follower';
import { COLOR_UP_LOG_KINDS } from './colorUps';

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

/** What flags a table for the director: its last abandoned race of the marked break's colour-up, or its last call of the floor, whichever came later (`seq`: its record's). */
export interface TableFlag {
  readonly kind: 'disputed' | 'floor-called';
  readonly seq: number;
  /** The race it is about (the abandoned race; the race the call named); null: none named. A decision naming another race does not settle it (issue 43). */
  readonly raceId: string | null;
}

/**
 * A break the table's station left (marked play, or another break) with its colour-up finished
 * (`base` then: isFinished), and what flagged the table then: finished with it unless that flag
 * stands, as the director's decisions settle it (floor/fold settledStatus, finishedBreaksOf). The
 * held break counts the table done with it so (floor/hold.ts tablesLeftAt), after its station has left it.
 */
export interface LeftFinished {
  readonly afterLevel: number;
  readonly base: ColourUpStatus;
  readonly flag: TableFlag | null;
}

/** The records a table's status reads: the colour-up's (ColorUpLog), the dealer's calls of the floor and the director's decisions the station kept. */
export const STATUS_KINDS: readonly string[] = [...COLOR_UP_LOG_KINDS, 'floor-called', 'floor-decision'];

/** What of the director's decision (the floor's floor_decisions) a station's `floor-decision` record must say to stand for it. */
export interface KeptDecision {
  readonly id: number;
  readonly decision: string;
  readonly raceId: string | null;
  readonly note: string;
  readonly by: string;
}

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

/** Whether a status record is a station's record of a decision closing a race (those read against the floor's decisions). */
export const isRaceClosedRecord = (record: unknown): boolean => (record as { kind?: unknown; decision?: unknown } | null)?.kind === 'floor-decision' && (record as { decision?: unknown }).decision === 'race-closed';

/** The reading of a table's colour-up after its status records so far (ColourUpReading.reading). */
export interface ColourUpReadingView {
  /** The colour-up's own status. */
  readonly base: ColourUpStatus;
  /** What flags it for the director (the decisions settle it: floor/fold settledStatus). */
  readonly flag: TableFlag | null;
  /** Each break its station left with the colour-up finished (the last time it left it), by level. */
  readonly leftFinished: readonly LeftFinished[];
  /** The break marked last: null when none, or when it was unmarked. */
  readonly marked: number | null;
}

/** The reading's state as a checkpoint keeps it (plain JSON). */
export interface ColourUpReadingState {
  readonly log: unknown;
  readonly mark: number | null;
  readonly open: string | null;
  readonly abandonedAt: { readonly seq: number; readonly raceId: string } | null;
  readonly calledAt: { readonly seq: number; readonly raceId: string | null } | null;
  readonly closedOnFloor: readonly string[];
  readonly closedByFloor: boolean;
  readonly leftFinished: readonly LeftFinished[];
}

/**
 * A table's colour-up status from its status records (STATUS_KINDS, in seq order), a follower:
 * fed each record once, it reads what reading the whole journal again would (the floor's fold
 * keeps its state in the table's checkpoint and feeds it the new records only; the station's
 * table projection, replay/tableProjection.ts TableProjection, is one of its followers). A
 * station's `floor-decision` record closes its race only when it is one of the floor's own
 * decisions (isFloorsDecision) as `decided` says them when it is read: the floor's
 * (floor_decisions), or at the station the decisions it journaled (replay/tableProjection.ts).
 */
export class ColourUpReading implements JournalFollower {
  readonly kinds = STATUS_KINDS;
  private readonly log = new ColorUpLog();
  private mark: number | null = null;
  private open: string | null = null;
  private abandonedAt: ColourUpReadingState['abandonedAt'] = null;
  private calledAt: ColourUpReadingState['calledAt'] = null;
  /** The races the director closed on the floor, as the station kept the decisions (before it abandoned them): only the floor's own. */
  private closedOnFloor = new Set<string>();
  /** The marked break's last race ended was one the floor closed (and none started since). */
  private closedByFloor = false;
  private leftFinished = new Map<number, LeftFinished>();

  constructor(state?: ColourUpReadingState, private readonly decided: () => readonly KeptDecision[] = () => []) {
    if (state !== undefined) this.take(state);
  }

  /** As a station's checkpoint keeps it (station/journal/checkpoint.ts): the snapshot the floor's keeps too. */
  readonly checkpoint: FollowerCheckpoint = {
    name: 'colourUpReading',
    snapshot: () => this.snapshot(),
    restore: (state) => this.take(state as ColourUpReadingState),
  };

  /** A snapshot's state taken up: throws when it is not one. */
  private take(state: ColourUpReadingState): void {
    if (typeof state !== 'object' || state === null || !Array.isArray(state.closedOnFloor) || !Array.isArray(state.leftFinished)) throw new Error('colour-up reading: not a reading');
    this.log.checkpoint.restore(state.log);
    this.mark = state.mark;
    this.open = state.open;
    this.abandonedAt = state.abandonedAt;
    this.calledAt = state.calledAt;
    this.closedOnFloor = new Set(state.closedOnFloor);
    this.closedByFloor = state.closedByFloor;
    this.leftFinished = new Map(state.leftFinished.map((left) => [left.afterLevel, left]));
  }

  snapshot(): ColourUpReadingState {
    return {
      log: this.log.checkpoint.snapshot(), mark: this.mark, open: this.open, abandonedAt: this.abandonedAt, calledAt: this.calledAt,
      closedOnFloor: [...this.closedOnFloor], closedByFloor: this.closedByFloor, leftFinished: [...this.leftFinished.values()],
    };
  }

  private flagNow(): TableFlag | null {
    const abandoned: TableFlag | null = this.mark !== null && this.abandonedAt !== null ? { kind: 'disputed', seq: this.abandonedAt.seq, raceId: this.abandonedAt.raceId } : null;
    const called: TableFlag | null = this.calledAt !== null ? { kind: 'floor-called', seq: this.calledAt.seq, raceId: this.calledAt.raceId } : null;
    return abandoned !== null && (called === null || abandoned.seq > called.seq) ? abandoned : called;
  }

  private baseNow(complete: boolean): ColourUpStatus {
    if (this.mark === null) return 'not-started';
    const progress = this.log.progress(this.mark, this.open);
    if (progress === null) return 'not-started';
    if (progress.running !== null) return complete ? 'waiting-to-confirm' : 'racing';
    if (this.closedByFloor) return 'closed';
    return progress.done.length > 0 ? 'done' : 'not-started';
  }

  /** A status record (STATUS_KINDS), in seq order (a `floor-decision` record read against the decisions `decided` says then). */
  add(line: JournalLine<unknown>): void {
    const record = line.record as { kind?: unknown; raceId?: unknown; afterLevel?: unknown; decision?: unknown };
    if (record.kind === 'floor-called') {
      this.calledAt = { seq: line.seq, raceId: typeof record.raceId === 'string' ? record.raceId : null };
      return;
    }
    if (record.kind === 'floor-decision') {
      if (record.decision === 'race-closed' && typeof record.raceId === 'string' && isFloorsDecision(record, this.decided())) this.closedOnFloor.add(record.raceId);
      return;
    }
    if (record.kind === 'break-marked') {
      const next = typeof record.afterLevel === 'number' ? record.afterLevel : null;
      if (this.mark !== null && next !== this.mark) {
        // Left: how it stood then is how the floor remembers it (a race still open then is not finished, complete or not).
        const base = this.baseNow(false);
        if (isFinished(base)) this.leftFinished.set(this.mark, { afterLevel: this.mark, base, flag: this.flagNow() });
        else this.leftFinished.delete(this.mark);
      }
      this.mark = next;
      this.abandonedAt = null;
      this.closedByFloor = false;
    }
    if (record.kind === 'race-abandon' && this.mark !== null && typeof record.raceId === 'string' && this.log.progress(this.mark, record.raceId)?.running?.raceId === record.raceId) {
      // Abandoned as the director decided: nothing more for the director to settle.
      if (this.closedOnFloor.has(record.raceId)) this.closedByFloor = true;
      else this.abandonedAt = { seq: line.seq, raceId: record.raceId };
    }
    this.log.add(line);
    if (record.kind === 'race-start' && typeof record.raceId === 'string') {
      this.open = record.raceId;
      this.closedByFloor = false;
    }
    if ((record.kind === 'race-confirm' || record.kind === 'race-abandon') && record.raceId === this.open) this.open = null;
  }

  /** The reading now, the open race complete or not (the race fold's). */
  reading(openComplete: boolean): ColourUpReadingView {
    return { base: this.baseNow(openComplete), flag: this.flagNow(), leftFinished: [...this.leftFinished.values()].sort((a, b) => a.afterLevel - b.afterLevel), marked: this.mark };
  }
}

/** A table's colour-up reading from its status records (STATUS_KINDS, in seq order, the whole journal): ColourUpReading fed them all. */
export function colourUpReadingOf(lines: readonly JournalLine<unknown>[], openComplete: boolean, floorDecisions: readonly KeptDecision[] = []): ColourUpReadingView {
  const reading = new ColourUpReading(undefined, () => floorDecisions);
  for (const line of lines) reading.add(line);
  return reading.reading(openComplete);
}

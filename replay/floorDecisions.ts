import type { JournalLine } from '../journal/read';
import type { FloorCallsView, FloorDecisionNote } from '../protocol/contract';
import type { FollowerCheckpoint, JournalFollower } from './follower';
import { FLOOR_RECORD_KINDS, isFloorRecord } from './floorRecords';

/** A `race-closed` decision as the station keeps it to close its race: the race, the director's note, the decision's seq. */
export interface FloorClosing {
  readonly raceId: string;
  readonly note: string;
  readonly seq: number;
}

/** The decisions the state carries: the latest few of the break (the record slip and the exports read them all from here). */
export const DECISIONS_SHOWN = 5;

/**
 * The station's dealings with the floor, from its journal (replay/floorRecords.ts): the dealer's
 * last call of the floor not yet answered, and every decision of the director on this table, once
 * each (by the floor's id: a decision read again after a restart is not journaled twice). What the
 * screens show (the counts screen's notice), the record slip's decisions on a race and the
 * history export's `floor decision` column come from here. The screens are shown the decisions
 * journaled since the station's break was last marked (`break-marked`: a break entered, or play
 * when the clock left it), so a decision about a break leaves the screens with that break; the
 * dealer's call not yet answered stays until a decision answers it.
 */
export class FloorDecisions implements JournalFollower {
  readonly kinds: readonly string[] = [...FLOOR_RECORD_KINDS, 'break-marked'];
  private decisions: FloorDecisionNote[] = [];
  private called: FloorCallsView['called'] = null;
  /** How many decisions there were when the station's break was last marked: those after it are the screens'. */
  private breakFrom = 0;
  private shown: FloorCallsView | null = null;
  /**
   * The `race-closed` decisions and where each was journaled: only one journaled after its race
   * started closes it (a station's race ids are its own count, so an older decision naming the
   * same id, read by a journal begun afresh, is about another race).
   */
  private closings: FloorClosing[] = [];

  readonly checkpoint: FollowerCheckpoint = {
    name: 'floorDecisions',
    snapshot: () => ({ decisions: this.decisions, called: this.called, closings: this.closings, breakFrom: this.breakFrom }),
    restore: (state) => {
      const { decisions, called, closings, breakFrom } = (state ?? {}) as { decisions?: unknown; called?: unknown; closings?: unknown; breakFrom?: unknown };
      // A checkpoint from before the break's decisions were told apart has no breakFrom: the start replays the journal.
      if (!Array.isArray(decisions) || !Array.isArray(closings) || (called !== null && typeof called !== 'object') || typeof breakFrom !== 'number') throw new Error('floor decisions: not a list of decisions');
      this.breakFrom = breakFrom;
      this.decisions = decisions as FloorDecisionNote[];
      this.called = called as FloorCallsView['called'];
      this.closings = closings as FloorClosing[];
      this.shown = null;
    },
  };

  add(line: JournalLine<unknown>): void {
    const record = line.record;
    if ((record as { kind?: unknown } | null)?.kind === 'break-marked') {
      this.breakFrom = this.decisions.length;
      this.shown = null;
      return;
    }
    if (!isFloorRecord(record) || (record.kind !== 'floor-called' && record.kind !== 'floor-decision')) return;
    if (record.kind === 'floor-called') {
      this.called = { at: line.at, note: record.note, raceId: record.raceId ?? null };
    } else {
      if (record.id <= this.lastId) return;
      this.decisions = [...this.decisions, { id: record.id, decision: record.decision, note: record.note, by: record.by, at: record.at, raceId: record.raceId }];
      if (record.decision === 'race-closed' && record.raceId !== null) this.closings = [...this.closings, { raceId: record.raceId, note: record.note, seq: line.seq }];
      // The floor decided after the call: it is answered.
      this.called = null;
    }
    this.shown = null;
  }

  /** Every decision journaled, oldest first (the table projection's colour-up reading reads a station's own as the floor's: replay/tableProjection.ts). */
  get all(): readonly FloorDecisionNote[] {
    return this.decisions;
  }

  /** The floor's id of the last decision journaled (0: none): the link reads the ones after it. */
  get lastId(): number {
    return this.decisions.at(-1)?.id ?? 0;
  }

  /** The decisions on a race, oldest first. */
  forRace(raceId: string): readonly FloorDecisionNote[] {
    return this.decisions.filter((decision) => decision.raceId === raceId);
  }

  /**
   * The director's last `race-closed` decision on a race (a table broken mid-colour-up) journaled
   * after `startedSeq` (the race's `race-start`), or null: what closes it at the station
   * (RaceCommands.abandonClosedOnFloor).
   */
  closing(raceId: string, startedSeq: number): FloorClosing | null {
    return this.closings.findLast((closing) => closing.raceId === raceId && closing.seq > startedSeq) ?? null;
  }

  /** What the state carries (the latest decisions since the break was marked): the same object until a call, a decision or a mark is journaled. */
  get view(): FloorCallsView {
    this.shown ??= { called: this.called, decisions: this.decisions.slice(Math.max(this.breakFrom, this.decisions.length - DECISIONS_SHOWN)) };
    return this.shown;
  }
}

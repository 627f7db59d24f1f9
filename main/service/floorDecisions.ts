import type { JournalLine } from '../../journal/read';
import type { FloorCallsView, FloorDecisionNote } from '../../protocol/contract';
import type { FollowerCheckpoint, JournalFollower } from '../../replay/follower';
import { FLOOR_RECORD_KINDS, isFloorRecord } from '../../replay/floorRecords';

/** The decisions the state carries: the latest few (the record slip and the exports read them all from here). */
export const DECISIONS_SHOWN = 5;

/**
 * The station's dealings with the floor, from its journal (replay/floorRecords.ts): the dealer's
 * last call of the floor not yet answered, and every decision of the director on this table, once
 * each (by the floor's id: a decision read again after a restart is not journaled twice). What the
 * screens show (the counts screen's notice), the record slip's decisions on a race and the
 * history export's `floor decision` column come from here.
 */
export class FloorDecisions implements JournalFollower {
  readonly kinds = FLOOR_RECORD_KINDS;
  private decisions: FloorDecisionNote[] = [];
  private called: FloorCallsView['called'] = null;
  private shown: FloorCallsView | null = null;

  readonly checkpoint: FollowerCheckpoint = {
    name: 'floorDecisions',
    snapshot: () => ({ decisions: this.decisions, called: this.called }),
    restore: (state) => {
      const { decisions, called } = (state ?? {}) as { decisions?: unknown; called?: unknown };
      if (!Array.isArray(decisions) || (called !== null && typeof called !== 'object')) throw new Error('floor decisions: not a list of decisions');
      this.decisions = decisions as FloorDecisionNote[];
      this.called = called as FloorCallsView['called'];
      this.shown = null;
    },
  };

  add(line: JournalLine<unknown>): void {
    const record = line.record;
    if (!isFloorRecord(record)) return;
    if (record.kind === 'floor-called') {
      this.called = { at: line.at, note: record.note, raceId: record.raceId ?? null };
    } else {
      if (record.id <= this.lastId) return;
      this.decisions = [...this.decisions, { id: record.id, decision: record.decision, note: record.note, by: record.by, at: record.at, raceId: record.raceId }];
      // The floor decided after the call: it is answered.
      this.called = null;
    }
    this.shown = null;
  }

  /** The floor's id of the last decision journaled (0: none): the link reads the ones after it. */
  get lastId(): number {
    return this.decisions.at(-1)?.id ?? 0;
  }

  /** The decisions on a race, oldest first. */
  forRace(raceId: string): readonly FloorDecisionNote[] {
    return this.decisions.filter((decision) => decision.raceId === raceId);
  }

  /** What the state carries: the same object until a call or a decision is journaled. */
  get view(): FloorCallsView {
    this.shown ??= { called: this.called, decisions: this.decisions.slice(-DECISIONS_SHOWN) };
    return this.shown;
  }
}

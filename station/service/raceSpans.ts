import type { JournalLine } from '../../journal/read';
import type { FollowerCheckpoint, JournalFollower, LineSpan } from '../../replay/follower';
import { FLOOR_RECORD_KINDS } from '../../replay/floorRecords';
import { RACE_RECORD_KINDS } from '../../replay/session';
import type { RaceSpan } from './raceRecord';

/**
 * Where each race's lines are in the journal file, from its start's line to the end of its latest:
 * a race's record is read back from these bytes only. Its latest may be the floor's (a call about
 * it, or the director's decision on it, minutes later): the span then reaches that line, and the
 * other races' lines between are passed over when it is read.
 */
export class RaceSpans implements JournalFollower {
  readonly kinds = [...RACE_RECORD_KINDS, ...FLOOR_RECORD_KINDS];
  private spans = new Map<string, RaceSpan>();

  readonly checkpoint: FollowerCheckpoint = {
    name: 'raceSpans',
    snapshot: () => [...this.spans],
    restore: (state) => {
      if (!Array.isArray(state)) throw new Error('race spans: not a list');
      this.spans = new Map(state as [string, RaceSpan][]);
    },
  };

  add(line: JournalLine<unknown>, span: LineSpan): void {
    const { kind, raceId } = line.record as { kind?: unknown; raceId?: unknown };
    if (typeof raceId !== 'string') return;
    const known = this.spans.get(raceId);
    if (kind === 'race-start' && known === undefined) this.spans.set(raceId, span);
    else if (known !== undefined) this.spans.set(raceId, { start: known.start, end: Math.max(known.end, span.end) });
  }

  of(raceId: string): RaceSpan | undefined {
    return this.spans.get(raceId);
  }
}

import type { JournalFinding } from '../journal/findings';
import type { JournalLine } from '../journal/read';
import type { FollowerCheckpoint, JournalFollower } from './follower';
import { applySessionLine, EMPTY_SESSION, type ActiveRace, sessionRestored, sessionSnapshot, SessionReplay, skipped, stepSession, type RaceRecall, type Session, type SessionRecord, type SessionStep } from './session';

const noRecall: RaceRecall = (entry) => {
  throw new Error(`race ${entry.id}: no recall to make its summary`);
};

/**
 * The console's session (races, history, games) as a journal follower. On start it replays with
 * SessionReplay (a race's cards gathered and applied in one batch). Live, a command's record is
 * decided before it is written (`decide`: the engine runs once, and a record it refuses is never
 * written), and the decided step is applied when its line comes back through the followers; any
 * other record (a refusal, a repeat count) is applied as the start applies it. A line that does
 * not fit is passed over live as on start (a finding there), so both end in the same session.
 */
export class SessionProjection implements JournalFollower {
  private replay: SessionReplay | null;
  private current: Session = EMPTY_SESSION;
  private decided: { readonly record: SessionRecord; readonly step: SessionStep } | null = null;
  /** The lines passed over, on start and live: what a start replaying the whole journal would find. */
  private problems: JournalFinding[] = [];
  /** The seq of the last line added: a checkpoint keeps it, so the replay after it still sees a line missing next (SessionReplay's `gaps`). */
  private lastSeq: number | null = null;

  /**
   * `recall`: how a confirmed race's state is made again for its summary (none kept in memory).
   * Without it (the floor's fold, whose checkpoint keeps no history) a confirmed race's state is kept
   * for its summary.
   */
  constructor(private readonly recall?: RaceRecall) {
    this.replay = new SessionReplay(EMPTY_SESSION, [], recall, { gaps: true });
  }

  /** Kept only once the start's replay has ended (a checkpoint is written after the start or after a write). */
  readonly checkpoint: FollowerCheckpoint = {
    name: 'session',
    snapshot: () => {
      if (this.replay !== null) throw new Error('the session is still being replayed');
      return { session: sessionSnapshot(this.current), problems: this.problems, lastSeq: this.lastSeq };
    },
    restore: (state) => {
      const { session, problems, lastSeq } = state as { session: unknown; problems: JournalFinding[]; lastSeq?: unknown };
      if (!Array.isArray(problems)) throw new Error('session: no problems list');
      // The start replays on from it: the lines after the checkpoint as any start replays them.
      const after = typeof lastSeq === 'number' ? lastSeq : undefined;
      this.lastSeq = after ?? null;
      this.replay = new SessionReplay(sessionRestored(session, this.recall ?? noRecall), problems, this.recall, { gaps: true, ...(after === undefined ? {} : { after }) });
    },
  };

  get session(): Session {
    return this.current;
  }

  /** The seq of the last line read (added or passed over; null: none), as the checkpoint keeps it. */
  get lastSeqRead(): number | null {
    return this.lastSeq;
  }

  /** The race open after the lines added so far, while the start replays too (its cards may still wait to be applied). */
  get openRace(): ActiveRace | null {
    return this.replay !== null ? this.replay.openRace : this.current.race;
  }

  /**
   * A line read on start but not applied (SessionReplay.passOver): the floor's fold passes some
   * over itself (replay/tableProjection.ts), and says so, so they are not read as lines missing;
   * `damaged`: one kept as evidence only, which the race open then carries.
   */
  passOver(seq: number, damaged = false): void {
    if (this.replay === null) throw new Error('a line passed over after the start');
    this.lastSeq = seq;
    this.replay.passOver(seq, damaged);
  }

  add(line: JournalLine<unknown>): void {
    const typed = line as JournalLine<SessionRecord>;
    this.lastSeq = line.seq;
    if (this.replay !== null) {
      this.replay.add(typed);
      return;
    }
    const decided = this.decided;
    // A decided step that no longer fits is the console's own fault, not the journal's: it fails the command.
    if (decided !== null && decided.record === line.record) {
      this.decided = null;
      this.current = decided.step(this.current, typed);
      return;
    }
    try {
      this.current = applySessionLine(this.current, typed);
    } catch (error) {
      // Passed over, as the start's replay passes it over (a count for a race that has ended), and
      // found as it finds it.
      this.problems.push(skipped(typed, error));
    }
  }

  /** The start's replay ends: the session the journal holds from now on, and the lines it passed over. */
  started(): JournalFinding[] {
    if (this.replay === null) return [];
    const { session, problems } = this.replay.finish();
    this.current = session;
    this.replay = null;
    this.problems = [...problems];
    return problems;
  }

  /** Runs the engine on `record` before it is written: throws when it does not fit (then nothing is written). */
  decide(record: SessionRecord): void {
    this.decided = { record, step: stepSession(this.current, record) };
  }
}

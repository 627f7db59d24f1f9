import type { JournalLine, JournalNote } from '../../journal/read';
import type { CommandResult, ConsoleState, CoverCheck, JournalReport } from '../../protocol/contract';
import type { SessionRecord } from '../../replay/session';
import type { JournalWriter } from '../journal/journal';
import { failure, ReadOnlyError, SaveError } from './failures';
import type { StationFollowers } from './followers';

/**
 * What a record's write must keep in order: what goes on record before it (refusals only counted
 * so far, station/service/refusalRuns.ts), and what it ends.
 */
export interface WriteOrder {
  before(record: SessionRecord): Promise<void>;
  after(record: SessionRecord): void;
}

/**
 * The station's core: the command queue, the journal writer and its followers, and commit
 * (decide → append → evolve), with the state's listeners. Everything else the console does is a
 * command module built on these four.
 */
export class Kernel {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(state: ConsoleState) => void>();
  private report: JournalReport;
  private seq: number;
  order: WriteOrder = { before: async () => undefined, after: () => undefined };
  /** Told of every line appended, notes too (the floor link follows the file, not its records). */
  outbox: { appended(seq: number): void } | null = null;

  constructor(
    /** null when the journal is read-only (written by a newer version): nothing can be recorded. */
    private readonly journal: JournalWriter<SessionRecord> | null,
    /** What the journal's records make: fed by start-up and every write alike. */
    readonly followers: StationFollowers,
    /** What the journal held at start; only its record count (and an empty chain's verdict) change while the console runs. */
    report: JournalReport,
    lastSeq: number,
    /** The state as the screens see it, assembled without side effects. */
    private readonly states: { getState(): ConsoleState },
  ) {
    this.report = report;
    this.seq = lastSeq;
  }

  get journalReport(): JournalReport {
    return this.report;
  }

  /** What the check of the checkpoint's cover found so far (station/service/coverCheck.ts), said with the journal's report. */
  set coverCheck(check: CoverCheck) {
    this.report = { ...this.report, coverCheck: check };
  }

  /** The journal's last seq. */
  get journalSeq(): number {
    return this.seq;
  }

  /** Runs commands one after another, so each sees the state the previous one left; an error becomes its refusal. */
  serial<T>(work: () => Promise<CommandResult<T>>): Promise<CommandResult<T>> {
    const run = this.queue.then(work, work).catch(failure);
    this.queue = run;
    return run;
  }

  /** Waits for the commands queued so far. */
  async idle(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  /** Closes the journal (once the commands queued have run): nothing more is written or told. */
  async close(): Promise<void> {
    await this.idle();
    await this.journal?.close();
    await this.followers.checkpoint.settled();
    this.listeners.clear();
  }

  onState(listener: (state: ConsoleState) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(): void {
    const state = this.states.getState();
    for (const listener of this.listeners) listener(state);
  }

  /**
   * Journals a command's record, then applies it: the session decides it first (the engine runs
   * once; a record it refuses throws and is never written), the followers apply the line written.
   * The screen never shows what the disk does not hold.
   */
  async commit(record: SessionRecord): Promise<JournalLine<SessionRecord>> {
    this.followers.session.decide(record);
    return this.save(record);
  }

  /** Writes a record in its order (what must go on record before it first). */
  async save(record: SessionRecord): Promise<JournalLine<SessionRecord>> {
    await this.order.before(record);
    const line = await this.write(record);
    this.order.after(record);
    return line;
  }

  /** Appends to the journal and feeds the followers; a write the disk refuses becomes a SaveError (and nothing is kept). */
  async write<R extends SessionRecord | JournalNote>(record: R): Promise<JournalLine<R>> {
    if (this.journal === null) throw new ReadOnlyError(this.report.readOnly);
    let written: Awaited<ReturnType<JournalWriter<SessionRecord>['append']>> & JournalLine<R>;
    try {
      written = await this.journal.append(record);
    } catch (error) {
      throw new SaveError('journal', error);
    }
    this.seq = written.seq;
    this.outbox?.appended(written.seq);
    // Every record, as start-up fed them (a note about the file is no record: start-up never reads it as one).
    if (record.kind !== 'journal') this.followers.registry.add(written, written.span);
    // A race confirmed is a quiet moment: a checkpoint of what the followers hold may be written.
    if (record.kind === 'race-confirm') this.followers.checkpoint.dueSoon();
    // What this console writes is sealed: an empty journal is intact from its first record on.
    const { records, chain } = this.report;
    this.report = { ...this.report, records: records + 1, chain: chain === 'empty' ? 'intact' : chain };
    return written;
  }
}

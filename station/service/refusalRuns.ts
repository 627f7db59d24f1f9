import { performance } from 'node:perf_hooks';
import { englishText, type Message } from '../../engine/messages';
import type { InputSource } from '../../protocol/contract';
import type { Session, SessionRecord } from '../../replay/session';
import { REFUSAL_LIMITS } from '../../replay/sessionRecord';
import { ok } from './failures';
import type { Kernel, WriteOrder } from './kernel';

/** A refusal written again is counted, and the count written at most this often (and when the run ends). */
export const REPEAT_FLUSH_MS = 5000;
/**
 * The most runs of refusals counted at once. Line noise alternates a few kinds (unreadable reads of
 * two or three reasons, cards refused while others wait): each keeps its own count, so none costs
 * a line a read. Beyond this many, the run seen longest ago is let go (its count written), and
 * that refusal, should it come again, is a distinct one.
 */
export const RUNS_KEPT = 16;
/**
 * Distinct refusals journaled one by one from one input source: this many in a row, then one per
 * REFUSAL_REFILL_MS. Beyond that they are counted in memory and written as one record with the
 * count (a script sending thousands of distinct bad cards costs a few lines, not one each).
 */
export const REFUSAL_BURST = 20;
export const REFUSAL_REFILL_MS = 1000;

/** What a refusal is for: the open race or the open game. */
export type RefusalTarget = { readonly raceId: string } | { readonly gameId: string };
export type RefusalRecord = Extract<SessionRecord, { kind: 'refused' | 'game-refused' }>;

/** The race or game open now that `id` names, or null. */
export function refusalTarget(session: Session, id: string): RefusalTarget | null {
  if (session.race?.id === id) return { raceId: id };
  if (session.game?.id === id) return { gameId: id };
  return null;
}

/** The race or game open now, or null. */
export function openRefusalTarget(session: Session): RefusalTarget | null {
  const id = session.race?.id ?? session.game?.id;
  return id === undefined ? null : refusalTarget(session, id);
}

/** Text cut to `max` characters, marked so (a character is never cut in half). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

/**
 * The one way a refusal's record is made, for a race or a game: its reason in keys (`said`) when it
 * has them, and in English. It fits the record's limits (REFUSAL_LIMITS), so it is read back after
 * a restart: a shoe's frame may be far longer than a record's input (a line with no end, a start-up
 * report), and a decoder may quote it in its reason; then the reason is kept in English only, cut.
 */
export function refusalFor(target: RefusalTarget, input: string, reason: string, source: InputSource, said?: Message): RefusalRecord {
  const fits = said !== undefined && JSON.stringify(said).length <= REFUSAL_LIMITS.said;
  const why = { reason: cut(reason, REFUSAL_LIMITS.reason), ...(fits ? { said } : {}) };
  const read = cut(input, REFUSAL_LIMITS.input);
  return 'raceId' in target ? { kind: 'refused', raceId: target.raceId, input: read, ...why, source } : { kind: 'game-refused', gameId: target.gameId, input: read, ...why, source };
}

/** The refusal in record `of` came again `count` more times. */
function againFor(target: RefusalTarget, of: number, count: number): SessionRecord {
  return 'raceId' in target ? { kind: 'refused-again', raceId: target.raceId, of, count } : { kind: 'game-refused-again', gameId: target.gameId, of, count };
}

const targetOfRecord = (record: RefusalRecord): RefusalTarget => (record.kind === 'refused' ? { raceId: record.raceId } : { gameId: record.gameId });

/** The journal as the refusals use it: the kernel's commands, writes and state (a stand-in in the tests of the runs alone). */
export type RefusalJournal = Pick<Kernel, 'serial' | 'save' | 'write' | 'publish'>;

export interface RefusalRunOptions {
  /** A clock that only goes forward, ms (performance.now unless given: tests give their own). */
  readonly monotonic?: (() => number) | undefined;
  /** How long a run of refusals is counted in memory before its count is written. */
  readonly repeatFlushMs?: number;
  /** Distinct refusals written one by one per input source before they are only counted, and how often one more is. */
  readonly refusalBurst?: number;
  readonly refusalRefillMs?: number;
}

/** A refusal written, and how often it came again since (not yet written). */
interface Run {
  readonly of: number;
  readonly target: RefusalTarget;
  count: number;
  /** When its refusal or its last count was written. */
  since: number;
}

const isRefusal = (record: SessionRecord): boolean => record.kind === 'refused' || record.kind === 'game-refused';
const isCount = (record: SessionRecord): boolean => record.kind === 'refused-again' || record.kind === 'game-refused-again';

/**
 * Refusals kept on record without a line for each: a refusal that comes again before the next
 * record that is no refusal (a card, the race's end) is counted against its first record, several
 * kinds at once (RUNS_KEPT), and distinct ones beyond a source's burst are counted too; every count
 * is written before the next record (the kernel's write order), within its time, and on close, so
 * none is ever lost.
 */
export class RefusalRuns implements WriteOrder {
  /** The refusals written since the last record that is no refusal, by what makes one the same (refuse's key), the one seen last at the end. */
  private readonly runs = new Map<string, Run>();
  private runsTimer: NodeJS.Timeout | undefined;
  /** Per input source: the distinct refusals it may still have journaled one by one (a token bucket), and when that was reckoned. */
  private readonly refusalTokens = new Map<InputSource, { tokens: number; at: number }>();
  /** Per input source: the distinct refusals only counted (over its bucket), for the race or game they were for. */
  private readonly uncounted = new Map<InputSource, { readonly target: RefusalTarget; readonly first: RefusalRecord; count: number }>();
  private uncountedTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly kernel: RefusalJournal,
    private readonly options: RefusalRunOptions,
  ) {}

  private monotonic(): number {
    return this.options.monotonic?.() ?? performance.now();
  }

  private get burst(): number {
    return this.options.refusalBurst ?? REFUSAL_BURST;
  }

  private get refillMs(): number {
    return this.options.refusalRefillMs ?? REFUSAL_REFILL_MS;
  }

  private get flushMs(): number {
    return this.options.repeatFlushMs ?? REPEAT_FLUSH_MS;
  }

  /**
   * Before any record but a count: the counts not yet written go on record (a card, the race's end
   * come after them). Before a refusal, the runs go on past it: their counts wait.
   */
  async before(record: SessionRecord): Promise<void> {
    if (isCount(record)) return;
    if (!isRefusal(record)) await this.flushRuns();
    await this.flushUncounted();
  }

  /** A record that is no refusal ends every run: the same refusal after it is written again, in its place. */
  after(record: SessionRecord): void {
    if (!isRefusal(record)) this.runs.clear();
  }

  /**
   * Keeps a refusal on record. The same refusal again before the next record that is no refusal
   * (a stuck reader sending one card over and over, line noise) is only counted, whatever other
   * refusals came between; the count is written before that record, every REPEAT_FLUSH_MS while
   * the run lasts, and on close, so a burst costs a line a kind, not a line a read.
   */
  async refuse(record: RefusalRecord, anyInput = false): Promise<void> {
    // `anyInput`: a run of these is one refusal whatever each input was (cards or frames made of line noise).
    const key = JSON.stringify(anyInput ? { ...record, input: '' } : record);
    const run = this.runs.get(key);
    if (run !== undefined) {
      run.count += 1;
      // Seen again: the last of the runs to be let go.
      this.runs.delete(key);
      this.runs.set(key, run);
      if (this.monotonic() - run.since >= this.flushMs) await this.flushRun(run);
      else this.runsTimer ??= setTimeout(() => {
        this.runsTimer = undefined;
        void this.kernel.serial(async () => {
          await this.flushRuns();
          this.kernel.publish();
          return ok(null);
        });
      }, this.flushMs);
      return;
    }
    if (!this.takeRefusalToken(record.source)) {
      await this.countOnly(record);
      return;
    }
    const line = await this.kernel.save(record);
    this.runs.set(key, { of: line.seq, target: targetOfRecord(record), count: 0, since: this.monotonic() });
    const [oldest] = this.runs;
    if (oldest !== undefined && this.runs.size > RUNS_KEPT) {
      this.runs.delete(oldest[0]);
      if (oldest[1].count > 0) await this.flushRun(oldest[1]);
    }
    // A refusal changes no race or game, but the journal holds one more record: every screen counts it.
    this.kernel.publish();
  }

  /** Whether `source` may have one more distinct refusal journaled now (and takes it). */
  private takeRefusalToken(source: InputSource): boolean {
    const now = this.monotonic();
    const held = this.refusalTokens.get(source) ?? { tokens: this.burst, at: now };
    const tokens = Math.min(this.burst, held.tokens + (now - held.at) / this.refillMs);
    const taken = tokens >= 1;
    this.refusalTokens.set(source, { tokens: taken ? tokens - 1 : tokens, at: now });
    return taken;
  }

  /**
   * Counts a distinct refusal its source's bucket has no room for; the count is written (one
   * record) within REFUSAL_REFILL_MS, before the next record, or on close: never lost.
   */
  private async countOnly(record: RefusalRecord): Promise<void> {
    const target = targetOfRecord(record);
    const counted = this.uncounted.get(record.source);
    if (counted !== undefined && JSON.stringify(counted.target) === JSON.stringify(target)) counted.count += 1;
    else {
      if (counted !== undefined) await this.flushUncounted(record.source);
      this.uncounted.set(record.source, { target, first: record, count: 1 });
    }
    if (this.uncountedTimer === undefined) {
      this.uncountedTimer = setTimeout(() => {
        this.uncountedTimer = undefined;
        void this.kernel.serial(async () => {
          await this.flushUncounted();
          this.kernel.publish();
          return ok(null);
        });
      }, this.refillMs);
    }
  }

  /**
   * Writes the refusals only counted (of `only` source when given): one refusal saying how many,
   * and a repeat count for the rest, so every screen, the race's record and the floor count each.
   * The race or game they were for may have ended: the count is on record all the same.
   */
  private async flushUncounted(only: InputSource | null = null): Promise<void> {
    for (const [source, counted] of [...this.uncounted]) {
      if (only !== null && source !== only) continue;
      this.uncounted.delete(source);
      const said: Message = { key: 'service.refusals.counted', params: { n: counted.count, source: { message: { key: `service.refusals.sources.${source}` } }, burst: this.burst, seconds: this.refillMs / 1000 } };
      // One alone is written as it was; more are one refusal saying how many, and their repeat count.
      const line = await this.kernel.write(counted.count === 1 ? counted.first : refusalFor(counted.target, '', englishText(said), source, said));
      if (counted.count > 1) await this.kernel.write(againFor(counted.target, line.seq, counted.count - 1));
    }
    if (this.uncounted.size === 0) {
      clearTimeout(this.uncountedTimer);
      this.uncountedTimer = undefined;
    }
  }

  /** Writes the count of one run's repeats not yet on record. The race or game it counts for may have ended: the count is on record all the same. */
  private async flushRun(run: Run): Promise<void> {
    await this.kernel.write(againFor(run.target, run.of, run.count));
    run.count = 0;
    run.since = this.monotonic();
  }

  /** Writes the count of every run's repeats not yet on record. */
  private async flushRuns(): Promise<void> {
    clearTimeout(this.runsTimer);
    this.runsTimer = undefined;
    for (const run of [...this.runs.values()]) if (run.count > 0) await this.flushRun(run);
  }

  /** On close: the counts still only in memory go on record before the journal closes. */
  async close(): Promise<void> {
    await this.flushRuns().catch(() => undefined);
    clearTimeout(this.uncountedTimer);
    await this.flushUncounted().catch(() => undefined);
  }
}

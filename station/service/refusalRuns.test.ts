// The refusal runs alone (station/service/refusalRuns.ts), on a journal kept in memory with the
// kernel's write order, a clock of their own and fake timers: whatever refusals come, in whatever
// order, with cards and time between, every one is on record once the runs close; a count is
// written only for a refusal of its race before the next record that is no refusal; and refusals
// of a few kinds, interleaved any way, cost a line a kind, not a line a read. And a refusal's record
// always fits what the journal reads back.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { englishText, type Message } from '../../engine/messages';
import type { JournalLine } from '../../journal/read';
import type { InputSource } from '../../protocol/contract';
import { isSessionRecord, type SessionRecord } from '../../replay/session';
import { REFUSAL_BURST, refusalFor, RefusalRuns, RUNS_KEPT, type RefusalJournal } from './refusalRuns';

/** The journal the runs write to: each record appended, numbered from 1, kept in order. */
class MemoryJournal implements RefusalJournal {
  readonly records: SessionRecord[] = [];
  runs: RefusalRuns | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  // The kernel's write order (Kernel.save): what the runs hold goes on record first.
  async save(record: SessionRecord): Promise<JournalLine<SessionRecord>> {
    await this.runs?.before(record);
    const line = await this.write(record);
    this.runs?.after(record);
    return line;
  }

  async write<R>(record: R): Promise<JournalLine<R>> {
    this.records.push(record as SessionRecord);
    return { seq: this.records.length, at: '', record };
  }

  publish(): void {}
}

/** One refusal of kind `kind`; `anyInput` kinds are a run whatever their input (line noise). */
interface Refuse {
  readonly t: 'refuse';
  readonly kind: number;
  readonly source: InputSource;
  readonly input: string;
}
/** A record that is no refusal: a card dealt, or the next race started. */
type Step = Refuse | { readonly t: 'card' } | { readonly t: 'next race' } | { readonly t: 'wait'; readonly ms: number };

const anyInputKind = (kind: number) => kind % 2 === 1;
const SOURCES: readonly InputSource[] = ['manual', 'shoe', 'scanner'];
/** Any refusal: of one of eight kinds, from any source, of one of a few inputs. */
const anyRefusal: fc.Arbitrary<Refuse> = fc.record({ t: fc.constant('refuse' as const), kind: fc.nat({ max: 7 }), source: fc.constantFrom(...SOURCES), input: fc.constantFrom('Ah', 'zz', 'Z77', '\\xf8\\x80') });
/** A refusal of one of `kinds` kinds, each from its own source; the input of a kind that is a run whatever its input, any. */
const refusalOfKinds = (kinds: number): fc.Arbitrary<Refuse> =>
  fc.tuple(fc.nat({ max: kinds - 1 }), fc.nat({ max: 9999 })).map(([kind, noise]) => ({ t: 'refuse', kind, source: SOURCES[kind % SOURCES.length] as InputSource, input: anyInputKind(kind) ? `\\xf8${noise}` : `in${kind}` }));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 40, arbitrary: anyRefusal },
  { weight: 1, arbitrary: fc.constant({ t: 'card' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'next race' as const }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 7000 }) }) },
);

/** Plays the steps, then closes the runs; the journal's records. */
async function play(steps: readonly Step[]): Promise<SessionRecord[]> {
  const journal = new MemoryJournal();
  const runs = new RefusalRuns(journal, { monotonic: () => Date.now() });
  journal.runs = runs;
  let race = 1;
  for (const next of steps) {
    if (next.t === 'wait') await vi.advanceTimersByTimeAsync(next.ms);
    else if (next.t === 'card') await journal.serial(() => journal.save({ kind: 'race-event', raceId: `race-${race}`, event: { type: 'card', card: 'Ah' }, source: 'manual' }));
    else if (next.t === 'next race') {
      await journal.serial(() => journal.save({ kind: 'race-abandon', raceId: `race-${race}`, reason: 'the next race' }));
      race += 1;
    } else {
      const record = refusalFor({ raceId: `race-${race}` }, next.input, `reason ${next.kind}`, next.source);
      await journal.serial(() => runs.refuse(record, anyInputKind(next.kind)));
    }
  }
  await journal.serial(() => runs.close());
  return journal.records;
}

const isRefused = (record: SessionRecord): record is Extract<SessionRecord, { kind: 'refused' }> => record.kind === 'refused';
const isAgain = (record: SessionRecord): record is Extract<SessionRecord, { kind: 'refused-again' }> => record.kind === 'refused-again';
/** The refusals the records count: each refusal once, each repeat count in full. */
const onRecord = (records: readonly SessionRecord[]) => records.reduce((sum, record) => sum + (isRefused(record) ? 1 : isAgain(record) ? record.count : 0), 0);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('refusal runs', () => {
  it('keep every refusal on record, each count against a refusal of its race written before the next record that is no refusal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 300, size: 'max' }), async (steps) => {
        const records = await play(steps);
        expect(onRecord(records)).toBe(steps.filter((next) => next.t === 'refuse').length);
        records.forEach((record, index) => {
          if (!isAgain(record)) return;
          const of = records[record.of - 1];
          expect(of !== undefined && isRefused(of) && of.raceId === record.raceId).toBe(true);
          // Between the refusal and its count: only refusals and counts.
          expect(records.slice(record.of, index).every((between) => isRefused(between) || isAgain(between))).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('count refusals of a few kinds in any order, one after the other or interleaved, as a line a kind and its count', async () => {
    const kinds = Math.min(RUNS_KEPT, REFUSAL_BURST, 6);
    await fc.assert(
      fc.asyncProperty(fc.array(refusalOfKinds(kinds), { minLength: 1, maxLength: 2000, size: 'max' }), async (steps) => {
        const records = await play(steps);
        const used = new Set(steps.map((next) => next.kind));
        expect(records.filter(isRefused)).toHaveLength(used.size);
        expect(records.filter(isAgain).length).toBeLessThanOrEqual(used.size);
        expect(onRecord(records)).toBe(steps.length);
      }),
      { numRuns: 200 },
    );
  });

  it('5,000 reads of two kinds in turn (an unreadable frame, a card refused) cost two lines and two counts', async () => {
    const steps: Refuse[] = Array.from({ length: 5000 }, (_, index) => ({ t: 'refuse', kind: index % 2, source: 'shoe', input: index % 2 === 0 ? 'Z77' : `\\xf8${index}` }));
    const records = await play(steps);
    expect(records.map((record) => (isRefused(record) ? ['refused', record.input] : isAgain(record) ? ['again', record.of, record.count] : [record.kind]))).toEqual([
      ['refused', 'Z77'],
      ['refused', '\\xf81'],
      ['again', 1, 2499],
      ['again', 2, 2499],
    ]);
  });
});

describe("a refusal's record", () => {
  it('fits what the journal reads back, however long the frame it was made of; a reason that quotes it all is kept in English, cut', () => {
    const frame = `\\xf8${'A'.repeat(70_000)}`;
    const said: Message = { key: 'hardware.decoder.patternNotACard', params: { code: frame } };
    const record = refusalFor({ raceId: 'race-1' }, frame, englishText(said), 'shoe', said);
    expect(isSessionRecord(record)).toBe(true);
    expect(record).toEqual({ kind: 'refused', raceId: 'race-1', input: `${frame.slice(0, 255)}…`, reason: `${englishText(said).slice(0, 999)}…`, source: 'shoe' });
    // A card's symbol takes two UTF-16 units: the cut never leaves half of one.
    const cards = refusalFor({ gameId: 'game-1' }, '🂡'.repeat(200), 'not a card code', 'shoe', { key: 'hardware.decoder.notACardCode' });
    expect(isSessionRecord(cards)).toBe(true);
    expect(cards).toMatchObject({ kind: 'game-refused', input: `${'🂡'.repeat(127)}…`, said: { key: 'hardware.decoder.notACardCode' } });
  });
});

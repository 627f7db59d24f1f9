// The order checks from runs of consecutive records (PlacedRecords' segments) find exactly what
// the checks entry by entry find, on any placing: numbers going up with gaps, damaged lines'
// numbers, broken links, altered (flagged) records, and numbers going back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryFindings, orderFindings, PlacedRecords, type Placed } from './order';

interface Add {
  readonly seq: number;
  readonly linked: boolean | null;
  readonly flagged: boolean;
}

const step = fc.record({ jump: fc.oneof(fc.constant(1), fc.constant(1), fc.constant(1), fc.integer({ min: -3, max: 4 })), linked: fc.constantFrom<boolean | null>(true, true, true, null, false), flagged: fc.integer({ min: 0, max: 9 }).map((value) => value === 0) });

function placings(steps: ReadonlyArray<{ jump: number; linked: boolean | null; flagged: boolean }>, start: number): Add[] {
  let seq = start - 1;
  return steps.map(({ jump, linked, flagged }) => {
    seq = Math.max(1, seq + jump);
    return { seq, linked, flagged };
  });
}

describe('the order checks from runs', () => {
  it('find what the checks entry by entry find, on any placing', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.integer({ min: 1, max: 3 }), fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 4 }), (steps, start, damaged) => {
        const adds = placings(steps, start);
        const records = new PlacedRecords();
        for (const { seq, linked, flagged } of adds) records.add(seq, linked, flagged);
        const entries: Placed[] = adds.map(({ seq, linked, flagged }, index) => ({ seq, linked, flagged, index }));
        const accounted = new Set(damaged);
        const expected = accounted.size === 0 && records.inOrder ? [] : entryFindings(entries, accounted);
        expect(orderFindings(records, accounted)).toEqual(expected);
        expect(records.length).toBe(adds.length);
        expect(records.seqs()).toEqual(adds.map((add) => add.seq));
        expect(records.last).toBe(adds.at(-1)?.seq);
      }),
      { numRuns: 3000 },
    );
  });

  it('keep a journal with a damaged line as two runs, not an entry a record', () => {
    const records = new PlacedRecords();
    for (let seq = 1; seq <= 100_000; seq += 1) if (seq !== 500) records.add(seq, seq === 501 ? null : true, false);
    expect(records.runs()).toHaveLength(2);
    expect(orderFindings(records, new Set([500]))).toEqual([]);
    expect(orderFindings(records, new Set())).toEqual([{ code: 'missing', seq: 500, last: 500 }]);
  });
});

import { describe, expect, it } from 'vitest';
import { readChipExchange } from '../engine/race/exchange';
import { chipExchangeRecord } from '../replay/chipExchange';
import { foldLines, tableSheet, type FoldedRace, type FoldLine } from './fold';

// The fold of chips exchanged outside a race (chip-exchange records): on the sheet of the break
// the table showed when they were recorded, what they give read with the engine's arithmetic,
// a record the station's reader refuses passed over, one beyond the fold's numbers reported.

const AT = '2026-12-04T20:00:00.000Z';
const lineOf = (seq: number, record: unknown, at: string | null = AT): FoldLine => ({ seq, at, record });
const lateFound = (count: number, raceId = 'race-1') => chipExchangeRecord(readChipExchange({ reason: 'late-found', raceId, seat: 2, removed: 25, next: 100, count, note: 'under the rail' }));
const discretionary = (count: number) => chipExchangeRecord(readChipExchange({ reason: 'discretionary', removed: 100, next: 500, count, note: 'Matti asked' }));
const marked = (afterLevel: number | null) => ({ kind: 'break-marked', afterLevel });

/** A confirmed race at a break, as tableSheet reads one: 10 × 25 in, 3 × 100 out. */
const race = (level: number | null, firstSeq: number): Pick<FoldedRace, 'level' | 'firstSeq' | 'status' | 'sheet'> => ({ level, firstSeq, status: 'confirmed', sheet: { bring: { 100: 3 }, collect: { 25: 10 } } });

describe('the fold of chips exchanged outside a race', () => {
  it('reads what each gives (never stored by the station) and puts it on the break marked before it', () => {
    const fold = foldLines([lineOf(1, marked(2)), lineOf(2, lateFound(5)), lineOf(3, discretionary(7)), lineOf(4, marked(6)), lineOf(5, lateFound(8))], 5);
    expect(fold.exchanges.map(({ seq, reason, raceId, seat, given, lost, valueDelta, afterLevel, note }) => ({ seq, reason, raceId, seat, given, lost, valueDelta, afterLevel, note }))).toEqual([
      { seq: 2, reason: 'late-found', raceId: 'race-1', seat: 2, given: 1, lost: 1, valueDelta: -25, afterLevel: 2, note: 'under the rail' },
      { seq: 3, reason: 'discretionary', raceId: null, seat: null, given: 1, lost: 2, valueDelta: -200, afterLevel: 2, note: 'Matti asked' },
      // Found after the next break was marked: on that round's sheet (the chip audit lists it against race-1).
      { seq: 5, reason: 'late-found', raceId: 'race-1', seat: 2, given: 2, lost: 0, valueDelta: 0, afterLevel: 6, note: 'under the rail' },
    ]);
    expect(fold.problems).toEqual([]);
    // The break's sheet: its races' chips and its exchanges', each side added up.
    expect(tableSheet([race(2, 10)], 2, fold.exchanges)).toEqual({ afterLevel: 2, bring: { 100: 4, 500: 1 }, collect: { 25: 15, 100: 7 } });
    expect(tableSheet([race(2, 10)], 6, fold.exchanges)).toEqual({ afterLevel: 6, bring: { 100: 2 }, collect: { 25: 8 } });
  });

  it('with the break unmarked, puts it on the last race’s break, as the sheet then was; before any break, on none', () => {
    const none = foldLines([lineOf(1, lateFound(4))], 1);
    expect(none.exchanges[0]?.afterLevel).toBeNull();
    expect(tableSheet([], null, none.exchanges)).toEqual({ afterLevel: null, bring: {}, collect: {} });
    const unmarked = foldLines([lineOf(1, marked(2)), lineOf(2, marked(null)), lineOf(3, discretionary(5))], 3);
    // No race started at a break in these lines: the break marked last is not the sheet's once unmarked.
    expect(unmarked.exchanges[0]?.afterLevel).toBeNull();
    const resumed = foldLines([lineOf(4, discretionary(5))], 4, { ...unmarked.state, lastRaceLevel: 2 });
    expect(resumed.exchanges[0]?.afterLevel).toBe(2);
  });

  it('goes on from where an earlier fold stopped: the break marked in an earlier batch', () => {
    const lines = [lineOf(1, marked(2)), lineOf(2, lateFound(5)), lineOf(3, marked(6)), lineOf(4, discretionary(10))];
    const whole = foldLines(lines, 4);
    for (let split = 1; split < lines.length; split += 1) {
      const first = foldLines(lines.slice(0, split), split);
      const second = foldLines(lines.slice(split), 4, JSON.parse(JSON.stringify(first.state)));
      expect([...first.exchanges, ...second.exchanges], `split after ${split}`).toEqual(whole.exchanges);
    }
  });

  it('passes over a record the station’s reader refuses, and reports one beyond the fold’s numbers or its time', () => {
    const fold = foldLines(
      [
        lineOf(1, marked(2)),
        lineOf(2, { ...lateFound(5), given: 9 }),
        lineOf(3, { ...discretionary(7), note: '' }),
        lineOf(4, { ...lateFound(5), raceId: null }),
        lineOf(5, { ...lateFound(5), count: 2 ** 40 }),
        lineOf(6, lateFound(5), null),
        lineOf(7, lateFound(4)),
      ],
      7,
    );
    expect(fold.exchanges.map((exchange) => exchange.seq)).toEqual([7]);
    expect(fold.problems).toEqual([{ seq: 5, reason: 'number-out-of-range' }, { seq: 6, reason: 'bad-time' }]);
  });
});

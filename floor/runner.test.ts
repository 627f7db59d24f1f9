import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addChips, type ChipsByDenomination } from '../engine/race/summary';
import type { TableStatus } from './fold';
import { reconcile, runnerBreak, runnerName, sheetDifferences, type RunnerTick } from './runner';

const chips = fc.dictionary(fc.constantFrom('25', '100', '500', '1000'), fc.integer({ min: 0, max: 40 }), { maxKeys: 4 }) as fc.Arbitrary<ChipsByDenomination>;
const table = (name: string, bring: ChipsByDenomination, collect: ChipsByDenomination, sheetAfterLevel: number | null): TableStatus => ({
  table: name, races: 1, valueDelta: 0, lastSeen: null, colourUp: 'done', behind: 0, openRace: null, corrections: 0, refusals: 0, abandoned: 0, chips: [], failures: [], foldBehind: 0, foldProblems: [], damaged: [], bring, collect, sheetAfterLevel,
});
const value = (sheet: ChipsByDenomination) => Object.entries(sheet).reduce((total, [chip, count]) => total + Number(chip) * count, 0);
const nonEmpty = (sheet: ChipsByDenomination) => Object.values(sheet).some((count) => count > 0);

describe("the chip runner's reconciliation", () => {
  it('adds the tables up, values each sheet, and flags exactly the tables not ticked as their sheets say', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ bring: chips, collect: chips, level: fc.constantFrom(2, 3, null), deliveredAs: fc.option(chips, { nil: undefined }), collectedAs: fc.option(chips, { nil: undefined }), same: fc.boolean() }), { maxLength: 30 }),
        (rows) => {
          const tables = rows.map((row, index) => table(`T${index}`, row.bring, row.collect, row.level));
          const ticks: RunnerTick[] = rows.flatMap((row, index) => [
            ...(row.deliveredAs === undefined ? [] : [{ table: `T${index}`, afterLevel: 3, kind: 'delivered' as const, by: 'Anna', at: '2026-12-04T20:00:00.000Z', chips: row.same ? row.bring : row.deliveredAs }]),
            ...(row.collectedAs === undefined ? [] : [{ table: `T${index}`, afterLevel: 3, kind: 'collected' as const, by: 'Anna', at: '2026-12-04T20:00:00.000Z', chips: row.same ? row.collect : row.collectedAs }]),
          ]);
          const done = reconcile({ tables }, ticks, 3);
          const at3 = rows.map((row, index) => ({ row, index })).filter(({ row }) => row.level === 3);
          expect(done.tables.map((each) => each.table)).toEqual(at3.map(({ index }) => `T${index}`));
          expect(done.totals.bring).toEqual(addChips(...at3.map(({ row }) => row.bring)));
          expect(done.totals.collect).toEqual(addChips(...at3.map(({ row }) => row.collect)));
          expect(done.totals.valueCreated).toBe(done.totals.addedValue - done.totals.removedValue);
          for (const [position, { row }] of at3.entries()) {
            const reconciled = done.tables[position];
            expect(reconciled?.removedValue).toBe(value(row.collect));
            expect(reconciled?.addedValue).toBe(value(row.bring));
            const delivered = row.deliveredAs === undefined ? null : row.same ? row.bring : row.deliveredAs;
            const collected = row.collectedAs === undefined ? null : row.same ? row.collect : row.collectedAs;
            const differs = (sheet: ChipsByDenomination, ticked: ChipsByDenomination | null) => ticked !== null && sheetDifferences('delivered', sheet, ticked).length > 0;
            const owed = (nonEmpty(row.bring) && delivered === null) || (nonEmpty(row.collect) && collected === null);
            expect(reconciled?.flagged).toBe(owed || differs(row.bring, delivered) || differs(row.collect, collected));
          }
          expect(done.totals.flagged).toBe(done.tables.filter((each) => each.flagged).length);
        },
      ),
    );
  });

  it('says what is owed: chips still to bring, or taken too many, per denomination', () => {
    expect(sheetDifferences('delivered', { 100: 3 }, { 100: 2 })).toEqual([{ kind: 'delivered', chip: 100, more: 1 }]);
    expect(sheetDifferences('collected', { 25: 8 }, { 25: 9, 100: 0 })).toEqual([{ kind: 'collected', chip: 25, more: -1 }]);
    expect(sheetDifferences('delivered', { 100: 3 }, { 100: 3 })).toEqual([]);
  });

  it('lists the exchanges outside a race on a table’s sheet beside its chips (already in them), and values them with the races’', () => {
    const exchange = { reason: 'late-found', raceId: 'race-1', seat: 1, removed: 25, count: 5, next: 100, note: '', given: 1, lost: 1, valueDelta: -25, seq: 9, at: '2026-12-04T20:00:00.000Z', afterLevel: 3 } as const;
    const done = reconcile({ tables: [{ ...table('7', { 100: 4 }, { 25: 15 }, 3), exchanges: [exchange] }, table('8', { 100: 3 }, { 25: 10 }, 3)] }, [], 3);
    expect(done.tables.map((each) => each.exchanges)).toEqual([[exchange], []]);
    expect(done.tables[0]).toMatchObject({ removedValue: 375, addedValue: 400, valueCreated: 25, flagged: true });
  });

  it('works the latest break on any sheet, and takes a runner’s name as a person writes it', () => {
    expect(runnerBreak({ tables: [table('7', {}, {}, 2), table('8', {}, {}, 6), table('9', {}, {}, null)] })).toBe(6);
    expect(runnerBreak({ tables: [] })).toBeNull();
    expect(runnerName('  Anna  ')).toBe('Anna');
    expect(runnerName('')).toBeNull();
    expect(runnerName('x'.repeat(41))).toBeNull();
    expect(runnerName('Anna\u0007')).toBeNull();
  });
});

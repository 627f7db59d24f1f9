import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusal } from '../testing';
import { structureFromCsv, structureToCsv, type StructureInput } from './csv';
import { colorUpSummary, planColorUps } from './planner';
import { expectSaid } from '../messages/testing';

const EXAMPLE: StructureInput = {
  chips: [25, 100, 500, 1000, 5000],
  levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100, ante: 25 }, { break: 15 }, { sb: 100, bb: 200 }],
  startingStack: 10000,
  rebuys: { amount: 10000, untilLevel: 4 },
};

describe('structure sheets (CSV)', () => {
  it('writes one row per line and reads it back to the same structure and the same plan', () => {
    const csv = structureToCsv(EXAMPLE);
    expect(csv).toBe('chips,25,100,500,1000,5000\r\nstarting stack,10000\r\nrebuys,10000,4\r\nlevel,25,50\r\nlevel,50,100,25\r\nbreak,15\r\nlevel,100,200\r\n');
    expect(structureFromCsv(csv)).toEqual(EXAMPLE);
    expect(colorUpSummary(planColorUps(structureFromCsv(csv)))).toEqual(colorUpSummary(planColorUps(EXAMPLE)));
  });

  it('accepts semicolons and tabs (spreadsheet exports in Finnish and Russian locales) and blank lines', () => {
    expect(structureFromCsv('chips;25;100\n\nlevel;25;50\nbreak\t10\n')).toEqual({ chips: [25, 100], levels: [{ sb: 25, bb: 50 }, { break: 10 }] });
  });

  it.each([
    ['level,25,fifty', 'line 2, big blind', /"fifty" is not a whole number/],
    ['blinds,25,50', 'line 2', /starts with "blinds"/],
    ['level,-25,50', 'line 2, small blind', /"-25" is not a whole number/],
  ])('refuses %j naming %s', (line, field, reason) => {
    const error = refusal(() => structureFromCsv(`chips,25,100\n${line}\n`));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
    expectSaid(error);
  });

  it("keeps a level's minutes in a fifth cell, the ante left empty when it has none", () => {
    const timed: StructureInput = { chips: [25, 100], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, ante: 25, minutes: 15 }, { break: 10 }, { sb: 100, bb: 200 }] };
    const csv = structureToCsv(timed);
    expect(csv).toBe('chips,25,100\r\nlevel,25,50,,20\r\nlevel,50,100,25,15\r\nbreak,10\r\nlevel,100,200\r\n');
    expect(structureFromCsv(csv)).toEqual(timed);
    expect(refusal(() => structureFromCsv('chips,25\nlevel,25,50,,twenty\n')).field).toBe('line 2, minutes');
  });

  it('needs a chips line', () => {
    expect(refusal(() => structureFromCsv('level,25,50\n')).field).toBe('chips');
  });

  it('round-trips any structure', () => {
    const level = fc.oneof(
      fc.record({ sb: fc.integer({ min: 1, max: 10_000 }), bb: fc.integer({ min: 1, max: 20_000 }), ante: fc.integer({ min: 1, max: 5000 }) }, { requiredKeys: ['sb', 'bb'] }),
      fc.record({ break: fc.integer({ min: 1, max: 60 }) }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 8 }), fc.array(level, { maxLength: 20 }), (chips, levels) => {
        const structure = { chips: [...chips].sort((a, b) => a - b), levels };
        expect(structureFromCsv(structureToCsv(structure))).toEqual(structure);
      }),
    );
  });
});

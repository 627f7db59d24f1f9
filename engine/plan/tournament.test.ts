import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectSaid } from '../messages/testing';
import { RULE_SET_NAMES } from '../race/rules';
import { MAX_DECKS } from '../shoe';
import { refusal } from '../testing';
import { structureFromCsv, structureToCsv, type StructureInput } from './csv';
import { readHouseRules, readTournamentText, tournamentFromCsv, tournamentFromJson } from './tournament';

const STRUCTURE: StructureInput = { chips: [25, 100, 500], levels: [{ sb: 25, bb: 50, minutes: 20 }, { break: 10 }, { sb: 50, bb: 100, minutes: 20 }] };

describe('the tournament sheet: the structure and the house rules', () => {
  it('reads rules and decks lines anywhere in the structure sheet, and the structure as the planner does', () => {
    const sheet = `rules,tda\r\n${structureToCsv(STRUCTURE)}decks;2\r\n`;
    expect(tournamentFromCsv(sheet)).toEqual({ structure: STRUCTURE, house: { rules: 'tda', decks: 2 } });
    expect(readTournamentText(sheet)).toEqual(tournamentFromCsv(sheet));
  });

  it('leaves a house rule out when the sheet does not give it (each table keeps its own)', () => {
    expect(tournamentFromCsv(structureToCsv(STRUCTURE))).toEqual({ structure: STRUCTURE, house: {} });
  });

  it('any structure sheet with any house lines inserted reads as the structure and those rules', () => {
    fc.assert(
      fc.property(fc.option(fc.constantFrom(...RULE_SET_NAMES), { nil: undefined }), fc.option(fc.integer({ min: 1, max: MAX_DECKS }), { nil: undefined }), fc.nat(), fc.nat(), (rules, decks, at1, at2) => {
        const rows = structureToCsv(STRUCTURE).trim().split('\r\n');
        if (rules !== undefined) rows.splice(at1 % (rows.length + 1), 0, `RULES, ${rules}`);
        if (decks !== undefined) rows.splice(at2 % (rows.length + 1), 0, `decks\t${decks}`);
        expect(tournamentFromCsv(rows.join('\n'))).toEqual({ structure: STRUCTURE, house: { ...(rules === undefined ? {} : { rules }), ...(decks === undefined ? {} : { decks }) } });
      }),
    );
  });

  it('reads the race settings a house chooses on its own over the rule set’s, by the rules page’s names (issue 25)', () => {
    const sheet = `rules,tda\naward,high-card-takes-all\n${structureToCsv(STRUCTURE)}DEALSTART;button\nrounding,pooled-more-than-half\nprotection, exempt\n`;
    expect(tournamentFromCsv(sheet)).toEqual({ structure: STRUCTURE, house: { rules: 'tda', award: 'high-card-takes-all', dealStart: 'button', rounding: 'pooled-more-than-half', protection: 'exempt' } });
    expect(tournamentFromJson({ structure: STRUCTURE, award: 'high-card-takes-all', dealStart: 'button' })).toEqual({ structure: STRUCTURE, house: { award: 'high-card-takes-all', dealStart: 'button' } });
    expect(tournamentFromJson({ ...STRUCTURE, rounding: 'pooled-more-than-half' })).toEqual({ structure: STRUCTURE, house: { rounding: 'pooled-more-than-half' } });
    expect(readHouseRules({ award: 'one-chip-each', protection: null })).toEqual({ award: 'one-chip-each' });
  });

  it.each([
    ['award,winner-takes-all', 'line 1', /unknown value "winner-takes-all"; choose one of one-chip-each, high-card-takes-all/],
    ['dealStart,dealer', 'line 1', /choose one of left-of-button, seat-1, button/],
    ['rounding,', 'line 1', /choose one of pooled-half-up, pooled-more-than-half/],
  ])('refuses the race setting %j naming %s, in every language', (line, field, reason) => {
    const error = refusal(() => tournamentFromCsv(`${line}\nchips,25,100\nlevel,25,50\n`));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
    expectSaid(error);
  });

  it('refuses an unknown race setting of the house naming its field', () => {
    expect(refusal(() => readHouseRules({ award: 'all' })).field).toBe('award');
    expect(refusal(() => readHouseRules({ dealStart: 1 }, 'house')).field).toBe('house.dealStart');
    expect(refusal(() => tournamentFromJson({ structure: STRUCTURE, protection: 'none' })).field).toBe('protection');
    expect(refusal(() => tournamentFromCsv('award,one-chip-each\nchips,25,100\naward,high-card-takes-all\n')).field).toBe('line 3');
  });

  it("keeps the sheet's own line numbers in the structure's refusals", () => {
    const error = refusal(() => tournamentFromCsv('rules,tda\ndecks,2\nchips,25,100\nlevel,25,fifty\n'));
    expect(error.field).toBe('line 4, big blind');
    expect(refusal(() => structureFromCsv('\n\nchips,25,100\nlevel,25,fifty\n')).field).toBe(error.field);
  });

  it.each([
    ['rules,poker', 'line 1', /rule set must be one of classic, tda, roberts, round \(got "poker"\)/],
    ['decks,0', 'line 1', /from 1 to 8 \(got "0"\)/],
    ['decks,9', 'line 1', /from 1 to 8/],
    ['decks,two', 'line 1', /from 1 to 8/],
  ])('refuses %j naming %s, in every language', (line, field, reason) => {
    const error = refusal(() => tournamentFromCsv(`${line}\nchips,25,100\nlevel,25,50\n`));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
    expectSaid(error);
  });

  it('refuses a house line given twice, naming the second', () => {
    const error = refusal(() => tournamentFromCsv('rules,tda\nchips,25,100\nrules,classic\n'));
    expect(error.field).toBe('line 3');
    expectSaid(error);
  });

  it('reads the JSON forms: wrapped, or a bare structure with rules and decks beside it', () => {
    expect(tournamentFromJson({ structure: STRUCTURE, rules: 'roberts', decks: 1 })).toEqual({ structure: STRUCTURE, house: { rules: 'roberts', decks: 1 } });
    expect(tournamentFromJson({ ...STRUCTURE, decks: 3 })).toEqual({ structure: STRUCTURE, house: { decks: 3 } });
    expect(readTournamentText(JSON.stringify({ ...STRUCTURE, rules: 'classic' }))).toEqual({ structure: STRUCTURE, house: { rules: 'classic' } });
    expect(refusal(() => readHouseRules({ rules: 'classic', decks: 1.5 })).field).toBe('decks');
    expect(readHouseRules(null)).toEqual({});
  });
});

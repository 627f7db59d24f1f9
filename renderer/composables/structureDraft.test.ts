import { describe, expect, it } from 'vitest';
import { expectSaid } from '../../engine/messages/testing';
import { planColorUps, proposeColorUp } from '../../engine/plan/planner';
import { refusal } from '../../engine/testing';
import { makeRaceView, makeTable, TOURNAMENT_STRUCTURE } from '../testing/fixtures';
import {
  colorUpSteps,
  draftFromStructure,
  fieldTarget,
  isMoment,
  levelAt,
  momentsOf,
  newBreak,
  newLevel,
  structureFromDraft,
  structureFromJson,
} from './structureDraft';
import { tableWithChips } from '../../protocol/colorUp';

describe('the structure draft', () => {
  it('turns a structure into rows and back unchanged', () => {
    const draft = draftFromStructure(TOURNAMENT_STRUCTURE, [1, 2]);
    expect(draft.chips).toEqual([25, 100, 500, 1000]);
    expect(draft.rows.map((row) => row.kind)).toEqual(['level', 'level', 'break', 'level', 'level', 'level', 'level', 'break', 'level', 'level']);
    expect(structureFromDraft(draft)).toEqual(TOURNAMENT_STRUCTURE);
  });

  it('starts an empty draft on the table chips', () => {
    const draft = draftFromStructure(null, [25, 100]);
    expect(draft).toMatchObject({ chips: [25, 100], rows: [], startingStack: '', rebuyAmount: '', rebuyUntil: '', orphans: {} });
    expect(structureFromDraft(draft)).toEqual({ chips: [25, 100], levels: [] });
  });

  it('numbers levels without the breaks and finds the colour-up moments', () => {
    const { rows } = draftFromStructure(TOURNAMENT_STRUCTURE, []);
    expect(rows.map((_row, index) => levelAt(rows, index))).toEqual([1, 2, 2, 3, 4, 5, 6, 6, 7, 8]);
    expect(momentsOf(rows)).toEqual([2, 6]);
    expect(momentsOf([newLevel(25, 50), newLevel(50, 100), newLevel(100, 200)])).toEqual([1, 2]);
    // A break before the first level is no moment; of two breaks in a row only the first is.
    const odd = [newBreak(5), newLevel(25, 50), newBreak(5), newBreak(10), newLevel(50, 100)];
    expect(odd.map((_row, index) => isMoment(odd, index))).toEqual([false, false, true, false, false]);
  });

  it('finds the planner\'s own moments (one function), a break before level 1 included', () => {
    const { rows } = draftFromStructure(TOURNAMENT_STRUCTURE, []);
    expect(momentsOf(rows)).toEqual(planColorUps(TOURNAMENT_STRUCTURE).moments);
    // A break before level 1 is no moment, yet the draft has breaks: no moment between levels either.
    const leading = [newBreak(5), newLevel(25, 50), newLevel(50, 100), newLevel(100, 200)];
    expect(momentsOf(leading)).toEqual([]);
    expect(leading.map((_row, index) => isMoment(leading, index))).toEqual([false, false, false, false]);
    const both = [newBreak(5), newLevel(25, 50), newBreak(10), newLevel(50, 100)];
    expect(momentsOf(both)).toEqual([1]);
  });

  it('leaves blank blinds out, so the service names them as missing', () => {
    const draft = draftFromStructure(null, [25, 100]);
    draft.rows.push(newLevel(25, ''), newBreak(''));
    draft.startingStack = 5000;
    draft.rebuyAmount = 5000;
    expect(structureFromDraft(draft)).toEqual({ chips: [25, 100], levels: [{ sb: 25 }, { break: 0 }], startingStack: 5000, rebuys: { amount: 5000 } });
  });

  it('keeps each override with its break, wherever the break moves', () => {
    const draft = draftFromStructure({ ...TOURNAMENT_STRUCTURE, overrides: { '2': [], '6': [25, 100, 500] } }, []);
    expect(draft.rows[2]?.override).toEqual([]);
    expect(draft.rows[7]?.override).toEqual([25, 100, 500]);
    // The first break moves down past level 3: its override now follows level 3.
    const [moved] = draft.rows.splice(2, 1);
    draft.rows.splice(3, 0, moved as (typeof draft.rows)[number]);
    expect(structureFromDraft(draft).overrides).toEqual({ '3': [], '6': [25, 100, 500] });
  });

  it('keeps an override no break or level can hold, so the service names it', () => {
    const draft = draftFromStructure({ chips: [25, 100], levels: [{ sb: 25, bb: 50 }, { break: 5 }, { sb: 50, bb: 100 }], overrides: { '9': [25], '2': [25] } }, []);
    expect(draft.orphans).toEqual({ '9': [25] });
    // No break after level 2: the level row holds it (and shows it, to be cleared).
    expect(draft.rows[2]?.override).toEqual([25]);
    expect(structureFromDraft(draft).overrides).toEqual({ '2': [25], '9': [25] });
  });
});

describe('reading a structure file', () => {
  it('takes a JSON structure', () => {
    expect(structureFromJson(JSON.stringify(TOURNAMENT_STRUCTURE))).toEqual(TOURNAMENT_STRUCTURE);
  });

  it.each([
    ['{"chips": [25', 'file', /^not JSON/],
    ['[1, 2]', 'structure', /JSON object/],
    ['{"levels": []}', 'chips', /list of the chip values/],
    ['{"chips": [25], "levels": [{"sb": "25", "bb": 50}]}', 'levels[0].sb', /must be a number \(got "25"\)/],
    ['{"chips": [25], "levels": [3]}', 'levels[0]', /a level like/],
    ['{"chips": [25], "levels": [], "rebuys": {"amount": "x"}}', 'rebuys.amount', /must be a number/],
    ['{"chips": [25], "levels": [], "overrides": {"4": 25}}', 'overrides.4', /list of chips/],
  ])('refuses %s naming %s', (text, field, message) => {
    expect(() => structureFromJson(text)).toThrow(expect.objectContaining({ field, reason: expect.stringMatching(message) }));
    // Said in the dealer's language on the screen: a message whose keys every catalog has.
    expectSaid(refusal(() => structureFromJson(text)));
  });
});

describe('refused fields', () => {
  it.each([
    ['tournament.structure.levels[3].sb', { kind: 'row', index: 3, part: 'sb' }],
    ['tournament.structure.levels[2]', { kind: 'row', index: 2, part: null }],
    ['tournament.structure.levels[4].break', { kind: 'row', index: 4, part: 'break' }],
    ['tournament.structure.levels', { kind: 'levels' }],
    ['tournament.structure.chips[1]', { kind: 'chips' }],
    ['tournament.structure.startingStack', { kind: 'startingStack' }],
    ['tournament.structure.rebuys.untilLevel', { kind: 'rebuys', part: 'untilLevel' }],
    ['tournament.structure.overrides.4[0]', { kind: 'override', afterLevel: 4 }],
    ['tournament.atBreakAfter', { kind: 'atBreakAfter' }],
    ['table.next', { kind: 'table' }],
    ['source.path', { kind: 'other' }],
  ])('%s', (field, target) => {
    expect(fieldTarget(field)).toEqual(target);
  });
});

describe('the table with the structure chips', () => {
  it('keeps the chip leaving and the next one when they still fit', () => {
    expect(tableWithChips(makeTable(), [25, 100, 1000])).toMatchObject({ chipSet: [25, 100, 1000], removed: 25, next: 100 });
  });

  it('otherwise takes the smallest chip and the next one up that it divides', () => {
    expect(tableWithChips(makeTable(), [5, 25, 100])).toMatchObject({ chipSet: [5, 25, 100], removed: 25, next: 100 });
    expect(tableWithChips(makeTable({ removed: 100, next: 500 }), [20, 50, 100])).toMatchObject({ removed: 50, next: 100 });
  });
});

describe('the proposed colour-up races', () => {
  const plan = planColorUps(TOURNAMENT_STRUCTURE);
  const proposal = proposeColorUp(plan, 6);
  if (proposal === null) throw new Error('the fixture plans a colour-up after level 6');

  it('offers the first race, smallest chip first', () => {
    expect(colorUpSteps(proposal, null, []).map(({ removed, next, state }) => [removed, next, state])).toEqual([
      [100, 500, 'next'],
      [500, 1000, 'waiting'],
    ]);
  });

  it('shows the open race as running and offers nothing meanwhile', () => {
    const race = makeRaceView({ removed: 100, next: 500 });
    expect(colorUpSteps(proposal, race, []).map((step) => step.state)).toEqual(['running', 'waiting']);
  });

  it('offers the next race once the first is confirmed, and none when all are', () => {
    expect(colorUpSteps(proposal, null, [100]).map((step) => step.state)).toEqual(['done', 'next']);
    expect(colorUpSteps(proposal, null, [100, 500]).map((step) => step.state)).toEqual(['done', 'done']);
  });
});

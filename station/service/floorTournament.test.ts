import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StructureInput } from '../../engine/plan/csv';
import { AWARDS, DEAL_STARTS, PROTECTIONS, ROUNDINGS, RULE_SET_NAMES, SETTING_NAMES } from '../../engine/race/rules';
import { MAX_DECKS } from '../../engine/shoe';
import type { ConsoleSettings } from '../../protocol/contract';
import { isInputError } from '../../engine/errors';
import { effectiveSettings, ownSettingsOf } from './floorOverlay';
import { changesFloorTournament, withFloorTournament, withOwnTournament } from './floorTournament';
import { DEFAULT_SETTINGS } from './settings';
import { readSettings } from './settingsSchema';

const FLOOR_STRUCTURES: StructureInput[] = [
  { chips: [25, 100, 500, 1000], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }] },
  { chips: [100, 500, 1000, 5000], levels: [{ sb: 100, bb: 200, minutes: 15 }, { break: 5 }, { sb: 500, bb: 1000, minutes: 15 }, { break: 5 }, { sb: 1000, bb: 2000, minutes: 15 }] },
  { chips: [5, 25, 100], levels: [{ sb: 5, bb: 10, minutes: 10 }, { break: 5 }, { sb: 25, bb: 50, minutes: 10 }] },
];
const OWN_CHIPS = [[25, 100, 500, 1000, 5000], [1, 5, 25, 100], [100, 500, 1000]];
/** Race settings chosen on their own over the rule set's (issue 25), any of them or none. */
const choices = fc.record(
  { rounding: fc.constantFrom(...ROUNDINGS), dealStart: fc.constantFrom(...DEAL_STARTS), protection: fc.constantFrom(...PROTECTIONS), award: fc.constantFrom(...AWARDS) },
  { requiredKeys: [] },
);
const OWN_STRUCTURE: StructureInput = { chips: [25, 100, 500, 1000, 5000], levels: [{ sb: 25, bb: 50 }, { break: 5 }, { sb: 100, bb: 200 }] };

/** A station as a dealer set it up: its chips, rules, decks, maybe its own structure and a break marked. */
const station = fc.record({
  chips: fc.integer({ min: 0, max: OWN_CHIPS.length - 1 }),
  rules: fc.constantFrom(...RULE_SET_NAMES),
  decks: fc.integer({ min: 1, max: MAX_DECKS }),
  structure: fc.boolean(),
  marked: fc.boolean(),
  name: fc.option(fc.constantFrom('7', 'Pöytä 2'), { nil: undefined }),
  chosen: choices,
}).map(({ chips, rules, decks, structure, marked, name, chosen }): ConsoleSettings => {
  const chipSet = structure ? OWN_STRUCTURE.chips : (OWN_CHIPS[chips] as number[]);
  return readSettings({
    ...DEFAULT_SETTINGS,
    table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }], chipSet, removed: chipSet[0], next: chipSet[1], rules, decks, ...chosen, ...(name === undefined ? {} : { name }) },
    tournament: structure ? { structure: OWN_STRUCTURE, atBreakAfter: marked ? 1 : null } : { structure: null, atBreakAfter: null },
  });
});
const floor = fc.record({
  structure: fc.constantFrom(...FLOOR_STRUCTURES),
  house: fc
    .tuple(fc.record({ rules: fc.constantFrom(...RULE_SET_NAMES), decks: fc.integer({ min: 1, max: MAX_DECKS }) }, { requiredKeys: [] }), choices)
    .map(([house, chosen]) => ({ ...house, ...chosen })),
});
const NOT_HELD = { chipSet: 0, removed: 0, next: 0, rules: 0, decks: 0, rounding: 0, dealStart: 0, protection: 0, award: 0 };

describe("the floor's tournament standing in for the station's own", () => {
  it('takes the floor’s chips, structure and house rules, keeps the rest of the table, and gives the own back exactly', () => {
    fc.assert(
      fc.property(station, floor, (own, tournament) => {
        const taken = withFloorTournament(own, tournament);
        expect(taken.table.chipSet).toEqual([...tournament.structure.chips].sort((a, b) => a - b));
        expect(taken.table.rules).toBe(tournament.house.rules ?? own.table.rules);
        expect(taken.table.decks).toBe(tournament.house.decks ?? own.table.decks);
        expect(taken.tournament?.structure?.levels).toEqual(tournament.structure.levels);
        for (const name of SETTING_NAMES) expect(taken.table[name], name).toBe(tournament.house[name] ?? own.table[name]);
        expect({ ...taken.table, ...NOT_HELD }).toEqual({ ...own.table, ...NOT_HELD });
        // What it had is kept aside once: a second hand-over (the clock moved, a new sheet) keeps the first own copy.
        const again = withFloorTournament(taken, tournament);
        expect(again).toEqual(taken);
        expect(withOwnTournament(again)).toEqual(own);
        // As the settings file reads it back.
        expect(readSettings(JSON.parse(JSON.stringify(taken)))).toEqual(taken);
      }),
    );
  });

  it('a screen may change what the floor does not hold, never what it does', () => {
    fc.assert(
      fc.property(station, floor, fc.constantFrom(...RULE_SET_NAMES), fc.integer({ min: 1, max: MAX_DECKS }), (own, tournament, rules, decks) => {
        const taken = withFloorTournament(own, tournament);
        expect(changesFloorTournament(taken, { ...taken, table: { ...taken.table, dealer: 'Anna' } })).toBe(false);
        const rulesChanged = tournament.house.rules !== undefined && rules !== tournament.house.rules;
        const decksChanged = tournament.house.decks !== undefined && decks !== tournament.house.decks;
        expect(changesFloorTournament(taken, { ...taken, table: { ...taken.table, rules, decks } })).toBe(rulesChanged || decksChanged);
        expect(changesFloorTournament(taken, { ...taken, table: { ...taken.table, chipSet: [1, 2] } })).toBe(true);
        expect(changesFloorTournament(own, { ...own, table: { ...own.table, rules, decks } })).toBe(false);
      }),
    );
  });

  it('a race setting the house gives is the floor’s to change; one it does not give is the station’s', () => {
    fc.assert(
      fc.property(station, floor, choices, (own, tournament, chosen) => {
        const taken = withFloorTournament(own, tournament);
        const changed = SETTING_NAMES.some((name) => tournament.house[name] !== undefined && chosen[name] !== undefined && chosen[name] !== tournament.house[name]);
        expect(changesFloorTournament(taken, { ...taken, table: { ...taken.table, ...chosen } })).toBe(changed);
        // A screen leaving one out of the table it saves (settingsCommands keeps it) changes nothing either.
        expect(changesFloorTournament(taken, taken)).toBe(false);
      }),
    );
  });
});

/** This table's seating on the floor: some seats with players, maybe broken. */
const seating = fc.record({
  version: fc.nat({ max: 1000 }),
  broken: fc.boolean(),
  seats: fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 10 }).map((seats) => seats.map((seat) => ({ seat, player: `Pelaaja ${seat}` }))),
});

/** `change` made as a command makes it (the settings read again), or nothing when they refuse it. */
function made(settings: ConsoleSettings, change: (settings: ConsoleSettings) => unknown): ConsoleSettings {
  try {
    return readSettings(change(settings));
  } catch (error) {
    if (!isInputError(error)) throw error;
    return settings;
  }
}

describe("the settings file holds the station's own; the floor's facts overlay it (issue 43)", () => {
  it("keeps no floor copy in the file, and the file with the same facts gives back exactly the settings, the station's choices under the floor too", () => {
    fc.assert(
      fc.property(station, fc.option(floor, { nil: null }), fc.option(seating, { nil: null }), fc.nat({ max: 3 }), fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }), (own, tournament, seats, step, marked) => {
        const facts = { tournament: tournament === null ? null : { structure: tournament.structure, house: tournament.house }, seating: seats };
        const taken = effectiveSettings(own, facts);
        // The station's choices made under it: a colour-up's chip leaving and the next (a pair of the table's chips), a break marked.
        const chips = taken.table.chipSet;
        const pair = Math.min(step, chips.length - 2);
        const chosen = made(made(taken, (current) => ({ ...current, table: { ...current.table, removed: chips[pair], next: chips[pair + 1] } })), (current) => ({ ...current, tournament: { ...current.tournament, atBreakAfter: marked } }));
        const file = ownSettingsOf(chosen);
        expect(file.fromFloor).toBeUndefined();
        expect(file.seatsFromFloor).toBeUndefined();
        expect(file.tournament ?? null).toEqual(tournament === null ? (chosen.tournament ?? null) : (own.tournament ?? null));
        expect(file.table.seats).toEqual(seats === null ? chosen.table.seats : own.table.seats);
        expect(file.table.chipSet).toEqual(own.table.chipSet);
        // Read back as the file is, with the same facts: the settings the station had.
        const reread = readSettings(JSON.parse(JSON.stringify(file)));
        expect(effectiveSettings(reread, facts)).toEqual(chosen);
        // No facts (the link ended): the station's own, as it set them up.
        if (tournament !== null && seats !== null) expect(effectiveSettings(reread, { tournament: null, seating: null })).toEqual(own);
      }),
    );
  });
});

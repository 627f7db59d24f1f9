import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CARDS, type Card } from '../cards';
import { englishText } from '../messages';
import { seededRandom, shuffleDecks } from '../shoe';
import { startRace, type RaceState } from './race';
import { AWARDS, DEAL_STARTS, PROTECTIONS, ROUNDINGS, RULE_SET_NAMES, RULE_SETS } from './rules';
import { dealAll, dealUntilComplete } from './testing';
import { whatOtherRulesSay, type WhatIfOutcome } from './whatIf';

const FINNISH = {
  rules: 'classic', removed: 25, next: 100, button: 10,
  seats: [
    { seat: 1, name: 'Matti', chips: 7, other: 5000 },
    { seat: 2, name: 'Teppo', chips: 2, other: 3000 },
    { seat: 3, name: 'Johanna', chips: 2, other: 4000 },
  ],
};

const byName = (outcomes: readonly WhatIfOutcome[]) => Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome]));

describe('what would the other rules say: the rules page’s cases', () => {
  it('the Finnish example: every rule set that races gives what classic gave; round gives everyone a chip (+125)', () => {
    const whatIf = whatOtherRulesSay(dealAll(startRace(FINNISH), ['Ah', 'Kc', '2d', '10♠', '4h', '10♦', '10♣']));
    if (whatIf === null) throw new Error('complete race');
    expect(whatIf.outcomes.map((outcome) => outcome.name)).toEqual(['house', 'classic', 'tda', 'roberts', 'round']);
    const { house, classic, tda, roberts, round } = byName(whatIf.outcomes);
    expect(house).toMatchObject({ status: 'decided', awards: [1, 2], protected: [], raceChips: 2, valueDelta: 25, cardsUsed: 7, cardsUnused: 0, sameSettings: true });
    expect(classic).toMatchObject({ status: 'decided', awards: [1, 2], sameSettings: true, differs: { any: false } });
    expect(tda).toMatchObject({ status: 'decided', awards: [1, 2], valueDelta: 25, sameSettings: false, differs: { awards: false, protected: false, raceChips: false, valueDelta: false, any: false } });
    // Robert's Rules: 7 odd 25s are one full 100 (4) and 3 over; Teppo, second, holds 2 of his own (half of 4): he wins it.
    expect(roberts).toMatchObject({ status: 'decided', awards: [1, 2], valueDelta: 25, differs: { any: false } });
    expect(round).toMatchObject({ status: 'decided', awards: [1, 2, 3], valueDelta: 125, cardsUsed: 0, cardsUnused: 7, differs: { awards: true, raceChips: true, valueDelta: true, protected: false, any: true } });
    expect(englishText(house?.said as never)).toBe("This table's rules: race chips: seat 1 — Matti, seat 2 — Teppo (+25)");
    // Issue 41: the rule set by its own name, and no race chips or unused cards where nothing is raced.
    expect(round).toMatchObject({ races: false, note: null });
    expect(englishText(round?.said as never)).toBe('Round (no race): rounded up to one 100: seat 1 — Matti, seat 2 — Teppo, seat 3 — Johanna (+125)');
  });

  it('high card takes all at the house: one card each, so a rule set dealing one card per odd chip would have needed other cards', () => {
    const whatIf = whatOtherRulesSay(dealAll(startRace({ ...FINNISH, award: 'high-card-takes-all' }), ['A♥', '10♠', '10♦']));
    const { house, classic, tda, roberts, round } = byName(whatIf?.outcomes ?? []);
    expect(house).toMatchObject({ status: 'decided', awards: [1, 1], valueDelta: 25, settings: { award: 'high-card-takes-all' } });
    for (const outcome of [classic, tda, roberts]) {
      // Matti (seat 1, 3 odd) was dealt one card: the first a one-chip-each deal would need more.
      expect(outcome).toMatchObject({ status: 'otherCards', awards: null, short: { seat: 1, dealt: 1 }, raceChips: 2, protected: [], valueDelta: 25 });
      expect(outcome?.differs).toEqual({ awards: null, protected: false, raceChips: false, valueDelta: false, any: null });
    }
    expect(englishText(classic?.said as never)).toBe('Classic (home game, Wikipedia): would have needed other cards (seat 1 — Matti was dealt 1 card)');
    expect(round).toMatchObject({ status: 'decided', awards: [1, 2, 3], differs: { awards: true, any: true } });
    expect(englishText(house?.said as never)).toBe("This table's rules: race chips: seat 1 — Matti × 2 (+25)");
  });

  it('a broke player raced under tda is exempt under classic: that player’s card goes unused; Robert’s Rules serves them first', () => {
    // A broke with 1 odd 100, B 4 odd, B's card higher, d = 100, D = 500 (the rules page): tda B wins, A gets a chip after.
    const seats = [{ seat: 1, chips: 1, other: 0 }, { seat: 2, chips: 4, other: 2000 }];
    const whatIf = whatOtherRulesSay(dealAll(startRace({ rules: 'tda', removed: 100, next: 500, button: 2, seats }), ['3c', 'Ks', '2d', '4d', '5d']));
    const { house, classic, roberts } = byName(whatIf?.outcomes ?? []);
    expect(house).toMatchObject({ awards: [2], protected: [1], valueDelta: 500 });
    // Classic: A exempt (a 500 without the draw, odd chip out of the pool); B alone in the race with 4 odd 100s rounds up to a chip, no card.
    expect(classic).toMatchObject({ status: 'decided', awards: [2], protected: [1], valueDelta: 500, cardsUsed: 0, cardsUnused: 5 });
    expect(roberts).toMatchObject({ status: 'decided', awards: [], protected: [1], valueDelta: 0, differs: { awards: true, protected: false, valueDelta: true, any: true } });
  });

  it('a rule set the race cannot be set up for says why (no button seat for a deal left of the button)', () => {
    const whatIf = whatOtherRulesSay(dealAll(startRace({ ...FINNISH, rules: 'tda', button: undefined }), ['Ah', 'Kc', '2d', '10♠', '4h', '10♦', '10♣']));
    const { classic } = byName(whatIf?.outcomes ?? []);
    expect(classic).toMatchObject({ status: 'refused', awards: null, protected: null, valueDelta: null, settings: RULE_SETS.classic });
    expect(englishText(classic?.said as never)).toBe('Classic (home game, Wikipedia): cannot be run at this table — missing: this rule set deals from the left of the button, so the button seat is needed');
  });

  it('says nothing before the race is complete', () => {
    expect(whatOtherRulesSay(dealAll(startRace(FINNISH), ['Ah']))).toBeNull();
  });
});

/** Any table under any rule set and any settings chosen on their own, and a seed for its shoe. */
const tables = fc
  .record({
    rules: fc.constantFrom(...RULE_SET_NAMES),
    removed: fc.constantFrom(1, 5, 25, 100),
    ratio: fc.integer({ min: 2, max: 10 }),
    decks: fc.integer({ min: 1, max: 3 }),
    button: fc.integer({ min: 1, max: 10 }),
    seats: fc.uniqueArray(fc.record({ seat: fc.integer({ min: 1, max: 10 }), groups: fc.nat(3), odd: fc.nat(9), broke: fc.boolean() }), { minLength: 1, maxLength: 10, selector: (seat) => seat.seat }),
    overrides: fc.record(
      { rounding: fc.constantFrom(...ROUNDINGS), dealStart: fc.constantFrom(...DEAL_STARTS), protection: fc.constantFrom(...PROTECTIONS), award: fc.constantFrom(...AWARDS) },
      { requiredKeys: [] },
    ),
    shoeSeed: fc.integer(),
    ties: fc.option(fc.uniqueArray(fc.constantFrom(...ALL_CARDS), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  })
  .map(({ removed, ratio, seats, overrides, ...rest }) => ({
    ...rest,
    ...overrides,
    removed,
    next: removed * ratio,
    seats: seats.map(({ seat, groups, odd, broke }) => {
      const chips = groups * ratio + (odd % ratio);
      const other = broke ? 0 : (seat * 7 + 1) * removed * ratio;
      return { seat, chips, other: chips === 0 && other === 0 ? removed * ratio : other };
    }),
  }));

type Table = ReturnType<typeof tables.generate>['value'];

/** The race dealt to the end from its shoe (identical cards on top when `ties`), or null when the shoe is too small for it. */
function complete(table: Table): RaceState | null {
  let start: RaceState;
  try {
    start = startRace(table);
  } catch {
    return null;
  }
  const shoe = shuffleDecks(table.decks, seededRandom(table.shoeSeed));
  const chosen = new Set<Card>(table.ties ?? []);
  return dealUntilComplete(start, [...shoe.filter((card) => chosen.has(card)), ...shoe.filter((card) => !chosen.has(card))]);
}

describe('what would the other rules say: properties', () => {
  it('under the house’s own settings it equals the real result, every card used, nothing differing', () => {
    let tieBreaks = 0;
    fc.assert(
      fc.property(tables, (table) => {
        const state = complete(table);
        const result = state?.progress.result;
        if (!state || !result) return;
        if (state.cards.some((card) => card.round > 0)) tieBreaks += 1;
        const house = whatOtherRulesSay(state)?.outcomes[0];
        expect(house).toMatchObject({
          name: 'house',
          status: 'decided',
          settings: state.setup.settings,
          sameSettings: true,
          awards: result.awards,
          winningCards: result.winningCards,
          protected: result.protected,
          raceChips: result.raceChips,
          valueDelta: result.valueDelta,
          cardsUsed: state.cards.length,
          cardsUnused: 0,
          short: null,
          note: null,
          differs: { awards: false, protected: false, raceChips: false, valueDelta: false, any: false },
        });
      }),
      { numRuns: 3000 },
    );
    expect(tieBreaks).toBeGreaterThan(30);
  });

  it('every outcome: the value accounting holds, the differences are exactly what differs, a rule set the house runs unchanged says what the house says', () => {
    const seen = { differing: 0, otherCards: 0, fewerCards: 0 };
    fc.assert(
      fc.property(tables, (table) => {
        const state = complete(table);
        if (!state) return;
        const whatIf = whatOtherRulesSay(state);
        if (whatIf === null) throw new Error('a complete race has an answer');
        const [house, ...others] = whatIf.outcomes as [WhatIfOutcome, ...WhatIfOutcome[]];
        const odd = state.plan.oddChips * state.setup.removed;
        const sortedOf = (seats: readonly number[] | null) => (seats === null ? null : [...seats].sort((a, b) => a - b));
        for (const outcome of whatIf.outcomes) {
          if (outcome.differs.any === true) seen.differing += 1;
          if (outcome.status === 'otherCards') seen.otherCards += 1;
          if (outcome.cardsUnused > 0 && outcome.cardsUsed > 0) seen.fewerCards += 1;
          if (outcome.status === 'decided') {
            const awards = outcome.awards ?? [];
            const protectedSeats = outcome.protected ?? [];
            expect(outcome.valueDelta).toBe((awards.length + protectedSeats.length) * state.setup.next - odd);
            expect(outcome.raceChips).toBe(awards.length);
            expect(outcome.cardsUsed + outcome.cardsUnused).toBe(state.cards.length);
            expect(outcome.differs.awards).toBe(JSON.stringify(sortedOf(awards)) !== JSON.stringify(sortedOf(house.awards)));
            expect(outcome.differs.valueDelta).toBe(outcome.valueDelta !== house.valueDelta);
            expect(outcome.differs.any).toBe(Object.entries(outcome.differs).some(([flag, value]) => flag !== 'any' && value === true));
            // Each seat used no more of its own cards than it was dealt.
            expect(outcome.short).toBeNull();
          } else if (outcome.status === 'otherCards') {
            // The seat named ran out: it was dealt fewer cards than this rule set deals it.
            const short = outcome.short as { seat: number; dealt: number };
            expect(short.dealt).toBe(state.cards.filter((card) => card.seat === short.seat).length);
            expect(outcome.awards).toBeNull();
            if (outcome.valueDelta !== null) expect(outcome.valueDelta).toBe(((outcome.raceChips as number) + (outcome.protected as number[]).length) * state.setup.next - odd);
          }
          if (outcome.sameSettings) {
            expect({ ...outcome, name: 0, label: 0, said: 0 }).toEqual({ ...house, name: 0, label: 0, said: 0 });
          }
        }
        expect(others.map((outcome) => outcome.name)).toEqual([...RULE_SET_NAMES]);
        for (const outcome of others) expect(outcome.settings).toEqual(RULE_SETS[outcome.name as keyof typeof RULE_SETS]);
      }),
      { numRuns: 2000 },
    );
    // Not vacuous: rule sets that disagree, that would have needed other cards, that used only some of the cards.
    expect(seen.differing).toBeGreaterThan(200);
    expect(seen.otherCards).toBeGreaterThan(200);
    expect(seen.fewerCards).toBeGreaterThan(50);
  });
});

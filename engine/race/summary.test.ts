import { describe, expect, it } from 'vitest';
import { startRace } from './race';
import { RULE_SET_NAMES, type RuleSetName } from './rules';
import { addChips, raceChipSheet, raceSummary } from './summary';
import { dealAll, dealUntilComplete } from './testing';

/** Two decks, one odd 25 each (75 → one 100 raced): seats 1 and 3 both draw A♠, tie on 7♥, then K♦ beats 3♣. */
const tied = startRace({ rules: 'classic', removed: 25, next: 100, button: 10, decks: 2, seats: [1, 2, 3].map((seat) => ({ seat, chips: 1, other: 1000 })) });
const SHOE = ['As', '2c', 'As', '7h', '7h', 'Kd', '3c'];

const after = (cards: number) => raceSummary(dealAll(tied, SHOE.slice(0, cards)));

describe('the figures the screens show, as the summary says them', () => {
  it('the ratio is the removed chips per new chip', () => {
    expect(after(0).ratio).toBe(4);
    expect(raceSummary(startRace({ rules: 'classic', removed: 5, next: 25, button: 10, seats: [{ seat: 1, chips: 3, other: 1 }, { seat: 2, chips: 4, other: 1 }] })).ratio).toBe(5);
  });

  it('counts the race deal’s cards apart from the tie-break cards', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((cards) => after(cards).mainDealCards)).toEqual([0, 1, 2, 3, 3, 3, 3, 3]);
  });

  it('names the tie-break round being dealt, and the last round once the race is complete', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((cards) => after(cards).tiebreakRound)).toEqual([0, 0, 0, 1, 1, 2, 2, 2]);
    expect(after(3).status).toBe('tiebreak');
    expect(after(7).status).toBe('complete');
  });
});

describe('the chips a race hands out and takes in (the chip runner\'s sheet)', () => {
  // 25s into 100s: seat 1 trades 4 and keeps 1 odd, seat 2 holds 3 and no other chip (broke), seat 3 keeps 2 odd.
  const protectedRace = (rules: RuleSetName) => startRace({ rules, removed: 25, next: 100, button: 3, decks: 1, seats: [{ seat: 1, chips: 5, other: 1000 }, { seat: 2, chips: 3, other: 0 }, { seat: 3, chips: 2, other: 1000 }] });
  const SHOE_20 = ['As', 'Kh', 'Qd', 'Jc', 'Ts', '9h', '8d', '7c', '6s', '5h', '4d', '3c', '2s', 'Ah', 'Kd', 'Qc', 'Js', 'Th', '9d', '8c'] as const;

  it('is not known before the race is complete', () => {
    expect(raceChipSheet(raceSummary(protectedRace('tda')))).toBeNull();
  });

  it('counts the protected player\'s chip: under classic, a 100 for the trade, one raced, one for the protected seat', () => {
    const summary = raceSummary(dealUntilComplete(protectedRace('classic'), [...SHOE_20]));
    expect(summary.protected).toEqual([2]);
    expect(raceChipSheet(summary)).toEqual({ bring: { 100: 3 }, collect: { 25: 10 } });
  });

  it('under every rule set: the trade, a chip per winner and per protected seat handed out; every leaving chip taken in; their value the value delta', () => {
    for (const rules of RULE_SET_NAMES) {
      const summary = raceSummary(dealUntilComplete(protectedRace(rules), [...SHOE_20]));
      const sheet = raceChipSheet(summary);
      const handedOut = 1 + summary.awards.length + summary.protected.length;
      expect(sheet, rules).toEqual({ bring: { 100: handedOut }, collect: { 25: 10 } });
      // What the result screen says was given (its value-delta hint), less the trade's chip.
      expect((handedOut - 1) * 100 - summary.oddChips * 25, rules).toBe(summary.valueDelta);
    }
  });

  it('adds sheets up per denomination, smallest first, zeros left out', () => {
    expect(addChips({ 100: 3 }, { 500: 1, 100: 2 }, { 25: 0 })).toEqual({ 100: 5, 500: 1 });
    expect(Object.keys(addChips({ 1000: 1 }, { 25: 9 }))).toEqual(['25', '1000']);
  });
});

import { describe, expect, it } from 'vitest';
import { raceFromInput } from './input';
import { applyRaceEvent, startRace, type RaceState } from './race';
import { englishText } from '../messages';
import { nextStep } from './next';
import { raceReport } from './summary';
import { dealAll } from './testing';

type Seat = { seat: number; name?: string; chips: number; other?: number };

function race(rules: string, removed: number, next: number, seats: Seat[], extra: Record<string, unknown> = {}) {
  return startRace({ rules, removed, next, button: 10, seats: seats.map((seat) => ({ other: 1000, ...seat })), ...extra });
}

describe('worked example (seed 000): Matti, Teppo, Johanna', () => {
  const table = {
    rules: 'classic', removed: 25, next: 100, button: 10,
    seats: [
      { seat: 1, name: 'Matti', chips: 7, other: 5000 },
      { seat: 2, name: 'Teppo', chips: 2, other: 3000 },
      { seat: 3, name: 'Johanna', chips: 2, other: 4000 },
    ],
  };

  it('exchanges 4 of Matti’s 25s for a 100 and pools 7 odd chips into 2 race chips', () => {
    const state = startRace(table);
    expect(state.plan.exchange).toEqual([
      { seat: 1, up: 1, odd: 3, broke: false },
      { seat: 2, up: 0, odd: 2, broke: false },
      { seat: 3, up: 0, odd: 2, broke: false },
    ]);
    expect(state.plan.poolChips * 25).toBe(175);
    expect(raceReport(state).raceChips).toBe(2);
    expect(state.plan.deal).toEqual([{ seat: 1, cards: 3 }, { seat: 2, cards: 2 }, { seat: 3, cards: 2 }]);
  });

  it('Matti’s ace wins the first chip; Teppo’s 10♠ beats Johanna’s 10♦ and 10♣; +25 value', () => {
    const state = dealAll(startRace(table), ['Ah', 'Kc', '2d', '10♠', '4h', '10♦', '10♣']);
    const summary = raceReport(state);
    expect(summary.status).toBe('complete');
    expect(summary.awards).toEqual([1, 2]);
    expect(summary.winningCards).toEqual([{ seat: 1, card: 'Ah' }, { seat: 2, card: 'Ts' }]);
    expect(summary.valueDelta).toBe(25);
    expect(summary.protected).toEqual([]);
    expect(summary.explanation).toEqual(expect.arrayContaining([
      'Seat 1: trades 4 × 25 for 1 × 100, keeps 3 odd',
      'Pool: 7 odd × 25 = 175 → 1 whole 100, 75 over ≥ half of 100 → 2 chips to race',
      'Seat 1 wins a 100 with A♥',
      'Seat 2 wins a 100 with 10♠',
      'Value: 200 given for 175 removed (+25)',
    ]));
  });

  it('says whose cards come next, in words, while dealing', () => {
    const state = dealAll(startRace(table), ['Ah']);
    expect(state.progress.awaiting).toEqual({ seat: 1, cards: 2, round: 0 });
    expect(raceReport(state).nextStep).toBe('Deal 2 cards to seat 1 — Matti');
    const later = dealAll(state, ['Kc', '2d']);
    expect(raceReport(later).nextStep).toBe('Deal 2 cards to seat 2 — Teppo');
  });
});

describe('reference cases of the rules doc', () => {
  it('4 odd 25s in total, D = 100, classic: 1 chip raced among their owners', () => {
    const state = race('classic', 25, 100, [{ seat: 1, chips: 2 }, { seat: 2, chips: 1 }, { seat: 3, chips: 1 }]);
    expect(raceReport(state).raceChips).toBe(1);
    expect(state.plan.deal.map((run) => run.seat)).toEqual([1, 2, 3]);
  });

  it('1 odd 25 in total, classic: removed, no race (value −25)', () => {
    const summary = raceReport(race('classic', 25, 100, [{ seat: 1, chips: 5 }, { seat: 2, chips: 4 }]));
    expect(summary.status).toBe('complete');
    expect(summary.deal).toEqual([]);
    expect(summary.raceChips).toBe(0);
    expect(summary.awards).toEqual([]);
    expect(summary.valueDelta).toBe(-25);
  });

  it('6 odd 25s in total, classic: 2 chips raced', () => {
    const state = race('classic', 25, 100, [{ seat: 1, chips: 3 }, { seat: 2, chips: 2 }, { seat: 3, chips: 1 }]);
    expect(raceReport(state).raceChips).toBe(2);
    expect(state.plan.cardsNeeded).toBe(6);
  });

  it('15 odd 5s across 6 players, D = 25 (seed 001), classic: 3 chips raced', () => {
    const seats = [3, 3, 2, 2, 4, 1].map((chips, index) => ({ seat: index + 1, chips }));
    const state = race('classic', 5, 25, seats);
    expect(state.plan.oddChips).toBe(15);
    expect(raceReport(state).raceChips).toBe(3);
  });

  it('A 3 odd, B 4 odd, d = 5, D = 25, roberts: 2 chips (+15), whatever the cards', () => {
    const summary = raceReport(race('roberts', 5, 25, [{ seat: 1, chips: 3 }, { seat: 2, chips: 4 }]));
    expect(summary.status).toBe('complete');
    expect(summary.deal).toEqual([]);
    expect(summary.raceChips).toBe(2);
    expect(summary.valueDelta).toBe(15);
  });

  it('A 3 odd, B 1 odd, B’s card higher, d = 5, D = 25: roberts 0 chips (−20), classic 1 chip to B (+5)', () => {
    const seats = [{ seat: 1, chips: 3 }, { seat: 2, chips: 1 }];
    const roberts = raceReport(dealAll(race('roberts', 5, 25, seats), ['2c', '3d', '4h', 'Ks']));
    expect(roberts.raceChips).toBe(0);
    expect(roberts.awards).toEqual([]);
    expect(roberts.valueDelta).toBe(-20);
    const classic = raceReport(dealAll(race('classic', 5, 25, seats), ['2c', '3d', '4h', 'Ks']));
    expect(classic.awards).toEqual([2]);
    expect(classic.valueDelta).toBe(5);
  });

  it('A 3 odd, B 1 odd, A’s card higher, roberts: A wins the half chip', () => {
    const summary = raceReport(dealAll(race('roberts', 5, 25, [{ seat: 1, chips: 3 }, { seat: 2, chips: 1 }]), ['As', '3d', '4h', 'Ks']));
    expect(summary.awards).toEqual([1]);
    expect(summary.valueDelta).toBe(5);
  });

  it('A broke with 1 odd, B 4 odd, B’s card higher, d = 100, D = 500: roberts A gets the chip, B none', () => {
    const seats = [{ seat: 1, chips: 1, other: 0 }, { seat: 2, chips: 4, other: 2000 }];
    const roberts = raceReport(race('roberts', 100, 500, seats));
    expect(roberts.status).toBe('complete');
    expect(roberts.deal).toEqual([]);
    expect(roberts.protected).toEqual([1]);
    expect(roberts.awards).toEqual([]);
    expect(roberts.valueDelta).toBe(0);
  });

  it('the same table under tda: B wins, A gets an extra chip', () => {
    const seats = [{ seat: 1, chips: 1, other: 0 }, { seat: 2, chips: 4, other: 2000 }];
    const tda = raceReport(raceFromInput({ rules: 'tda', removed: 100, next: 500, seats, cards: ['3c', 'Ks', '2d', '4d', '5d'] }));
    expect(tda.deal).toEqual([{ seat: 1, cards: 1 }, { seat: 2, cards: 4 }]);
    expect(tda.awards).toEqual([2]);
    expect(tda.protected).toEqual([1]);
    expect(tda.valueDelta).toBe(500);
  });

  it('classic exempts a broke player: a chip without the draw, odd chips out of the pool (seed 000)', () => {
    const summary = raceReport(race('classic', 25, 100, [{ seat: 1, chips: 3, other: 0 }, { seat: 2, chips: 2 }, { seat: 3, chips: 1 }]));
    expect(summary.protected).toEqual([1]);
    expect(summary.pool.chips).toBe(3);
    expect(summary.raceChips).toBe(1);
    expect(summary.deal).toEqual([{ seat: 2, cards: 2 }, { seat: 3, cards: 1 }]);
  });
});

describe('roundings', () => {
  const seats = [{ seat: 1, chips: 3 }, { seat: 2, chips: 3 }, { seat: 3, chips: 3 }];
  // 9 odd 25s = 225: 2 whole 100s and 25 over.
  it.each([
    ['pooled-half-up', 2], ['pooled-down', 2], ['pooled-up', 3],
  ])('%s makes %i chips of 225', (rounding, chips) => {
    expect(raceReport(race('classic', 25, 100, seats, { rounding })).raceChips).toBe(Math.min(chips, 3));
  });

  it('pooled-down drops a remainder of half a chip; pooled-half-up rounds it up', () => {
    const two = [{ seat: 1, chips: 1 }, { seat: 2, chips: 1 }];
    expect(raceReport(race('classic', 25, 100, two, { rounding: 'pooled-down' })).raceChips).toBe(0);
    expect(raceReport(race('classic', 25, 100, two)).raceChips).toBe(1);
    expect(raceReport(race('classic', 25, 100, [{ seat: 1, chips: 1 }, { seat: 2, chips: 4 }], { rounding: 'pooled-up' })).raceChips).toBe(1);
  });

  it('round: no cards, each player with half a chip in odd chips gets one', () => {
    const summary = raceReport(race('round', 25, 100, [{ seat: 1, chips: 3 }, { seat: 2, chips: 1 }, { seat: 3, chips: 2 }, { seat: 4, chips: 1, other: 0 }]));
    expect(summary.deal).toEqual([]);
    expect(summary.awards).toEqual([1, 3]);
    expect(summary.protected).toEqual([4]);
    expect(summary.valueDelta).toBe(300 - 7 * 25);
    // Said as rounded, not raced (issue 24: the headline said "race: …" with no card dealt).
    const said = englishText(nextStep(race('round', 25, 100, [{ seat: 1, chips: 3 }, { seat: 2, chips: 1 }, { seat: 3, chips: 2 }, { seat: 4, chips: 1, other: 0 }])));
    expect(said).toBe('Give one 100 chip each — rounded up: seat 1, seat 3; protected: seat 4; remove all odd 25 chips');
    expect(englishText(nextStep(dealAll(race('tda', 25, 100, [{ seat: 1, chips: 1 }, { seat: 2, chips: 1 }, { seat: 3, chips: 1 }]), ['Ah', 'Kh', 'Qh'])))).toMatch(/— race: seat 1 \(Ah\)/);
  });
});

describe('deal start', () => {
  const seats = [2, 4, 7, 9].map((seat) => ({ seat, chips: 1 }));
  it('left of the button wraps after the highest seat; the button may be on an empty seat', () => {
    expect(race('classic', 25, 100, seats, { button: 5 }).plan.racers).toEqual([7, 9, 2, 4]);
    expect(race('classic', 25, 100, seats, { button: 7 }).plan.racers).toEqual([9, 2, 4, 7]);
    expect(race('classic', 25, 100, seats, { button: 9 }).plan.racers).toEqual([2, 4, 7, 9]);
  });
  it('seat 1 deals from the lowest seat number', () => {
    expect(race('tda', 25, 100, seats, { button: 5 }).plan.racers).toEqual([2, 4, 7, 9]);
    expect(race('classic', 25, 100, seats, { button: 5, dealStart: 'seat-1' }).plan.racers).toEqual([2, 4, 7, 9]);
  });
});

describe('multi-deck tie-breaks', () => {
  const table = { rules: 'tda', removed: 25, next: 100, decks: 2, seats: [1, 2, 3].map((seat) => ({ seat, chips: 1, other: 100 })) };

  it('identical best cards that decide a chip get one more card each, in deal order', () => {
    // 3 odd = 75 → 1 chip. Seats 1 and 3 both hold A♠.
    let state = raceFromInput({ ...table, cards: ['As', '2c', 'As'] });
    expect(state.progress.status).toBe('tiebreak');
    expect(state.progress.awaiting).toEqual({ seat: 1, cards: 1, round: 1 });
    expect(raceReport(state).nextStep).toBe('Tie-break: deal 1 card to seat 1');
    state = dealAll(state, ['5d']);
    expect(state.progress.awaiting).toEqual({ seat: 3, cards: 1, round: 1 });
    state = dealAll(state, ['9c']);
    expect(raceReport(state).awards).toEqual([3]);
    expect(raceReport(state).winningCards).toEqual([{ seat: 3, card: 'As' }]);
  });

  it('repeats while the tie-break cards tie again', () => {
    const state = raceFromInput({ ...table, cards: ['As', '2c', 'As', '7h', '7h', 'Kd', '3c'] });
    expect(raceReport(state).awards).toEqual([1]);
    expect(state.cards.map((card) => card.round)).toEqual([0, 0, 0, 1, 1, 2, 2]);
  });

  it('a tie that decides nothing is left alone', () => {
    // 2 odd per seat × 3 = 6 → 2 chips; seats 1 and 2 tie on top: both win anyway.
    const state = raceFromInput({ ...table, seats: [1, 2, 3].map((seat) => ({ seat, chips: 2, other: 100 })), cards: ['As', '2c', 'As', '3c', 'Kd', '4d'] });
    expect(state.progress.status).toBe('complete');
    expect(raceReport(state).awards).toEqual([1, 2]);
  });

  it('one deck refuses a repeated card as a misread', () => {
    expect(() => raceFromInput({ ...table, decks: 1, cards: ['As', 'as'] })).toThrow(/cards\[1\]: As was already dealt \(to seat 1\) and the shoe holds one deck/);
  });
});

describe('corrections', () => {
  const table = { rules: 'classic', removed: 25, next: 100, button: 3, seats: [{ seat: 1, chips: 2 }, { seat: 2, chips: 1 }].map((seat) => ({ ...seat, other: 100 })) };

  it('voiding the last cards rewinds the deal and keeps the voided cards on record', () => {
    const state = raceFromInput({ ...table, cards: ['As', 'Kd', 'Qh'] });
    expect(state.progress.status).toBe('complete');
    const corrected = applyVoid(state, 2, 'dealt to the wrong seat');
    expect(corrected.cards.map((card) => card.card)).toEqual(['As']);
    expect(corrected.progress.awaiting).toEqual({ seat: 1, cards: 1, round: 0 });
    expect(corrected.corrections).toEqual([
      { voided: { card: 'Qh', seat: 2, round: 0 }, reason: 'dealt to the wrong seat', position: 2 },
      { voided: { card: 'Kd', seat: 1, round: 0 }, reason: 'dealt to the wrong seat', position: 1 },
    ]);
    const redealt = dealAll(corrected, ['2c', 'Kd']);
    expect(redealt.cards.map((card) => [card.card, card.seat])).toEqual([['As', 1], ['2c', 1], ['Kd', 2]]);
    expect(raceReport(redealt).winningCards).toEqual([{ seat: 1, card: 'As' }]);
    expect(redealt.corrections).toHaveLength(2);
  });

  it('a voided card may be dealt again', () => {
    const state = dealAll(applyVoid(raceFromInput({ ...table, cards: ['As'] }), 1, 'misread'), ['As']);
    expect(state.cards).toHaveLength(1);
  });
});

function applyVoid(state: RaceState, count: number, reason: string): RaceState {
  return applyRaceEvent(state, { type: 'void', count, reason });
}

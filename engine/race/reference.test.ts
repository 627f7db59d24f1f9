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

describe('house variants of the rules doc (issue 25)', () => {
  it('6 odd 25s in total, D = 100, pooled-more-than-half: 1 chip raced (value −50); pooled half-up gives 2', () => {
    const seats = [{ seat: 1, chips: 3 }, { seat: 2, chips: 2 }, { seat: 3, chips: 1 }];
    const strict = race('classic', 25, 100, seats, { rounding: 'pooled-more-than-half' });
    expect(raceReport(strict).raceChips).toBe(1);
    const summary = raceReport(dealAll(strict, ['2c', '3c', '4c', '5c', 'Ah', '6c']));
    expect(summary.awards).toEqual([2]);
    expect(summary.valueDelta).toBe(-50);
    expect(summary.explanation).toContain('Pool: 6 odd × 25 = 150 → 1 whole 100, 50 over, not more than half of 100 → 1 chip to race');
    expect(raceReport(race('classic', 25, 100, seats)).raceChips).toBe(2);
  });

  it('7 odd 25s in total, D = 100, pooled-more-than-half: 2 chips raced (+25)', () => {
    const state = race('classic', 25, 100, [{ seat: 1, chips: 3 }, { seat: 2, chips: 2 }, { seat: 3, chips: 2 }], { rounding: 'pooled-more-than-half' });
    expect(raceReport(state).raceChips).toBe(2);
    const summary = raceReport(dealAll(state, ['Ah', 'Kc', '2d', '10♠', '4h', '10♦', '10♣']));
    expect(summary.awards).toEqual([1, 2]);
    expect(summary.valueDelta).toBe(25);
    expect(summary.explanation).toContain('Pool: 7 odd × 25 = 175 → 1 whole 100, 75 over > half of 100 → 2 chips to race');
  });

  it('seats 1–3 racing, button on 2: dealStart button deals 2, 3, 1 (left-of-button 3, 1, 2; seat-1 1, 2, 3)', () => {
    const seats = [1, 2, 3].map((seat) => ({ seat, chips: 1 }));
    expect(race('classic', 25, 100, seats, { button: 2, dealStart: 'button' }).plan.deal.map((run) => run.seat)).toEqual([2, 3, 1]);
    expect(race('classic', 25, 100, seats, { button: 2 }).plan.deal.map((run) => run.seat)).toEqual([3, 1, 2]);
    expect(race('classic', 25, 100, seats, { button: 2, dealStart: 'seat-1' }).plan.deal.map((run) => run.seat)).toEqual([1, 2, 3]);
  });

  it('the Finnish example, one card each under high-card-takes-all: Matti’s A♥ takes both 100s (+25)', () => {
    const table = {
      rules: 'classic', removed: 25, next: 100, button: 10, award: 'high-card-takes-all',
      seats: [
        { seat: 1, name: 'Matti', chips: 7, other: 5000 },
        { seat: 2, name: 'Teppo', chips: 2, other: 3000 },
        { seat: 3, name: 'Johanna', chips: 2, other: 4000 },
      ],
    };
    const start = startRace(table);
    expect(start.plan.deal).toEqual([{ seat: 1, cards: 1 }, { seat: 2, cards: 1 }, { seat: 3, cards: 1 }]);
    expect(start.plan.cardsNeeded).toBe(3);
    const summary = raceReport(dealAll(start, ['A♥', '10♠', '10♦']));
    expect(summary.status).toBe('complete');
    expect(summary.settings.award).toBe('high-card-takes-all');
    expect(summary.raceChips).toBe(2);
    expect(summary.awards).toEqual([1, 1]);
    expect(summary.winningCards).toEqual([{ seat: 1, card: 'Ah' }, { seat: 1, card: 'Ah' }]);
    expect(summary.valueDelta).toBe(25);
    expect(summary.nextStep).toBe('Give the 100 chips — high card takes all, 2 chips: seat 1 — Matti (A♥); remove all odd 25 chips');
    expect(summary.explanation).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Award: high card takes all .* the one variant where a player can win more than one chip$/),
      'Deal 3 cards: seat 1 × 1, seat 2 × 1, seat 3 × 1',
      'Seat 1 takes all 2 × 100 with A♥',
      'Value: 200 given for 175 removed (+25)',
    ]));
  });
});

describe('deal start at the button', () => {
  const seats = [2, 4, 7, 9].map((seat) => ({ seat, chips: 1 }));
  it('deals the button’s seat first, then clockwise, wrapping after the highest seat', () => {
    expect(race('classic', 25, 100, seats, { button: 7, dealStart: 'button' }).plan.racers).toEqual([7, 9, 2, 4]);
    expect(race('classic', 25, 100, seats, { button: 2, dealStart: 'button' }).plan.racers).toEqual([2, 4, 7, 9]);
    expect(race('classic', 25, 100, seats, { button: 9, dealStart: 'button' }).plan.racers).toEqual([9, 2, 4, 7]);
  });

  it('the button on an empty seat, or on a seat not in the race: the first racer clockwise after it', () => {
    expect(race('classic', 25, 100, seats, { button: 5, dealStart: 'button' }).plan.racers).toEqual([7, 9, 2, 4]);
    expect(race('classic', 25, 100, seats, { button: 10, dealStart: 'button' }).plan.racers).toEqual([2, 4, 7, 9]);
    // Seat 4 holds no odd chip (it traded all four 25s), seat 7 is exempt (broke): neither races.
    const table = [{ seat: 2, chips: 1 }, { seat: 4, chips: 4 }, { seat: 7, chips: 1, other: 0 }, { seat: 9, chips: 1 }];
    expect(race('classic', 25, 100, table, { button: 4, dealStart: 'button' }).plan.racers).toEqual([9, 2]);
    expect(race('classic', 25, 100, table, { button: 7, dealStart: 'button' }).plan.racers).toEqual([9, 2]);
  });

  it('needs the button’s seat, and says why', () => {
    expect(() => startRace({ rules: 'tda', dealStart: 'button', removed: 25, next: 100, seats: [{ seat: 1, chips: 1, other: 100 }] })).toThrow(
      'button: missing: the deal starts at the button, so the button seat is needed',
    );
  });
});

describe('high card takes all', () => {
  const takesAll = { award: 'high-card-takes-all' };

  it('deals one card to every player in the race whatever their odd chips, none to a protected one', () => {
    // Seat 2 is broke with 3 odd: exempt under classic, races under tda.
    const seats = [{ seat: 1, chips: 3 }, { seat: 2, chips: 3, other: 0 }, { seat: 3, chips: 1 }, { seat: 4, chips: 2 }];
    const classic = race('classic', 25, 100, seats, { ...takesAll, button: 4 });
    expect(classic.plan.protectedBefore).toEqual([2]);
    expect(classic.plan.deal).toEqual([{ seat: 1, cards: 1 }, { seat: 3, cards: 1 }, { seat: 4, cards: 1 }]);
    const tda = race('tda', 25, 100, seats, takesAll);
    expect(tda.plan.deal.map((run) => run.cards)).toEqual([1, 1, 1, 1]);
  });

  it('after-race protection still gives a raced-out player a chip', () => {
    // 9 odd 25s = 225 → 2 chips, both to seat 3's K♠; seat 2 (broke) is raced out and helped after.
    const summary = raceReport(dealAll(race('tda', 25, 100, [{ seat: 1, chips: 3 }, { seat: 2, chips: 3, other: 0 }, { seat: 3, chips: 3 }], takesAll), ['2c', 'Qh', 'Ks']));
    expect(summary.awards).toEqual([3, 3]);
    expect(summary.protected).toEqual([2]);
    expect(summary.valueDelta).toBe(300 - 225);
    expect(summary.explanation).toContain('Seat 2 was raced out and gets one 100');
  });

  it('a lone racer takes every race chip without a card; no chip to race, no card', () => {
    const alone = raceReport(race('tda', 25, 100, [{ seat: 1, chips: 3 }, { seat: 2, chips: 4 }], takesAll));
    expect(alone.deal).toEqual([]);
    expect(alone.awards).toEqual([1]);
    expect(alone.explanation).toContain('Seat 1 gets the 100');
    const none = raceReport(race('tda', 25, 100, [{ seat: 1, chips: 1 }, { seat: 2, chips: 4 }, { seat: 3, chips: 4 }], { ...takesAll, rounding: 'pooled-down' }));
    expect(none.deal).toEqual([]);
    expect(none.awards).toEqual([]);
  });

  it('deals even when every player in the race would win a chip each: the best card takes them all', () => {
    // A 3, B 4 odd 5s, D = 25 under roberts: two chips whatever the cards, one each; here both to the best card.
    const seats = [{ seat: 1, chips: 3 }, { seat: 2, chips: 4 }];
    expect(raceReport(race('roberts', 5, 25, seats)).deal).toEqual([]);
    const summary = raceReport(dealAll(race('roberts', 5, 25, seats, takesAll), ['4d', 'Jc']));
    expect(summary.deal).toEqual([{ seat: 1, cards: 1 }, { seat: 2, cards: 1 }]);
    expect(summary.awards).toEqual([2, 2]);
    expect(summary.valueDelta).toBe(15);
  });

  it('under next-player-half the next player’s own odd chips still decide whether the chip is raced', () => {
    // A 3, B 1 odd 5s, D = 25: one chance, for whoever is first, won only with at least 2.5 odd 5s.
    const seats = [{ seat: 1, chips: 3 }, { seat: 2, chips: 1 }];
    expect(raceReport(dealAll(race('roberts', 5, 25, seats, takesAll), ['2c', 'Ks'])).awards).toEqual([]);
    expect(raceReport(dealAll(race('roberts', 5, 25, seats, takesAll), ['As', 'Ks'])).awards).toEqual([1]);
  });

  it('does not apply where nothing is raced (per-player rounding), and says so', () => {
    const seats = [{ seat: 1, chips: 3 }, { seat: 2, chips: 1 }, { seat: 3, chips: 2 }];
    const summary = raceReport(race('round', 25, 100, seats, takesAll));
    expect(summary.deal).toEqual([]);
    expect(summary.awards).toEqual([1, 3]);
    expect(summary.explanation).toContain('Award: high card takes all does not apply — nothing is raced, each player rounds their own odd chips');
  });

  it('identical best cards from a multi-deck shoe are broken by a further card, and the winner takes all', () => {
    // 2 decks; 6 odd 25s = 150 → 2 chips. Seats 1 and 3 both hold A♠; seat 3 draws the higher card.
    const table = { rules: 'tda', removed: 25, next: 100, decks: 2, award: 'high-card-takes-all', seats: [1, 2, 3].map((seat) => ({ seat, chips: 2, other: 100 })) };
    const tied = raceFromInput({ ...table, cards: ['As', 'Kd', 'As'] });
    expect(tied.progress.status).toBe('tiebreak');
    expect(tied.progress.awaiting).toEqual({ seat: 1, cards: 1, round: 1 });
    const summary = raceReport(dealAll(tied, ['5d', '9c']));
    expect(summary.awards).toEqual([3, 3]);
    expect(summary.tiebreaks).toEqual([
      { seats: [1, 3], card: 'As', chips: 2, halfChip: false, rounds: [{ round: 1, seats: [1, 3], cards: [{ seat: 1, card: '5d' }, { seat: 3, card: '9c' }], outcome: { won: [3], tied: [] } }], winners: [3] },
    ]);
    expect(summary.explanation).toContain('Tie: seat 1 and seat 3 both hold A♠ for every 100 the race hands out (high card takes all); tie-break round 1: seat 1 draws 5♦, seat 3 draws 9♣ → seat 3 wins');
    // One chip each, the same cards: both tied seats win a chip, so no tie-break is needed.
    expect(raceFromInput({ ...table, award: 'one-chip-each', cards: ['As', '2c', 'Kd', '3c', 'As', '4c'] }).progress.status).toBe('complete');
  });

  it('under next-player-half a tie for the next player’s chance decides whether one more chip is raced for the best card', () => {
    // k = 6: 10 odd chips → 1 chip, then the next player's chance (3 odd of their own). Seat 1's A♠ is best;
    // seats 2 (1 odd) and 3 (4 odd) tie on K♠ for the place after it.
    const table = race('roberts', 1, 6, [{ seat: 1, chips: 5 }, { seat: 2, chips: 1 }, { seat: 3, chips: 4 }], { award: 'high-card-takes-all', decks: 2 });
    const tied = dealAll(table, ['As', 'Ks', 'Ks']);
    expect(tied.progress.status).toBe('tiebreak');
    const oneChip = raceReport(dealAll(tied, ['9c', '5d']));
    expect(oneChip.awards).toEqual([1]);
    expect(oneChip.explanation).toContain(
      'Tie: seat 2 and seat 3 both hold K♠ for whether one more 6 is raced for the best card (only with at least 3 odd chips of their own); tie-break round 1: seat 2 draws 9♣, seat 3 draws 5♦ → nobody wins',
    );
    expect(raceReport(dealAll(tied, ['5d', '9c'])).awards).toEqual([1, 1]);
  });

  it('a tie below the best card decides nothing', () => {
    const table = { rules: 'tda', removed: 25, next: 100, decks: 2, award: 'high-card-takes-all', seats: [1, 2, 3].map((seat) => ({ seat, chips: 1, other: 100 })) };
    const summary = raceReport(raceFromInput({ ...table, cards: ['Ks', 'As', 'Ks'] }));
    expect(summary.status).toBe('complete');
    expect(summary.awards).toEqual([2]);
    expect(summary.tiebreaks).toEqual([]);
  });
});

describe('a race set up before the award could be chosen', () => {
  it('reads as one chip each: a journaled race-start’s race has no award', () => {
    // The race as raceCommands.ts journaled it before issue 25.
    const journaled = { rules: 'tda', removed: 25, next: 100, button: 3, decks: 1, seats: [{ seat: 1, name: 'A', chips: 2, other: 100 }, { seat: 2, name: '', chips: 1, other: 0 }] };
    expect(startRace(journaled).setup.settings).toEqual({ rounding: 'pooled-half-up', dealStart: 'seat-1', protection: 'after-race', award: 'one-chip-each' });
    expect(startRace({ ...journaled, rules: 'classic' }).setup.settings.award).toBe('one-chip-each');
  });
});

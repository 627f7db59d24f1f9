import { describe, expect, it } from 'vitest';
import { raceFromInput } from './input';
import { applyRaceEvent } from './race';
import { raceReport } from './summary';
import { raceTieBreaks } from './tiebreaks';

/**
 * A two-deck shoe, 25s raced into 100s, the deal from seat 3 (button on 10): seat 3 holds 2 odd
 * chips, seats 5 and 7 one each, 4 × 25 = 100 → one chip. Seat 3 gets K♠ and 2♣, seat 5 Q♥,
 * seat 7 the second K♠: seats 3 and 7 are tied on K♠ for that chip.
 */
const twoDecks = {
  rules: 'classic', removed: 25, next: 100, button: 10, decks: 2,
  seats: [
    { seat: 3, name: 'Matti', chips: 2, other: 1000 },
    { seat: 5, name: 'Teppo', chips: 1, other: 1000 },
    { seat: 7, name: 'Johanna', chips: 1, other: 1000 },
  ],
};
const deal = ['Ks', '2c', 'Qh', 'Ks'];

function summaryOf(table: object, cards: readonly string[]) {
  return raceReport(raceFromInput({ ...table, cards }));
}

function tieLines(explanation: readonly string[]): string[] {
  return explanation.filter((line) => line.startsWith('Tie: '));
}

describe('the record of a tie-break (two decks)', () => {
  it('one round: seat 3 draws 9♥, seat 7 draws 4♣, seat 3 wins', () => {
    const summary = summaryOf(twoDecks, [...deal, '9h', '4c']);
    expect(summary.status).toBe('complete');
    expect(summary.awards).toEqual([3]);
    expect(summary.tiebreaks).toEqual([
      {
        seats: [3, 7],
        card: 'Ks',
        chips: 1,
        halfChip: false,
        rounds: [{ round: 1, seats: [3, 7], cards: [{ seat: 3, card: '9h' }, { seat: 7, card: '4c' }], outcome: { won: [3], tied: [] } }],
        winners: [3],
      },
    ]);
    expect(JSON.stringify(summary.tiebreaks)).toBe(
      '[{"seats":[3,7],"card":"Ks","chips":1,"halfChip":false,"rounds":[{"round":1,"seats":[3,7],"cards":[{"seat":3,"card":"9h"},{"seat":7,"card":"4c"}],"outcome":{"won":[3],"tied":[]}}],"winners":[3]}]',
    );
    expect(tieLines(summary.explanation)).toEqual([
      'Tie: seat 3 and seat 7 both hold K♠ for the last 100; tie-break round 1: seat 3 draws 9♥, seat 7 draws 4♣ → seat 3 wins',
    ]);
    // The tie line comes after the deal and before the award it decided.
    const at = (prefix: string) => summary.explanation.findIndex((line) => line.startsWith(prefix));
    expect(at('Deal ')).toBeLessThan(at('Tie: '));
    expect(at('Tie: ')).toBeLessThan(at('Seat 3 wins a 100 with K♠'));
  });

  it('two rounds: the first tie-break cards are identical again (8♦ and 8♦), then J♣ beats 3♠', () => {
    const summary = summaryOf(twoDecks, [...deal, '8d', '8d', '3s', 'Jc']);
    expect(summary.awards).toEqual([7]);
    expect(summary.cards.map((card) => card.round)).toEqual([0, 0, 0, 0, 1, 1, 2, 2]);
    expect(summary.tiebreaks).toEqual([
      {
        seats: [3, 7],
        card: 'Ks',
        chips: 1,
        halfChip: false,
        rounds: [
          { round: 1, seats: [3, 7], cards: [{ seat: 3, card: '8d' }, { seat: 7, card: '8d' }], outcome: { won: [], tied: [3, 7] } },
          { round: 2, seats: [3, 7], cards: [{ seat: 3, card: '3s' }, { seat: 7, card: 'Jc' }], outcome: { won: [7], tied: [] } },
        ],
        winners: [7],
      },
    ]);
    expect(tieLines(summary.explanation)).toEqual([
      'Tie: seat 3 and seat 7 both hold K♠ for the last 100; tie-break round 1: seat 3 draws 8♦, seat 7 draws 8♦ → still tied; tie-break round 2: seat 3 draws 3♠, seat 7 draws J♣ → seat 7 wins',
    ]);
  });

  it('shows the rounds so far while the tie-break is dealt', () => {
    const waiting = summaryOf(twoDecks, deal);
    expect(waiting.status).toBe('tiebreak');
    expect(waiting.tiebreaks).toEqual([
      { seats: [3, 7], card: 'Ks', chips: 1, halfChip: false, rounds: [{ round: 1, seats: [3, 7], cards: [], outcome: null }], winners: null },
    ]);
    expect(tieLines(waiting.explanation)).toEqual(['Tie: seat 3 and seat 7 both hold K♠ for the last 100; tie-break round 1: seat 3 and seat 7 to draw']);

    const half = summaryOf(twoDecks, [...deal, '8d']);
    expect(half.tiebreaks[0]?.rounds).toEqual([{ round: 1, seats: [3, 7], cards: [{ seat: 3, card: '8d' }], outcome: null }]);
    expect(tieLines(half.explanation)).toEqual(['Tie: seat 3 and seat 7 both hold K♠ for the last 100; tie-break round 1: seat 3 draws 8♦, seat 7 to draw']);

    const again = summaryOf(twoDecks, [...deal, '8d', '8d']);
    expect(again.status).toBe('tiebreak');
    expect(again.tiebreaks[0]?.rounds).toEqual([
      { round: 1, seats: [3, 7], cards: [{ seat: 3, card: '8d' }, { seat: 7, card: '8d' }], outcome: { won: [], tied: [3, 7] } },
      { round: 2, seats: [3, 7], cards: [], outcome: null },
    ]);
    expect(again.tiebreaks[0]?.winners).toBeNull();
  });

  it('forgets a voided tie-break card (the correction stays on record)', () => {
    const state = applyRaceEvent(raceFromInput({ ...twoDecks, cards: [...deal, '9h', '4c'] }), { type: 'void', count: 1, reason: 'misread' });
    const summary = raceReport(state);
    expect(summary.tiebreaks[0]?.rounds).toEqual([{ round: 1, seats: [3, 7], cards: [{ seat: 3, card: '9h' }], outcome: null }]);
    expect(summary.explanation).toContain('Voided 4♣ (seat 7): misread');
  });

  it('lists no tie while the race deal is under way, and none without identical best cards', () => {
    expect(summaryOf(twoDecks, ['Ks', '2c', 'Qh']).tiebreaks).toEqual([]);
    const plain = summaryOf(twoDecks, ['Ks', '2c', 'Qh', 'Kh']);
    expect(plain.status).toBe('complete');
    expect(plain.tiebreaks).toEqual([]);
    expect(tieLines(plain.explanation)).toEqual([]);
  });

  it('lists no tie that decides nothing', () => {
    // 6 odd → 2 chips; seats 1 and 2 tie on A♠ at the top: both win anyway.
    const table = { rules: 'tda', removed: 25, next: 100, decks: 2, seats: [1, 2, 3].map((seat) => ({ seat, chips: 2, other: 100 })) };
    const summary = summaryOf(table, ['As', '2c', 'As', '3c', 'Kd', '4d']);
    expect(summary.status).toBe('complete');
    expect(summary.tiebreaks).toEqual([]);
    expect(raceTieBreaks(raceFromInput({ ...table, cards: ['As', '2c', 'As', '3c', 'Kd', '4d'] }))).toEqual([]);
  });
});

describe('three-way ties (three decks)', () => {
  // Seats 3, 5, 7 and 9 hold one odd 25 each: 100 → one chip. Seats 3, 5 and 7 all get K♠, seat 9 2♣.
  const threeDecks = { ...twoDecks, decks: 3, seats: [3, 5, 7, 9].map((seat) => ({ seat, chips: 1, other: 1000 })) };

  it('for the last chip: two draw 9♥ and stay tied, the third is out; J♦ then beats 2♦', () => {
    const summary = summaryOf(threeDecks, ['Ks', 'Ks', 'Ks', '2c', '9h', '9h', '4c', '2d', 'Jd']);
    expect(summary.awards).toEqual([5]);
    expect(summary.tiebreaks).toEqual([
      {
        seats: [3, 5, 7],
        card: 'Ks',
        chips: 1,
        halfChip: false,
        rounds: [
          { round: 1, seats: [3, 5, 7], cards: [{ seat: 3, card: '9h' }, { seat: 5, card: '9h' }, { seat: 7, card: '4c' }], outcome: { won: [], tied: [3, 5] } },
          { round: 2, seats: [3, 5], cards: [{ seat: 3, card: '2d' }, { seat: 5, card: 'Jd' }], outcome: { won: [5], tied: [] } },
        ],
        winners: [5],
      },
    ]);
    expect(tieLines(summary.explanation)).toEqual([
      'Tie: seat 3, seat 5 and seat 7 all hold K♠ for the last 100; tie-break round 1: seat 3 draws 9♥, seat 5 draws 9♥, seat 7 draws 4♣ → seat 3 and seat 5 still tied; tie-break round 2: seat 3 draws 2♦, seat 5 draws J♦ → seat 5 wins',
    ]);
  });

  it('for the last two chips: 9♥ wins one at once, the two 4♣ draw again for the other', () => {
    // Seat 9 now holds 3 odd chips: 6 × 25 → two chips; its 2♣, 3♣, 4♣ lose to the kings.
    const table = { ...threeDecks, seats: [...[3, 5, 7].map((seat) => ({ seat, chips: 1, other: 1000 })), { seat: 9, chips: 3, other: 1000 }] };
    const summary = summaryOf(table, ['Ks', 'Ks', 'Ks', '2c', '3c', '4c', '9h', '4c', '4c', '2d', 'Jd']);
    expect(summary.awards).toEqual([3, 7]);
    expect(summary.tiebreaks).toEqual([
      {
        seats: [3, 5, 7],
        card: 'Ks',
        chips: 2,
        halfChip: false,
        rounds: [
          { round: 1, seats: [3, 5, 7], cards: [{ seat: 3, card: '9h' }, { seat: 5, card: '4c' }, { seat: 7, card: '4c' }], outcome: { won: [3], tied: [5, 7] } },
          { round: 2, seats: [5, 7], cards: [{ seat: 5, card: '2d' }, { seat: 7, card: 'Jd' }], outcome: { won: [7], tied: [] } },
        ],
        winners: [3, 7],
      },
    ]);
    expect(tieLines(summary.explanation)).toEqual([
      'Tie: seat 3, seat 5 and seat 7 all hold K♠ for the last 2 × 100; tie-break round 1: seat 3 draws 9♥, seat 5 draws 4♣, seat 7 draws 4♣ → seat 3 wins; seat 5 and seat 7 still tied; tie-break round 2: seat 5 draws 2♦, seat 7 draws J♦ → seat 7 wins',
    ]);
  });
});

describe('a tie for the next player’s half chip (roberts)', () => {
  // 1 + 2 odd 25s: no full 100, so the best card alone gets one chance, and wins only with at
  // least 2 odd chips of its own. Seat 1 (1 odd) and seat 2 (2 odd) both hold A♠.
  const table = { rules: 'roberts', removed: 25, next: 100, decks: 2, seats: [{ seat: 1, chips: 1, other: 100 }, { seat: 2, chips: 2, other: 100 }] };

  it('seat 1 comes first but has less than half a chip: nobody wins', () => {
    const summary = summaryOf(table, ['As', 'As', '2c', '9h', '4c']);
    expect(summary.awards).toEqual([]);
    expect(summary.tiebreaks).toEqual([
      {
        seats: [1, 2],
        card: 'As',
        chips: 0,
        halfChip: true,
        rounds: [{ round: 1, seats: [1, 2], cards: [{ seat: 1, card: '9h' }, { seat: 2, card: '4c' }], outcome: { won: [], tied: [] } }],
        winners: [],
      },
    ]);
    expect(tieLines(summary.explanation)).toEqual([
      'Tie: seat 1 and seat 2 both hold A♠ for the next 100, won only with at least 2 odd chips of their own; tie-break round 1: seat 1 draws 9♥, seat 2 draws 4♣ → nobody wins',
    ]);
  });

  it('seat 2 comes first and wins', () => {
    const summary = summaryOf(table, ['As', 'As', '2c', '4c', '9h']);
    expect(summary.awards).toEqual([2]);
    expect(summary.tiebreaks[0]?.winners).toEqual([2]);
    expect(tieLines(summary.explanation)).toEqual([
      'Tie: seat 1 and seat 2 both hold A♠ for the next 100, won only with at least 2 odd chips of their own; tie-break round 1: seat 1 draws 4♣, seat 2 draws 9♥ → seat 2 wins',
    ]);
  });
});

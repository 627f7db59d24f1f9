import { describe, expect, it } from 'vitest';
import { startRace } from './race';
import { raceSummary } from './summary';
import { dealAll } from './testing';

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

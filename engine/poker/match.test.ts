import { describe, expect, it } from 'vitest';
import { refusal } from '../testing';
import { applyMatchEvent, replayMatch, type MatchEvent, type MatchState } from './match';
import { pointsOutput } from './summary';

const HANDS = { Anna: ['5h', '6h', '7h', '8h', '9h'], Ville: ['Ks', 'Kc', 'Kd', 'Ah', 'Qd'], Sanna: ['2c', '2s', '3c', '3s', '4c'] };
const TRICKS = [['9h', 'Ah', '2c'], ['Ks', '2s', '5h'], ['Kc', '3c', '6h'], ['Qd', '3s', '7h'], ['Kd', '4c', '8h']];

/** The seed's deal as it reaches the console: one card at a time round the table, everyone standing pat, five tricks. */
function seedDealEvents(order: readonly (keyof typeof HANDS)[]): MatchEvent[] {
  const dealing = [0, 1, 2, 3, 4].flatMap((index) => order.map((player) => ({ type: 'card', card: HANDS[player][index] as string }) as const));
  const pat = order.map(() => ({ type: 'discard', cards: [] }) as const);
  return [...dealing, ...pat, ...TRICKS.flat().map((card) => ({ type: 'card', card }) as const)];
}

function play(events: readonly MatchEvent[], from: MatchState | null = null): MatchState {
  return events.reduce<MatchState | null>((state, event) => applyMatchEvent(state, event), from) as MatchState;
}

describe('a game of several deals at the console', () => {
  const start: MatchEvent = { type: 'start', game: 'pistepokeri', players: ['Anna', 'Ville', 'Sanna'] };

  it('plays the seed deal from cards read one by one: Anna’s straight flush 8, Ville’s last trick 2', () => {
    const state = play([start, ...seedDealEvents(['Anna', 'Ville', 'Sanna'])]);
    expect(state.dealer).toBe(2);
    expect(pointsOutput(state.deal)).toEqual({
      handPoints: { player: 'Anna', hand: 'straight-flush', points: 8 },
      trickWinners: ['Ville', 'Ville', 'Ville', 'Ville', 'Ville'],
      lastTrick: { player: 'Ville', points: 2 },
      scores: { Anna: 8, Ville: 2, Sanna: 0 },
      winner: null,
    });
  });

  it('passes the deal clockwise and carries the totals into the next deal', () => {
    const first = play([start, ...seedDealEvents(['Anna', 'Ville', 'Sanna'])]);
    const second = applyMatchEvent(first, { type: 'next-deal' });
    expect(second.dealNumber).toBe(2);
    expect(second.dealer).toBe(0);
    expect(second.deal.setup.players).toEqual(['Ville', 'Sanna', 'Anna']);
    expect(pointsOutput(second.deal).scores).toEqual({ Ville: 2, Sanna: 0, Anna: 8 });
    expect(second.finished).toEqual([{ Anna: 8, Ville: 2, Sanna: 0 }]);
    // Anna holds the straight flush again: 8 + 8 reaches 13 at the showdown, before any trick.
    const after = play(seedDealEvents(['Ville', 'Sanna', 'Anna']).slice(0, 18), second);
    expect(pointsOutput(after.deal).scores).toEqual({ Ville: 2, Sanna: 0, Anna: 16 });
    expect(after.winner).toBe('Anna');
    expect(() => applyMatchEvent(after, { type: 'next-deal' })).toThrow(/the game is over: Anna has won/);
  });

  it('refuses cards out of turn and a next deal before this one is over, saying why', () => {
    const dealt = play([start, ...seedDealEvents(['Anna', 'Ville', 'Sanna']).slice(0, 15)]);
    expect(refusal(() => applyMatchEvent(dealt, { type: 'card', card: 'Jd' })).message).toMatch(/Anna must first choose the cards to discard \(or stand pat\) in exchange 1/);
    expect(refusal(() => applyMatchEvent(dealt, { type: 'next-deal' })).message).toMatch(/deal 1 is not over yet/);
    expect(refusal(() => applyMatchEvent(play([start]), { type: 'card', card: 'Zz' })).message).toMatch(/"Zz" is not a card/);
  });

  it('replays from its events to exactly the same game', () => {
    const events = [start, ...seedDealEvents(['Anna', 'Ville', 'Sanna']), { type: 'next-deal' } as const];
    expect(replayMatch(JSON.parse(JSON.stringify(events)) as MatchEvent[])).toEqual(play(events));
  });
});

import { describe, expect, it } from 'vitest';
import { expectSaid } from '../messages/testing';
import { refusal } from '../testing';
import { applyMatchEvent, endedByRoyalFlush, replayMatch, type MatchEvent, type MatchState } from './match';
import { pointsOutput } from './summary';
import { gameViewOf } from './view';

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

describe('a Chicago royal flush ends the game at once', () => {
  // Ville holds the royal flush of spades; Anna and Sanna nothing much.
  const ROYAL = { Anna: ['2c', '3c', '4c', '5c', '7d'], Ville: ['Ts', 'Js', 'Qs', 'Ks', 'As'], Sanna: ['2d', '2h', '4d', '5d', '8s'] };
  const order = ['Anna', 'Ville', 'Sanna'] as const;
  const dealing: MatchEvent[] = [0, 1, 2, 3, 4].flatMap((index) => order.map((player) => ({ type: 'card', card: ROYAL[player][index] as string }) as const));

  function royal(options?: Record<string, unknown>): MatchEvent[] {
    return [{ type: 'start', game: 'chicago', players: ['Anna', 'Ville', 'Sanna'], ...(options ? { options } : {}) }, ...dealing];
  }

  it('after the last exchange: Ville wins by the royal flush, and nothing more is taken, neither a card nor an action', () => {
    const events = [...royal({ chicagoCall: true }), { type: 'end-exchanges' } as const];
    const state = play(events);
    expect(state.winner).toBe('Ville');
    expect(state.deal.winner).toEqual({ player: 1, reason: 'royal-flush' });
    expect(endedByRoyalFlush(state)).toBe(true);
    const refusals = [
      { type: 'card', card: '2c' },
      { type: 'call', player: 'Ville' },
      { type: 'discard', cards: [] },
      { type: 'end-exchanges' },
      { type: 'next-deal' },
    ] as const;
    for (const event of refusals) {
      const error = refusal(() => applyMatchEvent(state, event));
      expect(error.said?.key).toBe('poker.match.royalFlush');
      expect(error.said?.params).toEqual({ player: 'Ville' });
      expect(error.message).toMatch(/the game is over: Ville has won with a royal flush; no more cards or actions are taken/);
      expectSaid(error);
    }
    expect(refusal(() => applyMatchEvent(state, { type: 'card', card: '2c' })).field).toBe('card');
    // The journal's events rebuild the same game, and the same refusals.
    const replayed = replayMatch(JSON.parse(JSON.stringify(events)) as MatchEvent[]);
    expect(replayed).toEqual(state);
    expect(() => applyMatchEvent(replayed, { type: 'card', card: '2c' })).toThrow(/royal flush/);
  });

  it('the game view shows the game over: nothing awaited, no legal card, no call, won by the royal flush', () => {
    const view = gameViewOf(play([...royal({ chicagoCall: true }), { type: 'end-exchanges' }]), 'game-1', '2026-12-01T18:00:00.000Z');
    expect(view).toMatchObject({ phase: 'complete', awaiting: null, legal: [], callOpen: false, call: null, winner: 'Ville', winReason: 'royal-flush' });
    expect(view.showdown).toMatchObject({ best: 'Ville', category: 'straight-flush', points: 52, royalFlush: true });
    expect(view.options).toEqual({ handPointsEachExchange: false, chicagoCall: true, buyStop: null });
  });

  it('with hand points after every exchange, a royal flush after the first exchange ends the game there', () => {
    const state = play([...royal({ handPointsEachExchange: true }), { type: 'discard', cards: [] }, { type: 'discard', cards: [] }, { type: 'discard', cards: [] }]);
    expect(state.deal.phase).toBe('exchanging');
    expect(state.deal.winner).toEqual({ player: 1, reason: 'royal-flush' });
    expect(refusal(() => applyMatchEvent(state, { type: 'discard', cards: [] })).said?.key).toBe('poker.match.royalFlush');
    expect(gameViewOf(state, 'game-1', 'now')).toMatchObject({ phase: 'complete', awaiting: null, winReason: 'royal-flush' });
  });

  it('in Pistepokeri the same hand is an ordinary straight flush and the deal goes on', () => {
    const state = play([{ type: 'start', game: 'pistepokeri', players: ['Anna', 'Ville', 'Sanna'] }, ...dealing, { type: 'discard', cards: [] }, { type: 'discard', cards: [] }, { type: 'discard', cards: [] }]);
    expect(state.winner).toBeNull();
    expect(gameViewOf(state, 'game-1', 'now')).toMatchObject({ phase: 'playing', awaiting: { step: 'play', player: 'Anna', trick: 1 }, winReason: null });
  });

  it('a game won by reaching the target keeps its deal recorded to the end (only the royal flush stops it at once)', () => {
    const start: MatchEvent = { type: 'start', game: 'pistepokeri', players: ['Anna', 'Ville', 'Sanna'] };
    const first = applyMatchEvent(play([start, ...seedDealEvents(['Anna', 'Ville', 'Sanna'])]), { type: 'next-deal' });
    const won = play(seedDealEvents(['Ville', 'Sanna', 'Anna']).slice(0, 18), first);
    expect(won.winner).toBe('Anna');
    expect(gameViewOf(won, 'game-1', 'now')).toMatchObject({ winReason: 'target', phase: 'playing' });
    expect(applyMatchEvent(won, { type: 'card', card: 'Ks' }).deal.tricks).toHaveLength(1);
  });
});

describe('the Chicago call at the console', () => {
  const HANDS3 = { Anna: ['2c', '3c', '4c', '5c', '7d'], Ville: ['Ah', 'Kh', 'Qh', 'Jh', '9h'], Sanna: ['2d', '2h', '4d', '5d', '8s'] };
  const order = ['Anna', 'Ville', 'Sanna'] as const;
  const dealt = (options: Record<string, unknown>): MatchState =>
    play([
      { type: 'start', game: 'chicago', players: ['Anna', 'Ville', 'Sanna'], options },
      ...[0, 1, 2, 3, 4].flatMap((index) => order.map((player) => ({ type: 'card', card: HANDS3[player][index] as string }) as const)),
      { type: 'end-exchanges' },
    ]);

  it('is open before the first card when the option is on; the caller leads; then it closes', () => {
    const state = dealt({ chicagoCall: true });
    expect(gameViewOf(state, 'game-1', 'now')).toMatchObject({ callOpen: true, call: null });
    const called = applyMatchEvent(state, { type: 'call', player: 'Ville' });
    expect(gameViewOf(called, 'game-1', 'now')).toMatchObject({ callOpen: false, call: 'Ville', awaiting: { step: 'play', player: 'Ville', trick: 1 } });
    expect(refusal(() => applyMatchEvent(called, { type: 'call', player: 'Anna' })).said?.key).toBe('poker.call.already');
    const played = applyMatchEvent(state, { type: 'card', card: '2c' });
    expect(gameViewOf(played, 'game-1', 'now').callOpen).toBe(false);
    expect(refusal(() => applyMatchEvent(played, { type: 'call', player: 'Anna' })).said?.key).toBe('poker.call.late');
  });

  it('is never open with the option off, and is refused saying so', () => {
    const state = dealt({});
    expect(gameViewOf(state, 'game-1', 'now').callOpen).toBe(false);
    expect(refusal(() => applyMatchEvent(state, { type: 'call', player: 'Ville' })).said?.key).toBe('poker.call.off');
  });
});

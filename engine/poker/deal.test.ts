import { describe, expect, it } from 'vitest';
import type { Card } from '../cards';
import { InputError } from '../errors';
import { applyPokerEvent, legalCards, replayDeal, startDeal, stockSize, type PokerEvent, type PokerState } from './deal';
import { dealFromInput } from './input';
import { englishText, type Message } from '../messages';
import { illegalPlayReason, legalPlays } from './moves';
import { pointsOutput, pokerAwaiting } from './summary';

const cards = (text: string): Card[] => text.split(' ') as Card[];

function refusal(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected a refusal');
}

function applyAll(state: PokerState | null, events: readonly PokerEvent[]): PokerState {
  return events.reduce<PokerState | null>((current, event) => applyPokerEvent(current, event), state) as PokerState;
}

// Seed 002, "Laskuesimerkki": Anna has a heart straight (flush), 8 points; Ville three of a kind and
// Sanna two pair score nothing; Ville takes the last trick with the highest diamond, 2 points.
const seedDeal = {
  game: 'pistepokeri',
  players: ['Anna', 'Ville', 'Sanna'],
  scores: { Anna: 0, Ville: 0, Sanna: 0 },
  hands: { Anna: cards('5h 6h 7h 8h 9h'), Ville: cards('Ks Kc Kd Ah Qd'), Sanna: cards('2c 2s 3c 3s 4c') },
  tricks: [cards('9h Ah 2c'), cards('Ks 2s 5h'), cards('Kc 3c 6h'), cards('Qd 3s 7h'), cards('Kd 4c 8h')],
};

describe('seed 002: the worked example deal', () => {
  it('Anna scores 8 for her heart straight flush, Ville 2 for the last trick', () => {
    const { state } = dealFromInput(seedDeal);
    expect(pointsOutput(state)).toEqual({
      handPoints: { player: 'Anna', hand: 'straight-flush', points: 8 },
      trickWinners: ['Ville', 'Ville', 'Ville', 'Ville', 'Ville'],
      lastTrick: { player: 'Ville', points: 2 },
      scores: { Anna: 8, Ville: 2, Sanna: 0 },
      winner: null,
    });
    const final = state.handScores[0];
    expect(final?.values.map((value) => value >>> 26)).toEqual([8, 3, 2]); // straight flush, three of a kind, two pair
    expect(state.scoring).toEqual([
      { player: 0, points: 8, reason: 'hand', at: 1 },
      { player: 1, points: 2, reason: 'last-trick', at: 5 },
    ]);
    expect(state.phase).toBe('complete');
  });

  it('scores the hand first, so the last trick is still open after the showdown', () => {
    const { state } = dealFromInput({ ...seedDeal, tricks: seedDeal.tricks.slice(0, 4) });
    expect(pointsOutput(state)).toMatchObject({ lastTrick: null, scores: { Anna: 8, Ville: 0, Sanna: 0 }, trickWinners: ['Ville', 'Ville', 'Ville', 'Ville'] });
    expect(pokerAwaiting(state)).toEqual({ step: 'play', player: 'Ville', trick: 5 });
  });

  it('the same deal as events, one card at a time round the table, replays to the same state', () => {
    const { events, state } = dealFromInput(seedDeal);
    expect(replayDeal(events)).toEqual(state);
    const dealt: PokerEvent[] = [];
    for (let round = 0; round < 5; round += 1) {
      for (const player of seedDeal.players) dealt.push({ type: 'deal', cards: [seedDeal.hands[player as 'Anna'][round] as Card] });
    }
    let live = applyAll(null, [{ type: 'setup', deal: seedDeal }, ...dealt, { type: 'end-exchanges' }]);
    for (const trick of seedDeal.tricks) live = applyAll(live, trick.map((card) => ({ type: 'play', card })));
    expect(live.scores).toEqual([8, 2, 0]);
    expect(live.dealt).toEqual(state.dealt);
  });
});

describe('seed 002: the combined follow-and-raise duty (Pistepokeri)', () => {
  it('example 1: lead 7♥, holding 9♥: the 9♥ must be played', () => {
    const hand = cards('9h 2c Ks 3d');
    expect(legalPlays(hand, '7h', 'beat-opening-card')).toEqual(['9h']);
    expect(englishText(illegalPlayReason(hand, 'Ks', '7h', 'beat-opening-card') as Message)).toMatch(/opening card is 7h and a heart above it must be played \(holding 9h\)/);
  });

  it('example 2: lead 7♥, holding only 5♥ and 6♥ of hearts: any card may be played', () => {
    const hand = cards('5h 6h Ks 2c');
    expect(legalPlays(hand, '7h', 'beat-opening-card')).toEqual(hand);
  });

  it('the card to beat is the opening card, not the best card played so far', () => {
    const state = dealFromInput({
      game: 'pistepokeri',
      players: ['Anna', 'Ville', 'Sanna'],
      hands: { Anna: cards('7h 2c 3c 4c 5c'), Ville: cards('Qh 2d 3d 4d 5d'), Sanna: cards('9h 2s 3s 4s 5s') },
      tricks: [cards('7h Qh')],
    }).state;
    // Sanna's 9♥ does not beat Ville's Q♥ but beats the opening 7♥: she must play it.
    expect(legalCards(state)).toEqual(['9h']);
    expect(refusal(() => applyPokerEvent(state, { type: 'play', card: '2s' })).message).toMatch(/trick 1: Sanna may not play 2s: the opening card is 7h/);
  });

  it('the leader may lead anything, and the highest card of the led suit wins: no trumps', () => {
    const { state } = dealFromInput({
      game: 'pistepokeri',
      players: ['Anna', 'Ville'],
      hands: { Anna: cards('2d 3c 4c 5c 7c'), Ville: cards('As Ks Qs Js 9h') },
      tricks: [cards('2d As')],
    });
    expect(pointsOutput(state).trickWinners).toEqual(['Anna']);
  });
});

describe('hand points go to the single best hand only', () => {
  const base = { game: 'pistepokeri', players: ['Anna', 'Ville', 'Sanna'] };

  it('exactly equal best hands (same ranks, other suits): nobody scores', () => {
    const { state } = dealFromInput({ ...base, hands: { Anna: cards('5h 6h 7c 8h 9h'), Ville: cards('5s 6s 7s 8d 9s'), Sanna: cards('Ac Ad Kc Kd 2c') } });
    expect(pointsOutput(state).handPoints).toBeNull();
    expect(state.handScores[0]).toMatchObject({ best: null, tied: [0, 1], category: 'straight', points: 0 });
    expect(state.scores).toEqual([0, 0, 0]);
  });

  it('a best hand of high card scores nothing', () => {
    const { state } = dealFromInput({ ...base, hands: { Anna: cards('2c 7s 9d Jh Kc'), Ville: cards('3c 8s Td Qh Ac'), Sanna: cards('4c 6s 8d Th Js') } });
    expect(state.handScores[0]).toMatchObject({ best: 1, category: 'high-card', points: 0 });
    expect(pointsOutput(state).handPoints).toBeNull();
  });

  it('equal categories are decided by ordinary poker rules', () => {
    const { state } = dealFromInput({ ...base, hands: { Anna: cards('Kc Kd 5h 5s 3c'), Ville: cards('Kh Ks 5d 5c 2c'), Sanna: cards('4c 6s 8d Th Js') } });
    expect(pointsOutput(state).handPoints).toEqual({ player: 'Anna', hand: 'two-pair', points: 2 });
  });

  it('scores the hands after the exchange, not as dealt', () => {
    const { state } = dealFromInput({
      ...base,
      hands: { Anna: cards('2h 3h 4h 5h 6h'), Ville: cards('Ks Kc Kd Ah Qd'), Sanna: cards('2c 2s 3c 3s 4c') },
      exchanges: [{ Anna: { discard: ['2h'], draw: ['9d'] } }],
    });
    expect(state.hands[0]).toEqual(cards('3h 4h 5h 6h 9d'));
    expect(pointsOutput(state).handPoints).toEqual({ player: 'Ville', hand: 'three-of-a-kind', points: 3 });
    expect(state.exchanges).toEqual([
      { round: 1, player: 0, discarded: ['2h'], drawn: ['9d'] },
      { round: 1, player: 1, discarded: [], drawn: [] },
      { round: 1, player: 2, discarded: [], drawn: [] },
    ]);
  });
});

describe('the game to the target: the first to reach it in scoring order wins', () => {
  const hands = { Anna: cards('Jc Js 3c 8s 4c'), Ville: cards('Ah Kh Qh Jh 9d'), Sanna: cards('2d 5d 6d 7s 8h') };
  // Anna leads 3c, Ville and Sanna have no clubs; Anna keeps the lead and takes every trick but the last.
  const tricks = [cards('3c Ah 2d'), cards('4c Kh 5d'), cards('8s 9d 7s'), cards('Jc Qh 6d'), cards('Js Jh 8h')];

  it('hand points are scored before the last trick, so they reach the target first', () => {
    const { state } = dealFromInput({ game: 'pistepokeri', players: ['Anna', 'Ville', 'Sanna'], scores: { Anna: 12, Ville: 12 }, hands, tricks });
    expect(pointsOutput(state)).toMatchObject({ handPoints: { player: 'Anna', hand: 'pair', points: 1 }, lastTrick: { player: 'Anna', points: 2 }, scores: { Anna: 15, Ville: 12, Sanna: 0 }, winner: 'Anna' });
    expect(state.winner).toEqual({ player: 0, reason: 'target' });
  });

  it('a player reaching the target later in the same deal does not take the win', () => {
    const last = [...tricks.slice(0, 4), cards('Js 9h 8h')];
    const { state } = dealFromInput({
      game: 'pistepokeri',
      players: ['Anna', 'Ville', 'Sanna'],
      scores: { Anna: 12, Ville: 11 },
      hands: { ...hands, Ville: cards('Ah Kh Qh 9h 9d'), Sanna: cards('2d 5d 6d 7s 8h') },
      tricks: last,
    });
    // Ville's pair of nines loses to Anna's jacks; the last trick (J♠ led, no spade above it) is Anna's.
    expect(pointsOutput(state).winner).toBe('Anna');
  });

  it('nobody wins below the target', () => {
    const { state } = dealFromInput({ game: 'pistepokeri', players: ['Anna', 'Ville', 'Sanna'], scores: { Anna: 10 }, hands, tricks });
    expect(pointsOutput(state)).toMatchObject({ scores: { Anna: 13 }, winner: 'Anna' });
    expect(dealFromInput({ game: 'pistepokeri', players: ['Anna', 'Ville', 'Sanna'], scores: { Anna: 9 }, hands, tricks }).state.winner).toBeNull();
  });

  it('refuses a deal in a game that is already won', () => {
    const error = refusal(() => startDeal({ game: 'pistepokeri', players: ['Anna', 'Ville'], scores: { Ville: 13 } }));
    expect(error.field).toBe('scores.Ville');
    expect(error.message).toMatch(/Ville already has 13 points, at least the target 13: the game is over/);
  });
});

describe('Chicago', () => {
  const players = ['Anna', 'Ville', 'Sanna'];

  it('follows suit if it can, with no duty to beat the led card', () => {
    expect(legalPlays(cards('9h 3h Ks'), '7h', 'follow-suit')).toEqual(['9h', '3h']);
    expect(legalPlays(cards('Ks 2c'), '7h', 'follow-suit')).toEqual(['Ks', '2c']);
    expect(englishText(illegalPlayReason(cards('9h 3h Ks'), 'Ks', '7h', 'follow-suit') as Message)).toMatch(/the lead is 7h and a heart must be followed \(holding 9h, 3h\)/);
  });

  const chicagoDeal = {
    game: 'chicago',
    players,
    scores: { Anna: 47, Ville: 10 },
    hands: { Anna: cards('2c 3c 4c 5c 7d'), Ville: cards('Ah Kh Qh Jh 9s'), Sanna: cards('2d 2h 4d 5d 8s') },
    tricks: [cards('2c Ah 2d'), cards('3c Kh 4d'), cards('4c Qh 5d'), cards('5c Jh 2h'), cards('7d 9s 8s')],
  };

  it('the last trick scores 5 and the game goes to 52', () => {
    const { state } = dealFromInput(chicagoDeal);
    expect(pointsOutput(state)).toEqual({
      handPoints: { player: 'Sanna', hand: 'pair', points: 1 },
      trickWinners: ['Anna', 'Anna', 'Anna', 'Anna', 'Anna'],
      lastTrick: { player: 'Anna', points: 5 },
      scores: { Anna: 52, Ville: 10, Sanna: 1 },
      winner: 'Anna',
    });
  });

  it('up to three exchanges: rounds not given are stood pat', () => {
    const exchanges = [{ Anna: { discard: ['7d'], draw: ['6c'] } }, {}, { Sanna: { discard: ['8s'], draw: ['2s'] } }];
    const { state } = dealFromInput({ ...chicagoDeal, exchanges, tricks: [] });
    expect(state.exchanges.filter((exchange) => exchange.discarded.length > 0).map(({ round, player }) => [round, player])).toEqual([[1, 0], [3, 2]]);
    expect(pointsOutput(state).handPoints).toEqual({ player: 'Anna', hand: 'straight-flush', points: 8 });
    const tooMany = refusal(() => dealFromInput({ ...chicagoDeal, exchanges: [{}, {}, {}, {}] }));
    expect(tooMany.message).toBe('exchanges: chicago has up to 3 exchanges (got 4)');
    const pistepokeri = refusal(() => dealFromInput({ ...chicagoDeal, game: 'pistepokeri', scores: {}, exchanges: [{}, {}] }));
    expect(pistepokeri.message).toBe('exchanges: pistepokeri has one exchange (got 2)');
  });

  it('a royal flush scores 52 and wins at once, whatever the totals', () => {
    const hands = { Anna: cards('2c 3c 4c 5c 7d'), Ville: cards('Ts Js Qs Ks As'), Sanna: cards('2d 2h 4d 5d 8s') };
    const { state } = dealFromInput({ game: 'chicago', players, scores: { Anna: 50, Ville: -15 }, hands, tricks: [cards('2c Ts 2d'), cards('3c Js 4d'), cards('4c Qs 5d'), cards('5c Ks 2h'), cards('7d As 8s')] });
    expect(pointsOutput(state)).toMatchObject({ handPoints: { player: 'Ville', hand: 'straight-flush', points: 52 }, scores: { Anna: 55, Ville: 37 }, winner: 'Ville' });
    expect(state.winner).toEqual({ player: 1, reason: 'royal-flush' });
    // In Pistepokeri the same hand is an ordinary straight flush.
    const plain = dealFromInput({ game: 'pistepokeri', players, hands }).state;
    expect(pointsOutput(plain)).toMatchObject({ handPoints: { player: 'Ville', hand: 'straight-flush', points: 8 }, winner: null });
  });

  it('house option: hand points after the first and second exchange as well', () => {
    const { state } = dealFromInput({ ...chicagoDeal, options: { handPointsEachExchange: true }, tricks: [] });
    expect(state.handScores.map(({ round, final, best, points }) => ({ round, final, best, points }))).toEqual([
      { round: 1, final: false, best: 2, points: 1 },
      { round: 2, final: false, best: 2, points: 1 },
      { round: 3, final: true, best: 2, points: 1 },
    ]);
    expect(pointsOutput(state).scores.Sanna).toBe(3);
    expect(dealFromInput({ ...chicagoDeal, tricks: [] }).state.handScores).toHaveLength(1);
  });

  it('house option: a buy stop near the target ends a player’s exchanges', () => {
    const stopped = { ...chicagoDeal, options: { buyStop: 42 }, exchanges: [{ Anna: { discard: ['7d'], draw: ['6c'] } }] };
    const error = refusal(() => dealFromInput(stopped));
    expect(error.field).toBe('exchanges[0].Anna.discard');
    expect(error.reason).toMatch(/Anna has 47 points, at or past the buy stop of 42: no more exchanges, stand pat/);
    expect(dealFromInput({ ...stopped, tricks: [], exchanges: [{ Ville: { discard: ['9s'], draw: ['Th'] } }] }).state.hands[1]).toContain('Th');
  });

  describe('house option: the Chicago call', () => {
    const setup = { game: 'chicago', players, options: { chicagoCall: true } };
    const hands = { Anna: cards('2c 3c 4c 5c 7d'), Ville: cards('Ah Kh Qh Jh 9h'), Sanna: cards('2d 2h 4d 5d 8s') };
    const dealt = (): PokerState => dealFromInput({ ...setup, hands }).state;
    const play = (state: PokerState, ...played: string[]) => applyAll(state, played.map((card) => ({ type: 'play', card })));

    it('the caller leads and scores 15 for taking all five tricks (and the last trick’s 5)', () => {
      let state = applyPokerEvent(dealt(), { type: 'call', player: 'Ville' });
      expect(pokerAwaiting(state)).toEqual({ step: 'play', player: 'Ville', trick: 1 });
      // Ville leads, then Sanna, then Anna; Sanna must follow hearts with her 2♥.
      expect(refusal(() => play(state, 'Ah', '2d')).message).toMatch(/trick 1: Sanna may not play 2d: the lead is Ah and a heart must be followed \(holding 2h\)/);
      state = play(state, 'Ah', '2h', '2c', 'Kh', '2d', '3c', 'Qh', '4d', '4c', 'Jh', '5d', '5c', '9h', '8s', '7d');
      expect(state.scoring.map(({ player, points, reason }) => [player, points, reason])).toEqual([
        [1, 5, 'hand'], // Ville's heart flush
        [1, 5, 'last-trick'],
        [1, 15, 'chicago-call'],
      ]);
      expect(state.scores).toEqual([0, 25, 0]);
    });

    it('costs the caller 15 as soon as a trick is lost', () => {
      let state = applyPokerEvent(dealt(), { type: 'call', player: 'Sanna' });
      state = play(state, '2d', '7d', '9h');
      expect(state.scoring.at(-1)).toEqual({ player: 2, points: -15, reason: 'chicago-call', at: 1 });
      expect(state.scores).toEqual([0, 5, -15]);
    });

    it('is refused when off, twice, or after the first card', () => {
      const off = dealFromInput({ game: 'chicago', players, hands }).state;
      expect(refusal(() => applyPokerEvent(off, { type: 'call', player: 'Ville' })).message).toMatch(/house option that is off/);
      const called = applyPokerEvent(dealt(), { type: 'call', player: 'Ville' });
      expect(refusal(() => applyPokerEvent(called, { type: 'call', player: 'Anna' })).message).toMatch(/Ville has already called Chicago/);
      expect(refusal(() => applyPokerEvent(play(dealt(), '2c'), { type: 'call', player: 'Ville' })).message).toMatch(/the first card has been played/);
    });
  });

  it('house options are Chicago’s only', () => {
    const error = refusal(() => startDeal({ game: 'pistepokeri', players, options: { chicagoCall: true } }));
    expect(error.message).toBe('options.chicagoCall: chicagoCall is a Chicago house option; it does not apply to pistepokeri');
  });
});

describe('no card is ever in two places; discards return only after a recorded reshuffle', () => {
  const players = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'];
  const deck = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'].flatMap((rank) => ['c', 'd', 'h', 's'].map((suit) => `${rank}${suit}` as Card));
  const hands = Object.fromEntries(players.map((player, index) => [player, deck.slice(index * 5, index * 5 + 5)]));
  const stock = deck.slice(30);
  const allFive = (player: number, draw: Card[]) => ({ discard: deck.slice(player * 5, player * 5 + 5), draw });
  const exchange = {
    P1: allFive(0, stock.slice(0, 5)),
    P2: allFive(1, stock.slice(5, 10)),
    P3: allFive(2, stock.slice(10, 15)),
    P4: allFive(3, stock.slice(15, 20)),
    // The stock holds two cards: then the 25 discards so far become the new stock.
    P5: allFive(4, [...stock.slice(20, 22), ...deck.slice(0, 3)]),
  };

  it('six players: when the stock runs out, the discards are reshuffled and may be drawn', () => {
    const { state, events } = dealFromInput({ game: 'pistepokeri', players, hands, exchanges: [exchange] });
    expect(events.filter((event) => event.type === 'reshuffle')).toHaveLength(1);
    expect(state.reshuffles).toEqual([{ round: 1, cards: deck.slice(0, 25) }]);
    expect(state.hands[4]).toEqual([...stock.slice(20, 22), ...deck.slice(0, 3)]);
    expect(state.discards).toEqual([]);
    expect(stockSize(state)).toBe(22);
    expect(replayDeal(events)).toEqual(state);
  });

  it('a discard drawn while the stock still holds cards is refused', () => {
    const early = { ...exchange, P5: allFive(4, [deck[0] as Card, ...stock.slice(20, 22), ...deck.slice(1, 3)]) };
    const error = refusal(() => dealFromInput({ game: 'pistepokeri', players, hands, exchanges: [early] }));
    expect(error.field).toBe('exchanges[0].P5.draw[0]');
    expect(error.reason).toBe('P5 cannot draw 2c in exchange 1: 2c was discarded by P1 in exchange 1 and discards come back only after a reshuffle (the stock still holds 2 cards)');
  });

  it('a reshuffle is refused while the stock holds cards', () => {
    const state = dealFromInput({ game: 'pistepokeri', players: ['A', 'B'], hands: { A: deck.slice(0, 5), B: deck.slice(5, 10) }, exchanges: [] }).state;
    const live = applyAll(null, [{ type: 'setup', deal: { game: 'pistepokeri', players: ['A', 'B'] } }, { type: 'deal', player: 'A', cards: deck.slice(0, 5) }, { type: 'deal', player: 'B', cards: deck.slice(5, 10) }]);
    expect(refusal(() => applyPokerEvent(live, { type: 'reshuffle' })).message).toBe('event: the stock still holds 42 cards: the discards may be reshuffled only when it runs out');
    expect(state.phase).toBe('playing');
  });

  it.each([
    ['dealt twice', { hands: { A: cards('2c 3c 4c 5c 6c'), B: cards('7c 8c 9c Tc 2c') } }, 'hands.B[4]', 'B cannot be dealt 2c: 2c is in A\'s hand'],
    ['drawn from another hand', { exchanges: [{ A: { discard: ['2c'], draw: ['7c'] } }] }, 'exchanges[0].A.draw[0]', 'A cannot draw 7c in exchange 1: 7c is in B\'s hand'],
    ['drawn back at once', { exchanges: [{ A: { discard: ['2c'], draw: ['2c'] } }] }, 'exchanges[0].A.draw[0]', 'A cannot draw 2c in exchange 1: 2c was discarded by A in exchange 1 and discards come back only after a reshuffle (the stock still holds 42 cards)'],
    ['discarded but not held', { exchanges: [{ A: { discard: ['7c'], draw: ['Ac'] } }] }, 'exchanges[0].A.discard[0]', 'A cannot discard 7c in exchange 1: A does not hold 7c (7c is in B\'s hand)'],
    ['played twice', { tricks: [cards('2c 7c'), cards('2c')] }, 'tricks[1][0]', 'trick 2: B cannot play 2c: B does not hold 2c (2c was already played by A to trick 1)'],
    ['played from another hand', { tricks: [cards('2c 3c')] }, 'tricks[0][1]', 'trick 1: B cannot play 3c: B does not hold 3c (3c is in A\'s hand)'],
  ])('a card %s is refused', (_, extra, field, reason) => {
    const error = refusal(() => dealFromInput({ game: 'pistepokeri', players: ['A', 'B'], hands: { A: cards('2c 3c 4c 5c 6c'), B: cards('7c 8c 9c Tc Jc') }, ...extra }));
    expect(error.field).toBe(field);
    expect(error.reason).toBe(reason);
  });
});

describe('what the deal waits for', () => {
  it('names the next step for the console: deal, discard, draw, play', () => {
    let state = startDeal({ game: 'pistepokeri', players: ['Anna', 'Ville'] });
    expect(pokerAwaiting(state)).toEqual({ step: 'deal', player: 'Anna', cards: 5 });
    state = applyPokerEvent(state, { type: 'deal', cards: ['2c'] });
    expect(pokerAwaiting(state)).toEqual({ step: 'deal', player: 'Ville', cards: 5 });
    state = applyAll(state, cards('3c 4c 5c 6c 7c 8c 9c Tc Jc').map((card) => ({ type: 'deal', cards: [card] })));
    expect(state.hands).toEqual([cards('2c 4c 6c 8c Tc'), cards('3c 5c 7c 9c Jc')]);
    expect(pokerAwaiting(state)).toEqual({ step: 'discard', player: 'Anna', round: 1 });
    state = applyPokerEvent(state, { type: 'discard', player: 'Anna', cards: ['2c', '4c'] });
    expect(pokerAwaiting(state)).toEqual({ step: 'draw', player: 'Anna', round: 1, cards: 2, stock: 42 });
    expect(refusal(() => applyPokerEvent(state, { type: 'discard', player: 'Ville', cards: [] })).message).toMatch(/Anna is still owed 2 cards in exchange 1; draw them first/);
    state = applyPokerEvent(state, { type: 'draw', cards: ['Ah', 'Kh'] });
    expect(pokerAwaiting(state)).toEqual({ step: 'discard', player: 'Ville', round: 1 });
    state = applyPokerEvent(state, { type: 'discard', player: 'Ville', cards: [] });
    expect(pokerAwaiting(state)).toEqual({ step: 'play', player: 'Anna', trick: 1 });
    expect(legalCards(state)).toEqual(state.hands[0]);
  });
});

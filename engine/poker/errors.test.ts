import { describe, expect, it } from 'vitest';
import { ENGINE_CATALOGS, formatMessage } from '../messages';
import { expectSaid } from '../messages/testing';
import { refusal } from '../testing';
import { applyPokerEvent, replayDeal, startDeal, type PokerEvent } from './deal';
import { dealFromInput } from './input';

const valid = {
  game: 'pistepokeri',
  players: ['Anna', 'Ville', 'Sanna'],
  hands: { Anna: ['5h', '6h', '7h', '8h', '9h'], Ville: ['Ks', 'Kc', 'Kd', 'Ah', 'Qd'], Sanna: ['2c', '2s', '3c', '3s', '4c'] },
};

describe('every invalid deal is refused, naming the field and the reason', () => {
  it.each([
    ['not an object', [], 'deal', /a deal must be a JSON object/],
    ['no game', { ...valid, game: undefined }, 'game', /missing: name the game, "pistepokeri" or "chicago"/],
    ['an unknown game', { ...valid, game: 'texas' }, 'game', /unknown game "texas"/],
    ['players not a list', { ...valid, players: 'Anna' }, 'players', /must be a list of player names/],
    ['one player', { ...valid, players: ['Anna'] }, 'players', /2–6 players play \(got 1\)/],
    ['seven players', { ...valid, players: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }, 'players', /2–6 players play \(got 7\)/],
    ['a nameless player', { ...valid, players: ['Anna', ' '] }, 'players[1]', /non-empty text/],
    ['a name twice', { ...valid, players: ['Anna', 'Ville', 'Anna'] }, 'players[2]', /Anna appears twice \(also players\[0\]\)/],
    ['a score for a stranger', { ...valid, scores: { Bob: 3 } }, 'scores.Bob', /"Bob" is not one of the players \(Anna, Ville, Sanna\)/],
    ['a fractional score', { ...valid, scores: { Anna: 1.5 } }, 'scores.Anna', /whole number \(got 1.5\)/],
    ['a negative Pistepokeri score', { ...valid, scores: { Anna: -2 } }, 'scores.Anna', /cannot be negative in pistepokeri/],
    ['an unknown house option', { ...valid, game: 'chicago', options: { jokers: true } }, 'options.jokers', /unknown house option/],
    ['a buy stop past the target', { ...valid, game: 'chicago', options: { buyStop: 60 } }, 'options.buyStop', /from 1 to 51/],
    ['an exchange order missing a player', { ...valid, exchangeOrder: ['Anna', 'Ville'] }, 'exchangeOrder', /every player once/],
    ['no hands', { ...valid, hands: undefined }, 'hands', /missing: the five cards dealt to each player/],
    ['a missing hand', { ...valid, hands: { Anna: valid.hands.Anna, Ville: valid.hands.Ville } }, 'hands.Sanna', /missing: the five cards dealt to Sanna/],
    ['a hand of four', { ...valid, hands: { ...valid.hands, Ville: ['Ks', 'Kc', 'Kd', 'Ah'] } }, 'hands.Ville', /Ville must be dealt exactly 5 cards \(got 4\)/],
    ['a hand for a stranger', { ...valid, hands: { ...valid.hands, Bob: [] } }, 'hands.Bob', /"Bob" is not one of the players/],
    ['a bad card code', { ...valid, hands: { ...valid.hands, Anna: ['5h', 'Xx', '7h', '8h', '9h'] } }, 'hands.Anna[1]', /"Xx" is not a card/],
    ['a card twice in a hand', { ...valid, hands: { ...valid.hands, Anna: ['5h', '5h', '7h', '8h', '9h'] } }, 'hands.Anna[1]', /5h is listed twice/],
    ['exchanges not a list', { ...valid, exchanges: {} }, 'exchanges', /must be a list of exchange rounds/],
    ['an exchange round not an object', { ...valid, exchanges: [['2h']] }, 'exchanges[0]', /must be an object by player/],
    ['an exchange for a stranger', { ...valid, exchanges: [{ Bob: {} }] }, 'exchanges[0].Bob', /"Bob" is not one of the players/],
    ['an unknown exchange field', { ...valid, exchanges: [{ Anna: { discards: ['5h'] } }] }, 'exchanges[0].Anna.discards', /unknown field/],
    ['fewer cards drawn than discarded', { ...valid, exchanges: [{ Anna: { discard: ['5h', '6h'], draw: ['Tc'] } }] }, 'exchanges[0].Anna.draw', /Anna discards 2 cards in exchange 1 and must draw as many \(got 1\)/],
    ['tricks not a list', { ...valid, tricks: 'all' }, 'tricks', /must be a list of tricks/],
    ['six tricks', { ...valid, tricks: [[], [], [], [], [], []] }, 'tricks', /a deal has 5 tricks \(got 6\)/],
    ['an empty trick', { ...valid, tricks: [[]] }, 'tricks[0]', /the trick's cards in the order played/],
    ['a trick of four cards for three players', { ...valid, tricks: [['9h', 'Ah', '2c', '3c']] }, 'tricks[0]', /trick 1 has 4 cards, but 3 players play one card each/],
    ['an unfinished trick followed by another', { ...valid, tricks: [['9h', 'Ah'], ['Ks']] }, 'tricks[0]', /trick 1 has 2 of 3 cards, yet a later trick follows/],
    ['a card that is not text', { ...valid, tricks: [[9]] }, 'tricks[0][0]', /must be text/],
  ])('%s', (_, input, field, reason) => {
    const error = refusal(() => dealFromInput(input));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
    expectSaid(error);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });

  it('an illegal play names the player, the trick and the card', () => {
    // Trick 1: Anna leads 9♥; Ville holds A♥, the one heart above it, and must play it.
    const error = refusal(() => dealFromInput({ ...valid, tricks: [['9h', 'Ks']] }));
    expect(error.message).toBe('tricks[0][1]: trick 1: Ville may not play Ks: the opening card is 9h and a heart above it must be played (holding Ah)');
    const later = refusal(() => dealFromInput({ ...valid, tricks: [['9h', 'Ah', '2c'], ['Ks', '2s', '5h'], ['Kc', '6h', '3c']] }));
    expect(later.message).toBe('tricks[2][1]: trick 3: Sanna cannot play 6h: Sanna does not hold 6h (6h is in Anna\'s hand)');
  });
});

describe('the refusals in the dealer\'s language', () => {
  it('an illegal play and a card not held, in Finnish and Russian, cards shown as cards', () => {
    const illegal = expectSaid(refusal(() => dealFromInput({ ...valid, tricks: [['9h', 'Ks']] })));
    expect(formatMessage(illegal, 'fi', ENGINE_CATALOGS.fi)).toBe('tikki 1: Ville ei saa pelata korttia K♠: avauskortti on 9♥, ja on pelattava sitä suurempi hertta (kädessä A♥)');
    expect(formatMessage(illegal, 'ru', ENGINE_CATALOGS.ru)).toBe('взятка 1: Ville не имеет права сыграть K♠: первая карта — 9♥, нужно сыграть старшую карту той же масти (черва) (на руке A♥)');
    const notHeld = expectSaid(refusal(() => dealFromInput({ ...valid, tricks: [['9h', 'Ah', '2c'], ['Ks', '2s', '5h'], ['Kc', '6h', '3c']] })));
    expect(formatMessage(notHeld, 'fi', ENGINE_CATALOGS.fi)).toBe('tikki 3: Sanna ei voi pelata korttia 6♥: pelaajalla Sanna ei ole korttia 6♥ (6♥ on pelaajan Anna kädessä)');
    expect(formatMessage(notHeld, 'en', ENGINE_CATALOGS.en)).toBe("trick 3: Sanna cannot play 6♥: Sanna does not hold 6♥ (6♥ is in Anna's hand)");
  });

  it('lists several held cards with commas, each a card', () => {
    const players = ['Anna', 'Ville'];
    const state = replayDeal([
      { type: 'setup', deal: { game: 'chicago', players } },
      { type: 'deal', player: 'Anna', cards: ['9h', '3c', '4c', '5c', '7d'] },
      { type: 'deal', player: 'Ville', cards: ['Ah', 'Kh', '2h', 'Jd', '9s'] },
      { type: 'end-exchanges' },
      { type: 'play', card: '9h' },
    ]);
    const error = refusal(() => applyPokerEvent(state, { type: 'play', card: '9s' }));
    expect(error.reason).toBe('trick 1: Ville may not play 9s: the lead is 9h and a heart must be followed (holding Ah, Kh, 2h)');
    expect(formatMessage(expectSaid(error), 'fi', ENGINE_CATALOGS.fi)).toContain('(kädessä A♥, K♥, 2♥)');
  });
});

describe('events out of turn or out of place are refused', () => {
  const setup: PokerEvent = { type: 'setup', deal: { game: 'pistepokeri', players: ['Anna', 'Ville'] } };
  const dealt: PokerEvent[] = [setup, { type: 'deal', player: 'Anna', cards: ['2c', '3c', '4c', '5c', '7d'] }, { type: 'deal', player: 'Ville', cards: ['Ah', 'Kh', 'Qh', 'Jh', '9s'] }];

  it.each([
    ['an unknown event', [setup, { type: 'shuffle' }], 'event', /unknown event type "shuffle"/],
    ['no setup first', [{ type: 'deal', cards: ['2c'] }], 'event', /the first event must be setup/],
    ['a second setup', [setup, setup], 'event', /already set up/],
    ['a sixth card', [setup, { type: 'deal', player: 'Anna', cards: ['2c', '3c', '4c', '5c', '7d', '8d'] }], 'cards[5]', /Anna already has 5 cards; 8d would be one too many/],
    ['a play before the exchange', [...dealt, { type: 'play', card: '2c' }], 'event', /a play event does not fit now: the players are exchanging cards/],
    ['a discard out of turn', [...dealt, { type: 'discard', player: 'Ville', cards: ['9s'] }], 'player', /it is Anna's turn to exchange \(exchange 1\), not Ville's/],
    ['a draw nobody is owed', [...dealt, { type: 'draw', cards: ['2d'] }], 'event', /nobody is owed cards: it is Anna's turn to discard or stand pat/],
    ['a draw of too many', [...dealt, { type: 'discard', cards: ['7d'] }, { type: 'draw', cards: ['2d', '3d'] }], 'cards', /Anna is owed 1 card in exchange 1, not 2/],
    ['a play out of turn', [...dealt, { type: 'end-exchanges' }, { type: 'play', player: 'Ville', card: 'Ah' }], 'player', /it is Anna's turn to play to trick 1, not Ville's/],
    ['a play after the deal', [...dealt, { type: 'end-exchanges' }, ...['2c', 'Ah', '3c', 'Kh', '4c', 'Qh', '5c', 'Jh', '7d', '9s'].map((card): PokerEvent => ({ type: 'play', card })), { type: 'play', card: '2d' }], 'event', /the deal is complete/],
    ['a call without the option', [...dealt, { type: 'end-exchanges' }, { type: 'call', player: 'Anna' }], 'event', /the Chicago call is a house option that is off/],
  ] as Array<[string, PokerEvent[], string, RegExp]>)('%s', (_, events, field, reason) => {
    const error = refusal(() => replayDeal(events));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
    expectSaid(error);
  });

  it('a refused event leaves the state as it was', () => {
    const state = replayDeal(dealt);
    const copy = JSON.parse(JSON.stringify(state));
    refusal(() => applyPokerEvent(state, { type: 'discard', cards: ['Ah'] }));
    expect(state).toEqual(copy);
    expect(startDeal(setup.deal).phase).toBe('dealing');
  });
});

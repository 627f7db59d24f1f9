import { describe, expect, it } from 'vitest';
import { InputError } from '../errors';
import { refusal } from '../testing';
import { raceFromInput } from './input';
import { applyRaceEvent, replayRace, startRace } from './race';

const valid = {
  rules: 'classic', removed: 25, next: 100, button: 10,
  seats: [{ seat: 1, name: 'Matti', chips: 7, other: 5000 }, { seat: 2, chips: 2, other: 3000 }],
};

describe('every invalid race input is refused, naming the field and the reason', () => {
  it.each([
    ['not an object', [], 'race', /must be a JSON object/],
    ['unknown rule set', { ...valid, rules: 'vegas' }, 'rules', /unknown value "vegas"; choose one of classic, tda, roberts, round/],
    ['missing rule set', { ...valid, rules: undefined }, 'rules', /missing/],
    ['unknown rounding', { ...valid, rounding: 'nearest' }, 'rounding', /choose one of pooled-half-up/],
    ['unknown deal start', { ...valid, dealStart: 'dealer' }, 'dealStart', /choose one of left-of-button, seat-1/],
    ['unknown protection', { ...valid, protection: 'none' }, 'protection', /choose one of exempt/],
    ['denominations that do not divide', { ...valid, removed: 25, next: 110 }, 'next', /110 is not a whole multiple of the removed denomination 25/],
    ['next not larger', { ...valid, removed: 100, next: 100 }, 'next', /must be larger than the removed one/],
    ['negative denomination', { ...valid, removed: -25 }, 'removed', /at least 1 \(got -25\)/],
    ['fractional denomination', { ...valid, removed: 2.5 }, 'removed', /whole number \(got 2.5\)/],
    ['text denomination', { ...valid, next: '100' }, 'next', /must be a number \(got "100"\)/],
    ['zero decks', { ...valid, decks: 0 }, 'decks', /at least 1/],
    ['missing button for left-of-button rules', { ...valid, button: undefined }, 'button', /deals from the left of the button/],
    ['bad button', { ...valid, button: 0 }, 'button', /at least 1/],
    ['seats not a list', { ...valid, seats: {} }, 'seats', /must be a list of seats/],
    ['no seats', { ...valid, seats: [] }, 'seats', /at least one seat/],
    ['seat not an object', { ...valid, seats: [7] }, 'seats[0]', /each seat must be an object/],
    ['negative chip count', { ...valid, seats: [{ seat: 1, chips: -3, other: 100 }] }, 'seats[0].chips', /seat 1's count of 25 chips must be at least 0 \(got -3\)/],
    ['fractional chip count', { ...valid, seats: [{ seat: 1, chips: 1.5, other: 100 }] }, 'seats[0].chips', /whole number \(got 1.5\)/],
    ['missing chip count', { ...valid, seats: [{ seat: 1, other: 100 }] }, 'seats[0].chips', /missing/],
    ['negative other', { ...valid, seats: [{ seat: 1, chips: 1, other: -100 }] }, 'seats[0].other', /at least 0/],
    ['seat zero', { ...valid, seats: [{ seat: 0, chips: 1, other: 100 }] }, 'seats[0].seat', /seat number must be at least 1/],
    ['duplicate seats', { ...valid, seats: [{ seat: 3, chips: 1, other: 5 }, { seat: 3, chips: 2, other: 5 }] }, 'seats[1].seat', /seat 3 appears twice \(also seats\[0\]\)/],
    ['a seat with no chips at all', { ...valid, seats: [{ seat: 4, chips: 0, other: 0 }] }, 'seats[0]', /seat 4 has no chips at all/],
    ['name not text', { ...valid, seats: [{ seat: 1, chips: 1, other: 5, name: 42 }] }, 'seats[0].name', /must be text/],
    ['more cards than the shoe holds', { ...valid, removed: 5, next: 100, seats: [19, 19, 19, 1].map((chips, index) => ({ seat: index + 1, chips, other: 100 })) }, 'decks', /needs 58 cards but a shoe of 1 deck holds 52; use a shoe with at least 2 decks/],
  ])('%s', (_, input, field, reason) => {
    const error = refusal(() => startRace(input));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });

  it.each([
    ['bad card code', ['As', 'Zz'], 'cards[1]', /"Zz" is not a card/],
    ['a card that is not text', [12], 'cards[0]', /must be text/],
    ['a repeated card from a single deck', ['As', 'Kd', 'A♠'], 'cards[2]', /As was already dealt \(to seat 1\)/],
    ['more cards than the race needs', ['As', 'Kd', '2c', '3c', '4c', '5c'], 'cards[5]', /one card more than the race needs/],
    ['cards not a list', 'AsKd', 'cards', /must be a list/],
  ])('%s', (_, cards, field, reason) => {
    const error = refusal(() => raceFromInput({ ...valid, cards }));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(reason);
  });

  it('a repeated card is allowed as many times as the shoe has decks, and no more', () => {
    const table = { ...valid, rules: 'tda', decks: 2, seats: [1, 2, 3].map((seat) => ({ seat, chips: 3, other: 10 })) };
    expect(() => raceFromInput({ ...table, cards: ['As', 'As'] })).not.toThrow();
    expect(refusal(() => raceFromInput({ ...table, cards: ['As', 'As', 'As'] })).message).toMatch(/As was already dealt 2 times \(to seat 1 and seat 1\) and the shoe holds only 2 decks/);
  });

  it('refused events leave the state as it was', () => {
    const state = raceFromInput({ ...valid, cards: ['As'] });
    const copy = structuredClone(state);
    expect(() => applyRaceEvent(state, { type: 'card', card: 'As' })).toThrow(InputError);
    expect(() => applyRaceEvent(state, { type: 'void', count: 5 })).toThrow(/cannot void 5 cards: only 1 dealt/);
    expect(state).toEqual(copy);
  });

  it.each([
    ['void count zero', { type: 'void', count: 0 }, /at least 1/],
    ['void count fractional', { type: 'void', count: 1.5 }, /whole number/],
    ['void reason not text', { type: 'void', reason: 5 }, /reason must be text/],
    ['unknown event', { type: 'shuffle' }, /unknown event type "shuffle"/],
    ['second setup', { type: 'setup', race: valid }, /already set up/],
  ])('refuses %s', (_, event, reason) => {
    const state = raceFromInput({ ...valid, cards: ['As'] });
    expect(() => applyRaceEvent(state, event as never)).toThrow(reason);
  });

  it('a journal must start with a setup', () => {
    expect(() => replayRace([])).toThrow(/no events/);
    expect(() => replayRace([{ type: 'card', card: 'As' }])).toThrow(/first event must be setup/);
  });
});

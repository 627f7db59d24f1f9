import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CARDS, compareCards, formatCard, parseCard, readCard, RANKS, SUITS, type Card } from './cards';
import { InputError } from './errors';

describe('parseCard', () => {
  it.each([
    ['As', 'As'], ['AS', 'As'], ['as', 'As'], ['10h', 'Th'], ['Th', 'Th'], ['th', 'Th'],
    ['A♠', 'As'], ['10♦', 'Td'], ['K♤', 'Ks'], ['Q♡', 'Qh'], ['J♢', 'Jd'], ['9♧', '9c'],
    ['2♣', '2c'], ['7♥', '7h'], ['  kd ', 'Kd'], ['♠A', 'As'], ['s10', 'Ts'], ['dq', 'Qd'],
    ['A♠\uFE0F', 'As'], ['❤️K', 'Kh'], ['10 h', 'Th'],
  ])('reads %j as %s', (text, card) => {
    expect(parseCard(text)).toBe(card);
  });

  it.each(['', 'A', 's', '1s', '11h', 'Ax', 'AsKs', '10', 'ZZ', '0h', 'A♠♠', 'joker', 'hs', 'AK'])('refuses %j', (text) => {
    expect(parseCard(text)).toBeNull();
  });

  it('readCard names the field and shows the bad text', () => {
    expect(() => readCard('1x', 'cards[3]')).toThrow(InputError);
    expect(() => readCard('1x', 'cards[3]')).toThrow(/^cards\[3\]: "1x" is not a card/);
    expect(() => readCard(7, 'card')).toThrow(/card: a card code must be text/);
  });
});

describe('card order', () => {
  it('ranks first, then spades > hearts > diamonds > clubs (seed 000)', () => {
    expect(compareCards('Ts', 'Td')).toBeGreaterThan(0);
    expect(compareCards('Ts', 'Tc')).toBeGreaterThan(0);
    expect(compareCards('Th', 'Td')).toBeGreaterThan(0);
    expect(compareCards('Td', 'Tc')).toBeGreaterThan(0);
    expect(compareCards('2s', 'Ac')).toBeLessThan(0);
    expect(compareCards('Ac', 'Ks')).toBeGreaterThan(0);
  });

  it('has 52 distinct cards, each once in a strict order', () => {
    expect(new Set(ALL_CARDS).size).toBe(52);
    for (let index = 1; index < ALL_CARDS.length; index += 1) {
      expect(compareCards(ALL_CARDS[index] as Card, ALL_CARDS[index - 1] as Card)).toBeGreaterThan(0);
    }
  });
});

const card = fc.constantFrom(...ALL_CARDS);
const RANK_SPELLINGS: Record<string, string[]> = Object.fromEntries(RANKS.map((rank) => [rank, rank === 'T' ? ['T', 't', '10'] : [rank, rank.toLowerCase()]]));
const SUIT_SPELLINGS: Record<string, string[]> = {
  s: ['s', 'S', '♠', '♤'], h: ['h', 'H', '♥', '♡'], d: ['d', 'D', '♦', '♢'], c: ['c', 'C', '♣', '♧'],
};

describe('card properties', () => {
  it('parse(format(card)) is the identity in every style', () => {
    fc.assert(fc.property(card, fc.constantFrom('code', 'pips') as fc.Arbitrary<'code' | 'pips'>, (c, style) => parseCard(formatCard(c, style)) === c));
  });

  it('every spelling of every card, in either order, reads back as that card', () => {
    fc.assert(
      fc.property(card, fc.nat(), fc.nat(), fc.boolean(), (c, r, s, suitFirst) => {
        const ranks = RANK_SPELLINGS[c[0] as string] as string[];
        const suits = SUIT_SPELLINGS[c[1] as string] as string[];
        const rank = ranks[r % ranks.length] as string;
        const suit = suits[s % suits.length] as string;
        return parseCard(suitFirst ? suit + rank : rank + suit) === c;
      }),
    );
  });

  it('arbitrary text never throws and yields either null or a canonical card', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 6 }), (text) => {
        const parsed = parseCard(text);
        return parsed === null || (ALL_CARDS as readonly string[]).includes(parsed);
      }),
      { numRuns: 5000 },
    );
  });

  it('canonical codes are rank then lower-case suit', () => {
    fc.assert(fc.property(card, (c) => RANKS.includes(c[0] as never) && SUITS.includes(c[1] as never) && c.length === 2));
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { fi } from './fi';
import { ru } from './ru';
import { englishText, formatMessage, groupedNumber, pluralIndex, templateOf, valueParam, type Catalog, type Message } from './index';

const say = (message: Message, language: 'en' | 'fi' | 'ru') => formatMessage(message, language, { en, fi, ru }[language]);

describe('formatMessage', () => {
  it('fills placeholders, shows cards as cards on the screens and as codes in englishText', () => {
    const message: Message = { key: 'race.refused.duplicate', params: { card: { card: 'Ah' }, seats: { seats: [{ seat: 1 }, { seat: 3, name: 'Matti' }] } } };
    expect(say(message, 'en')).toBe('A♥ was already dealt (to seat 1 and seat 3 — Matti) and the shoe holds one deck: a misread or misdeal; check the card');
    expect(englishText(message)).toMatch(/^Ah was already dealt \(to seat 1 and seat 3 — Matti\)/);
    expect(say(message, 'fi')).toMatch(/^A♥ on jo jaettu \(paikka 1 ja paikka 3 — Matti\)/);
    expect(say(message, 'ru')).toMatch(/^A♥ уже роздана \(место 1 и место 3 — Matti\)/);
  });

  it('chooses the plural form by n: one | other, and Russian one | few | many', () => {
    const deal = (n: number, language: 'en' | 'fi' | 'ru') => say({ key: 'race.next.deal', params: { n, seat: { seat: 2 } } }, language);
    expect([1, 2].map((n) => deal(n, 'en'))).toEqual(['Deal 1 card to seat 2', 'Deal 2 cards to seat 2']);
    expect([1, 3].map((n) => deal(n, 'fi'))).toEqual(['Jaa 1 kortti: paikka 2', 'Jaa 3 korttia: paikka 2']);
    expect([1, 2, 5, 11, 21, 22].map((n) => deal(n, 'ru'))).toEqual([
      'Сдайте 1 карту: место 2',
      'Сдайте 2 карты: место 2',
      'Сдайте 5 карт: место 2',
      'Сдайте 11 карт: место 2',
      'Сдайте 21 карту: место 2',
      'Сдайте 22 карты: место 2',
    ]);
    expect([0, 1, 2, 4, 5, 12, 14, 101, 104, 111].map((n) => pluralIndex('ru', n, 3))).toEqual([2, 0, 1, 1, 2, 2, 2, 0, 1, 2]);
  });

  it('renders nested messages and lists in the language of the catalog', () => {
    const seat = (number: number): Message => ({ key: 'race.next.seat', params: { seat: { seat: number } } });
    const message: Message = {
      key: 'race.explain.tie.round',
      params: {
        round: 1,
        draws: { items: [{ key: 'race.explain.tie.draws', params: { seat: { seat: 3 }, card: { card: '9h' } } }, { key: 'race.explain.tie.draws', params: { seat: { seat: 7 }, card: { card: 'Tc' } } }], join: ',' },
        outcome: { items: [{ key: 'race.explain.tie.wins', params: { seats: { items: [seat(3), seat(7)], join: 'and' }, n: 2 } }, { key: 'race.explain.tie.allStillTied' }], join: ';' },
      },
    };
    expect(say(message, 'en')).toBe('tie-break round 1: seat 3 draws 9♥, seat 7 draws 10♣ → seat 3 and seat 7 win; still tied');
    expect(say(message, 'fi')).toBe('uusintakierros 1: paikka 3 saa ratkaisukortin 9♥, paikka 7 saa ratkaisukortin 10♣ → paikka 3 ja paikka 7 voittavat; yhä tasoissa');
    const missing: Message = { key: 'race.setup.missing', params: { why: { message: { key: 'race.setup.needed.chips', params: { seat: 4, removed: 25 } } } } };
    expect(say(missing, 'en')).toBe('missing: seat 4 needs a count of its 25 chips');
    expect(say(missing, 'ru')).toBe('не указано: для места 4 нужно число его фишек 25');
  });

  it('names a seat at the start of a sentence with a capital, and leaves names out on request', () => {
    const message: Message = { key: 'race.explain.gets', params: { seat: { seat: 1, name: 'Matti', start: true }, next: 100 } };
    expect(say(message, 'en')).toBe('Seat 1 — Matti gets a 100');
    expect(formatMessage(message, 'en', en, { names: false })).toBe('Seat 1 gets a 100');
    expect(say(message, 'ru')).toBe('Место 1 — Matti получает фишку 100');
  });

  it('quotes a value the input held, and says "nothing" in the language for none', () => {
    expect(say({ key: 'race.refused.voidReason', params: { value: valueParam(5) } }, 'en')).toBe('the reason must be text (got 5)');
    expect(say({ key: 'race.setup.notObject', params: { value: valueParam(undefined) } }, 'fi')).toBe('arvonnan on oltava JSON-olio (saatiin ei mitään)');
  });

  it('shows an unknown key as the key itself (one a newer version wrote), and compiles none', () => {
    // @ts-expect-error: no catalog holds this key, so a Message with it does not compile.
    const wrong: Message = { key: 'race.nothing.here' };
    expect(say(wrong, 'en')).toBe('race.nothing.here');
    expect(templateOf(en as Catalog, 'race')).toBeUndefined();
  });
});

describe('numbers the language’s way (the screens)', () => {
  const pool: Message = { key: 'race.explain.pool', params: { chips: 7, removed: 500, value: 3500, whole: 1, next: 1000, n: 2 } };

  it('groups the digits as each language writes them, and only when asked', () => {
    expect(formatMessage(pool, 'en', en, { numbers: 'grouped' })).toContain('500 = 3,500 → 1 whole 1,000');
    expect(formatMessage(pool, 'fi', fi, { numbers: 'grouped' })).toContain('500 = 3\u00a0500');
    expect(formatMessage(pool, 'ru', ru, { numbers: 'grouped' })).toContain('500 = 3\u00a0500');
    // The record and the command line stay as they have always been written.
    expect(formatMessage(pool, 'en', en)).toContain('500 = 3500 → 1 whole 1000');
  });

  it('keeps the plural choice with the count, not with its written form', () => {
    const one: Message = { ...pool, params: { ...pool.params, n: 1 } };
    expect(formatMessage(one, 'fi', fi, { numbers: 'grouped' })).toContain('1 arvottava pelimerkki');
    expect(formatMessage(pool, 'fi', fi, { numbers: 'grouped' })).toContain('2 arvottavaa pelimerkkiä');
  });

  it('writes any integer so that its digits read back unchanged', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom('en', 'fi', 'ru'), (value, language) => {
        const written = groupedNumber(value, language);
        expect(Number(written.replace(/[\s,\u00a0\u202f]/g, '').replace('\u2212', '-'))).toBe(value);
      }),
    );
  });
});

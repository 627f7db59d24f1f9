import { describe, expect, it } from 'vitest';
import { ALL_CARDS } from '../../engine/cards';
import { stripCodeId, stripSymbology } from './decoder';
import { cardAtIndex, indexDecoder, indexOfCard } from './indexed';
import { patternDecoder } from './pattern';
import { suitNumberDecoder } from './suitNumber';
import { textDecoder } from './text';
import { UidDecoder, uidKey, uidText } from './uid';
import '../testing/saidInEnglish';

describe('text decoder', () => {
  it.each([['AS', 'As'], ['10h', 'Th'], ['♢9', '9d'], ['kc', 'Kc']])('reads %s', (text, card) => {
    expect(textDecoder().decode(text)).toEqual({ card });
  });
  it('refuses what is not a card', () => {
    expect(textDecoder().decode('A')).toEqual({ reason: 'not a card code' });
  });
});

describe('symbology prefixes', () => {
  it.each([[']C0As', 'As'], [']Q110h', '10h'], [']E0Kd', 'Kd'], [']d2Qs', 'Qs'], ['As', 'As'], [']', ']']])('%s → %s', (text, payload) => {
    expect(stripSymbology(text)).toBe(payload);
  });
});

describe('suit letter + rank number', () => {
  it.each([['D12', 'Qd'], ['S01', 'As'], ['s1', 'As'], ['H10', 'Th'], ['C13', 'Kc'], ['c 7', '7c'], ['H11', 'Jh']])('reads %s as %s', (text, card) => {
    expect(suitNumberDecoder().decode(text)).toEqual({ card });
  });
  it.each(['D14', 'D00', 'X12', '12D', 'D'])('refuses %s', (text) => {
    expect(suitNumberDecoder().decode(text)).toHaveProperty('reason');
  });
});

describe('numeric index', () => {
  it('numbers 1–52 in the configured suit and rank order', () => {
    const options = { base: 1 as const, suitOrder: 'shdc', rankOrder: 'A23456789TJQK' };
    expect(indexDecoder(options).decode('1')).toEqual({ card: 'As' });
    expect(indexDecoder(options).decode('13')).toEqual({ card: 'Ks' });
    expect(indexDecoder(options).decode('14')).toEqual({ card: 'Ah' });
    expect(indexDecoder(options).decode('52')).toEqual({ card: 'Kc' });
    expect(indexDecoder(options).decode('0')).toEqual({ reason: 'card number out of range 1–52' });
    expect(indexDecoder(options).decode('53')).toEqual({ reason: 'card number out of range 1–52' });
  });
  it('numbers 0–51 with another suit order', () => {
    const options = { base: 0 as const, suitOrder: 'cdhs', rankOrder: '23456789TJQKA' };
    expect(indexDecoder(options).decode('0')).toEqual({ card: '2c' });
    expect(indexDecoder(options).decode('51')).toEqual({ card: 'As' });
    expect(indexDecoder(options).decode('x1')).toEqual({ reason: 'not a card number 0–51' });
  });
  it('maps every card to a distinct index and back', () => {
    const options = { base: 1 as const, suitOrder: 'hscd', rankOrder: 'KQJT98765432A' };
    const indexes = ALL_CARDS.map((card) => indexOfCard(card, options));
    expect(new Set(indexes).size).toBe(52);
    for (const card of ALL_CARDS) expect(cardAtIndex(indexOfCard(card, options), options)).toBe(card);
  });
});

describe('vendor pattern', () => {
  const vendor = patternDecoder({
    pattern: '^CARD:(?<suit>[1-4])-(?<rank>\\d{2})$',
    suits: { '1': 's', '2': 'h', '3': 'd', '4': 'c' },
    ranks: { '01': 'A', '11': 'J', '12': 'Q', '13': 'K', '10': 'T', '02': '2', '07': '7' },
  });
  it('reads named groups through the lookup tables', () => {
    expect(vendor.decode('CARD:3-12')).toEqual({ card: 'Qd' });
    expect(vendor.decode('CARD:1-01')).toEqual({ card: 'As' });
  });
  it('refuses text that does not match, and matches that are not cards', () => {
    expect(vendor.decode('CARD:5-12')).toEqual({ reason: 'does not match the device pattern' });
    expect(vendor.decode('CARD:1-05')).toEqual({ reason: 'matched the pattern but "05s" is not a card' });
  });
  it('takes a whole card code from a `card` group', () => {
    expect(patternDecoder({ pattern: '^<(?<card>[^>]+)>$' }).decode('<10♥>')).toEqual({ card: 'Th' });
  });
});

describe('RFID tags and deck registration', () => {
  it('resolves a known tag in any spelling and refuses an unknown one', () => {
    const decoder = new UidDecoder({ '04a2b3c4': 'As' });
    expect(decoder.decode('04:A2:B3:C4')).toEqual({ card: 'As' });
    expect(decoder.decode('04 a2 b3 c4')).toEqual({ card: 'As' });
    expect(decoder.decode('DEADBEEF')).toEqual({ reason: 'tag DEADBEEF is not registered; register the deck first' });
    expect(decoder.decode('hello')).toEqual({ reason: 'not a tag ID (hex digits)' });
  });
  it('"register deck" gives each new tag the next card of the order', () => {
    const decoder = new UidDecoder();
    decoder.startRegistration(['As', 'Ks']);
    expect(decoder.registering).toBe(true);
    expect(decoder.decode('0001')).toEqual({ card: 'As' });
    expect(decoder.decode('0001')).toEqual({ reason: 'tag 0001 is already registered as As' });
    expect(decoder.decode('0002')).toEqual({ card: 'Ks' });
    expect(decoder.registering).toBe(false);
    expect(decoder.entries()).toEqual({ '0001': 'As', '0002': 'Ks' });
    expect(decoder.decode('0002')).toEqual({ card: 'Ks' });
  });
});

describe('Code IDs', () => {
  it.each([['jAs', 'As'], ['Q10h', '10h'], ['As', 's'], [']C0As', ']C0As'], ['1s', '1s'], ['', '']])('%s → %s', (text, payload) => {
    expect(stripCodeId(text)).toBe(payload);
  });
});

describe('tag IDs in the notations readers print', () => {
  it.each<[string, 'hex' | 'decimal' | undefined, string]>([
    ['04:A2:B3:C4', undefined, '04A2B3C4'],
    ['04 a2-b3 c4', undefined, '04A2B3C4'],
    ['4 A2 B3 C4', 'hex', '04A2B3C4'],
    ['4a:2:b3:c4', 'hex', '4A02B3C4'],
    ['69 245 13 42', 'decimal', '45F50D2A'],
    ['069,245 , 013-042', 'decimal', '45F50D2A'],
  ])('%s (%s) is %s, and the simulator writes it back in that notation', (text, notation, uid) => {
    expect(uidKey(text, notation)).toEqual({ uid });
    expect(uidKey(uidText(uid, notation), notation)).toEqual({ uid });
  });

  it.each<[string, 'hex' | 'decimal' | undefined, string]>([
    ['hello', undefined, 'not a tag ID (hex digits)'],
    ['256 1', 'decimal', 'not a tag ID: "256" is not one byte (0–255)'],
    ['4A2 1', 'hex', 'not a tag ID: "4A2" is not one byte (1 or 2 hex digits)'],
    ['12', 'decimal', 'not a tag ID (hex digits)'],
  ])('%s (%s) is refused: %s', (text, notation, reason) => {
    expect(uidKey(text, notation)).toEqual({ reason });
  });
});

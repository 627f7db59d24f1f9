import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CARDS } from '../engine/cards';
import { BUILT_IN_PROFILES, type DeviceProfile } from './profile';
import { decodeScan } from './scan';
import { encodeCard } from './encoding';
import { createDecoder } from './registry';

const TEXT = BUILT_IN_PROFILES.text as DeviceProfile;
const SUIT_NUMBER = BUILT_IN_PROFILES['suit-number'] as DeviceProfile;

/** What a scanner is commonly set to send around the data. */
const wrapping = fc.array(fc.constantFrom('\u0002', '\u0003', '\r', '\n', '\t', ' '), { maxLength: 4 }).map((chars) => chars.join(''));
const aim = fc.constantFrom('', ']E0', ']C1', ']Q1', ']d2');

describe('decodeScan: one scan, decoded by the profile given', () => {
  it('any card, as the profile writes it, with any common prefix and suffix around it, is that card; raw is the text as scanned', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_CARDS), fc.constantFrom(TEXT, SUIT_NUMBER), wrapping, aim, wrapping, (card, profile, before, id, after) => {
        // The profile's own card text, its line end off (encodeCard frames it as a shoe sends it).
        const text = `${before}${id}${encodeCard(card, profile).toString().trim()}${after}`;
        expect(decodeScan(profile, text)).toEqual({ type: 'card', card, raw: text });
      }),
    );
  });

  it('is the profile, not the shoe: Tc is 10♣ as text and no card as suit-number; S11 the other way round', () => {
    expect(decodeScan(TEXT, 'Tc')).toMatchObject({ type: 'card', card: 'Tc' });
    expect(decodeScan(SUIT_NUMBER, 'Tc')).toMatchObject({ type: 'unknown', raw: 'Tc', said: { key: 'hardware.decoder.notSuitNumber' } });
    expect(decodeScan(SUIT_NUMBER, 'S11')).toMatchObject({ type: 'card', card: 'Js' });
    expect(decodeScan(TEXT, 'S11')).toMatchObject({ type: 'unknown', said: { key: 'hardware.decoder.notACardCode' } });
  });

  it('never throws, and says what any text is: a card the decoder agrees with, a device message or no card with a reason', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom(TEXT, SUIT_NUMBER), (text, profile) => {
        const read = decodeScan(profile, text);
        expect(read.raw).toBe(text);
        if (read.type === 'card') expect(createDecoder(profile.decoder).decode(text.replace(/^[\s\p{Cc}]+|[\s\p{Cc}]+$/gu, '').replace(/^\][A-Za-z][0-9A-Za-z]/, '').trim())).toEqual({ card: read.card });
        if (read.type === 'unknown') expect(read.said.key).toMatch(/^hardware\./);
      }),
    );
  });

  it('a device message is one, as on the shoe', () => {
    expect(decodeScan(TEXT, 'EMPTY\r\n')).toMatchObject({ type: 'device', message: 'shoe-empty', raw: 'EMPTY\r\n' });
  });
});

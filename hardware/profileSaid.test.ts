// A device profile file's every refusal is said in keys, so a profile imported on a Finnish or
// Russian screen is refused in the dealer's language, and its English (the command line's) is the
// key's English.
import { describe, expect, it } from 'vitest';
import { isInputError } from '../engine/errors';
import { ENGINE_CATALOGS, englishText, formatMessage } from '../engine/messages';
import { readProfile } from './profile';

const lines = { kind: 'lines' };
const text = { kind: 'text' };
const CASES: ReadonlyArray<readonly [string, unknown, string]> = [
  ['a checksum of no kind', { framing: { kind: 'stx-etx', checksum: 'crc64' }, decoder: text }, 'hardware.profile.chooseOne'],
  ['the STX counted with no checksum', { framing: { kind: 'stx-etx', checksumIncludesStx: true }, decoder: text }, 'hardware.profile.checksumOnly'],
  ['an index base of 2', { framing: lines, decoder: { kind: 'index', base: 2 } }, 'hardware.profile.indexBase'],
  ['a suit order missing a suit', { framing: lines, decoder: { kind: 'index', suitOrder: 'shd' } }, 'hardware.profile.suitOrder'],
  ['a rank order missing a rank', { framing: lines, decoder: { kind: 'index', rankOrder: 'A23456789TJQ' } }, 'hardware.profile.rankOrder'],
  ['a tag table naming no card', { framing: lines, decoder: { kind: 'uid', cards: { '04A2': 'Xx' } } }, 'hardware.profile.tagCards'],
  ['a reader pattern without its uid group', { framing: lines, decoder: { kind: 'uid', pattern: '(?<tag>[0-9A-F]+)' } }, 'hardware.profile.uidGroups'],
  ['a vendor pattern without rank and suit', { framing: lines, decoder: { kind: 'pattern', pattern: '(?<x>..)' } }, 'hardware.profile.cardGroups'],
  ['a byte order of no kind', { framing: lines, decoder: { kind: 'uid', uidBytes: 'octal' } }, 'settings.oneOf'],
  ['a DTR that is text', { framing: lines, decoder: text, dtr: 'yes' }, 'settings.notBoolean'],
  ['data bits of 9', { framing: lines, decoder: text, dataBits: 9 }, 'settings.mustBe'],
];

describe('a device profile refused in keys', () => {
  it.each(CASES)('%s', (_, profile, key) => {
    let thrown: unknown = null;
    try {
      readProfile(profile);
    } catch (error) {
      thrown = error;
    }
    expect(isInputError(thrown)).toBe(true);
    if (!isInputError(thrown)) return;
    expect(thrown.said?.key).toBe(key);
    if (thrown.said === undefined) return;
    expect(englishText(thrown.said)).toBe(thrown.reason);
    for (const [language, catalog] of Object.entries(ENGINE_CATALOGS)) expect(formatMessage(thrown.said, language, catalog), language).not.toMatch(/\{\w+\}/);
  });
});

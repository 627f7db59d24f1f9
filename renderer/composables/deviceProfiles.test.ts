import { describe, expect, it } from 'vitest';
import { BUILT_IN_PROFILE_INFOS, DECK_PROFILE_INFO, makeProfileInfo, makeSource } from '../testing/fixtures';
import { DATA_BITS_CHOICES, decoderKind, freeDeckName, PARITY_CHOICES, PROFILE_DEFAULTS, profileValues, sourceWith, sourceWithProfile, STOP_BITS_CHOICES } from './deviceProfiles';

describe('device profiles as the settings form edits them', () => {
  it('offers every line setting of the contract, in order', () => {
    expect(DATA_BITS_CHOICES).toEqual([5, 6, 7, 8]);
    expect(PARITY_CHOICES).toEqual(['none', 'even', 'odd', 'mark', 'space']);
    expect(STOP_BITS_CHOICES).toEqual([1, 1.5, 2]);
  });

  it("reads a profile's own values, the file's defaults where it has none or something else", () => {
    expect(profileValues(undefined)).toEqual(PROFILE_DEFAULTS);
    expect(profileValues(DECK_PROFILE_INFO)).toEqual({ ...PROFILE_DEFAULTS, baud: 115200, repeatMs: 1500 });
    expect(profileValues({ name: 'odd', builtIn: false, summary: '', profile: { dataBits: 9, parity: 'sometimes', stopBits: 1.5, rtscts: 'yes', repeatMs: -1 } })).toEqual({ ...PROFILE_DEFAULTS, stopBits: 1.5 });
    expect(decoderKind(DECK_PROFILE_INFO)).toBe('uid');
    expect(decoderKind(BUILT_IN_PROFILE_INFOS.find((info) => info.name === 'text'))).toBe('text');
    expect(decoderKind(undefined)).toBeNull();
  });

  it('keeps an override only where it differs, the keys in the order the service writes them', () => {
    const source = sourceWith(makeSource(), { repeatMs: 300, parity: 'odd', dataBits: 8 }, PROFILE_DEFAULTS);
    expect(JSON.stringify(source)).toBe('{"kind":"manual","path":"","baud":9600,"decoder":"text","parity":"odd","repeatMs":300}');
    expect(sourceWith(source, { parity: undefined }, PROFILE_DEFAULTS)).toEqual({ ...makeSource(), repeatMs: 300 });
  });

  it("takes another profile's baud rate unless the dealer set one of their own", () => {
    const vendor = profileValues(makeProfileInfo({ name: 'fast', baud: 57600, parity: 'even' }));
    expect(sourceWithProfile({ ...makeSource(), parity: 'even' }, 'fast', PROFILE_DEFAULTS, vendor)).toEqual({ ...makeSource(), decoder: 'fast', baud: 57600 });
    expect(sourceWithProfile(makeSource({ baud: 4800 }), 'fast', PROFILE_DEFAULTS, vendor)).toEqual({ ...makeSource(), decoder: 'fast', baud: 4800 });
  });

  it('proposes the first deck name no profile has', () => {
    expect(freeDeckName(BUILT_IN_PROFILE_INFOS)).toBe('deck-1');
    expect(freeDeckName([...BUILT_IN_PROFILE_INFOS, DECK_PROFILE_INFO])).toBe('deck-2');
  });
});

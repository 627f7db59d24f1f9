import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCard, type Card } from '../engine/cards';
import { InputError, isInputError } from '../engine/errors';
import { DEFAULT_INDEX_OPTIONS, type IndexOptions } from './decoding/indexed';
import { UID_BYTES } from './decoding/uid';
import { DEVICE_MESSAGES, type DeviceMessage } from './events';
import { DEFAULT_MAX_FRAME } from './framing/frame';
import { CHECKSUMS, type Checksum } from './framing/stxEtx';
import {
  ALL_BUILT_IN_PROFILES,
  DATA_BITS,
  DEFAULT_LINE_SETTINGS,
  DEFAULT_MESSAGES,
  MAX_WINDOW_MS,
  PARITIES,
  profileSummary,
  readProfile,
  STOP_BITS,
  type DeviceProfile,
  type LineSettings,
} from './profile';
import { DECODER_KINDS, DECODER_LISTING, DECODERS, FRAMING_KINDS, FRAMING_LISTING, FRAMINGS, readDecoder, readFraming, type DecoderConfig, type FramingConfig } from './registry';

/*
 * The registry's option readers against the profile reader they replaced: the reader of
 * hardware/profile.ts as it was at 5ea9ad8 (one place, if-chains on the kind names), kept here
 * word for word as the oracle. On every generated profile, valid or not, both must accept the
 * same thing (the same object, its keys in the same order, so a saved file is byte for byte the
 * same) or refuse it with the same field and the same words.
 */
const previous = (() => {
  function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  function wholeIn(value: unknown, field: string, min: number, max: number, fallback: number): number {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new InputError(field, `must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`);
    }
    return value;
  }

  function booleanOf(value: unknown, field: string): boolean | undefined {
    if (value === undefined || typeof value === 'boolean') return value;
    throw new InputError(field, `must be true or false (got ${JSON.stringify(value)})`);
  }

  function oneOf<T extends string | number>(value: unknown, field: string, choices: readonly T[], fallback: T): T {
    if (value === undefined) return fallback;
    if (choices.includes(value as T)) return value as T;
    const listed = choices.map(String);
    const words = typeof choices[0] === 'number' ? `must be ${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}` : `choose one of ${listed.join(', ')}`;
    throw new InputError(field, `${words} (got ${JSON.stringify(value)})`);
  }

  function stringTable(value: unknown, field: string): Record<string, string> | undefined {
    if (value === undefined) return undefined;
    if (!isRecord(value) || Object.values(value).some((entry) => typeof entry !== 'string')) {
      throw new InputError(field, 'must be an object of texts, e.g. {"01": "A"}');
    }
    return value as Record<string, string>;
  }

  /** A regular expression given as text, with the named groups it must have (one of `needs`). */
  function regexOf(value: unknown, field: string, needs: readonly (readonly string[])[], help: string): string {
    if (typeof value !== 'string') throw new InputError(field, 'must be a regular expression as text');
    try {
      new RegExp(value, 'u');
    } catch (error) {
      throw new InputError(field, `not a valid regular expression: ${(error as Error).message}`);
    }
    const groups = [...value.matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map((match) => match[1] as string);
    if (!needs.some((names) => names.every((name) => groups.includes(name)))) throw new InputError(field, help);
    return value;
  }

  // The kinds it names are today's (issue 26 added `binary`, which it never reads: binary.test.ts tests that one).
  function readFraming(value: unknown): FramingConfig {
    if (!isRecord(value)) throw new InputError('framing', 'must be an object with a "kind": lines, stx-etx, silence or binary');
    const maxLength = wholeIn(value.maxLength, 'framing.maxLength', 1, 65536, DEFAULT_MAX_FRAME);
    if (value.kind === 'lines') return { kind: 'lines', maxLength };
    if (value.kind === 'stx-etx') {
      const checksum = value.checksum ?? 'none';
      if (!CHECKSUMS.includes(checksum as Checksum)) throw new InputError('framing.checksum', `choose one of ${CHECKSUMS.join(', ')}`);
      const includesStx = booleanOf(value.checksumIncludesStx, 'framing.checksumIncludesStx');
      if (includesStx === true && checksum === 'none') {
        throw new InputError('framing.checksumIncludesStx', `only goes with a checksum (${CHECKSUMS.slice(1).join(', ')})`);
      }
      return { kind: 'stx-etx', checksum: checksum as Checksum, ...(includesStx === undefined ? {} : { checksumIncludesStx: includesStx }), maxLength };
    }
    if (value.kind === 'silence') return { kind: 'silence', idleMs: wholeIn(value.idleMs, 'framing.idleMs', 5, 5000, 50), maxLength };
    throw new InputError('framing.kind', `unknown framing ${JSON.stringify(value.kind)}; choose lines, stx-etx, silence or binary`);
  }

  function readIndexOptions(value: Record<string, unknown>): IndexOptions {
    const base = value.base ?? DEFAULT_INDEX_OPTIONS.base;
    if (base !== 0 && base !== 1) throw new InputError('decoder.base', 'must be 0 (cards 0–51) or 1 (cards 1–52)');
    const suitOrder = value.suitOrder ?? DEFAULT_INDEX_OPTIONS.suitOrder;
    if (typeof suitOrder !== 'string' || [...suitOrder].sort().join('') !== 'cdhs') {
      throw new InputError('decoder.suitOrder', 'must name each suit once, e.g. "shdc"');
    }
    const rankOrder = value.rankOrder ?? DEFAULT_INDEX_OPTIONS.rankOrder;
    if (typeof rankOrder !== 'string' || [...rankOrder].sort().join('') !== [...'23456789AJKQT'].sort().join('')) {
      throw new InputError('decoder.rankOrder', 'must name each rank once, e.g. "A23456789TJQK"');
    }
    return { base, suitOrder, rankOrder };
  }

  function readDecoder(value: unknown): DecoderConfig {
    if (!isRecord(value)) throw new InputError('decoder', 'must be an object with a "kind": text, suit-number, index, pattern or uid');
    switch (value.kind) {
      case 'text': {
        const aceAsOne = booleanOf(value.aceAsOne, 'decoder.aceAsOne');
        return { kind: 'text', ...(aceAsOne === undefined ? {} : { aceAsOne }) };
      }
      case 'suit-number':
        return { kind: value.kind };
      case 'index':
        return { kind: 'index', ...readIndexOptions(value) };
      case 'pattern': {
        const pattern = regexOf(value.pattern, 'decoder.pattern', [['card'], ['rank', 'suit']], 'needs named groups (?<rank>…) and (?<suit>…), or (?<card>…)');
        const ranks = stringTable(value.ranks, 'decoder.ranks');
        const suits = stringTable(value.suits, 'decoder.suits');
        return { kind: 'pattern', pattern, ...(ranks ? { ranks } : {}), ...(suits ? { suits } : {}) };
      }
      case 'uid': {
        const cards = value.cards ?? {};
        if (!isRecord(cards) || Object.values(cards).some((card) => !isCard(card))) {
          throw new InputError('decoder.cards', 'must map tag IDs to canonical cards, e.g. {"04A2B3C4": "As"}');
        }
        const pattern =
          value.pattern === undefined ? undefined : regexOf(value.pattern, 'decoder.pattern', [['uid']], 'needs a named group (?<uid>…) for the tag ID (and may have (?<reader>…))');
        const uidBytes = value.uidBytes === undefined ? undefined : oneOf(value.uidBytes, 'decoder.uidBytes', UID_BYTES, 'hex');
        return { kind: 'uid', cards: cards as Record<string, Card>, ...(pattern === undefined ? {} : { pattern }), ...(uidBytes === undefined ? {} : { uidBytes }) };
      }
      default:
        throw new InputError('decoder.kind', `unknown decoder ${JSON.stringify(value.kind)}; choose text, suit-number, index, pattern or uid`);
    }
  }

  /**
   * The line settings of a profile (or of command-line options, by the same field names), each
   * missing one taken from `base`. Refuses a bad value naming its field (`dataBits` …).
   */
  function readLineSettings(value: Readonly<Record<string, unknown>>, base: LineSettings = DEFAULT_LINE_SETTINGS): LineSettings {
    return {
      dataBits: oneOf(value.dataBits, 'dataBits', DATA_BITS, base.dataBits),
      parity: oneOf(value.parity, 'parity', PARITIES, base.parity),
      stopBits: oneOf(value.stopBits, 'stopBits', STOP_BITS, base.stopBits),
      rtscts: booleanOf(value.rtscts, 'rtscts') ?? base.rtscts,
    };
  }

  /**
   * Validates a device profile given as JSON (a saved setting or a file), naming the bad field.
   * The one validator of profiles: what it returns is complete (every default filled in) and
   * reads back to itself.
   */
  function readProfile(value: unknown): DeviceProfile {
    if (!isRecord(value)) throw new InputError('profile', 'must be a JSON object with "framing" and "decoder"');
    const messages = value.messages ?? DEFAULT_MESSAGES;
    if (!isRecord(messages) || Object.values(messages).some((message) => !DEVICE_MESSAGES.includes(message as DeviceMessage))) {
      throw new InputError('messages', `must map device texts to ${DEVICE_MESSAGES.join(' or ')}`);
    }
    const dtr = booleanOf(value.dtr, 'dtr');
    return {
      name: typeof value.name === 'string' && value.name.trim() !== '' ? value.name.trim() : 'custom',
      baud: wholeIn(value.baud, 'baud', 50, 4_000_000, 9600),
      ...readLineSettings(value),
      framing: readFraming(value.framing),
      decoder: readDecoder(value.decoder),
      messages: messages as Record<string, DeviceMessage>,
      repeatMs: wholeIn(value.repeatMs, 'repeatMs', 0, MAX_WINDOW_MS, 0),
      graceMs: wholeIn(value.graceMs, 'graceMs', 0, MAX_WINDOW_MS, 0),
      ...(dtr === undefined ? {} : { dtr }),
      codeId: booleanOf(value.codeId, 'codeId') ?? false,
    };
  }
  function describeLine(settings: LineSettings): string {
    const parity = settings.parity === 'none' ? 'no parity' : `${settings.parity} parity`;
    const flow = settings.rtscts ? ', RTS/CTS flow control' : '';
    return `${settings.dataBits} data bits, ${parity}, ${settings.stopBits} stop bit${settings.stopBits === 1 ? '' : 's'}${flow}`;
  }

  function describeFraming(framing: FramingConfig): string {
    if (framing.kind === 'lines') return 'one message per line (CR, LF or CRLF)';
    if (framing.kind === 'silence') return `one message per burst, ended by ${framing.idleMs} ms of silence`;
    if (framing.kind === 'binary') throw new Error('the oracle predates binary frames (issue 26): it is never given one');
    if (framing.checksum === 'none') return 'STX…ETX frames without a checksum';
    const what = framing.checksum.startsWith('xor') ? 'an XOR' : 'a sum';
    const sent = framing.checksum.endsWith('-hex') ? 'two hex digits' : 'one byte';
    return `STX…ETX frames with ${what} checksum sent as ${sent}${framing.checksumIncludesStx === true ? ', counting the STX' : ''}`;
  }

  function describeDecoder(decoder: DecoderConfig): string {
    switch (decoder.kind) {
      case 'text':
        return `card codes such as As or 10h${decoder.aceAsOne === true ? ' (1 for the ace)' : ''}`;
      case 'suit-number':
        return 'a suit letter and a rank number such as S01 or D12';
      case 'index':
        return `card numbers ${decoder.base}–${decoder.base + 51} (suits ${decoder.suitOrder}, ranks ${decoder.rankOrder})`;
      case 'pattern':
        return `text matching ${decoder.pattern}`;
      case 'uid': {
        const tags = Object.keys(decoder.cards ?? {}).length;
        const bytes = decoder.uidBytes === undefined ? '' : `, bytes written in ${decoder.uidBytes}`;
        return `RFID tag IDs${decoder.pattern === undefined ? '' : ` taken out by ${decoder.pattern}`}${bytes}, ${tags} tag${tags === 1 ? '' : 's'} registered`;
      }
    }
  }

  /**
   * The profile in one English sentence, for a person checking a setting (the console translates
   * its own summary from the same fields).
   */
  function profileSummary(profile: DeviceProfile): string {
    const extras = [
      profile.codeId ? 'a one-letter Code ID stripped' : '',
      profile.repeatMs > 0 ? `the same read within ${profile.repeatMs} ms counted once` : '',
      profile.graceMs > 0 ? `the first ${profile.graceMs} ms after opening skipped` : '',
      profile.dtr === undefined ? '' : `DTR set ${profile.dtr ? 'on' : 'off'} after opening`,
    ].filter((extra) => extra !== '');
    return `${profile.name}: ${profile.baud} baud, ${describeLine(profile)}; ${describeFraming(profile.framing)}; ${describeDecoder(profile.decoder)}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
  }
  return { readFraming, readDecoder, readProfile, profileSummary };
})();

type Outcome = { readonly value: string } | { readonly field: string; readonly reason: string };

/** What a reader makes of a value: the JSON of what it returns (key order included), or its refusal. */
function outcome(read: (value: unknown) => unknown, value: unknown): Outcome {
  try {
    return { value: JSON.stringify(read(value)) };
  } catch (error) {
    if (!isInputError(error)) throw error;
    return { field: error.field, reason: error.reason };
  }
}

/** Values a field may be given: right ones, wrong ones, and ones that trip naive checks. */
/** The built-in profiles the oracle knows: all but the binary ones of issue 26. */
const OLDER_BUILT_INS = Object.values(ALL_BUILT_IN_PROFILES).filter((profile) => profile.framing.kind !== 'binary');

const odd = fc.constantFrom<unknown>(undefined, null, 0, 1, -1, 1.5, '', 'x', true, false, [], {}, ['lines'], 'toString', '__proto__', 'constructor');
/** Mostly a right value, now and then a wrong one: so that both sides are reached when many fields vary at once. */
const mostly = (right: fc.Arbitrary<unknown>, wrong: fc.Arbitrary<unknown> = odd) => fc.oneof({ arbitrary: right, weight: 5 }, { arbitrary: wrong, weight: 1 });
const whole = (right: readonly number[], wrong: readonly number[]) =>
  mostly(fc.constantFrom<unknown>(...right), fc.oneof(fc.constantFrom<unknown>(...wrong), fc.integer({ min: -10, max: 70_000 }), odd));
const regex = fc.constantFrom<unknown>('^(?<card>.+)$', '^(?<rank>\\d+)(?<suit>[shdc])$', '^Card UID: (?<uid>.+)$', '^(?<reader>\\d)\\|(?<uid>.+)$', '(', '[a-', 'no groups', '(?<rank>.)');
const table = mostly(
  fc.oneof(fc.constantFrom<unknown>(undefined, { '01': 'A' }, { 1: 's', 2: 'h' }), fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 2 }))),
  fc.oneof(fc.constantFrom<unknown>({ a: 1 }, 'A', null, []), fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { minKeys: 1 })),
);
const cards = mostly(
  fc.oneof(
    fc.constantFrom<unknown>(undefined, {}, { '04A2B3C4': 'As' }),
    fc.dictionary(fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFab:'), minLength: 4, maxLength: 8 }), fc.constantFrom('As', 'Td', '2c', 'Qh')),
  ),
  fc.oneof(fc.constantFrom<unknown>({ '04A2B3C4': 'AS' }, { x: 'Kd', y: 'Zz' }, ['As'], 'As', null), fc.dictionary(fc.string({ maxLength: 4 }), fc.constantFrom('Ah', '1s', 'ten'), { minKeys: 1 })),
);

const framing: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      kind: mostly(fc.constantFrom<unknown>(...FRAMING_KINDS.filter((kind) => kind !== 'binary')), fc.oneof(odd, fc.constantFrom('morse', 'STX-ETX', 'Lines'))),
      maxLength: whole([1, 256, 65536, DEFAULT_MAX_FRAME], [0, 65537, 1.5]),
      checksum: mostly(fc.constantFrom<unknown>(...CHECKSUMS), fc.oneof(fc.constantFrom('crc', 'XOR'), odd)),
      checksumIncludesStx: mostly(fc.boolean()),
      idleMs: whole([5, 50, 5000], [4, 5001]),
    },
    { requiredKeys: ['kind'] },
  ),
  odd,
);

const decoder: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      kind: mostly(fc.constantFrom<unknown>(...DECODER_KINDS), fc.oneof(odd, fc.constantFrom('morse', 'UID', 'index1'))),
      aceAsOne: mostly(fc.boolean()),
      base: mostly(fc.constantFrom<unknown>(0, 1), fc.oneof(fc.constantFrom<unknown>(2, '1'), odd)),
      suitOrder: mostly(fc.constantFrom<unknown>('shdc', 'cdhs'), fc.oneof(fc.constantFrom<unknown>('shd', 'sshd', 'SHDC'), odd)),
      rankOrder: mostly(fc.constantFrom<unknown>('A23456789TJQK', '23456789TJQKA'), fc.oneof(fc.constantFrom<unknown>('A23456789TJQ', 'a23456789tjqk'), odd)),
      pattern: mostly(regex),
      ranks: table,
      suits: table,
      cards,
      uidBytes: mostly(fc.constantFrom<unknown>(...UID_BYTES), fc.oneof(fc.constantFrom('HEX', 'binary'), odd)),
    },
    { requiredKeys: ['kind'] },
  ),
  odd,
);

/** A built-in profile (as its file would say it) with some of its fields replaced by generated ones. */
const profile: fc.Arbitrary<unknown> = fc
  .record({
    base: fc.constantFrom(...OLDER_BUILT_INS),
    framing: fc.option(framing, { nil: undefined }),
    decoder: fc.option(decoder, { nil: undefined }),
    top: fc.record(
      {
        name: mostly(fc.string({ maxLength: 6 })),
        baud: whole([50, 9600, 4_000_000], [49, 4_000_001]),
        dataBits: mostly(fc.constantFrom<unknown>(...DATA_BITS), fc.oneof(fc.constant(9), odd)),
        parity: mostly(fc.constantFrom<unknown>(...PARITIES), fc.oneof(fc.constant('Even'), odd)),
        stopBits: mostly(fc.constantFrom<unknown>(...STOP_BITS), fc.oneof(fc.constant(3), odd)),
        rtscts: mostly(fc.boolean()),
        repeatMs: whole([0, 1500, MAX_WINDOW_MS], [MAX_WINDOW_MS + 1]),
        graceMs: whole([0, 200], [MAX_WINDOW_MS + 1]),
        dtr: mostly(fc.boolean()),
        codeId: mostly(fc.boolean()),
        messages: mostly(fc.constantFrom<unknown>(DEFAULT_MESSAGES, { EMPTY: 'shoe-empty' }), fc.oneof(fc.constant({ EMPTY: 'empty' }), odd)),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ base, framing: newFraming, decoder: newDecoder, top }) => ({
    ...structuredClone(base),
    ...(newFraming === undefined ? {} : { framing: newFraming }),
    ...(newDecoder === undefined ? {} : { decoder: newDecoder }),
    ...top,
  }));

describe('the registry of framers and decoders', () => {
  it('lists every kind the profile reader knows, each under its own name, with a summary and a key for the screens', () => {
    expect(FRAMING_KINDS).toEqual(['lines', 'stx-etx', 'silence', 'binary']);
    expect(DECODER_KINDS).toEqual(['text', 'suit-number', 'index', 'pattern', 'uid']);
    for (const [kind, entry] of [...Object.entries(FRAMINGS), ...Object.entries(DECODERS)]) expect(entry.kind).toBe(kind);
    expect(FRAMING_LISTING.map((listed) => listed.kind)).toEqual(FRAMING_KINDS);
    expect(DECODER_LISTING.map((listed) => listed.kind)).toEqual(DECODER_KINDS);
    for (const listed of [...FRAMING_LISTING, ...DECODER_LISTING]) {
      expect(listed.summary).toMatch(/^[A-Z].*\.$/);
      expect(listed.summaryKey).toMatch(new RegExp(`^source\\.(framings|decoderKinds)\\.${listed.kind}$`));
    }
    expect(new Set([...FRAMING_LISTING, ...DECODER_LISTING].map((listed) => listed.summaryKey)).size).toBe(FRAMING_KINDS.length + DECODER_KINDS.length);
  });

  it('reads every built-in profile as the previous reader did, and summarises it in the same words', () => {
    for (const builtIn of OLDER_BUILT_INS) {
      const file: unknown = JSON.parse(JSON.stringify(builtIn));
      expect(outcome(readProfile, file)).toEqual(outcome(previous.readProfile, file));
      expect(profileSummary(readProfile(file))).toBe(previous.profileSummary(readProfile(file)));
      expect(profileSummary(builtIn)).toBe(previous.profileSummary(builtIn));
    }
  });

  it.each<[string, unknown, string, string]>([
    ['a framing that is no object', 'lines', 'framing', 'must be an object with a "kind": lines, stx-etx, silence or binary'],
    ['an unknown framing', { kind: 'morse' }, 'framing.kind', 'unknown framing "morse"; choose lines, stx-etx, silence or binary'],
    ['an unknown framing, its length checked first', { kind: 'morse', maxLength: 0 }, 'framing.maxLength', 'must be a whole number from 1 to 65536 (got 0)'],
    ['a kind given as a list', { kind: ['lines'] }, 'framing.kind', 'unknown framing ["lines"]; choose lines, stx-etx, silence or binary'],
    ['a kind named after an object property', { kind: 'toString' }, 'framing.kind', 'unknown framing "toString"; choose lines, stx-etx, silence or binary'],
    ['an unknown checksum', { kind: 'stx-etx', checksum: 'crc' }, 'framing.checksum', 'choose one of none, xor, sum, xor-hex, sum-hex'],
    ['the STX counted without a checksum', { kind: 'stx-etx', checksumIncludesStx: true }, 'framing.checksumIncludesStx', 'only goes with a checksum (xor, sum, xor-hex, sum-hex)'],
    ['a pause too short', { kind: 'silence', idleMs: 4 }, 'framing.idleMs', 'must be a whole number from 5 to 5000 (got 4)'],
  ])('refuses %s in the same words as before', (_what, value, field, reason) => {
    expect(outcome(readFraming, value)).toEqual({ field, reason });
    expect(outcome(previous.readFraming, value)).toEqual({ field, reason });
  });

  it.each<[string, unknown, string, string]>([
    ['a decoder that is no object', null, 'decoder', 'must be an object with a "kind": text, suit-number, index, pattern or uid'],
    ['an unknown decoder', { kind: 'index1' }, 'decoder.kind', 'unknown decoder "index1"; choose text, suit-number, index, pattern or uid'],
    ['a decoder without a kind', {}, 'decoder.kind', 'unknown decoder undefined; choose text, suit-number, index, pattern or uid'],
    ['a base of 2', { kind: 'index', base: 2 }, 'decoder.base', 'must be 0 (cards 0–51) or 1 (cards 1–52)'],
    ['a pattern without groups', { kind: 'pattern', pattern: 'x' }, 'decoder.pattern', 'needs named groups (?<rank>…) and (?<suit>…), or (?<card>…)'],
    ['a tag table with no card', { kind: 'uid', cards: { '04A2B3C4': 'AS' } }, 'decoder.cards', 'must map tag IDs to canonical cards, e.g. {"04A2B3C4": "As"}'],
    ['an unknown byte notation', { kind: 'uid', uidBytes: 'binary' }, 'decoder.uidBytes', 'choose one of hex, decimal (got "binary")'],
  ])('refuses %s in the same words as before', (_what, value, field, reason) => {
    expect(outcome(readDecoder, value)).toEqual({ field, reason });
    expect(outcome(previous.readDecoder, value)).toEqual({ field, reason });
  });

  it('property: each framing kind reads its own options exactly as the previous reader did, accepting the same and refusing the rest naming the same field', () => {
    let accepted = 0;
    fc.assert(
      fc.property(framing, (value) => {
        const now = outcome(readFraming, value);
        expect(now).toEqual(outcome(previous.readFraming, value));
        if ('value' in now) accepted += 1;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300);
    expect(accepted).toBeLessThan(2700);
  });

  it('property: each decoder kind reads its own options exactly as the previous reader did', () => {
    let accepted = 0;
    fc.assert(
      fc.property(decoder, (value) => {
        const now = outcome(readDecoder, value);
        expect(now).toEqual(outcome(previous.readDecoder, value));
        if ('value' in now) accepted += 1;
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(300);
    expect(accepted).toBeLessThan(2700);
  });

  it('property: a built-in profile with generated fields is read, refused and summarised as before', () => {
    let accepted = 0;
    fc.assert(
      fc.property(profile, (value) => {
        const now = outcome(readProfile, value);
        expect(now).toEqual(outcome(previous.readProfile, value));
        if ('value' in now) {
          accepted += 1;
          const read = readProfile(value);
          expect(profileSummary(read)).toBe(previous.profileSummary(read));
        }
      }),
      { numRuns: 3000 },
    );
    // The generator reaches both sides: profiles read and profiles refused.
    expect(accepted).toBeGreaterThan(60);
    expect(accepted).toBeLessThan(2700);
  });
});

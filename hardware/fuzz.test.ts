// Fuzzing the serial decoders, beyond the properties of pipeline.test.ts (which feed arbitrary
// bytes to decodeRecording for the built-in profiles): here the bytes go through the decode
// stream itself — the transform every serial port feeds — with disconnects cutting frames at
// random points; custom profiles of every shape decode arbitrary bytes; and the profile reader,
// which takes the JSON file given to `cards --decoder FILE`, is fed any JSON at all.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CARDS, isCard } from '../engine/cards';
import { isInputError } from '../engine/errors';
import { DEVICE_MESSAGES, type ShoeEvent } from './events';
import { CUT_OFF } from './framing/frame';
import { createDecodeStream, decodeRecording, NOISE_CLEARED_MESSAGE } from './pipeline';
import { ALL_BUILT_IN_PROFILES, readProfile, type DeviceProfile } from './profile';
import './testing/saidInEnglish';

const BUILT_INS = Object.values(ALL_BUILT_IN_PROFILES);

/** Bytes that mean something to some framing or decoder, mixed with anything at all. */
const MEANINGFUL = [0x02, 0x03, 0x0d, 0x0a, 0x20, 0x5d, ...Buffer.from('AKQJT1098765432shdcSHDC:-EMPTYNEW'), ...Buffer.from('♠♥♦♣♤♡♢♧')];
const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...MEANINGFUL), fc.constantFrom(...MEANINGFUL));
const chunk = fc.array(byte, { maxLength: 48 }).map((bytes) => Buffer.from(bytes));
const chunks = fc.array(chunk, { maxLength: 10 });

function expectWellFormed(event: ShoeEvent): void {
  switch (event.type) {
    case 'card':
      expect(isCard(event.card)).toBe(true);
      expect(typeof event.raw).toBe('string');
      expect([undefined, true]).toContain(event.suspect);
      break;
    case 'unknown':
      expect(typeof event.raw).toBe('string');
      expect(event.reason).toMatch(/\S/);
      break;
    case 'device':
      expect(DEVICE_MESSAGES).toContain(event.message);
      expect(typeof event.raw).toBe('string');
      expect([undefined, true]).toContain(event.suspect);
      break;
    case 'status':
      // The decode stream's only status events are the noise flag's: raised (wrong-baud) and cleared.
      if (event.noise === 'cleared') expect(event).toEqual({ type: 'status', state: 'connected', noise: 'cleared', message: NOISE_CLEARED_MESSAGE });
      else expect(event).toMatchObject({ state: 'error', code: 'wrong-baud', noise: 'flagged', message: expect.stringMatching(/\S/) });
      break;
    default:
      throw new Error(`not a shoe event: ${JSON.stringify(event)}`);
  }
}

type Step = { readonly write: Buffer } | { readonly cutOff: true };

/**
 * Feeds steps to a fresh decode stream in one tick (so no silence timer fires), then ends it. Its
 * clock stands still, as a recording's does: every frame arrives when the port opened.
 */
async function throughStream(profile: DeviceProfile, steps: readonly Step[]): Promise<ShoeEvent[]> {
  const stream = createDecodeStream(profile, { clock: () => 0 });
  const events: ShoeEvent[] = [];
  let failed: unknown = null;
  stream.on('data', (event: ShoeEvent) => events.push(event));
  stream.on('error', (error) => (failed = error));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const step of steps) {
    if ('cutOff' in step) stream.cutOff();
    else stream.write(step.write);
  }
  stream.end();
  await ended;
  expect(failed).toBeNull();
  return events;
}

describe('serial decoder fuzzing', () => {
  it('the decode stream gives exactly what a recording of the same bytes gives, for every built-in profile', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BUILT_INS), chunks, async (profile, parts) => {
        const events = await throughStream(profile, parts.map((write) => ({ write })));
        events.forEach(expectWellFormed);
        expect(events).toEqual(decodeRecording(profile, parts));
      }),
      { numRuns: 1500 },
    );
  });

  it('disconnects at random points never throw; each frame they cut off is reported, and every card comes from bytes really sent', async () => {
    const step: fc.Arbitrary<Step> = fc.oneof({ weight: 4, arbitrary: chunk.map((write) => ({ write })) }, { weight: 1, arbitrary: fc.constant({ cutOff: true as const }) });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BUILT_INS), fc.array(step, { maxLength: 14 }), async (profile, steps) => {
        const events = await throughStream(profile, steps);
        events.forEach(expectWellFormed);
        // Every card is read from bytes that were really sent.
        const sent = steps.flatMap((entry) => ('write' in entry ? [entry.write] : []));
        for (const event of events) if (event.type === 'card') expect(Buffer.concat(sent).includes(Buffer.from(event.raw))).toBe(true);
        // Each cut-off frame is reported as such (never dropped), at most one per disconnect.
        expect(events.filter((event) => event.type === 'unknown' && event.said === CUT_OFF).length).toBeLessThanOrEqual(steps.filter((entry) => 'cutOff' in entry).length);
      }),
      { numRuns: 1500 },
    );
  });

  /** Any profile readProfile accepts: every framing and decoder kind, with their options at random. */
  const customProfile: fc.Arbitrary<DeviceProfile> = fc
    .record({
      framing: fc.oneof(
        fc.record({ kind: fc.constant('lines'), maxLength: fc.integer({ min: 1, max: 64 }) }),
        fc.record({ kind: fc.constant('stx-etx'), checksum: fc.constantFrom('none', 'xor', 'sum'), maxLength: fc.integer({ min: 1, max: 64 }) }),
        fc.record({
          kind: fc.constant('stx-etx'),
          checksum: fc.constantFrom('xor', 'sum', 'xor-hex', 'sum-hex'),
          checksumIncludesStx: fc.boolean(),
          maxLength: fc.integer({ min: 1, max: 64 }),
        }),
        fc.record({ kind: fc.constant('silence'), idleMs: fc.integer({ min: 5, max: 5000 }), maxLength: fc.integer({ min: 1, max: 64 }) }),
      ),
      decoder: fc.oneof(
        fc.constant({ kind: 'text' }),
        fc.record({ kind: fc.constant('text'), aceAsOne: fc.boolean() }),
        fc.constant({ kind: 'suit-number' }),
        fc.record({
          kind: fc.constant('index'),
          base: fc.constantFrom(0, 1),
          suitOrder: fc.shuffledSubarray([...'shdc'], { minLength: 4 }).map((order) => order.join('')),
          rankOrder: fc.shuffledSubarray([...'A23456789TJQK'], { minLength: 13 }).map((order) => order.join('')),
        }),
        fc.record({
          kind: fc.constant('pattern'),
          pattern: fc.constantFrom('^(?<rank>10|[2-9JQKA])/(?<suit>[1-4])$', '(?<suit>[SHDC])(?<rank>\\d+)', '^(?<card>.+)$', '(?<rank>.)(?<suit>.)', '^x?(?<card>[^;]*);?$'),
          ranks: fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 4 }),
          suits: fc.dictionary(fc.constantFrom('1', '2', '3', '4', 'S', 'H', '__proto__', 'constructor'), fc.constantFrom('s', 'h', 'd', 'c', '?', ''), { maxKeys: 4 }),
        }),
        fc.record({ kind: fc.constant('uid'), cards: fc.dictionary(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF:- '), minLength: 1, maxLength: 8 }), fc.constantFrom(...ALL_CARDS), { maxKeys: 6 }) }),
        fc.record(
          {
            kind: fc.constant('uid'),
            cards: fc.dictionary(fc.string({ unit: fc.constantFrom(...'0123456789ABCDEF'), minLength: 4, maxLength: 8 }), fc.constantFrom(...ALL_CARDS), { maxKeys: 6 }),
            pattern: fc.constantFrom('^Card UID:\\s*(?<uid>[0-9A-Fa-f ]+)$', '^(?<reader>\\d+)\\|(?<uid>.+)$', '"card_uid":"(?<uid>[^"]*)"', '(?<uid>.*)', '^(?<reader>)(?<uid>[0-9 ]*)$'),
            uidBytes: fc.constantFrom('hex', 'decimal'),
          },
          { requiredKeys: ['kind', 'cards'] },
        ),
      ),
      messages: fc.dictionary(fc.string({ maxLength: 6 }), fc.constantFrom('shoe-empty', 'new-shoe'), { maxKeys: 3 }),
      dataBits: fc.constantFrom(5, 6, 7, 8),
      parity: fc.constantFrom('none', 'even', 'odd', 'mark', 'space'),
      stopBits: fc.constantFrom(1, 1.5, 2),
      rtscts: fc.boolean(),
      // Small windows as well as long ones: in a recording (and in throughStream) every frame arrives at 0.
      repeatMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60_000 })),
      graceMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60_000 })),
      dtr: fc.boolean(),
      codeId: fc.boolean(),
    }, { requiredKeys: ['framing', 'decoder', 'messages'] })
    .map((config) => readProfile(config));

  it('custom profiles of every shape decode arbitrary bytes without throwing, as a recording and as a stream', async () => {
    await fc.assert(
      fc.asyncProperty(customProfile, chunks, async (profile, parts) => {
        const recorded = decodeRecording(profile, parts);
        recorded.forEach(expectWellFormed);
        expect(await throughStream(profile, parts.map((write) => ({ write })))).toEqual(recorded);
      }),
      { numRuns: 1500 },
    );
  });

  it('the profile reader (cards --decoder FILE.json) takes any JSON: a profile, or a refusal naming the field', () => {
    const example = {
      name: 'vendor-x', baud: 19200,
      framing: { kind: 'stx-etx', checksum: 'xor' },
      decoder: { kind: 'pattern', pattern: '^(?<rank>10|[2-9JQKA])/(?<suit>[1-4])$', suits: { 1: 's', 2: 'h', 3: 'd', 4: 'c' } },
      messages: { EMPTY: 'shoe-empty', SHUFFLE: 'new-shoe' },
    };
    const keys = ['name', 'baud', 'framing', 'decoder', 'messages', 'dataBits', 'parity', 'stopBits', 'rtscts', 'repeatMs', 'graceMs', 'dtr', 'codeId'] as const;
    const innerKeys = ['kind', 'checksum', 'pattern', 'maxLength', 'idleMs', 'base', 'checksumIncludesStx', 'aceAsOne', 'uidBytes', 'cards'];
    const mutated = fc.record({ key: fc.constantFrom(...keys), inner: fc.string({ maxLength: 10 }), value: fc.jsonValue({ maxDepth: 2 }) }).map(({ key, inner, value }) => {
      const copy = structuredClone(example) as Record<string, unknown>;
      const target = copy[key];
      if (typeof target === 'object' && target !== null && inner !== '') (target as Record<string, unknown>)[[...innerKeys, inner][inner.length % (innerKeys.length + 1)] as string] = value;
      else copy[key] = value;
      return copy;
    });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.jsonValue({ maxDepth: 3 })), (value) => {
        let profile: DeviceProfile | undefined;
        try {
          profile = readProfile(value);
        } catch (error) {
          expect(isInputError(error), String(error)).toBe(true);
          return;
        }
        // Accepted: it must then decode whatever a device sends.
        decodeRecording(profile, [Buffer.from('As\r\n\x02Kd\x03\x00 1/1\n')]).forEach(expectWellFormed);
      }),
      { numRuns: 3000 },
    );
  });
});

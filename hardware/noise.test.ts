// The noise flag (issue 11, "Line noise"): once a connection's line has been flagged as noise,
// every card and device message it decodes is marked `suspect` until clean frames resume. The
// real pseudo-terminal version of this is transport/noise.pty.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CARDS, type Card } from '../engine/cards';
import { eventLine } from './cli/eventLine';
import { encodeCard, framed } from './encoding';
import type { ShoeEvent } from './events';
import { checksumOf, ETX, STX } from './framing/stxEtx';
import { CLEAN_FRAMES_TO_CLEAR_NOISE, createDecodeStream, decodeRecording, FrameDecoder, NOISE_CLEARED_MESSAGE, NOISE_FRAMES_FOR_BAUD_WARNING } from './pipeline';
import { BUILT_IN_PROFILES, createFramer, DEFAULT_PROFILE, type DeviceProfile } from './profile';
import './testing/saidInEnglish';

const profile = (name: string) => BUILT_IN_PROFILES[name] as DeviceProfile;
const bytes = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part)));

/** One undecodable frame of binary noise on a line-framed profile (not UTF-8). */
const NOISE = bytes('\xf8\x80\xfe\n');
const NOISE_RUN = bytes(...Array<Buffer>(NOISE_FRAMES_FOR_BAUD_WARNING).fill(NOISE));
const line = (text: string) => bytes(`${text}\r\n`);

const decode = (...parts: Buffer[]) => decodeRecording(DEFAULT_PROFILE, [bytes(...parts)]);
const decodedOnly = (events: readonly ShoeEvent[]) => events.filter((event) => event.type !== 'unknown');
const warning = (events: readonly ShoeEvent[]) => events.filter((event) => event.type === 'status' && event.noise === 'flagged');

const FLAGGED = { type: 'status', state: 'error', code: 'wrong-baud', noise: 'flagged', message: expect.stringContaining('check the baud rate') };
const CLEARED = { type: 'status', state: 'connected', noise: 'cleared', message: NOISE_CLEARED_MESSAGE };

describe('the noise flag: examples', () => {
  it('noise, then a card: the card is suspect', () => {
    expect(decode(NOISE_RUN, line('As'))).toEqual([
      { type: 'unknown', raw: '\\xf8\\x80\\xfe', reason: 'not UTF-8 text' },
      { type: 'unknown', raw: '\\xf8\\x80\\xfe', reason: 'not UTF-8 text' },
      { type: 'unknown', raw: '\\xf8\\x80\\xfe', reason: 'not UTF-8 text' },
      FLAGGED,
      { type: 'card', card: 'As', raw: 'As', suspect: true },
    ]);
  });

  it('fewer noise frames than the warning needs flag nothing: the card after them is an ordinary card', () => {
    const events = decode(...Array<Buffer>(NOISE_FRAMES_FOR_BAUD_WARNING - 1).fill(NOISE), line('As'));
    expect(decodedOnly(events)).toEqual([{ type: 'card', card: 'As', raw: 'As' }]);
  });

  it(`noise, then ${CLEAN_FRAMES_TO_CLEAR_NOISE} clean cards: still suspect, then the flag clears and the next card is not`, () => {
    expect(CLEAN_FRAMES_TO_CLEAR_NOISE).toBe(3);
    const events = decode(NOISE_RUN, line('As'), line('Kd'), line('7c'), line('Th'));
    expect(decodedOnly(events)).toEqual([
      FLAGGED,
      { type: 'card', card: 'As', raw: 'As', suspect: true },
      { type: 'card', card: 'Kd', raw: 'Kd', suspect: true },
      { type: 'card', card: '7c', raw: '7c', suspect: true },
      CLEARED,
      { type: 'card', card: 'Th', raw: 'Th' },
    ]);
  });

  it('a noise frame between clean cards starts the count again, and raises no second warning', () => {
    const events = decode(NOISE_RUN, line('As'), line('Kd'), NOISE, line('7c'), line('Th'), line('2s'), line('3s'));
    expect(decodedOnly(events)).toEqual([
      FLAGGED,
      { type: 'card', card: 'As', raw: 'As', suspect: true },
      { type: 'card', card: 'Kd', raw: 'Kd', suspect: true },
      { type: 'card', card: '7c', raw: '7c', suspect: true },
      { type: 'card', card: 'Th', raw: 'Th', suspect: true },
      { type: 'card', card: '2s', raw: '2s', suspect: true },
      CLEARED,
      { type: 'card', card: '3s', raw: '3s' },
    ]);
  });

  it('so does any unknown frame, even one that is not noise', () => {
    const events = decode(NOISE_RUN, line('As'), line('Kd'), line('A?'), line('7c'), line('Th'), line('2s'), line('3s'));
    expect(decodedOnly(events).map((event) => (event.type === 'card' ? `${event.card}${event.suspect ? '?' : ''}` : event.type))).toEqual([
      'status', 'As?', 'Kd?', '7c?', 'Th?', '2s?', 'status', '3s',
    ]);
  });

  it('a device message decoded while noisy is suspect too (a random "NEW" must not reset the shoe), and counts as a clean frame', () => {
    const events = decode(NOISE_RUN, line('NEW'), line('EMPTY'), line('Qh'), line('NEW SHOE'));
    expect(decodedOnly(events)).toEqual([
      FLAGGED,
      { type: 'device', message: 'new-shoe', raw: 'NEW', suspect: true },
      { type: 'device', message: 'shoe-empty', raw: 'EMPTY', suspect: true },
      { type: 'card', card: 'Qh', raw: 'Qh', suspect: true },
      CLEARED,
      { type: 'device', message: 'new-shoe', raw: 'NEW SHOE' },
    ]);
  });

  it('the warning comes once per flagging: a long noise run raises one; noise after the flag cleared raises the next', () => {
    const long = decode(...Array<Buffer>(20).fill(NOISE), line('As'), NOISE, line('A?'), ...Array<Buffer>(5).fill(NOISE), line('Kd'));
    expect(warning(long)).toHaveLength(1);
    const again = decode(NOISE_RUN, line('As'), line('Kd'), line('7c'), NOISE_RUN, line('Th'));
    expect(decodedOnly(again).map((event) => (event.type === 'status' ? event.noise : `${event.type === 'card' ? event.card : ''}${'suspect' in event ? '?' : ''}`))).toEqual([
      'flagged', 'As?', 'Kd?', '7c?', 'cleared', 'flagged', 'Th?',
    ]);
  });

  it('the flag belongs to one decode stream (one connection): a new stream starts unflagged', async () => {
    const run = async (...parts: Buffer[]): Promise<ShoeEvent[]> => {
      const stream = createDecodeStream(DEFAULT_PROFILE);
      const events: ShoeEvent[] = [];
      stream.on('data', (event: ShoeEvent) => events.push(event));
      stream.end(bytes(...parts));
      await new Promise((resolve) => stream.on('end', resolve));
      return events;
    };
    expect(decodedOnly(await run(NOISE_RUN, line('As')))).toEqual([FLAGGED, { type: 'card', card: 'As', raw: 'As', suspect: true }]);
    expect(await run(line('As'))).toEqual([{ type: 'card', card: 'As', raw: 'As' }]);
  });

  it('a burst cut off by a disconnect is suspect while flagged but never clears the flag (no "connected" as the port goes)', async () => {
    const stream = createDecodeStream({ ...profile('barcode'), framing: { kind: 'silence', idleMs: 20 } });
    const events: ShoeEvent[] = [];
    stream.on('data', (event: ShoeEvent) => events.push(event));
    const pause = () => new Promise((resolve) => setTimeout(resolve, 60));
    for (let index = 0; index < NOISE_FRAMES_FOR_BAUD_WARNING; index += 1) {
      stream.write(bytes('\xf8\x80\xfe'));
      await pause();
    }
    for (const code of ['As', 'Kd']) {
      stream.write(bytes(code));
      await pause();
    }
    stream.write(bytes('7c'));
    stream.cutOff();
    await new Promise((resolve) => setImmediate(resolve));
    stream.destroy();
    expect(decodedOnly(events)).toEqual([
      FLAGGED,
      { type: 'card', card: 'As', raw: 'As', suspect: true },
      { type: 'card', card: 'Kd', raw: 'Kd', suspect: true },
      { type: 'card', card: '7c', raw: '7c', suspect: true },
    ]);
  });
});

describe('the noise flag: every way a noise run is detected', () => {
  const stx = (data: Buffer, checksum?: number) => bytes(Buffer.from([STX]), data, Buffer.from([ETX]), ...(checksum === undefined ? [] : [Buffer.from([checksum])]));
  const badXor = (data: Buffer) => stx(data, checksumOf('xor', data) ^ 0x5a);
  const BINARY = bytes('\xf8\x80\xfe\x81');
  const cases: [string, DeviceProfile, Buffer, string][] = [
    ['not UTF-8 (lines)', DEFAULT_PROFILE, NOISE, 'not UTF-8 text'],
    ['UTF-8 but mostly control bytes (lines)', DEFAULT_PROFILE, bytes('\x07\x01K\x1b\n'), 'not a card code'],
    ['no line end after 256 bytes (printable, still noise)', DEFAULT_PROFILE, bytes('A'.repeat(257), '\n'), 'no line end after 256 bytes'],
    ['a bad checksum on binary data (stx-text)', profile('stx-text'), badXor(BINARY), 'bad xor checksum'],
    ['a bad checksum on binary data (stx-sum)', profile('stx-sum'), stx(BINARY, (checksumOf('sum', BINARY) + 1) & 0xff), 'bad sum checksum'],
    ['no ETX after 256 bytes (stx-text)', profile('stx-text'), bytes(Buffer.from([STX]), 'A'.repeat(257)), 'no ETX after 256 bytes'],
    ['binary bytes outside any STX…ETX frame (stx-text)', profile('stx-text'), bytes('\xf8\x80\xfe'), 'bytes outside an STX…ETX frame'],
    ['a silence-ended burst of binary (barcode)', { ...profile('barcode'), framing: { kind: 'silence', idleMs: 50 } }, BINARY, 'not UTF-8 text'],
  ];

  it.each(cases)('%s', (_what, device, noise, reason) => {
    const events = decodeChunks(device, [noise, noise, noise, encodeCard('Qs', device)]);
    const unknowns = events.filter((event) => event.type === 'unknown');
    expect(unknowns).toHaveLength(3);
    for (const event of unknowns) expect(event).toMatchObject({ reason: expect.stringContaining(reason) });
    expect(decodedOnly(events)).toEqual([FLAGGED, { type: 'card', card: 'Qs', raw: 'Qs', suspect: true }]);
  });

  it('frames the checksum refuses but that hold printable text are corruption, not noise: they never become cards, and flag nothing', () => {
    const events = decodeRecording(profile('stx-text'), [badXor(Buffer.from('Jh')), badXor(Buffer.from('Jh')), badXor(Buffer.from('Jh')), encodeCard('Qs', profile('stx-text'))]);
    expect(decodedOnly(events)).toEqual([{ type: 'card', card: 'Qs', raw: 'Qs' }]);
  });
});

/**
 * Frames each chunk on its own, flushed as after a pause, and decodes them all with one
 * FrameDecoder: a silence-framed burst, or stray bytes outside STX…ETX, end with their chunk.
 */
function decodeChunks(device: DeviceProfile, chunks: readonly Buffer[]): ShoeEvent[] {
  const framer = createFramer(device.framing);
  const decoder = new FrameDecoder(device);
  return chunks.flatMap((chunk) => [...framer.push(chunk), ...framer.flush()]).flatMap((frame) => decoder.decode(frame));
}

// ---------------------------------------------------------------------------------------------

type Kind = 'noise' | 'other' | 'card' | 'device';
interface Sent {
  readonly kind: Kind;
  readonly bytes: Buffer;
  readonly card?: Card;
}

/** Bytes no card code or device message contains, and that no framing treats as structure or JS trims away. */
const ODD_BYTES = [...Array(256).keys()].filter((byte) => (byte < 0x20 || byte >= 0x7f) && ![0x02, 0x03, 0x09, 0x0a, 0x0b, 0x0c, 0x0d].includes(byte));
const oddBytes = fc.array(fc.constantFrom(...ODD_BYTES), { minLength: 1, maxLength: 12 }).map((values) => Buffer.from(values));
const OTHER_TEXT = ['A?', 'Xx', 'S0', 'hello', '11h', 'QQ'];
const DEVICE_TEXT = ['EMPTY', 'SHOE EMPTY', 'NEW', 'new shoe'];

/** One frame of each kind, as the bytes a line-framed (`text`) or STX…ETX (`stx-text`) device would send. */
function frameOf(device: DeviceProfile): fc.Arbitrary<Sent> {
  const lines = device.framing.kind === 'lines';
  const badXor = (data: Buffer) => bytes(Buffer.from([STX]), data, Buffer.from([ETX, checksumOf('xor', data) ^ 0x01]));
  // Binary frames (not UTF-8, or mostly control bytes), bad checksums on binary data, and frames
  // refused for having no end (exactly one byte too long, so no remainder makes a second frame).
  const noise = lines
    ? fc.oneof(oddBytes.map((data) => bytes(data, '\n')), fc.constant(bytes('A'.repeat(257), '\n')))
    : fc.oneof(oddBytes.map(badXor), fc.constant(bytes(Buffer.from([STX]), 'K'.repeat(257))));
  const other = fc.oneof(
    fc.constantFrom(...OTHER_TEXT).map((text) => framed(text, device.framing)),
    ...(lines ? [] : [fc.constantFrom('Jh', 'As', 'EMPTY').map((text) => badXor(Buffer.from(text)))]),
  );
  return fc.oneof(
    { weight: 3, arbitrary: noise.map((sent) => ({ kind: 'noise' as const, bytes: sent })) },
    { weight: 1, arbitrary: other.map((sent) => ({ kind: 'other' as const, bytes: sent })) },
    { weight: 3, arbitrary: fc.constantFrom(...ALL_CARDS).map((card) => ({ kind: 'card' as const, bytes: encodeCard(card, device), card })) },
    { weight: 1, arbitrary: fc.constantFrom(...DEVICE_TEXT).map((text) => ({ kind: 'device' as const, bytes: framed(text, device.framing) })) },
  );
}

/**
 * The flag model, stated without a state machine: before frame `index`, the line is flagged when
 * some run of NOISE_FRAMES_FOR_BAUD_WARNING noise frames in a row ended before it, and no run of
 * CLEAN_FRAMES_TO_CLEAR_NOISE clean frames (cards, device messages) in a row lies wholly after the
 * last such noise run and before the frame.
 */
function flaggedBefore(kinds: readonly Kind[], index: number): boolean {
  const isClean = (kind: Kind) => kind === 'card' || kind === 'device';
  let lastNoiseRunEnd = -1;
  for (let end = NOISE_FRAMES_FOR_BAUD_WARNING - 1; end < index; end += 1) {
    if (kinds.slice(end - NOISE_FRAMES_FOR_BAUD_WARNING + 1, end + 1).every((kind) => kind === 'noise')) lastNoiseRunEnd = end;
  }
  if (lastNoiseRunEnd < 0) return false;
  for (let end = lastNoiseRunEnd + CLEAN_FRAMES_TO_CLEAR_NOISE; end < index; end += 1) {
    if (kinds.slice(end - CLEAN_FRAMES_TO_CLEAR_NOISE + 1, end + 1).every(isClean)) return false;
  }
  return true;
}

const endsRun = (kinds: readonly Kind[], index: number, length: number, test: (kind: Kind) => boolean) =>
  index >= length - 1 && kinds.slice(index - length + 1, index + 1).every(test);

/** Splits bytes at the given cut points, as a serial driver hands them over in arbitrary reads. */
function split(all: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (all.length + 1)))].sort((a, b) => a - b);
  return [...points, all.length].map((point, index, list) => all.subarray(index === 0 ? 0 : (list[index - 1] as number), point));
}

describe('the noise flag: properties', () => {
  it.each(['text', 'stx-text'])('for any interleaving of noise and clean frames (%s), a frame is suspect exactly when the flag model says so', (name) => {
    const device = profile(name);
    fc.assert(
      fc.property(fc.array(frameOf(device), { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 5 }), (sent, cuts) => {
        const events = decodeRecording(device, split(bytes(...sent.map((frame) => frame.bytes)), cuts));
        const kinds = sent.map((frame) => frame.kind);
        // Walk the events frame by frame: each frame gives its event, then maybe one status.
        let at = 0;
        for (const [index, frame] of sent.entries()) {
          const event = events[at++] as ShoeEvent;
          const flagged = flaggedBefore(kinds, index);
          if (frame.kind === 'noise' || frame.kind === 'other') {
            expect(event.type, `frame ${index} (${frame.kind})`).toBe('unknown');
          } else if (frame.kind === 'card') {
            expect(event).toEqual({ type: 'card', card: frame.card, raw: expect.any(String), ...(flagged ? { suspect: true } : {}) });
          } else {
            expect(event).toEqual({ type: 'device', message: expect.any(String), raw: expect.any(String), ...(flagged ? { suspect: true } : {}) });
          }
          const raised = !flagged && endsRun(kinds, index, NOISE_FRAMES_FOR_BAUD_WARNING, (kind) => kind === 'noise');
          const cleared = flagged && endsRun(kinds, index, CLEAN_FRAMES_TO_CLEAR_NOISE, (kind) => kind === 'card' || kind === 'device');
          if (raised) expect(events[at++]).toEqual(FLAGGED);
          if (cleared) expect(events[at++]).toEqual(CLEARED);
        }
        expect(at).toBe(events.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('no card decoded within a run of noise is ever unmarked: whatever clean frames (fewer than it takes to clear) sit between noise frames', () => {
    const device = DEFAULT_PROFILE;
    const clean = fc.oneof(fc.constantFrom(...ALL_CARDS).map((card) => encodeCard(card, device)), fc.constantFrom(...DEVICE_TEXT).map((text) => framed(text, device.framing)));
    const gap = fc.oneof(fc.array(clean, { maxLength: CLEAN_FRAMES_TO_CLEAR_NOISE - 1 }), fc.constant([framed('A?', device.framing)]));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), gap), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 5 }), (stretches, cuts) => {
        const stream = bytes(NOISE_RUN, ...stretches.flatMap(([noiseFrames, between]) => [...Array<Buffer>(noiseFrames).fill(NOISE), ...between]));
        const events = decodeRecording(device, split(stream, cuts));
        expect(events.filter((event) => (event.type === 'card' || event.type === 'device') && event.suspect !== true)).toEqual([]);
        expect(events.filter((event) => event.type === 'status')).toEqual([FLAGGED]);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the cards CLI line of a suspect event says so', () => {
  it.each<[ShoeEvent, string]>([
    [{ type: 'card', card: 'As', raw: 'AS', suspect: true }, '{"type":"card","card":"As","raw":"AS","suspect":true}'],
    [{ type: 'card', card: 'As', raw: 'AS' }, '{"type":"card","card":"As","raw":"AS"}'],
    [{ type: 'device', message: 'new-shoe', raw: 'NEW', suspect: true }, '{"type":"device","message":"new-shoe","raw":"NEW","suspect":true}'],
    [{ type: 'device', message: 'shoe-empty', raw: 'EMPTY' }, '{"type":"device","message":"shoe-empty","raw":"EMPTY"}'],
    [
      { type: 'status', state: 'error', code: 'wrong-baud', noise: 'flagged', message: 'check the baud rate' },
      '{"type":"status","state":"error","code":"wrong-baud","noise":"flagged","message":"check the baud rate"}',
    ],
    [
      { type: 'status', state: 'connected', noise: 'cleared', message: NOISE_CLEARED_MESSAGE },
      `{"type":"status","state":"connected","noise":"cleared","message":"${NOISE_CLEARED_MESSAGE}"}`,
    ],
    [{ type: 'status', state: 'connected', message: 'Connected to /dev/ttyUSB0 at 9600 baud' }, '{"type":"status","state":"connected","message":"Connected to /dev/ttyUSB0 at 9600 baud"}'],
  ])('%j', (event, expected) => {
    expect(eventLine(event)).toBe(expected);
  });
});

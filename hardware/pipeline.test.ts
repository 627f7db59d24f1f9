import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CARDS, parseCard, type Card } from '../engine/cards';
import { encodeCard, framed } from './encoding';
import type { ShoeEvent } from './events';
import { checksumOf, ETX, STX } from './framing/stxEtx';
import { createDecodeStream, decodeRecording, NOISE_FRAMES_FOR_BAUD_WARNING } from './pipeline';
import { BUILT_IN_PROFILES, DEFAULT_PROFILE, readProfile, type DeviceProfile } from './profile';
import './testing/saidInEnglish';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const cardsOf = (events: readonly ShoeEvent[]) => events.flatMap((event) => (event.type === 'card' ? [event.card] : []));
const profile = (name: string) => BUILT_IN_PROFILES[name] as DeviceProfile;

describe('recorded byte streams', () => {
  it('a text shoe whose CRLF is split across two reads', () => {
    // "AS\r" | "\n10H\r\n" | "K" | "D\r\n"
    const events = decodeRecording(DEFAULT_PROFILE, [hex('41 53 0d'), hex('0a 31 30 48 0d 0a'), hex('4b'), hex('44 0d 0a')]);
    expect(events).toEqual([
      { type: 'card', card: 'As', raw: 'AS' },
      { type: 'card', card: 'Th', raw: '10H' },
      { type: 'card', card: 'Kd', raw: 'KD' },
    ]);
  });

  it('an STX/ETX shoe with XOR checksums, one frame corrupted in transit', () => {
    const good = Buffer.concat([Buffer.from([STX]), Buffer.from('Qs'), Buffer.from([ETX, checksumOf('xor', Buffer.from('Qs'))])]);
    const corrupted = Buffer.concat([Buffer.from([STX]), Buffer.from('Jh'), Buffer.from([ETX, 0x00])]);
    const events = decodeRecording(profile('stx-text'), [good.subarray(0, 2), Buffer.concat([good.subarray(2), corrupted])]);
    expect(events).toEqual([
      { type: 'card', card: 'Qs', raw: 'Qs' },
      { type: 'unknown', raw: 'Jh', reason: expect.stringMatching(/^bad xor checksum/) },
    ]);
  });

  it('a barcode reader with symbology prefixes and no terminator', () => {
    const events = decodeRecording(profile('barcode'), [Buffer.from(']Q1A♠')]);
    expect(events).toEqual([{ type: 'card', card: 'As', raw: ']Q1A♠' }]);
  });

  it('device messages and undecodable text are reported, never dropped or guessed', () => {
    const events = decodeRecording(DEFAULT_PROFILE, [Buffer.from('NEW SHOE\r\nA\r\nshoe empty\r\nXx\r\n')]);
    expect(events).toEqual([
      { type: 'device', message: 'new-shoe', raw: 'NEW SHOE' },
      { type: 'unknown', raw: 'A', reason: 'not a card code' },
      { type: 'device', message: 'shoe-empty', raw: 'shoe empty' },
      { type: 'unknown', raw: 'Xx', reason: 'not a card code' },
    ]);
  });

  it('a suit-number shoe and an index shoe', () => {
    expect(cardsOf(decodeRecording(profile('suit-number'), [Buffer.from('D12\nS01\n')]))).toEqual(['Qd', 'As']);
    expect(cardsOf(decodeRecording(profile('index1'), [Buffer.from('1\r\n52\r\n')]))).toEqual(['As', 'Kc']);
  });

  it('bytes at the wrong baud rate raise one clear warning', () => {
    const noise = hex('f8 80 fe 0a e6 98 1c 0a 80 80 f0 0a 99 fe 0a');
    const events = decodeRecording(DEFAULT_PROFILE, [noise]);
    expect(events.filter((event) => event.type === 'unknown')).toHaveLength(4);
    const warnings = events.filter((event) => event.type === 'status');
    expect(warnings).toEqual([{ type: 'status', state: 'error', code: 'wrong-baud', noise: 'flagged', message: expect.stringContaining('check the baud rate (set to 9600)') }]);
    expect(events.indexOf(warnings[0] as ShoeEvent)).toBe(NOISE_FRAMES_FOR_BAUD_WARNING);
  });

  it('a long run of bytes without any line end also points at the baud rate', () => {
    const events = decodeRecording(DEFAULT_PROFILE, [Buffer.alloc(256 * 4, 0x41)]);
    expect(events.some((event) => event.type === 'status' && event.code === 'wrong-baud')).toBe(true);
    expect(cardsOf(events)).toEqual([]);
  });
});

describe('the decode stream', () => {
  it('emits events as bytes arrive and logs every chunk', async () => {
    const seen: Buffer[] = [];
    const stream = createDecodeStream(DEFAULT_PROFILE, { onBytes: (chunk) => seen.push(chunk) });
    const events: ShoeEvent[] = [];
    stream.on('data', (event: ShoeEvent) => events.push(event));
    stream.write(Buffer.from('As\r'));
    stream.write(Buffer.from('\nKd'));
    stream.end(Buffer.from('\n'));
    await new Promise((resolve) => stream.on('end', resolve));
    expect(cardsOf(events)).toEqual(['As', 'Kd']);
    expect(Buffer.concat(seen).toString()).toBe('As\r\nKd\n');
  });

  it('tells onRepeat of each read the repeat window drops, and emits nothing for it', async () => {
    let now = 0;
    let repeats = 0;
    const stream = createDecodeStream({ ...DEFAULT_PROFILE, repeatMs: 500 }, { clock: () => now, onRepeat: () => (repeats += 1) });
    const events: ShoeEvent[] = [];
    stream.on('data', (event: ShoeEvent) => events.push(event));
    stream.write(Buffer.from('As\n'));
    now = 100;
    stream.write(Buffer.from('As\nAs\n'));
    now = 2000;
    stream.end(Buffer.from('As\n'));
    await new Promise((resolve) => stream.on('end', resolve));
    expect(cardsOf(events)).toEqual(['As', 'As']);
    expect(repeats).toBe(2);
  });

  it('ends a silence-framed burst after the pause', async () => {
    const stream = createDecodeStream({ ...profile('barcode'), framing: { kind: 'silence', idleMs: 20 } });
    const events: ShoeEvent[] = [];
    stream.on('data', (event: ShoeEvent) => events.push(event));
    stream.write(Buffer.from(']C0Q'));
    stream.write(Buffer.from('h'));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(events).toEqual([{ type: 'card', card: 'Qh', raw: ']C0Qh' }]);
    stream.write(Buffer.from('2c'));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(cardsOf(events)).toEqual(['Qh', '2c']);
    stream.destroy();
  });
});

describe('device profiles', () => {
  it('reads a custom profile', () => {
    const custom = readProfile({
      name: 'Vendor X',
      baud: 19200,
      framing: { kind: 'stx-etx', checksum: 'sum' },
      decoder: { kind: 'pattern', pattern: '^(?<suit>[SHDC])(?<rank>\\d+)$', ranks: { '1': 'A', '13': 'K' } },
    });
    expect(custom.baud).toBe(19200);
    const bytes = Buffer.concat([Buffer.from([STX]), Buffer.from('H13'), Buffer.from([ETX, checksumOf('sum', Buffer.from('H13'))])]);
    expect(cardsOf(decodeRecording(custom, [bytes]))).toEqual(['Kh']);
  });

  it.each([
    [null, 'profile', /must be a JSON object/],
    [{ framing: { kind: 'morse' }, decoder: { kind: 'text' } }, 'framing.kind', /unknown framing "morse"/],
    [{ framing: { kind: 'stx-etx', checksum: 'crc' }, decoder: { kind: 'text' } }, 'framing.checksum', /none, xor, sum/],
    [{ framing: { kind: 'silence', idleMs: 0 }, decoder: { kind: 'text' } }, 'framing.idleMs', /from 5 to 5000/],
    [{ framing: { kind: 'lines' }, decoder: { kind: 'magic' } }, 'decoder.kind', /unknown decoder "magic"/],
    [{ framing: { kind: 'lines' }, decoder: { kind: 'pattern', pattern: '(' } }, 'decoder.pattern', /not a valid regular expression/],
    [{ framing: { kind: 'lines' }, decoder: { kind: 'pattern', pattern: '^(?<rank>.)$' } }, 'decoder.pattern', /needs named groups/],
    [{ framing: { kind: 'lines' }, decoder: { kind: 'index', suitOrder: 'sshc' } }, 'decoder.suitOrder', /each suit once/],
    [{ framing: { kind: 'lines' }, decoder: { kind: 'index', base: 2 } }, 'decoder.base', /0 .* or 1/],
    [{ framing: { kind: 'lines' }, decoder: { kind: 'uid', cards: { '0001': 'A spades' } } }, 'decoder.cards', /canonical cards/],
    [{ baud: -1, framing: { kind: 'lines' }, decoder: { kind: 'text' } }, 'baud', /whole number/],
    [{ framing: { kind: 'lines' }, decoder: { kind: 'text' }, messages: { END: 'explode' } }, 'messages', /shoe-empty or new-shoe/],
  ])('refuses %j naming %s', (value, field, reason) => {
    expect(() => readProfile(value)).toThrow(expect.objectContaining({ field, message: expect.stringMatching(reason) }));
  });
});

const RFID: DeviceProfile = { ...profile('rfid'), decoder: { kind: 'uid', cards: Object.fromEntries(ALL_CARDS.map((card, index) => [`04A1${index.toString(16).padStart(4, '0').toUpperCase()}`, card])) } };
const ENCODABLE = [...Object.values(BUILT_IN_PROFILES).filter((entry) => entry.decoder.kind !== 'uid'), RFID];

/** Splits bytes at the given cut points, as a serial driver hands them over in arbitrary reads. */
function split(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

const TEXT_SPELLINGS = (card: Card): string[] => {
  const rank = card[0] as string;
  const suit = card[1] as string;
  const ranks = rank === 'T' ? ['T', 't', '10'] : [rank, rank.toLowerCase()];
  const pips: Record<string, string[]> = { s: ['s', 'S', '♠', '♤'], h: ['h', 'H', '♥', '♡'], d: ['d', 'D', '♦', '♢'], c: ['c', 'C', '♣', '♧'] };
  return ranks.flatMap((r) => (pips[suit] as string[]).flatMap((p) => [r + p, p + r]));
};

describe('decoder properties', () => {
  it('every canonical card written in every supported encoding decodes back to itself, however the bytes are split', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_CARDS), fc.constantFrom(...ENCODABLE), fc.array(fc.nat(), { maxLength: 4 }), (card, device, cuts) => {
        expect(cardsOf(decodeRecording(device, split(encodeCard(card, device), cuts)))).toEqual([card]);
      }),
      { numRuns: 3000 },
    );
  });

  it('every text spelling of every card, with any line end or symbology prefix, decodes to that card', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL_CARDS),
        fc.nat(),
        fc.constantFrom('\r', '\n', '\r\n'),
        fc.constantFrom('', ']C0', ']Q1', ']E0'),
        fc.array(fc.nat(), { maxLength: 3 }),
        (card, pick, lineEnd, prefix, cuts) => {
          const spellings = TEXT_SPELLINGS(card);
          const text = `${prefix}${spellings[pick % spellings.length]}`;
          expect(cardsOf(decodeRecording(DEFAULT_PROFILE, split(framed(text, { kind: 'lines' }, lineEnd), cuts)))).toEqual([card]);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('arbitrary bytes never throw, and every card comes from a frame that really holds a code', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ENCODABLE), fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), (device, chunks) => {
        const events = decodeRecording(device, chunks.map((chunk) => Buffer.from(chunk)));
        const input = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));
        for (const event of events) {
          if (event.type !== 'card') continue;
          // The raw text of a card is bytes that were really sent, and reading it again gives the same card.
          expect(input.includes(Buffer.from(event.raw))).toBe(true);
          expect(cardsOf(decodeRecording(device, [encodeCard(event.card, device)]))).toEqual([event.card]);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('bytes holding no suit and no digit never become a card', () => {
    const SUITLESS = [...Array(256).keys()].filter((byte) => !'shdcSHDC0123456789'.includes(String.fromCharCode(byte)) && byte < 0xe0);
    fc.assert(
      fc.property(fc.constantFrom(...ENCODABLE), fc.array(fc.constantFrom(...SUITLESS), { maxLength: 120 }), (device, bytes) => {
        expect(cardsOf(decodeRecording(device, [Buffer.from(bytes)]))).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it('a text frame decodes to a card exactly when the engine reads its text as one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }).filter((text) => !/[\r\n]/.test(text)), (text) => {
        const events = decodeRecording(DEFAULT_PROFILE, [Buffer.from(`${text}\n`)]);
        const payload = text.trim().replace(/^\][A-Za-z][0-9A-Za-z]/, '').trim();
        const expected = /^(new|new shoe|empty|shoe empty)$/i.test(payload) || payload === '' ? [] : [parseCard(payload)].filter((card) => card !== null);
        expect(cardsOf(events)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('a disconnect in the middle of a line', () => {
  it('reports the unfinished line as unknown, never as a card', async () => {
    const stream = createDecodeStream(profile('suit-number'));
    const events: ShoeEvent[] = [];
    stream.on('data', (event: ShoeEvent) => events.push(event));
    stream.write(Buffer.from('D12\nS1'));
    await new Promise((resolve) => setImmediate(resolve));
    stream.cutOff();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([
      { type: 'card', card: 'Qd', raw: 'D12' },
      { type: 'unknown', raw: 'S1', reason: 'cut off by a disconnect before it ended' },
    ]);
  });
});

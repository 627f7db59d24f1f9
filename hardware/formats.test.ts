// The profile format additions of issue 12: line settings, the repeat window, UID patterns and byte
// notations, zero-padded indexes, Code IDs, the ace as 1, hex checksums and STX-counting sums, the
// start-up grace and DTR. Recorded bytes through decodeRecording, properties with fast-check, the
// samples of docs/readers.md, and every new field refused by name.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { englishText } from '../engine/messages';
import { ALL_CARDS, type Card } from '../engine/cards';
import { encodeCard, encodeText, framed } from './encoding';
import type { ShoeEvent } from './events';
import { STX } from './framing/stxEtx';
import { decodeRecording, GRACE_RAW_LIMIT, NOISE_FRAMES_FOR_BAUD_WARNING, type TimedChunk } from './pipeline';
import { ALL_BUILT_IN_PROFILES, BINARY_PROFILES, BUILT_IN_PROFILES, createFramer, describeLine, profileSummary, readProfile, type DeviceProfile } from './profile';
import './testing/saidInEnglish';
import { profileRefusal as refusal } from './testing/profileRefusal';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const text = (value: string) => Buffer.from(value, 'utf8');
const at = (ms: number, bytes: string | Buffer): TimedChunk => ({ at: ms, bytes: typeof bytes === 'string' ? text(bytes) : bytes });
const cardsOf = (events: readonly ShoeEvent[]) => events.flatMap((event) => (event.type === 'card' ? [event.card] : []));
const profile = (json: Record<string, unknown>) => readProfile({ framing: { kind: 'lines' }, decoder: { kind: 'text' }, ...json });
const builtIn = (name: string) => ALL_BUILT_IN_PROFILES[name] as DeviceProfile;

describe('line settings', () => {
  it('default to 8 data bits, no parity, 1 stop bit, no flow control, in every built-in and in a profile that names none', () => {
    for (const device of [...Object.values(ALL_BUILT_IN_PROFILES), profile({})]) {
      expect(device).toMatchObject({ dataBits: 8, parity: 'none', stopBits: 1, rtscts: false });
    }
  });

  it('are read from a profile', () => {
    expect(profile({ dataBits: 7, parity: 'even', stopBits: 2, rtscts: true })).toMatchObject({ dataBits: 7, parity: 'even', stopBits: 2, rtscts: true });
    expect(profile({ dataBits: 5, parity: 'space', stopBits: 1.5 })).toMatchObject({ dataBits: 5, parity: 'space', stopBits: 1.5 });
    expect(describeLine(profile({ dataBits: 7, parity: 'even' }))).toBe('7 data bits, even parity, 1 stop bit');
    expect(describeLine(profile({ stopBits: 2, rtscts: true }))).toBe('8 data bits, no parity, 2 stop bits, RTS/CTS flow control');
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ dataBits: 9 }, 'dataBits', 'must be 5, 6, 7 or 8 (got 9)'],
    [{ dataBits: '7' }, 'dataBits', 'must be 5, 6, 7 or 8 (got "7")'],
    [{ parity: 'evn' }, 'parity', 'choose one of none, even, odd, mark, space (got "evn")'],
    [{ parity: 'EVEN' }, 'parity', 'choose one of none, even, odd, mark, space (got "EVEN")'],
    [{ stopBits: 3 }, 'stopBits', 'must be 1, 1.5 or 2 (got 3)'],
    [{ stopBits: 0 }, 'stopBits', 'must be 1, 1.5 or 2 (got 0)'],
    [{ rtscts: 'yes' }, 'rtscts', 'must be true or false (got "yes")'],
    [{ dtr: 1 }, 'dtr', 'must be true or false (got 1)'],
    [{ codeId: 'j' }, 'codeId', 'must be true or false (got "j")'],
    [{ repeatMs: -1 }, 'repeatMs', 'must be a whole number from 0 to 60000 (got -1)'],
    [{ repeatMs: 60001 }, 'repeatMs', 'must be a whole number from 0 to 60000 (got 60001)'],
    [{ graceMs: 2.5 }, 'graceMs', 'must be a whole number from 0 to 60000 (got 2.5)'],
    [{ decoder: { kind: 'text', aceAsOne: 'yes' } }, 'decoder.aceAsOne', 'must be true or false (got "yes")'],
    [{ decoder: { kind: 'uid', pattern: '^TAG:(?<tag>.+)$' } }, 'decoder.pattern', 'needs a named group (?<uid>…) for the tag ID (and may have (?<reader>…))'],
    [{ decoder: { kind: 'uid', pattern: '(' } }, 'decoder.pattern', expect.stringMatching(/^not a valid regular expression/) as unknown as string],
    [{ decoder: { kind: 'uid', pattern: 7 } }, 'decoder.pattern', 'must be a regular expression as text'],
    [{ decoder: { kind: 'uid', uidBytes: 'octal' } }, 'decoder.uidBytes', 'choose one of hex, decimal (got "octal")'],
    [{ framing: { kind: 'stx-etx', checksum: 'crc16' } }, 'framing.checksum', 'choose one of none, xor, sum, xor-hex, sum-hex'],
    [{ framing: { kind: 'stx-etx', checksum: 'xor', checksumIncludesStx: 'yes' } }, 'framing.checksumIncludesStx', 'must be true or false (got "yes")'],
    [{ framing: { kind: 'stx-etx', checksum: 'none', checksumIncludesStx: true } }, 'framing.checksumIncludesStx', 'only goes with a checksum (xor, sum, xor-hex, sum-hex)'],
  ])('refuses %j naming %s', (fields, field, reason) => {
    expect(refusal({ framing: { kind: 'lines' }, decoder: { kind: 'text' }, ...fields })).toEqual({ field, reason });
  });

  it('the wrong-baud hint names the parity and data bits the port was set to', () => {
    // "S01\r\n" from a 7E1 reader read at 8N1: the even-parity bit lands in bit 7 of `1` and `\r`.
    const frame = hex('53 30 b1 8d 0a');
    const events = decodeRecording(builtIn('suit-number'), [Buffer.concat(Array<Buffer>(NOISE_FRAMES_FOR_BAUD_WARNING).fill(frame))]);
    expect(events.at(-1)).toEqual({
      type: 'status',
      state: 'error',
      code: 'wrong-baud',
      noise: 'flagged',
      message: 'The device sends bytes that decode to nothing: check the baud rate (set to 9600), the parity and data bits (none, 8) and the decoder (suit-number)',
    });
    const sevenE1 = profile({ name: 'rs232', baud: 2400, dataBits: 7, parity: 'even', decoder: { kind: 'suit-number' } });
    expect(decodeRecording(sevenE1, [Buffer.concat(Array<Buffer>(3).fill(frame))]).at(-1)).toMatchObject({
      message: expect.stringContaining('check the baud rate (set to 2400), the parity and data bits (even, 7) and the decoder (rs232)'),
    });
    // The same reader read with its own settings: the UART has taken the parity bit off.
    expect(cardsOf(decodeRecording(sevenE1, [hex('53 30 31 0d 0a 44 31 32 0d 0a')]))).toEqual(['As', 'Qd']);
  });
});

describe('the repeat window (repeatMs)', () => {
  const rfid = (cards: Record<string, Card>) => ({ ...builtIn('rfid'), decoder: { kind: 'uid' as const, cards } });

  it('a tag lying on the antenna, re-reported every 200 ms for 10 s, is one read; taken off and put back later, a second', () => {
    const reader = rfid({ '04A2B3C4': 'As' });
    const chunks = Array.from({ length: 51 }, (_, index) => at(index * 200, '04A2B3C4\r\n'));
    expect(decodeRecording(reader, chunks)).toEqual([{ type: 'card', card: 'As', raw: '04A2B3C4' }]);
    // 1.5 s after the last report it is a new read.
    expect(cardsOf(decodeRecording(reader, [...chunks, at(10_000 + 1500, '04A2B3C4\r\n')]))).toEqual(['As', 'As']);
    expect(cardsOf(decodeRecording(reader, [...chunks, at(10_000 + 1499, '04A2B3C4\r\n')]))).toEqual(['As']);
  });

  it('is compared after decoding: the same tag in another spelling is the same read; two tags of one card are two', () => {
    const reader = rfid({ '04A2B3C4': 'As', '04A2B3C5': 'As' });
    expect(decodeRecording(reader, [at(0, '04:A2:B3:C4\r\n'), at(100, '04a2b3c4\r\n'), at(200, '04A2B3C5\r\n')])).toEqual([
      { type: 'card', card: 'As', raw: '04:A2:B3:C4' },
      { type: 'card', card: 'As', raw: '04A2B3C5' },
    ]);
  });

  it('two tags on the antenna at once, reported in turn, are two reads', () => {
    const reader = rfid({ '04A2B3C4': 'As', '04A2B3C5': 'Kd' });
    const chunks = Array.from({ length: 20 }, (_, index) => at(index * 100, index % 2 === 0 ? '04A2B3C4\r\n' : '04A2B3C5\r\n'));
    expect(cardsOf(decodeRecording(reader, chunks))).toEqual(['As', 'Kd']);
  });

  it('an unregistered tag lying there is reported once too, and while registering it is registered once', async () => {
    const reader = rfid({});
    expect(decodeRecording(reader, [at(0, 'DEADBEEF\r\n'), at(300, 'DEADBEEF\r\n')])).toEqual([
      { type: 'unknown', raw: 'DEADBEEF', reason: 'tag DEADBEEF is not registered; register the deck first' },
    ]);
    const { FrameDecoder } = await import('./pipeline');
    const { UidDecoder } = await import('./decoding/uid');
    const registering = new UidDecoder();
    registering.startRegistration(['As', 'Ks']);
    const decoder = new FrameDecoder(reader, registering);
    const read = (ms: number, uid: string) => decoder.decode({ bytes: text(uid) }, { at: ms });
    // Without the window the second report would be "already registered as As", the third would register Ks.
    expect([read(0, '0001'), read(200, '0001'), read(400, '0001'), read(600, '0002')].flat()).toEqual([
      { type: 'card', card: 'As', raw: '0001' },
      { type: 'card', card: 'Ks', raw: '0002' },
    ]);
  });

  it('a scanner double beep on a text profile, and a repeated device message, are one read', () => {
    const scanner = profile({ repeatMs: 800 });
    expect(decodeRecording(scanner, [at(0, 'As\r\n'), at(90, 'AS\r\n'), at(400, 'Kd\r\n'), at(500, 'EMPTY\r\n'), at(520, 'EMPTY\r\n'), at(2000, 'As\r\n')])).toEqual([
      { type: 'card', card: 'As', raw: 'As' },
      { type: 'card', card: 'Kd', raw: 'Kd' },
      { type: 'device', message: 'shoe-empty', raw: 'EMPTY' },
      { type: 'card', card: 'As', raw: 'As' },
    ]);
  });

  it('is off (0) for every built-in but the tag readers (rfid, and the binary ones reading tags) and the SSI scanner (its resends); unknown frames are never dropped as repeats', () => {
    expect(Object.entries(ALL_BUILT_IN_PROFILES).map(([name, entry]) => [name, entry.repeatMs])).toEqual(
      Object.entries(ALL_BUILT_IN_PROFILES).map(([name, entry]) => [name, entry.decoder.kind === 'uid' ? 1500 : name === 'zebra-ssi' ? 1000 : 0]),
    );
    expect(Object.values(ALL_BUILT_IN_PROFILES).filter((entry) => entry.decoder.kind === 'uid').map((entry) => entry.name)).toEqual(['rfid', 'rdm6300', 'id12la', 'pn532-uart', 'uhf-r200', 'uhf-a0']);
    expect(decodeRecording(builtIn('text'), [at(0, 'As\r\nAs\r\n')])).toHaveLength(2);
    expect(decodeRecording(profile({ repeatMs: 1000 }), [at(0, 'A?\r\nA?\r\n')])).toHaveLength(2);
  });

  it('property: a read gives an event exactly when no identical read came less than repeatMs before it', () => {
    const keys = ['As', 'Kd', 'Qh', 'EMPTY'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 800 }), fc.constantFrom(...keys)), { maxLength: 40 }),
        (repeatMs, reads) => {
          let time = 0;
          const chunks = reads.map(([gap, key]) => at((time += gap), `${key}\r\n`));
          const events = decodeRecording(profile({ repeatMs }), chunks);
          // The model: the previous identical read, repeats included, decides.
          const last = new Map<string, number>();
          const expected = chunks.flatMap((chunk, index) => {
            const key = (reads[index] as [number, string])[1];
            const before = last.get(key);
            last.set(key, chunk.at);
            return before !== undefined && chunk.at - before < repeatMs ? [] : [key];
          });
          expect(events.map((event) => (event.type === 'card' ? event.card : event.type === 'device' ? 'EMPTY' : '?'))).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('applies only to timed frames: a one-off decode (a keyboard-wedge scan) has no window', async () => {
    const { FrameDecoder } = await import('./pipeline');
    const decoder = new FrameDecoder(builtIn('rfid'));
    const tag = { bytes: text('0001') };
    expect([...decoder.decode(tag), ...decoder.decode(tag)]).toHaveLength(2);
  });
});

describe('tag IDs inside longer lines (decoder.pattern) and byte notations (uidBytes)', () => {
  it.each<[string, string, string]>([
    ['an Arduino "Card UID:" line', '^Card UID:\\s*(?<uid>[0-9A-Fa-f ]+)$', 'Card UID: 04 A2 B3 C4'],
    ['a TAG: line', '^TAG:(?<uid>[0-9A-Fa-f]+)$', 'TAG:04a2b3c4'],
    ['colons in the line', '^Card UID:\\s*(?<uid>[0-9A-Fa-f: -]+)$', 'Card UID: 04:A2-B3 c4'],
  ])('%s', (_what, pattern, line) => {
    const reader = profile({ decoder: { kind: 'uid', pattern, cards: { '04A2B3C4': 'As' } } });
    expect(decodeRecording(reader, [text(`${line}\r\n`)])).toEqual([{ type: 'card', card: 'As', raw: line }]);
  });

  it('an antenna number in a `reader` group goes on the card event', () => {
    const reader = profile({ decoder: { kind: 'uid', pattern: '^(?<reader>\\d+)\\|(?<uid>[0-9A-Fa-f]+)$', cards: { '4B219622': 'Th' } } });
    expect(decodeRecording(reader, [text('0|4B219622\r\n1|4b219622\r\n')])).toEqual([
      { type: 'card', card: 'Th', raw: '0|4B219622', reader: '0' },
      { type: 'card', card: 'Th', raw: '1|4b219622', reader: '1' },
    ]);
  });

  it('a JSON-lines reader: card lines are cards, its other lines unknown, never cards', () => {
    const reader = profile({
      repeatMs: 1500,
      decoder: { kind: 'uid', pattern: '^\\{"type":"card".*"card_uid":"(?<uid>[0-9A-Fa-f ]+)"', cards: { '040E3BD2286B85': 'Qh' } },
    });
    const card = '{"type":"card","card_uid":"04 0e 3b d2 28 6b 85","len":7}';
    const events = decodeRecording(reader, [
      text('{"type":"boot","fw":"1.2"}\r\n'),
      text(`${card}\r\n`),
      text('{"type":"removed","card_uid":"04 0e 3b d2 28 6b 85"}\r\n'),
      text('{"type":"card","card_uid":"04 0e 3b d2 28 6b 99"}\r\n'),
    ]);
    expect(events).toEqual([
      { type: 'unknown', raw: '{"type":"boot","fw":"1.2"}', reason: 'does not match the reader pattern' },
      { type: 'card', card: 'Qh', raw: card },
      { type: 'unknown', raw: '{"type":"removed","card_uid":"04 0e 3b d2 28 6b 85"}', reason: 'does not match the reader pattern' },
      { type: 'unknown', raw: '{"type":"card","card_uid":"04 0e 3b d2 28 6b 99"}', reason: 'tag 040E3BD2286B99 is not registered; register the deck first' },
    ]);
  });

  it('decimal bytes: each number is one byte, so `1 2` and `12` are different tags; a number over 255 is refused', () => {
    const reader = profile({ decoder: { kind: 'uid', uidBytes: 'decimal', cards: { '45F50D2A': '2c', '0102': '3c', '0C00': '4c' } } });
    expect(decodeRecording(reader, [text('69 245 13 42\r\n1 2\r\n12 0\r\n069,245,013,042\r\n69 256 13 42\r\n')])).toEqual([
      { type: 'card', card: '2c', raw: '69 245 13 42' },
      { type: 'card', card: '3c', raw: '1 2' },
      { type: 'card', card: '4c', raw: '12 0' },
      { type: 'card', card: '2c', raw: '069,245,013,042' },
      { type: 'unknown', raw: '69 256 13 42', reason: 'not a tag ID: "256" is not one byte (0–255)' },
    ]);
  });

  it('hex bytes without leading zeros (Serial.print(b, HEX)): `4 A2` and `4A 2` are different tags', () => {
    const reader = profile({ decoder: { kind: 'uid', uidBytes: 'hex', cards: { '04A2': 'As', '4A02': 'Ks' } } });
    expect(cardsOf(decodeRecording(reader, [text('4 A2\r\n4A 2\r\n04 a2\r\n')]))).toEqual(['As', 'Ks', 'As']);
    expect(decodeRecording(reader, [text('4A2 1\r\n')])).toEqual([{ type: 'unknown', raw: '4A2 1', reason: 'not a tag ID: "4A2" is not one byte (1 or 2 hex digits)' }]);
  });

  it('property: in either byte notation, the key of a tag is its bytes, so distinct byte lists never collide', () => {
    const bytes = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 2, maxLength: 16 });
    const separator = fc.constantFrom(' ', '  ', ':', '-', ',', ' : ');
    const write = (list: readonly number[], notation: 'hex' | 'decimal', seps: readonly string[], pad: boolean, upper: boolean) =>
      list
        .map((byte, index) => {
          const digits = notation === 'hex' ? byte.toString(16) : String(byte);
          const padded = pad ? digits.padStart(notation === 'hex' ? 2 : 3, '0') : digits;
          return `${index === 0 ? '' : (seps[index % seps.length] as string)}${upper ? padded.toUpperCase() : padded}`;
        })
        .join('');
    const keyOf = (list: readonly number[]) => list.map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join('');
    fc.assert(
      fc.property(
        bytes,
        bytes,
        fc.constantFrom('hex' as const, 'decimal' as const),
        fc.array(separator, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        (one, two, notation, seps, pad, upper) => {
          const reader = profile({ decoder: { kind: 'uid', uidBytes: notation, cards: { [keyOf(one)]: 'As' } } });
          const events = decodeRecording(reader, [text(`${write(one, notation, seps, pad, upper)}\r\n${write(two, notation, seps, !pad, !upper)}\r\n`)]);
          // The first is always the registered tag; the second is it exactly when the bytes are the same.
          expect(events[0]).toMatchObject({ type: 'card', card: 'As' });
          const same = keyOf(one) === keyOf(two);
          expect(events[1]).toEqual(
            same ? expect.objectContaining({ type: 'card', card: 'As' }) : expect.objectContaining({ type: 'unknown', reason: `tag ${keyOf(two)} is not registered; register the deck first` }),
          );
          expect(same).toBe(one.length === two.length && one.every((byte, index) => byte === two[index]));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('"register deck" through a pattern and a byte notation keys the tags by their bytes', async () => {
    const { UidDecoder } = await import('./decoding/uid');
    const decoder = new UidDecoder({}, { pattern: '^UID (?<uid>.+)$', uidBytes: 'decimal' });
    decoder.startRegistration(['As', 'Ks']);
    expect(decoder.decode('UID 4 162 179 196')).toEqual({ card: 'As' });
    expect(decoder.decode('UID 4 162 179 196')).toEqual({ reason: 'tag 04A2B3C4 is already registered as As' });
    expect(decoder.decode('boot')).toEqual({ reason: 'does not match the reader pattern' });
    expect(decoder.decode('UID 1 2')).toEqual({ card: 'Ks' });
    expect(decoder.entries()).toEqual({ '04A2B3C4': 'As', '0102': 'Ks' });
  });
});

describe('text codes: Code IDs, the ace as 1; indexes with leading zeros', () => {
  it('codeId strips exactly one leading letter, before an AIM identifier; without it a plain code keeps its letter', () => {
    const scanner = profile({ codeId: true });
    expect(decodeRecording(scanner, [text('jAs\r\nQ10h\r\nj]C0Kd\r\n]C07c\r\njEMPTY\r\nAs\r\n')])).toEqual([
      { type: 'card', card: 'As', raw: 'jAs' },
      { type: 'card', card: 'Th', raw: 'Q10h' },
      { type: 'card', card: 'Kd', raw: 'j]C0Kd' },
      { type: 'card', card: '7c', raw: ']C07c' },
      { type: 'device', message: 'shoe-empty', raw: 'jEMPTY' },
      // A scanner set to send Code IDs sends one before every code: `As` is the Code ID `A` and `s`.
      { type: 'unknown', raw: 'As', reason: 'not a card code' },
    ]);
    expect(decodeRecording(builtIn('text'), [text('As\r\njAs\r\n')])).toEqual([
      { type: 'card', card: 'As', raw: 'As' },
      { type: 'unknown', raw: 'jAs', reason: 'not a card code' },
    ]);
  });

  it('aceAsOne reads rank 1 as the ace, before or after the suit; 10 stays the ten; without it 1s is refused', () => {
    const shoe = profile({ decoder: { kind: 'text', aceAsOne: true } });
    expect(cardsOf(decodeRecording(shoe, [text('1s\r\n1S\r\n1♥\r\n♦1\r\nc1\r\n10h\r\nAs\r\n')]))).toEqual(['As', 'As', 'Ah', 'Ad', 'Ac', 'Th', 'As']);
    expect(decodeRecording(shoe, [text('1\r\n11s\r\n101\r\n')]).map((event) => event.type)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(decodeRecording(builtIn('text'), [text('1s\r\n')])).toEqual([{ type: 'unknown', raw: '1s', reason: 'not a card code' }]);
  });

  it('an index shoe with zero-padded numbers', () => {
    expect(decodeRecording(builtIn('index1'), [text('017\r\n052\r\n001\r\n0\r\n053\r\n0017\r\n1x\r\n')])).toEqual([
      { type: 'card', card: '4h', raw: '017' },
      { type: 'card', card: 'Kc', raw: '052' },
      { type: 'card', card: 'As', raw: '001' },
      { type: 'unknown', raw: '0', reason: 'card number out of range 1–52' },
      { type: 'unknown', raw: '053', reason: 'card number out of range 1–52' },
      { type: 'card', card: '4h', raw: '0017' },
      { type: 'unknown', raw: '1x', reason: 'not a card number 1–52' },
    ]);
    expect(cardsOf(decodeRecording(builtIn('index0'), [text('000\r\n051\r\n')]))).toEqual(['As', 'Kc']);
  });
});

describe('STX…ETX: hex checksums, the STX counted, no checksum', () => {
  it('xor-hex: two hex digits after the ETX, either case; a wrong or missing one refused', () => {
    const shoe = profile({ framing: { kind: 'stx-etx', checksum: 'xor-hex' } });
    expect(decodeRecording(shoe, [hex('02 41 73 03 33 31'), hex('02 31 30 68 03 36 61'), hex('02 4b 64 03 32 44'), hex('02 4b 64 03 32 47')])).toEqual([
      { type: 'card', card: 'As', raw: 'As' },
      { type: 'card', card: 'Th', raw: '10h' },
      { type: 'unknown', raw: 'Kd', reason: 'bad xor-hex checksum: got "2D", expected "2C"' },
      { type: 'unknown', raw: 'Kd', reason: 'bad xor-hex checksum: got "2G", expected "2C"' },
    ]);
    // An STX where a checksum digit is due starts the next frame; the unfinished one is refused.
    expect(decodeRecording(shoe, [hex('02 41 73 03 33 02 4b 64 03 32 43')])).toEqual([
      { type: 'unknown', raw: 'As', reason: 'frame cut off by a new STX before its xor-hex checksum' },
      { type: 'card', card: 'Kd', raw: 'Kd' },
    ]);
  });

  it('sum-hex counting the STX', () => {
    const shoe = profile({ framing: { kind: 'stx-etx', checksum: 'sum-hex', checksumIncludesStx: true } });
    expect(decodeRecording(shoe, [hex('02 4b 64 03 42 34 02 41 73 03 42 39')])).toEqual([
      { type: 'card', card: 'Kd', raw: 'Kd' },
      { type: 'card', card: 'As', raw: 'As' },
    ]);
    // Without the STX in the sum the same bytes are refused.
    expect(decodeRecording(profile({ framing: { kind: 'stx-etx', checksum: 'sum-hex' } }), [hex('02 4b 64 03 42 34')])).toEqual([
      { type: 'unknown', raw: 'Kd', reason: 'bad sum-hex checksum: got "B4", expected "B2"' },
    ]);
    const binary = profile({ framing: { kind: 'stx-etx', checksum: 'xor', checksumIncludesStx: true } });
    expect(cardsOf(decodeRecording(binary, [Buffer.from([STX, 0x41, 0x73, 0x03, 0x02 ^ 0x41 ^ 0x73 ^ 0x03])]))).toEqual(['As']);
  });

  it('stx-plain: a built-in without a checksum', () => {
    expect(decodeRecording(builtIn('stx-plain'), [hex('02 41 73 03 02 45 4d 50 54 59 03')])).toEqual([
      { type: 'card', card: 'As', raw: 'As' },
      { type: 'device', message: 'shoe-empty', raw: 'EMPTY' },
    ]);
    expect(builtIn('stx-plain').framing).toEqual({ kind: 'stx-etx', checksum: 'none' });
    expect(Object.keys(BUILT_IN_PROFILES)).not.toContain('stx-plain');
  });

  it('property: the STX framer reads back whatever the encoder frames, split anywhere; one changed checksum character is refused', () => {
    const payload = fc.array(fc.integer({ min: 0x20, max: 0x7e }), { minLength: 1, maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString('latin1'));
    fc.assert(
      fc.property(
        fc.array(payload, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('xor-hex', 'sum-hex', 'xor', 'sum'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 5 }),
        fc.nat(),
        (texts, checksum, includesStx, cuts, corrupt) => {
          const framing = readProfile({ framing: { kind: 'stx-etx', checksum, checksumIncludesStx: includesStx }, decoder: { kind: 'text' } }).framing;
          const stream = Buffer.concat(texts.map((entry) => framed(entry, framing)));
          const points = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
          const chunks = [...points, stream.length].map((point, index, list) => stream.subarray(index === 0 ? 0 : (list[index - 1] as number), point));
          const framer = createFramer(framing);
          const frames = [...chunks.flatMap((chunk) => framer.push(chunk)), ...framer.flush()];
          expect(frames).toEqual(texts.map((entry) => ({ bytes: Buffer.from(entry, 'latin1') })));
          // One checksum character (or byte) of the first frame changed: refused, its data kept.
          const first = framed(texts[0] as string, framing);
          const digits = checksum.endsWith('-hex') ? 2 : 1;
          const position = first.length - 1 - (corrupt % digits);
          first[position] = checksum.endsWith('-hex') ? (first[position] === 0x30 ? 0x31 : 0x30) : (first[position] as number) ^ (1 << corrupt % 8);
          expect(createFramer(framing).push(first).map((frame) => ({ ...frame, error: frame.error && englishText(frame.error) }))).toEqual([{ bytes: Buffer.from(texts[0] as string, 'latin1'), error: expect.stringMatching(new RegExp(`^bad ${checksum} checksum: got `)) }]);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('the start-up grace (graceMs)', () => {
  const reader = profile({ graceMs: 2000, decoder: { kind: 'uid', pattern: '^Card UID:\\s*(?<uid>[0-9A-Fa-f ]+)$', cards: { '04A2B3C4': 'As' } } });

  it('skips the banner of a board that resets when the port opens, then reports how many frames it skipped, once', () => {
    const events = decodeRecording(reader, [
      at(0, hex('00 ff')),
      at(30, 'MFRC522 Software Version: 0x92\r\n'),
      at(40, 'Scan PICC to see UID...\r\n'),
      at(1999, 'Card UID: 04 A2 B3 C4\r\n'),
      at(2000, 'Card UID: 04 A2 B3 C4\r\n'),
    ]);
    expect(events).toEqual([
      {
        type: 'unknown',
        raw: '\\x00\\xffMFRC522 Software Version: 0x92\nScan PICC to see UID...\nCard UID: 04 A2 B3 C4',
        reason: 'start-up grace: skipped 3 frames received in the first 2000 ms after the port opened',
      },
      { type: 'card', card: 'As', raw: 'Card UID: 04 A2 B3 C4' },
    ]);
  });

  it('the report comes when the grace ends even if nothing follows, and not at all when nothing was skipped', () => {
    expect(decodeRecording(reader, [at(10, 'hello\r\n'), at(2500, '')])).toEqual([
      { type: 'unknown', raw: 'hello', reason: 'start-up grace: skipped 1 frame received in the first 2000 ms after the port opened' },
    ]);
    expect(decodeRecording(reader, [at(2000, 'Card UID: 04 A2 B3 C4\r\n')])).toEqual([{ type: 'card', card: 'As', raw: 'Card UID: 04 A2 B3 C4' }]);
  });

  it('skipped frames, noise among them, never raise the wrong-baud warning; a long banner is kept to its first characters', () => {
    const noise = Buffer.from(Array.from({ length: 40 }, () => [0xf8, 0x80, 0xfe, 0x0a]).flat());
    const events = decodeRecording(reader, [at(0, noise), at(5, `${'x'.repeat(2000)}\r\n`), at(3000, '')]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'unknown', reason: expect.stringContaining('skipped 48 frames') });
    expect((events[0] as { raw: string }).raw).toHaveLength(GRACE_RAW_LIMIT + 1);
  });
});

describe('profiles: the one validator, and what it tells a person', () => {
  it('every built-in is a valid profile, and readProfile reads what it returns back to itself', () => {
    for (const device of Object.values(ALL_BUILT_IN_PROFILES)) {
      const read = readProfile(JSON.parse(JSON.stringify(device)));
      expect(read).toMatchObject(device as unknown as Record<string, unknown>);
      expect(readProfile(JSON.parse(JSON.stringify(read)))).toEqual(read);
    }
  });

  it('profileSummary says the whole profile in one sentence', () => {
    expect(profileSummary(builtIn('rfid'))).toBe(
      'rfid: 9600 baud, 8 data bits, no parity, 1 stop bit; one message per line (CR, LF or CRLF); RFID tag IDs, 0 tags registered; the same read within 1500 ms counted once',
    );
    expect(
      profileSummary(profile({ name: 'odd one', baud: 2400, dataBits: 7, parity: 'even', codeId: true, graceMs: 500, dtr: false, framing: { kind: 'stx-etx', checksum: 'sum-hex', checksumIncludesStx: true }, decoder: { kind: 'text', aceAsOne: true } })),
    ).toBe(
      'odd one: 2400 baud, 7 data bits, even parity, 1 stop bit; STX…ETX frames with a sum checksum sent as two hex digits, counting the STX; card codes such as As or 10h (1 for the ace); a one-letter Code ID stripped; the first 500 ms after opening skipped; DTR set off after opening',
    );
  });

  it('property: every card, in every encodable profile with the new options, decodes back to itself', () => {
    const table = Object.fromEntries(ALL_CARDS.map((card, index) => [`04A1${index.toString(16).padStart(4, '0').toUpperCase()}`, card]));
    const devices = [
      profile({ codeId: true, repeatMs: 800 }),
      profile({ decoder: { kind: 'text', aceAsOne: true }, framing: { kind: 'stx-etx', checksum: 'xor-hex' } }),
      profile({ framing: { kind: 'stx-etx', checksum: 'sum-hex', checksumIncludesStx: true }, dataBits: 7, parity: 'even' }),
      profile({ framing: { kind: 'silence', idleMs: 30 }, codeId: true }),
      profile({ decoder: { kind: 'uid', uidBytes: 'decimal', cards: table }, repeatMs: 1500 }),
      profile({ decoder: { kind: 'uid', uidBytes: 'hex', cards: table }, graceMs: 100 }),
      builtIn('stx-plain'),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...ALL_CARDS), fc.constantFrom(...devices), (card, device) => {
        expect(decodeRecording(device, [at(device.graceMs, encodeCard(card, device))])).toEqual([
          expect.objectContaining({ type: 'card', card }),
        ]);
      }),
      { numRuns: 2000 },
    );
  });
});

/** The readers' page (docs/readers.md): each sample block (text lines or hex bytes) followed by the profile that reads it. */
describe('the samples of docs/readers.md', () => {
  const section = readFileSync(new URL('../docs/readers.md', import.meta.url), 'utf8');
  const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((match) => ({ lang: match[1] as string, body: match[2] as string }));
  const profiles = blocks.flatMap((block, index) => (block.lang === 'json' ? [{ json: block.body, sample: blocks[index - 1] }] : []));

  it('has a profile for every kind of device, each valid', () => {
    expect(profiles.length).toBeGreaterThanOrEqual(15);
    for (const { json } of profiles) expect(() => readProfile(JSON.parse(json)), json).not.toThrow();
  });

  it('the file of each binary reader (issue 26) is its built-in profile, with a tag table', () => {
    const named = new Map(profiles.map(({ json }) => readProfile(JSON.parse(json))).map((device) => [device.name, device]));
    for (const [name, builtInProfile] of Object.entries(BINARY_PROFILES)) {
      const file = named.get(name);
      expect(file, name).toBeDefined();
      const decoder = builtInProfile.decoder.kind === 'uid' ? { ...builtInProfile.decoder, cards: (file?.decoder as { cards?: unknown }).cards } : builtInProfile.decoder;
      expect(file).toEqual({ ...builtInProfile, decoder });
    }
  });

  it('each sample decodes, message by message, to cards or device messages with the profile after it', () => {
    const samples = profiles.filter(({ sample }) => sample?.lang === 'text' || sample?.lang === 'hex');
    expect(samples.length).toBeGreaterThanOrEqual(14);
    for (const { json, sample } of samples) {
      const device = readProfile(JSON.parse(json));
      const messages = (sample as { body: string }).body.split('\n').filter((line) => line.trim() !== '');
      const bytes = (sample as { lang: string }).lang === 'hex' ? messages.map(hex) : messages.map((line) => encodeText(line, { ...device, codeId: false }));
      // Read after the grace, one message at a time (silence framing needs its pause).
      const pause = device.framing.kind === 'silence' ? device.framing.idleMs : 0;
      const events = decodeRecording(device, bytes.map((chunk, index) => at(device.graceMs + index * pause, chunk)));
      expect({ name: device.name, events: events.map((event) => event.type) }).toEqual({ name: device.name, events: messages.map((line) => (/EMPTY/.test(line) ? 'device' : 'card')) });
    }
  });
});

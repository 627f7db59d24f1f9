// Binary and checksummed frames (issue 26): the six devices' recorded bytes, each checksum worked out
// from its rule, refusals (a bad checksum, a lying length, a cut-off frame) with the bytes in hex, and
// properties: what the encoder builds reads back however the stream is split; one flipped bit is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CARDS, type Card } from '../../engine/cards';
import { encodeCard, framed } from '../encoding';
import type { ShoeEvent } from '../events';
import { decodeRecording } from '../pipeline';
import { BINARY_PROFILES, readProfile, type DeviceProfile } from '../profile';
import { readFraming } from '../registry';
import '../testing/saidInEnglish';
import { profileRefusal } from '../testing/profileRefusal';
import { binaryChecksumOf, bytesInHex, type BinaryFraming } from './binary';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const cardsOf = (events: readonly ShoeEvent[]) => events.flatMap((event) => (event.type === 'card' ? [event.card] : []));
const unknownsOf = (events: readonly ShoeEvent[]) => events.flatMap((event) => (event.type === 'unknown' ? [{ raw: event.raw, reason: event.reason }] : []));
const withTags = (name: string, cards: Record<string, Card>): DeviceProfile => {
  const profile = BINARY_PROFILES[name] as DeviceProfile;
  return profile.decoder.kind === 'uid' ? { ...profile, decoder: { ...profile.decoder, cards } } : profile;
};

/** The survey's samples (issue 26), as the devices send them. */
const SAMPLES = {
  rdm6300: { bytes: '02 31 41 30 30 41 31 42 32 43 33 43 41 03', tag: '1A00A1B2C3' },
  id12la: { bytes: '02 31 41 30 30 41 31 42 32 43 33 43 41 0D 0A 03', tag: '1A00A1B2C3' },
  'zebra-ssi': { bytes: '07 F3 00 00 03 41 53 FE 6F', tag: undefined },
  'pn532-uart': { bytes: '00 00 FF 0C F4 D5 4B 01 01 00 04 08 04 04 A2 B3 C4 B1 00', tag: '04A2B3C4' },
  'uhf-r200': { bytes: 'BB 02 22 00 09 CF 10 00 03 26 92 01 2A 79 6B 7E', tag: '03269201' },
  'uhf-a0': { bytes: 'A0 09 01 01 00 01 02 0E C0', tag: '0102' },
} as const;

describe('the six devices, on recorded bytes', () => {
  it.each(Object.entries(SAMPLES))('%s: its sample is one card, shown in hex', (name, sample) => {
    const profile = withTags(name, sample.tag === undefined ? {} : { [sample.tag]: 'Qh' });
    const events = decodeRecording(profile, [hex(sample.bytes)]);
    expect(events).toEqual([{ type: 'card', card: sample.tag === undefined ? 'As' : 'Qh', raw: sample.bytes }]);
  });

  it('each checksum is the one its rule gives', () => {
    const sample = (name: keyof typeof SAMPLES) => [...hex(SAMPLES[name].bytes)];
    // RDM6300: the XOR of the five tag bytes 1A 00 A1 B2 C3, sent as two hex digits.
    expect(binaryChecksumOf('xor', [0x1a, 0x00, 0xa1, 0xb2, 0xc3], 1).toString(16).toUpperCase()).toBe('CA');
    expect(Buffer.from(sample('rdm6300').slice(11, 13)).toString('latin1')).toBe('CA');
    expect(Buffer.from(sample('id12la').slice(11, 13)).toString('latin1')).toBe('CA');
    // Zebra SSI: 0x10000 minus the byte sum of everything before it, big-endian.
    const ssi = sample('zebra-ssi');
    expect(0x10000 - ssi.slice(0, -2).reduce((sum, byte) => sum + byte, 0)).toBe((ssi.at(-2) as number) * 256 + (ssi.at(-1) as number));
    expect(binaryChecksumOf('negated-sum', ssi.slice(0, -2), 2)).toBe(0xfe6f);
    // PN532: LEN + LCS ≡ 0 and TFI + data + DCS ≡ 0 (mod 256).
    const pn532 = sample('pn532-uart');
    expect(((pn532[3] as number) + (pn532[4] as number)) % 256).toBe(0);
    expect(pn532.slice(5, -1).reduce((sum, byte) => sum + byte, 0) % 256).toBe(0);
    // R200: the low byte of the sum from addr to the last data byte.
    const r200 = sample('uhf-r200');
    expect(r200.slice(1, -2).reduce((sum, byte) => sum + byte, 0) & 0xff).toBe(r200.at(-2));
    // "A0…C0": sum(LEN…DATA) mod 256; LEN counts the whole frame.
    const a0 = sample('uhf-a0');
    expect(a0.slice(1, -2).reduce((sum, byte) => sum + byte, 0) % 256).toBe(a0.at(-2));
    expect(a0[1]).toBe(a0.length);
  });

  it('the encoder sends exactly what an RDM6300 and an ID-12LA send', () => {
    expect(framed('1A00A1B2C3', (BINARY_PROFILES.rdm6300 as DeviceProfile).framing)).toEqual(hex(SAMPLES.rdm6300.bytes));
    expect(framed('1A00A1B2C3', (BINARY_PROFILES.id12la as DeviceProfile).framing)).toEqual(hex(SAMPLES.id12la.bytes));
  });

  it('a Zebra SSI resend (status bit 0 set) of a decode read is the same read; of one lost, it is read; an A0 error answer is no tag', () => {
    const ssi = BINARY_PROFILES['zebra-ssi'] as DeviceProfile;
    const resend = (frame: Buffer) => {
      const copy = Buffer.from(frame);
      copy[3] = 0x01;
      const sum = [...copy.subarray(0, -2)].reduce((total, byte) => total + byte, 0);
      copy.writeUInt16BE((0x10000 - sum) & 0xffff, copy.length - 2);
      return copy;
    };
    const as = hex(SAMPLES['zebra-ssi'].bytes);
    expect(cardsOf(decodeRecording(ssi, [{ at: 0, bytes: as }, { at: 300, bytes: resend(as) }, { at: 600, bytes: resend(as) }]))).toEqual(['As']);
    const damaged = Buffer.from(as);
    damaged[5] = 0x40;
    expect(cardsOf(decodeRecording(ssi, [{ at: 0, bytes: damaged }, { at: 300, bytes: resend(as) }]))).toEqual(['As']);
    // "A0…C0": STATUS 0x10 (an error) with a checksum that holds.
    const error = hex('A0 09 01 01 10 01 02 1E C0');
    expect(unknownsOf(decodeRecording(withTags('uhf-a0', { '0102': 'Jh' }), [error]))).toEqual([{ raw: 'A0 09 01 01 10 01 02 1E C0', reason: 'a frame of another kind: 10 at byte 4, not 00' }]);
  });

  it('a PN532 answer for an ISO-DEP card: the UID is the NFCIDLength bytes, not the ATS after them; a length past the frame is refused', () => {
    /** A PN532 frame around TFI and data, its LEN, LCS and DCS worked out. */
    const pn532Frame = (body: string) => {
      const data = [...hex(body)];
      const sum = data.reduce((total, byte) => total + byte, 0);
      return Buffer.from([0x00, 0x00, 0xff, data.length, (0x100 - data.length) & 0xff, ...data, (0x100 - (sum & 0xff)) & 0xff, 0x00]);
    };
    const profile = withTags('pn532-uart', { '04A2B3C4': 'Qh' });
    // D5 4B, one target: SENS_RES 00 04, SEL_RES 20 (ISO-DEP), NFCIDLength 4, the UID, then the ATS.
    const withAts = pn532Frame('D5 4B 01 01 00 04 20 04 04 A2 B3 C4 05 78 80 70 02');
    expect(cardsOf(decodeRecording(profile, [withAts]))).toEqual(['Qh']);
    const tooLong = pn532Frame('D5 4B 01 01 00 04 08 09 04 A2 B3 C4');
    expect(unknownsOf(decodeRecording(profile, [tooLong]))).toEqual([{ raw: bytesInHex(tooLong), reason: 'its message length says 9 bytes, more than the 4 the frame holds' }]);
  });

  it('a PN532 ACK is skipped in silence; an answer of another command is another kind of frame, refused', () => {
    const profile = withTags('pn532-uart', { '04A2B3C4': 'Qh' });
    const ack = '00 00 FF 00 FF 00';
    // A GetFirmwareVersion answer (D5 03): well-formed, not a tag.
    const firmware = '00 00 FF 06 FA D5 03 32 01 06 07 E8 00';
    const events = decodeRecording(profile, [hex(`${ack} ${SAMPLES['pn532-uart'].bytes} ${firmware}`)]);
    expect(cardsOf(events)).toEqual(['Qh']);
    expect(unknownsOf(events)).toEqual([{ raw: firmware, reason: 'a frame of another kind: D5 03 at byte 5, not D5 4B' }]);
  });
});

describe('refused, never a card: the reason and the bytes in hex', () => {
  it('a bad checksum', () => {
    const events = decodeRecording(BINARY_PROFILES['zebra-ssi'] as DeviceProfile, [hex('07 F3 00 00 03 41 53 FE 6E')]);
    expect(events).toEqual([expect.objectContaining({ type: 'unknown', raw: '07 F3 00 00 03 41 53 FE 6E', reason: 'bad negated-sum checksum at byte 7: got FE 6E, expected FE 6F' })]);
    const rdm = decodeRecording(withTags('rdm6300', { '1A00A1B2C3': 'Qh' }), [hex('02 31 41 30 30 41 31 42 32 43 33 43 42 03')]);
    expect(unknownsOf(rdm)).toEqual([{ raw: '02 31 41 30 30 41 31 42 32 43 33 43 42 03', reason: 'bad xor checksum at byte 11: got "CB", expected "CA"' }]);
  });

  it('a length that lies: too long for a frame, or past where the end bytes are; the next frame is still read', () => {
    const a0 = withTags('uhf-a0', { '0102': 'Qh' });
    const good = SAMPLES['uhf-a0'].bytes;
    // LEN 0x07 says the frame ends two bytes early: its end byte is not there.
    const short = decodeRecording(a0, [hex(`A0 07 01 01 00 01 02 0E C0 ${good}`)]);
    expect(cardsOf(short)).toEqual(['Qh']);
    expect(unknownsOf(short)[0]).toEqual({ raw: 'A0 07 01 01 00 01 02', reason: 'no end bytes C0 at byte 6, where its length says the frame ends' });
    // LEN 0xFF: more than the frame may have (maxLength 64 here).
    const capped: DeviceProfile = { ...a0, framing: { ...(a0.framing as BinaryFraming), maxLength: 64 } };
    const long = decodeRecording(capped, [hex(`A0 FF 01 01 00 01 02 0E C0 ${good}`)]);
    expect(cardsOf(long)).toEqual(['Qh']);
    expect(unknownsOf(long)[0]).toEqual({ raw: 'A0 FF', reason: 'its length field says 255 bytes, more than the 64 a frame may have' });
  });

  it('a length field damaged so that the claimed end lands on the next frame\'s end byte: the next frame is still read', () => {
    // R200: LEN 00 09 → 00 19 puts the claimed end on the next frame's 7E.
    const r200 = withTags('uhf-r200', { '03269201': 'Qh', '03269202': 'Kd' });
    const second = framed('03269202', r200.framing);
    const first = Buffer.from(framed('03269201', r200.framing));
    first[4] = 0x19;
    expect(cardsOf(decodeRecording(r200, [Buffer.concat([first, second])]))).toEqual(['Kd']);
    // PN532: LEN 0C → 0D puts the claimed end on the next frame's first 00 (its LCS then fails).
    const pn532 = withTags('pn532-uart', { '04A2B3C4': 'Qh', '04A2B3C5': 'Kd' });
    const damaged = Buffer.from(framed('04A2B3C4', pn532.framing));
    damaged[3] = 0x0d;
    expect(cardsOf(decodeRecording(pn532, [Buffer.concat([damaged, framed('04A2B3C5', pn532.framing)])]))).toEqual(['Kd']);
  });

  it('a frame cut off by silence, and by a disconnect', () => {
    const ssi = BINARY_PROFILES['zebra-ssi'] as DeviceProfile;
    const events = decodeRecording(ssi, [{ at: 0, bytes: hex('07 F3 00 00') }, { at: 500, bytes: hex(SAMPLES['zebra-ssi'].bytes) }]);
    expect(cardsOf(events)).toEqual(['As']);
    expect(unknownsOf(events)[0]).toEqual({ raw: '07 F3 00 00', reason: 'cut off: 4 of 9 bytes, then silence' });
  });

  it('bytes between frames are reported once, as bytes outside any frame', () => {
    const events = decodeRecording(withTags('uhf-r200', { '03269201': 'Qh' }), [hex(`00 11 22 ${SAMPLES['uhf-r200'].bytes} 33`)]);
    expect(cardsOf(events)).toEqual(['Qh']);
    expect(unknownsOf(events)).toEqual([
      { raw: '00 11 22', reason: '3 bytes outside any frame' },
      { raw: '33', reason: '1 byte outside any frame' },
    ]);
  });
});

describe('profiles', () => {
  const framing = (fields: Record<string, unknown>) => ({ kind: 'binary', start: '02', end: '03', message: { from: 1, to: -1 }, ...fields });
  const refusal = (value: Record<string, unknown>) => profileRefusal(value, readFraming);

  it.each<[Record<string, unknown>, string, string]>([
    [{ start: '0G' }, 'framing.start', 'must be bytes in hex, 1 to 16 of them, e.g. "00 00 FF"'],
    [{ end: undefined }, 'framing.length', 'needs a length (fixed or a length field) or "end" bytes to tell where a frame ends'],
    [{ length: 1 }, 'framing.length', 'must be a whole number from 2 to 65536 (got 1)'],
    [{ length: { at: 1, size: 3, counts: { from: 0 } } }, 'framing.length.size', 'must be 1 or 2 (got 3)'],
    [{ length: { at: 1, counts: { from: -2 } } }, 'framing.length.counts', 'must count from a position from the start to the frame’s end or back from it'],
    [{ message: { from: 3, to: 2 } }, 'framing.message.to', 'must come after "from"'],
    [{ message: { from: 1, to: 0 } }, 'framing.message.to', 'must be the position after the range’s last byte, negative to count from the frame’s end, not 0 (got 0)'],
    [{ message: { from: 1, as: 'base64' } }, 'framing.message.as', 'choose one of text, hex (got "base64")'],
    [{ checksums: [{ kind: 'crc16', over: { from: 1 }, at: -1 }] }, 'framing.checksums[0].kind', 'choose one of xor, sum, negated-sum (got "crc16")'],
    [{ checksums: [{ over: { from: 1 } }] }, 'framing.checksums[0].at', 'must be a byte position: 0 for the first, -1 for the last (got undefined)'],
  ])('refuses %j naming %s', (fields, field, reason) => {
    expect(refusal(framing(fields))).toEqual({ field, reason });
  });

  it('every built-in binary profile is a valid profile file as it stands', () => {
    for (const profile of Object.values(BINARY_PROFILES)) expect(readProfile(JSON.parse(JSON.stringify(profile)))).toEqual(profile);
  });
});

/** Tag IDs of `bytes` bytes as upper-case hex, each its own card. */
const tagsArbitrary = (bytes: fc.Arbitrary<number>) =>
  fc.uniqueArray(bytes.chain((size) => fc.uint8Array({ minLength: size, maxLength: size })).map((tag) => Buffer.from(tag).toString('hex').toUpperCase()), { minLength: 1, maxLength: 8 });

/** Per device, what its frames may carry: card codes for the SSI scanner, tags for the rest. */
const payloads: Record<string, fc.Arbitrary<{ readonly profile: DeviceProfile; readonly cards: readonly Card[]; readonly frames: readonly Buffer[] }>> = Object.fromEntries(
  Object.keys(BINARY_PROFILES).map((name) => {
    const base = BINARY_PROFILES[name] as DeviceProfile;
    if (base.decoder.kind !== 'uid') {
      const arbitrary = fc.array(fc.constantFrom(...ALL_CARDS), { minLength: 1, maxLength: 8 }).map((cards) => ({ profile: base, cards, frames: cards.map((card) => encodeCard(card, base)) }));
      return [name, arbitrary];
    }
    // An RDM6300 or ID-12LA tag is always five bytes; the others carry what the tag has.
    const fixed = (base.framing as BinaryFraming).length;
    const arbitrary = tagsArbitrary(typeof fixed === 'number' ? fc.constant(5) : fc.integer({ min: 2, max: 12 })).map((tags) => {
      const cards = tags.map((_, index) => ALL_CARDS[index] as Card);
      const profile = withTags(name, Object.fromEntries(tags.map((tag, index) => [tag, cards[index] as Card])));
      return { profile, cards, frames: tags.map((tag) => framed(tag, profile.framing)) };
    });
    return [name, arbitrary];
  }),
);

/** A stream cut into chunks at the given points. */
function split(stream: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of [...points, stream.length]) {
    chunks.push(stream.subarray(from, point));
    from = point;
  }
  return chunks;
}

describe('properties', () => {
  it.each(Object.keys(BINARY_PROFILES))('%s: any frames the encoder builds read back, the stream split anywhere', (name) => {
    fc.assert(
      fc.property(payloads[name] as fc.Arbitrary<{ profile: DeviceProfile; cards: readonly Card[]; frames: readonly Buffer[] }>, fc.array(fc.nat(), { maxLength: 12 }), ({ profile, cards, frames }, cuts) => {
        const events = decodeRecording({ ...profile, repeatMs: 0 }, split(Buffer.concat(frames), cuts));
        expect(events.map((event) => event.type)).toEqual(cards.map(() => 'card'));
        expect(cardsOf(events)).toEqual(cards);
      }),
      { numRuns: 150 },
    );
  });

  it.each(Object.keys(BINARY_PROFILES))('%s: one flipped bit anywhere in a frame is refused, never a card; the frame after it still reads', (name) => {
    fc.assert(
      fc.property(payloads[name] as fc.Arbitrary<{ profile: DeviceProfile; cards: readonly Card[]; frames: readonly Buffer[] }>, fc.nat(), fc.integer({ min: 0, max: 7 }), ({ profile, frames, cards }, at, bit) => {
        const frame = Buffer.from(frames[0] as Buffer);
        const index = at % frame.length;
        frame[index] = (frame[index] as number) ^ (1 << bit);
        const alone = decodeRecording({ ...profile, repeatMs: 0 }, [frame]);
        expect(cardsOf(alone)).toEqual([]);
        expect(alone.some((event) => event.type === 'unknown')).toBe(true);
        // Then the device goes on: after a pause, the next frame reads (a flipped length may have made the framer wait).
        const after = decodeRecording({ ...profile, repeatMs: 0 }, [{ at: 0, bytes: frame }, { at: 1000, bytes: frames[0] as Buffer }]);
        expect(cardsOf(after)).toEqual([cards[0]]);
        // And with no pause, the frames that come right behind it are read all the same: a length that lied hides none of them.
        const behind = decodeRecording({ ...profile, repeatMs: 0 }, [Buffer.concat([frame, ...frames])]);
        expect(cardsOf(behind)).toEqual(cards);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Any frame layout a profile may describe with a length field: start bytes, header bytes, the
 * length, the message, checksums, end bytes, in the order devices put them.
 */
const layoutArbitrary = fc
  .record({
    start: fc.uint8Array({ minLength: 0, maxLength: 3 }),
    lengthSize: fc.constantFrom(1 as const, 2 as const),
    order: fc.constantFrom('big' as const, 'little' as const),
    extraHeader: fc.integer({ min: 0, max: 3 }),
    countsFromStart: fc.boolean(),
    countsTrailer: fc.boolean(),
    checksums: fc.array(fc.record({ kind: fc.constantFrom('xor' as const, 'sum' as const, 'negated-sum' as const), size: fc.constantFrom(1 as const, 2 as const), sent: fc.constantFrom('bytes' as const, 'hex' as const), order: fc.constantFrom('big' as const, 'little' as const) }), { maxLength: 2 }),
    end: fc.uint8Array({ minLength: 0, maxLength: 2 }),
    as: fc.constantFrom('text' as const, 'hex' as const),
  })
  .map((layout) => {
    const startHex = Buffer.from(layout.start).toString('hex');
    const lengthAt = layout.start.length + layout.extraHeader;
    const messageFrom = lengthAt + layout.lengthSize;
    const sums = layout.checksums.map((checksum) => checksum.size * (checksum.sent === 'hex' ? 2 : 1));
    const trailer = sums.reduce((total, size) => total + size, 0) + layout.end.length;
    let at = -trailer;
    const checksums = layout.checksums.map((checksum, index) => {
      const placed = { ...checksum, over: { from: layout.start.length, ...(trailer === 0 ? {} : { to: -trailer }) }, at };
      at += sums[index] as number;
      return placed;
    });
    const counted = layout.countsTrailer || trailer === 0 ? {} : { to: -trailer };
    return readFraming({
      kind: 'binary',
      ...(startHex === '' ? {} : { start: startHex }),
      length: { at: lengthAt, size: layout.lengthSize, order: layout.order, counts: { from: layout.countsFromStart ? 0 : messageFrom, ...counted } },
      ...(layout.end.length === 0 ? {} : { end: Buffer.from(layout.end).toString('hex') }),
      checksums,
      message: { from: messageFrom, ...(trailer === 0 ? {} : { to: -trailer }), as: layout.as },
      maxLength: 4096,
    }) as BinaryFraming;
  });

describe('properties of any layout', () => {
  it('messages framed by any layout with a length field read back in order, the stream split anywhere', () => {
    fc.assert(
      fc.property(
        layoutArbitrary,
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 16, size: 'max' }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (framing, messages, cuts) => {
          // Text messages as hex digits, so both kinds carry any bytes as text the frame decoder reads.
          const payloads = messages.map((message) => Buffer.from(message).toString('hex').toUpperCase());
          const stream = Buffer.concat(payloads.map((payload) => framed(payload, framing)));
          const profile = readProfile({ framing, decoder: { kind: 'uid' } });
          const events = decodeRecording(profile, split(stream, cuts));
          // A tag ID is 2 to 16 bytes: a one-byte message is a frame read, refused as no tag.
          expect(events.map((event) => (event.type === 'unknown' ? event.reason : event.type))).toEqual(
            payloads.map((payload) => (payload.length >= 4 ? `tag ${payload} is not registered; register the deck first` : 'not a tag ID (hex digits)')),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../engine/cards';
import { encodeCard, framed } from '../encoding';
import { decodeRecording, type TimedChunk } from '../pipeline';
import { ALL_BUILT_IN_PROFILES, BINARY_PROFILES, readProfile, TAG_REPEAT_MS, type DeviceProfile } from '../profile';
import { shuffledShoe } from '../simulator/shoe';
import { uartReceive, uartSetting, type UartSetting } from '../testing/uart';
import { candidateProfiles, settingName, trialSettings, type TrialSetting } from './candidates';
import { compareRank, ENOUGH_CLEAN_FRAMES, framingChecks, parityEvidence, rankRecordings, rankScored, readingOf, REPEAT_MARGIN, scoreRecording, SettingScorer, type RankKey, type Recording } from './score';

/** Scoring what was heard, on recorded bytes: what a device sends, as each trial setting would have received it. */

const candidates = candidateProfiles();
const chunk = (bytes: Uint8Array, at = 0): TimedChunk => ({ at, bytes });
const uartOf = (setting: TrialSetting): UartSetting => ({ baud: setting.baud, dataBits: setting.dataBits, parity: setting.parity, stopBits: 1 });

/** What a device at `device` sending `sent` (one chunk per message, `gapMs` apart) is heard as at every trial setting. */
function recordings(sent: readonly Uint8Array[], device: UartSetting, bauds?: readonly number[], gapMs = 100): Recording[] {
  return trialSettings(bauds).map((setting) => ({ setting, chunks: sent.map((message, index) => chunk(uartReceive(message, device, uartOf(setting)), index * gapMs)) }));
}

const cardsOf = (profile: DeviceProfile, cards: readonly Card[]) => cards.map((card) => encodeCard(card, profile));

describe('candidates', () => {
  it('are every built-in and more, each a valid profile, built-ins by their names first', () => {
    const builtIns = Object.keys(ALL_BUILT_IN_PROFILES);
    expect(candidates.slice(0, builtIns.length).map((profile) => profile.name)).toEqual(builtIns);
    expect(candidates.length).toBeGreaterThan(40);
    for (const candidate of candidates) expect(readProfile(candidate)).toMatchObject({ framing: candidate.framing, decoder: candidate.decoder });
    const framings = new Set(candidates.map((profile) => JSON.stringify(profile.framing)));
    for (const checksum of ['xor', 'sum', 'xor-hex', 'sum-hex']) expect(framings).toContain(JSON.stringify({ kind: 'stx-etx', checksum, checksumIncludesStx: true }));
  });

  it('24 trial settings, 9600 8N1 first, each baud with 8N1, 7E1 and 7O1', () => {
    const settings = trialSettings();
    expect(settings).toHaveLength(24);
    expect(settings.slice(0, 3).map(settingName)).toEqual(['9600 8N1', '9600 7E1', '9600 7O1']);
  });
});

describe('scoring a recording', () => {
  const text = ALL_BUILT_IN_PROFILES.text as DeviceProfile;

  it('counts cards, device messages and unknown tags as clean, anything else as bad; a frame cut by the start or the end is forgiven', () => {
    const stream = Buffer.from('s\r\nAs\r\nKd\r\nEMPTY\r\nzz\r\nQh\r\n1');
    const reading = readingOf(text, [chunk(stream)]);
    expect(reading).toEqual({ clean: 4, bad: 1, forgiven: 2, cards: ['As', 'Kd', 'Qh'], tags: [], devices: ['shoe-empty'], repeatEveryMs: 0 });
    const rfid = readingOf(ALL_BUILT_IN_PROFILES.rfid as DeviceProfile, [chunk(Buffer.from('04A2B3C4\r\n04A2B3C5\r\n'))]);
    expect(rfid).toMatchObject({ clean: 2, bad: 0, tags: ['04A2B3C4', '04A2B3C5'] });
  });

  it('a lone unknown frame is bad, not forgiven', () => {
    expect(readingOf(text, [chunk(Buffer.from('zz\r\n'))])).toMatchObject({ clean: 0, bad: 1, forgiven: 0 });
  });

  it('the parity evidence: a 7E1 device heard at 8N1 has even parity in every byte, 7O1 odd, ASCII at 8N1 none', () => {
    const sent = Buffer.concat(cardsOf(text, shuffledShoe(3).slice(0, 10)));
    const at8N1 = (format: string) => [chunk(uartReceive(sent, uartSetting(2400, format), uartSetting(2400, '8N1')))];
    expect(parityEvidence(at8N1('7E1'))).toBe('even');
    expect(parityEvidence(at8N1('7O1'))).toBe('odd');
    expect(parityEvidence(at8N1('8N1'))).toBe('none');
  });
});

describe('ranking what was heard at every setting', () => {
  it('a 7E1 text shoe at 2400: 2400 7E1, lines, text first, with the cards dealt', () => {
    const dealt = shuffledShoe(5).slice(0, 8);
    const found = rankRecordings(candidates, recordings(cardsOf(ALL_BUILT_IN_PROFILES.text as DeviceProfile, dealt), uartSetting(2400, '7E1')));
    expect(found[0]).toMatchObject({ setting: '2400 7E1', profile: { name: 'text-2400-7e1', baud: 2400, dataBits: 7, parity: 'even', framing: { kind: 'lines' }, decoder: { kind: 'text' } } });
    expect(found[0]?.reading.cards).toEqual(dealt);
    expect(readProfile(JSON.parse(JSON.stringify(found[0]?.profile)))).toEqual(found[0]?.profile);
    // Nothing at another baud reads it.
    expect(found.every((entry) => entry.profile.baud === 2400)).toBe(true);
  });

  it('an STX…ETX reader with an XOR checksum counting the STX, 8N1 at 19200: that framing, not one without the checksum', () => {
    const profile = readProfile({ name: 'x', baud: 19200, framing: { kind: 'stx-etx', checksum: 'xor', checksumIncludesStx: true }, decoder: { kind: 'suit-number' } });
    const dealt = shuffledShoe(9).slice(0, 6);
    const found = rankRecordings(candidates, recordings(cardsOf(profile, dealt), uartSetting(19200, '8N1'), [9600, 19200]));
    expect(found[0]).toMatchObject({ setting: '19200 8N1', profile: { framing: { kind: 'stx-etx', checksum: 'xor', checksumIncludesStx: true }, decoder: { kind: 'suit-number' } } });
    expect(found.some((entry) => entry.profile.framing.kind === 'stx-etx' && entry.profile.framing.checksum === 'none')).toBe(false);
  });

  it('an RFID line reader: the tags read, in the order read', () => {
    const tags = ['04A2B3C4', '04A2B3C5', '04A2B3C6'];
    const found = rankRecordings(candidates, recordings(tags.map((tag) => framed(tag, { kind: 'lines' })), uartSetting(9600, '8N1'), [9600]));
    expect(found[0]).toMatchObject({ setting: '9600 8N1', profile: { name: 'rfid-9600-8n1', decoder: { kind: 'uid', cards: {} } } });
    expect(found[0]?.reading.tags).toEqual(tags);
  });

  const profileNamed = (name: string) => ALL_BUILT_IN_PROFILES[name] as DeviceProfile;

  it('an RDM6300 at 9600 (ASCII hex between STX and ETX, an XOR of the tag bytes): rdm6300 first, its tags without the checksum digits', () => {
    const tags = ['1A00A1B2C3', '1A00A1B2C4', '0F0011AA55'];
    const sent = tags.map((tag) => framed(tag, profileNamed('rdm6300').framing));
    // The datasheet's sample, byte for byte.
    expect(sent[0]).toEqual(Buffer.from('0231413030413142324333434103', 'hex'));
    const found = rankRecordings(candidates, recordings(sent, uartSetting(9600, '8N1'), [9600, 19200]));
    expect(found[0]).toMatchObject({ setting: '9600 8N1', profile: { name: 'rdm6300-9600-8n1', baud: 9600, dataBits: 8, parity: 'none' } });
    expect(found[0]?.reading.tags).toEqual(tags);
    // Plain STX…ETX reads the same frames as longer tags (the checksum digits on): offered, after it.
    expect(found.findIndex((entry) => entry.profile.framing.kind === 'stx-etx')).toBeGreaterThan(0);
  });

  it('a Zebra SSI scanner at 9600 (binary DECODE_DATA frames, a 16-bit checksum): zebra-ssi first, the barcodes as cards; nothing at 7 bits reads it', () => {
    const dealt: Card[] = ['As', 'Kd', 'Qh', 'Tc'];
    const sent = dealt.map((card) => framed(card, profileNamed('zebra-ssi').framing));
    const found = rankRecordings(candidates, recordings(sent, uartSetting(9600, '8N1'), [9600, 115200]));
    expect(found[0]).toMatchObject({ setting: '9600 8N1', profile: { name: 'zebra-ssi-9600-8n1', baud: 9600, framing: { kind: 'binary' }, decoder: { kind: 'text' } } });
    expect(found[0]?.reading.cards).toEqual(dealt);
    expect(found.every((entry) => entry.setting === '9600 8N1')).toBe(true);
  });

  it.each(['rdm6300', 'id12la', 'pn532-uart', 'uhf-r200', 'uhf-a0'])('every built-in tag reader is found as itself at its own speed: %s', (name) => {
    const profile = profileNamed(name);
    const tags = name.startsWith('uhf') ? ['300833B2DDD9014000000001', '300833B2DDD9014000000002', '300833B2DDD9014000000003'] : ['04A2B3C4', '04A2B3C5', '04A2B3C6'];
    const message = (tag: string) => (name === 'rdm6300' || name === 'id12la' ? `${tag}00` : tag);
    const sent = tags.map((tag) => framed(message(tag), profile.framing));
    const found = rankRecordings(candidates, recordings(sent, uartSetting(profile.baud, '8N1'), [9600, profile.baud]));
    expect(found[0]).toMatchObject({ setting: `${profile.baud} 8N1`, profile: { name: `${name}-${profile.baud}-8n1`, framing: profile.framing } });
    expect(found[0]?.reading.tags).toEqual(tags.map(message));
  });

  it('property: a text shoe at any trial setting is found at its own setting (7-bit formats told apart by the parity evidence), reading what it dealt', () => {
    fc.assert(
      fc.property(fc.constantFrom(...trialSettings([1200, 9600, 115200])), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 3 }), (device, seed, cut) => {
        const dealt = shuffledShoe(seed).slice(0, 6);
        const sent = cardsOf(ALL_BUILT_IN_PROFILES.text as DeviceProfile, dealt);
        // Listening began partway into the first card.
        sent[0] = sent[0]?.subarray(Math.min(cut, (sent[0]?.length ?? 1) - 1)) as Buffer;
        const found = rankRecordings(candidates, recordings(sent, uartOf(device), [1200, 9600, 115200]));
        expect(found[0]?.setting).toBe(settingName(device));
        expect(found[0]?.reading.cards).toEqual(cut === 0 ? dealt : expect.arrayContaining(dealt.slice(1)));
      }),
      { numRuns: 25 },
    );
  });
});

/**
 * Tags resting on the antenna, as real readers send them (issue 41): each tag's frame again every
 * `everyMs` for as long as it lies there, then the next tag after a pause; listening may begin
 * inside a frame (`cut` bytes of it missed), and the port delivers a frame in one or two chunks.
 */
interface Resting {
  readonly name: string;
  /** What the reader sends for each tag, in order. */
  readonly messages: readonly string[];
  readonly repeats: number;
  readonly everyMs: number;
  readonly pauseMs: number;
  readonly cut: number;
  readonly split: boolean;
}

/** The messages of each built-in binary reader: tag IDs as it sends them (the zebra-ssi: barcodes, its resends the repeats). */
const READER_MESSAGES: Readonly<Record<string, readonly string[]>> = {
  rdm6300: ['1A00A1B2C3', '1A00A1B2C4', '0F0011AA55'],
  id12la: ['1A00A1B2C3', '1A00A1B2C4', '0F0011AA55'],
  'pn532-uart': ['04A2B3C4', '04A2B3C5', '04A2B3C6'],
  'uhf-r200': ['300833B2DDD9014000000001', '300833B2DDD9014000000002', '300833B2DDD9014000000003'],
  'uhf-a0': ['300833B2DDD9014000000001', '300833B2DDD9014000000002', '300833B2DDD9014000000003'],
  'zebra-ssi': ['As', 'Kd', 'Qh'],
};

function restingRecording(resting: Resting): TimedChunk[] {
  const profile = ALL_BUILT_IN_PROFILES[resting.name] as DeviceProfile;
  const chunks: TimedChunk[] = [];
  let at = 0;
  for (const message of resting.messages) {
    for (let repeat = 0; repeat < resting.repeats; repeat += 1) {
      let frame: Uint8Array = framed(message, profile.framing);
      if (chunks.length === 0) frame = frame.subarray(Math.min(resting.cut, frame.length - 1));
      const half = resting.split ? Math.floor(frame.length / 2) : 0;
      if (half > 0) chunks.push(chunk(frame.subarray(0, half), at));
      chunks.push(chunk(frame.subarray(half), at));
      at += resting.everyMs;
    }
    at += resting.pauseMs;
  }
  return chunks;
}

const resting = (name: string) =>
  fc.record({
    name: fc.constant(name),
    messages: fc.constant(READER_MESSAGES[name] as readonly string[]),
    repeats: fc.integer({ min: 1, max: 12 }),
    everyMs: fc.integer({ min: 50, max: 1000 }),
    pauseMs: fc.integer({ min: 300, max: 3000 }),
    cut: fc.integer({ min: 0, max: 12 }),
    split: fc.boolean(),
  });

describe('readers whose tags rest on the antenna (each frame sent again every ~100 ms)', () => {
  const at9600: TrialSetting = { baud: 9600, dataBits: 8, parity: 'none' };

  it.each(['rdm6300', 'id12la'])('%s: the checksummed built-in first with its repeat window, its tags without the checksum digits; no tag reader offered with a window of 0', (name) => {
    const chunks = restingRecording({ name, messages: READER_MESSAGES[name] as string[], repeats: 8, everyMs: 100, pauseMs: 800, cut: 0, split: false });
    const found = rankRecordings(candidates, [{ setting: at9600, chunks }]);
    expect(found[0]).toMatchObject({ setting: '9600 8N1', profile: { name: `${name}-9600-8n1`, repeatMs: TAG_REPEAT_MS }, reading: { clean: 24, tags: READER_MESSAGES[name], repeatEveryMs: 100 } });
    // The looser framings read the same frames, as tags with the checksum digits on: offered, after it.
    expect(found.slice(1).some((entry) => entry.reading.tags.includes('1A00A1B2C3CA'))).toBe(true);
    for (const entry of found) if (entry.profile.decoder.kind === 'uid') expect(entry.profile.repeatMs).toBeGreaterThanOrEqual(TAG_REPEAT_MS);
  });

  it('a reader heard repeating more slowly than the built-in window covers gets a window covering what it was heard to use', () => {
    const chunks = restingRecording({ name: 'rdm6300', messages: READER_MESSAGES.rdm6300 as string[], repeats: 4, everyMs: 2000, pauseMs: 5000, cut: 0, split: false });
    const found = rankRecordings(candidates, [{ setting: at9600, chunks }]);
    expect(found[0]?.profile).toMatchObject({ name: 'rdm6300-9600-8n1', repeatMs: 2000 * REPEAT_MARGIN });
    expect(found.every((entry) => entry.profile.decoder.kind !== 'uid' || entry.profile.repeatMs >= 2000 * REPEAT_MARGIN)).toBe(true);
  });

  it('property: every built-in binary reader, its tags resting (any interval, listening begun inside a frame, frames in one or two chunks), is found as itself with a window covering its repeats; a looser framing never ranks above one that checks more', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(fc.oneof(...Object.keys(BINARY_PROFILES).map(resting)), (rest) => {
        const builtIn = ALL_BUILT_IN_PROFILES[rest.name] as DeviceProfile;
        const setting: TrialSetting = { baud: builtIn.baud, dataBits: 8, parity: 'none' };
        const found = rankRecordings(candidates, [{ setting, chunks: restingRecording(rest) }]);
        // Too few frames heard (one tag, once, cut): nothing need be found, but nothing else may be.
        if (found.length === 0) return;
        expect(found[0]?.profile.name).toBe(`${rest.name}-${builtIn.baud}-8n1`);
        const heard = rest.repeats > 1 ? Math.ceil(rest.everyMs * REPEAT_MARGIN) : 0;
        expect(found[0]?.profile.repeatMs).toBe(Math.max(builtIn.repeatMs, heard));
        for (const entry of found) if (entry.profile.decoder.kind === 'uid') expect(entry.profile.repeatMs).toBeGreaterThanOrEqual(Math.max(TAG_REPEAT_MS, heard));
        const checks = found.map((entry) => framingChecks(entry.profile));
        expect(checks).toEqual([...checks].sort((a, b) => b - a));
      }),
      { numRuns: 100 },
    );
  });

  it('property: the ranking rule: the setting the evidence points to, then the framing that checks more (whatever the frames read), then the frames read, then the order tried', () => {
    const key = fc.record({ preferred: fc.boolean(), checks: fc.integer({ min: 0, max: 6 }), frames: fc.integer({ min: 2, max: 200 }), baudOrder: fc.integer({ min: 0, max: 7 }), order: fc.integer({ min: 0, max: 80 }) });
    fc.assert(
      fc.property(fc.array(key, { minLength: 2, maxLength: 30 }), (keys: RankKey[]) => {
        const ranked = [...keys].sort(compareRank);
        for (const [index, a] of ranked.entries()) {
          for (const b of ranked.slice(index + 1)) {
            // Nothing ranked below another is better than it by the rule's first difference.
            if (a.preferred !== b.preferred) expect(a.preferred).toBe(true);
            else if (a.checks !== b.checks) expect(a.checks).toBeGreaterThan(b.checks);
            else if (a.frames !== b.frames) expect(a.frames).toBeGreaterThan(b.frames);
            else if (a.baudOrder !== b.baudOrder) expect(a.baudOrder).toBeLessThan(b.baudOrder);
            else expect(a.order).toBeLessThanOrEqual(b.order);
          }
        }
      }),
    );
  });
});

describe('scoring while listening (SettingScorer): each byte decoded once per candidate', () => {
  const at9600: TrialSetting = { baud: 9600, dataBits: 8, parity: 'none' };
  const profileNamed = (name: string) => ALL_BUILT_IN_PROFILES[name] as DeviceProfile;
  /** What a reader might send: frames of a few kinds, and stray bytes. */
  const piece = fc.oneof(
    fc.constantFrom(...shuffledShoe(1).slice(0, 8)).map((card) => encodeCard(card, profileNamed('text'))),
    fc.constantFrom('As', 'Kd', 'Qh').map((card) => framed(card, profileNamed('zebra-ssi').framing)),
    fc.constantFrom('1A00A1B2C3', '0F0011AA55').map((tag) => framed(tag, profileNamed('rdm6300').framing)),
    fc.constantFrom('S01', 'D12').map((code) => framed(code, { kind: 'stx-etx', checksum: 'xor' })),
    fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => Buffer.from(bytes)),
  );
  /** The stream cut anywhere, each chunk some milliseconds after the one before (pauses long enough to end a silence-framed burst too). */
  const heard = fc
    .tuple(fc.array(piece, { minLength: 0, maxLength: 10 }), fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom(0, 1, 20, 60, 250), fc.boolean()), { minLength: 1, maxLength: 30 }))
    .map(([pieces, cuts]) => {
      const stream = Buffer.concat(pieces);
      const chunks: { chunk: TimedChunk; check: boolean }[] = [];
      let from = 0;
      let at = 0;
      for (const [length, gap, check] of cuts) {
        if (from >= stream.length) break;
        at += gap;
        chunks.push({ chunk: chunk(stream.subarray(from, from + length), at), check });
        from += length;
      }
      if (from < stream.length) chunks.push({ chunk: chunk(stream.subarray(from), at + 5), check: false });
      return chunks;
    });

  /** readingOf as first written, on the list of events: the reference the counting Tally is held to. */
  const reference = (profile: DeviceProfile, chunks: readonly TimedChunk[]) => {
    // Scoring listens without the repeat window: every frame heard counts.
    const events = decodeRecording({ ...profile, repeatMs: 0 }, chunks).filter((event) => event.type !== 'status');
    const clean = events.filter((event) => event.type === 'card' || event.type === 'device' || event.said.key === 'hardware.decoder.tagUnknown').length;
    const unknownAt = events.flatMap((event, index) => (event.type === 'unknown' && event.said.key !== 'hardware.decoder.tagUnknown' ? [index] : []));
    const forgiven = unknownAt.filter((index) => index === 0 || index === events.length - 1).length;
    return clean === 0 ? { clean, bad: unknownAt.length, forgiven: 0 } : { clean, bad: unknownAt.length - forgiven, forgiven };
  };

  /** Records the chunks, checking (decoding what came since, asking whether it is enough) where told. */
  const listened = (heardChunks: readonly { chunk: TimedChunk; check: boolean }[], prune: boolean) => {
    const scorer = new SettingScorer(candidates, at9600, { prune });
    for (const { chunk: timed, check } of heardChunks) {
      scorer.record(timed);
      if (check) {
        scorer.catchUp();
        scorer.enough();
      }
    }
    return scorer.finish();
  };

  it('property: however the recording is chunked and checked, the readings are those of the whole recording', () => {
    fc.assert(
      fc.property(heard, (heardChunks) => {
        const chunks = heardChunks.map(({ chunk: timed }) => timed);
        const whole = scoreRecording(candidates, at9600, chunks);
        for (const { profile, reading } of whole) expect(reading).toMatchObject(reference(profile, chunks));
        expect(listened(heardChunks, false).scores).toEqual(whole);
        // Pruned: the candidates left read it as the whole recording does, and every one that read it cleanly is left.
        const pruned = listened(heardChunks, true);
        for (const scored of pruned.scores) expect(scored).toEqual(whole[scored.order]);
        const kept = new Set(pruned.scores.map((scored) => scored.order));
        for (const scored of whole) if (scored.reading.bad === 0) expect(kept).toContain(scored.order);
        expect(rankScored([pruned])).toEqual(rankRecordings(candidates, [{ setting: at9600, chunks }]));
      }),
      { numRuns: 40 },
    );
  });

  /** 34 KiB of seeded noise, as 115200 8N1 delivers it in 100 ms: 1152 bytes a check. */
  const noise = (() => {
    let seed = 26;
    const byte = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    return Array.from({ length: 30 }, (_, index) => chunk(Uint8Array.from({ length: 1152 }, byte), index * 100));
  })();

  it('a check decodes only the bytes heard since the one before, once per candidate', () => {
    const scorer = new SettingScorer(candidates, { baud: 115200, dataBits: 8, parity: 'none' }, { prune: false });
    for (const timed of noise) {
      const before = scorer.decodedBytes;
      scorer.record(timed);
      scorer.catchUp();
      expect(scorer.decodedBytes - before).toBe(timed.bytes.length * candidates.length);
      scorer.catchUp();
      expect(scorer.decodedBytes - before).toBe(timed.bytes.length * candidates.length);
    }
    expect(scorer.decodedBytes).toBe(scorer.recordedBytes * candidates.length);
  });

  it('on noise every candidate soon reads a refused frame between two others and is no longer decoded: the rest of the window costs nothing', () => {
    const scorer = new SettingScorer(candidates, { baud: 115200, dataBits: 8, parity: 'none' });
    const decodingAfter: number[] = [];
    for (const timed of noise) {
      scorer.record(timed);
      scorer.catchUp();
      expect(scorer.enough()).toBe(false);
      decodingAfter.push(scorer.decoding);
    }
    expect(decodingAfter.slice(3)).toEqual(Array<number>(noise.length - 3).fill(0));
    expect(scorer.decodedBytes).toBeLessThanOrEqual(3 * 1152 * candidates.length);
    expect(rankScored([scorer.finish()])).toEqual([]);
  });

  it('enough to stop listening: ENOUGH_CLEAN_FRAMES frames read cleanly, none refused but the first (cut by the start)', () => {
    const text = profileNamed('text');
    const scorer = new SettingScorer([text], at9600);
    scorer.record(chunk(Buffer.from('s\r\n')));
    shuffledShoe(2)
      .slice(0, ENOUGH_CLEAN_FRAMES)
      .forEach((card, index) => {
        scorer.catchUp();
        expect(scorer.enough()).toBe(false);
        scorer.record(chunk(encodeCard(card, text), index * 100));
      });
    scorer.catchUp();
    expect(scorer.enough()).toBe(true);
    // A refused frame last is not forgiven while listening: more is coming, or the framer's rest would follow it.
    scorer.record(chunk(Buffer.from('zz\r\n'), 1000));
    scorer.catchUp();
    expect(scorer.enough()).toBe(false);
  });
});

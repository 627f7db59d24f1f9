import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JournalEncoder } from './encoder';
import { kindOfLine } from './lineKind';
import { fastRecordLine } from './linePrefix';
import { Sealer, sealIn } from './seal';

// The start reads the writer's record lines the short way (the fields before `record` from the
// bytes, only the record through JSON.parse): on any line, what it reads must be what the full
// read (kindOfLine: UTF-8, JSON.parse of the whole line) reads, or nothing (then the full read
// decides). Null is always allowed; a different answer never is.

const KEY = Buffer.from('a key of enough length for hmac');

/** What the full read makes of a line, in the fast read's terms (or null where it is no record). */
function fullRead(line: Buffer) {
  const kind = kindOfLine(line);
  if (kind.kind !== 'record') return null;
  const seal = sealIn(line, 0, line.length);
  if (seal === null) return null;
  const { seq, at, run, prev, record } = kind.parsed;
  return { seq, at, run, prev, record, stored: seal.stored, bodyEnd: seal.bodyEnd };
}

function fastRead(line: Buffer) {
  // The line inside a larger chunk, as the reader sees it: bytes before it, its newline and more after.
  const chunk = Buffer.concat([Buffer.from('{"seq":1,"x"\n'), line, Buffer.from('\n{"seq":99,"at":"')]);
  const start = 13;
  const found = fastRecordLine(chunk, start, start + line.length);
  return found === null ? null : { ...found, bodyEnd: found.bodyEnd - start };
}

const plainText = fc.stringMatching(/^[ -!#-[\]-~]{0,30}$/);
const records = fc.oneof(
  // The card dealt (the record the fast read makes itself), and shapes near it.
  fc.record({ kind: fc.constantFrom('race-event', 'race-start', 'note'), raceId: fc.oneof(plainText, fc.string({ unit: 'binary' })), event: fc.record({ type: fc.constantFrom('card', 'void'), card: fc.oneof(plainText, fc.string({ unit: 'binary' })) }), source: fc.oneof(fc.constantFrom('manual', 'shoe'), fc.string()) }),
  fc.record({ kind: fc.constant('race-event'), raceId: plainText, event: fc.record({ type: fc.constant('card'), card: plainText }), source: plainText, held: fc.constant(true) }),
  fc.dictionary(fc.string(), fc.jsonValue()),
  fc.array(fc.jsonValue(), { maxLength: 4 }),
);
/** Lines exactly as the writer writes them, with every field of every shape the encoder lets through. */
const writtenLines = fc
  .record({
    keyed: fc.boolean(),
    seq: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(Number.MAX_SAFE_INTEGER - 1)),
    at: fc.oneof(plainText, fc.string({ unit: 'binary' })),
    run: fc.oneof(plainText, fc.string({ unit: 'binary' })),
    t: fc.oneof(fc.integer({ min: -5, max: 2 ** 40 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
    prev: fc.option(fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string()), { nil: null }),
    record: records,
  })
  .map(({ keyed, seq, at, run, t, prev, record }) => {
    const encoder = new JournalEncoder(new Sealer(keyed ? KEY : null), seq, prev, null, run);
    return Buffer.from(encoder.encode(at, t, record).text.slice(0, -1));
  });

describe('the fast read of a record line', () => {
  it('reads every line the writer writes as JSON.parse reads it whole, and takes the writer’s usual lines the fast way', () => {
    fc.assert(
      fc.property(writtenLines, (line) => {
        const full = fullRead(line);
        const fast = fastRead(line);
        if (fast !== null) {
          expect(fast).toEqual(full);
          // The same keys in the same order, too (a record is written out again as JSON: a checkpoint, an export).
          expect(JSON.stringify(fast.record)).toBe(JSON.stringify(full?.record));
        }
        const text = line.toString('utf8');
        // The usual line (plain ASCII before the record, an integer t, a record object): never left to the slow read.
        if (/^\{"seq":[1-9]\d*,"at":"[ -!#-[\]-~]*","run":"[ -!#-[\]-~]*","t":-?(0|[1-9]\d*),"prev":(null|"[0-9a-f]{64}"),"record":[{[]/.test(text) && Number.isSafeInteger(full?.seq)) {
          expect(fast).not.toBeNull();
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('on any line at all (the writer’s lines damaged, cut, added to), reads nothing or what the full read reads', () => {
    const edits = fc.array(
      fc.record({ at: fc.nat(), how: fc.constantFrom('flip', 'cut', 'insert', 'delete'), byte: fc.constantFrom(0x00, 0x09, 0x22, 0x2c, 0x30, 0x5c, 0x7b, 0x7d, 0x80, 0xc3, 0xe2, 0xff, 0x41, 0x20, 0x2d, 0x2e, 0x65) }),
      { minLength: 1, maxLength: 3 },
    );
    fc.assert(
      fc.property(writtenLines, edits, (written, changes) => {
        let line = Buffer.from(written);
        for (const { at, how, byte } of changes) {
          if (line.length === 0) break;
          const index = at % line.length;
          if (how === 'flip') line[index] = byte;
          else if (how === 'cut') line = line.subarray(0, index);
          else if (how === 'insert') line = Buffer.concat([line.subarray(0, index), Buffer.from([byte]), line.subarray(index)]);
          else line = Buffer.concat([line.subarray(0, index), line.subarray(index + 1)]);
        }
        const fast = fastRead(line);
        if (fast !== null) {
          expect(fast).toEqual(fullRead(line));
          expect(JSON.stringify(fast.record)).toBe(JSON.stringify(fullRead(line)?.record));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a journal’s lines in order as the full read does (each line linked to the one before, edited or not)', () => {
    // In order, the texts the fast read keeps (the last seal, the run's and race's ids) are taken again.
    const journals = fc.record({
      count: fc.integer({ min: 1, max: 40 }),
      keyed: fc.boolean(),
      edits: fc.array(fc.record({ at: fc.nat(), how: fc.constantFrom('drop', 'swap', 'double', 'flip') }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(journals, ({ count, keyed, edits }) => {
        const encoder = JournalEncoder.fresh(keyed ? KEY : null);
        const lines: string[] = [];
        for (let index = 0; index < count; index += 1) {
          const record = index % 5 === 4 ? { kind: 'race-start', raceId: `race-${index}`, race: { seats: [index] } } : { kind: 'race-event', raceId: `race-${index - (index % 5)}`, event: { type: 'card', card: ['As', 'Td', '9c'][index % 3] }, source: 'shoe' };
          lines.push(...encoder.next(new Date(Date.UTC(2026, 11, 1, 19, 0, index)).toISOString(), index * 1000, record).split('\n').filter((line) => line !== ''));
        }
        for (const { at, how } of edits) {
          const index = at % lines.length;
          const line = lines[index] as string;
          if (how === 'drop' && lines.length > 1) lines.splice(index, 1);
          else if (how === 'swap' && index + 1 < lines.length) [lines[index], lines[index + 1]] = [lines[index + 1] as string, line];
          else if (how === 'double') lines.splice(index, 0, line);
          else if (how === 'flip') lines[index] = line.replace(/[0-9a-f](?=[0-9a-f]{10}")/, (digit) => (digit === '0' ? '1' : '0'));
        }
        for (const line of lines) {
          const bytes = Buffer.from(line);
          const fast = fastRead(bytes);
          if (fast !== null) expect(fast).toEqual(fullRead(bytes));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('leaves the unusual to the full read', () => {
    const good = '{"seq":1,"at":"x","run":"r","t":1,"prev":null,"record":{"kind":"k"},"hash":"' + 'a'.repeat(64) + '"}';
    expect(fastRead(Buffer.from(good))).toMatchObject({ seq: 1, at: 'x', run: 'r', prev: null, record: { kind: 'k' } });
    for (const unusual of [
      good.replace('"seq":1', '"seq":01'),
      good.replace('"seq":1', '"seq":1.0'),
      good.replace('"seq":1', '"seq":12345678901234567890'),
      good.replace('"at":"x"', '"at":"\\u0078"'),
      good.replace('"t":1', '"t":1e3'),
      good.replace('"t":1', '"t":01'),
      good.replace('"record":{"kind":"k"}', '"record":{"kind":"k"},"more":{}'),
      good.replace('"record":{"kind":"k"}', '"record":"text"'),
      good.replace('"record":{"kind":"k"}', '"record":null'),
      good.replace('a'.repeat(64), 'A'.repeat(64)),
      good.replace('a'.repeat(64), '"'.repeat(64)),
      good.replace('"prev":null', '"prev":nul'),
      good.replace('{"seq"', ' {"seq"'),
    ]) {
      expect(fastRead(Buffer.from(unusual)), unusual).toBeNull();
    }
    // Not UTF-8 in the record: the full read calls it unreadable, the fast one leaves it.
    const badByte = Buffer.from(good.replace('"kind":"k"', '"kind":"kX"'));
    badByte[badByte.indexOf('kX') + 1] = 0xff;
    expect(fastRead(badByte)).toBeNull();
    expect(kindOfLine(badByte)).toMatchObject({ kind: 'damaged', code: 'unreadable' });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JournalEncoder } from './encoder';
import { JournalReader, readJournalBytes, type JournalLine } from './read';

// The reader takes a journal in chunks of any size (a file read a megabyte at a time, a writer's
// appends): whatever the cuts, it reads exactly what it reads from the whole journal in one piece,
// the findings of damage and tampering included.

const anyRecord = (record: unknown): record is unknown => typeof record === 'object' && record !== null && (record as { kind?: unknown }).kind !== 'unknown';
const KEY = Buffer.from('a key of enough length for hmac');

/** A journal of `count` records, then edited: lines dropped, swapped, doubled, bytes changed, junk put in, the end cut. */
const journals = fc
  .record({
    count: fc.integer({ min: 0, max: 30 }),
    keyed: fc.boolean(),
    edits: fc.array(fc.record({ at: fc.nat(), how: fc.constantFrom('drop', 'swap', 'double', 'flip', 'junk', 'unknown') }), { maxLength: 4 }),
    cut: fc.option(fc.nat(), { nil: undefined }),
  })
  .map(({ count, keyed, edits, cut }) => {
    const encoder = JournalEncoder.fresh(keyed ? KEY : null);
    const lines: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const text = encoder.next(new Date(Date.UTC(2026, 11, 1, 19, 0, index)).toISOString(), index * 1000, { kind: index % 7 === 6 ? 'unknown' : 'note', text: `record ${index} ä` });
      lines.push(...text.split('\n').filter((line) => line !== ''));
    }
    for (const { at, how } of edits) {
      if (lines.length === 0) break;
      const index = at % lines.length;
      const line = lines[index] as string;
      if (how === 'drop') lines.splice(index, 1);
      else if (how === 'swap' && index + 1 < lines.length) [lines[index], lines[index + 1]] = [lines[index + 1] as string, line];
      else if (how === 'double') lines.splice(index, 0, line);
      else if (how === 'flip') lines[index] = line.replace('record', 'recorb');
      else if (how === 'junk') lines.splice(index, 0, '{"seq":3,\u00ff not json');
      else if (how === 'unknown') lines[index] = line.replace('"note"', '"unknown"');
    }
    const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(''));
    return { bytes: cut === undefined ? bytes : bytes.subarray(0, bytes.length - (cut % Math.max(1, bytes.length))), key: keyed ? KEY : null };
  });

function readInChunks(bytes: Buffer, key: Buffer | null, cuts: readonly number[]) {
  const lines: Array<{ line: JournalLine<unknown>; span: unknown }> = [];
  const reader = new JournalReader({ key, check: anyRecord, onLine: (line, _seal, span) => lines.push({ line, span }) });
  let from = 0;
  for (const cut of [...cuts.map((at) => at % (bytes.length + 1))].sort((a, b) => a - b)) {
    reader.push(bytes.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  reader.push(bytes.subarray(from));
  return { reading: reader.finish(), lines };
}

describe('the journal reader, in chunks', () => {
  it('reads exactly what it reads from the whole journal, however the bytes are cut', () => {
    fc.assert(
      fc.property(journals, fc.array(fc.nat(), { maxLength: 12 }), ({ bytes, key }, cuts) => {
        const whole = readInChunks(bytes, key, []);
        expect(readInChunks(bytes, key, cuts)).toEqual(whole);
        // One byte at a time too: a line spread over many chunks.
        if (bytes.length < 3000) expect(readInChunks(bytes, key, Array.from({ length: bytes.length }, (_, index) => index))).toEqual(whole);
        expect(readJournalBytes(bytes, { key, check: anyRecord })).toEqual(whole.reading);
      }),
      { numRuns: 300 },
    );
  });

  it('finds damage the same way when the chunk ends inside a damaged line', () => {
    const encoder = JournalEncoder.fresh();
    const text = `${encoder.next('2026-12-01T19:00:00.000Z', 0, { kind: 'note' })}{"seq":2,\u00ff broken\n${encoder.next('2026-12-01T19:00:01.000Z', 1, { kind: 'note' })}`;
    const bytes = Buffer.from(text);
    const whole = readJournalBytes(bytes, { check: anyRecord });
    expect(whole.findings.map((finding) => finding.code)).toContain('damaged');
    expect(readInChunks(bytes, null, [text.indexOf('broken') + 2]).reading).toEqual(whole);
  });
});

describe("the chain's end after a damaged last line (issue 44)", () => {
  const lines = (() => {
    const encoder = JournalEncoder.fresh();
    const text = [0, 1, 2].map((index) => encoder.next(new Date(Date.UTC(2026, 11, 1, 19, 0, index)).toISOString(), index, { kind: 'note', text: `record ${index}` })).join('');
    return text.split('\n').filter((line) => line !== '').map((line) => Buffer.from(line));
  })();
  const sealOf = (line: Buffer) => line.subarray(-66, -2).toString('latin1');
  const flip = (line: Buffer, from: number, to: number) => Buffer.from(line.map((byte, index) => (index >= from && index < to ? byte ^ 0xff : byte)));
  const endOf = (last: Buffer) => readJournalBytes(Buffer.concat([...lines.slice(0, -1), last].flatMap((line) => [line, Buffer.from('\n')])), { check: anyRecord }).end.lastHash;

  it("is the seal still readable at the damaged line's end: the hash it was written (and replicated) under", () => {
    const last = lines.at(-1) as Buffer;
    expect(endOf(flip(last, 40, 44))).toBe(sealOf(last));
  });

  it('is the line before when the seal at its end is damaged too: the link that line itself carries', () => {
    const last = lines.at(-1) as Buffer;
    expect(endOf(flip(flip(last, 40, 44), last.length - 20, last.length - 16))).toBe(sealOf(lines.at(-2) as Buffer));
  });
});

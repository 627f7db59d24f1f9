// The journal line's grammar held by its golden vectors (journal/golden.ts): the writer
// encodes them byte for byte, the reader reads them whole and intact, and one byte changed is
// found. The floor's side of the same vectors: floor/db/golden.test.ts.
import { describe, expect, it } from 'vitest';
import { GOLDEN_JOURNALS, GOLDEN_KEY, GOLDEN_RECORDS, GOLDEN_RUN } from './golden';
import { JournalEncoder } from './encoder';
import { kindOfLine, readJournalBytes, seqPrefix } from './read';
import { Sealer } from './seal';

const anyRecord = (record: unknown): record is unknown => typeof record === 'object' && record !== null;
const CHAINS = [
  ['sha256', null],
  ['hmac-sha256', GOLDEN_KEY],
] as const;

describe('the journal line, by its golden vectors', () => {
  for (const [chain, key] of CHAINS) {
    const lines = GOLDEN_JOURNALS[chain];
    const file = Buffer.from(`${lines.join('\n')}\n`);

    it(`${chain}: the writer's encoder makes exactly these bytes`, () => {
      const sealer = new Sealer(key);
      const encoder = new JournalEncoder(sealer, 0, null, JournalEncoder.headerOf(sealer), GOLDEN_RUN);
      const text = GOLDEN_RECORDS.map(({ at, t, record }) => encoder.next(at, t, record)).join('');
      expect(text).toBe(file.toString('utf8'));
    });

    it(`${chain}: the reader reads a header and records 1 to 3, the chain intact, each line's kind and seq from its bytes`, () => {
      const seen: { seq: number; at: string }[] = [];
      const reading = readJournalBytes(file, { check: anyRecord, key, onLine: (line) => seen.push({ seq: line.seq, at: line.at }) });
      expect(reading).toMatchObject({ records: 3, lastSeq: 3, chain: 'intact', findings: [], torn: null, wholeLength: file.length });
      expect(seen).toEqual(GOLDEN_RECORDS.map(({ at }, index) => ({ seq: index + 1, at })));
      expect(lines.map((line) => kindOfLine(Buffer.from(line)).kind)).toEqual(['header', 'record', 'record', 'record']);
      expect(lines.map((line) => seqPrefix(Buffer.from(line), 0, Buffer.byteLength(line)))).toEqual([null, 1, 2, 3]);
    });

    it(`${chain}: one byte changed in any record is found, never read as intact`, () => {
      for (let index = 1; index < lines.length; index += 1) {
        const edited = lines.map((line, at) => (at === index ? line.replace('"race-1"', '"race-2"').replace('♥', '♦') : line));
        expect(edited[index]).not.toBe(lines[index]);
        const reading = readJournalBytes(Buffer.from(`${edited.join('\n')}\n`), { check: anyRecord, key });
        expect(reading.chain).not.toBe('intact');
        expect(reading.findings.length).toBeGreaterThan(0);
      }
    });
  }
});

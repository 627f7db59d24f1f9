import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findingText } from '../../journal/findings';
import { JournalEncoder } from '../../journal/encoder';
import { JournalWriter, readJournal, scanJournal } from './journal';
import { readJournalBytes } from '../../journal/read';

type Note = { note: string };
const isNote = (value: unknown): value is Note => typeof (value as Note | null)?.note === 'string';
const fixedClock = () => new Date('2026-11-29T12:00:00Z');

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'journal-')), 'journal.jsonl');
}

async function written(notes: readonly string[], key: Buffer | null = null, path = tempFile()): Promise<string> {
  const writer = await JournalWriter.open<Note>(path, (await readJournal(path, isNote, key)).reading, { clock: fixedClock, key });
  for (const note of notes) await writer.append({ note });
  await writer.close();
  return path;
}

const linesOf = (path: string): string[] => readFileSync(path, 'utf8').split('\n').slice(0, -1);
const problems = (path: string, key: Buffer | null = null) => readJournalBytes(readFileSync(path), { check: isNote, key }).findings.map(findingText);

describe('journal', () => {
  it('a header first, then numbered, timestamped, sealed and chained lines, read back in order', async () => {
    const path = await written(['a', 'b', 'c']);
    const lines = linesOf(path).map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ journal: 'chip-race-console', version: 2, chain: 'sha256', prev: null, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(lines.slice(1).map((line) => [line.seq, line.record.note, line.prev])).toEqual([
      [1, 'a', lines[0].hash],
      [2, 'b', lines[1].hash],
      [3, 'c', lines[2].hash],
    ]);
    const { lines: read, reading } = await readJournal(path, isNote);
    expect(reading.findings).toEqual([]);
    expect(reading.chain).toBe('intact');
    expect(read).toEqual([
      { seq: 1, at: '2026-11-29T12:00:00.000Z', record: { note: 'a' } },
      { seq: 2, at: '2026-11-29T12:00:00.000Z', record: { note: 'b' } },
      { seq: 3, at: '2026-11-29T12:00:00.000Z', record: { note: 'c' } },
    ]);
  });

  it('a missing file is an empty journal', async () => {
    const { lines, reading } = await readJournal(tempFile(), isNote);
    expect(lines).toEqual([]);
    expect(reading).toMatchObject({ records: 0, lastSeq: 0, chain: 'empty', findings: [] });
  });

  it('appends after a reopen continue the chain; a second writer on the same journal links to the first', async () => {
    const path = await written(['a']);
    await written(['b', 'c'], null, path);
    const { lines, reading } = await readJournal(path, isNote);
    expect(reading.chain).toBe('intact');
    expect(lines.map((line) => line.seq)).toEqual([1, 2, 3]);
    // One header only: the chain went on.
    expect(linesOf(path).filter((line) => line.includes('"journal":"chip-race-console"'))).toHaveLength(1);
  });

  it('a torn last line is cut off, its bytes kept beside the journal, and reported; appends continue cleanly', async () => {
    const path = await written(['kept']);
    appendFileSync(path, '{"seq":2,"at":"x","rec');
    const scan = await scanJournal(path, { check: isNote });
    expect(scan.findings.map(findingText)).toEqual(['the last record was cut off (22 bytes, probably a crash while writing) and was discarded; its bytes are kept in journal.jsonl.torn-1']);
    expect(readFileSync(`${path}.torn-1`, 'utf8')).toBe('{"seq":2,"at":"x","rec');
    expect(scan.tornNote).toMatchObject({ kind: 'journal', note: 'torn-tail', bytes: 22, savedAs: 'journal.jsonl.torn-1' });
    await written(['after'], null, path);
    const { lines, reading } = await readJournal(path, isNote);
    expect(lines.map((line) => [line.seq, line.record.note])).toEqual([[1, 'kept'], [2, 'after']]);
    expect(reading.findings).toEqual([]);
    // A second torn tail never overwrites the first copy.
    appendFileSync(path, 'torn again');
    await scanJournal(path, { check: isNote });
    expect(readFileSync(`${path}.torn-1`, 'utf8')).toBe('{"seq":2,"at":"x","rec');
    expect(readFileSync(`${path}.torn-2`, 'utf8')).toBe('torn again');
  });

  it('works on bytes: an invalid UTF-8 byte in a middle line cannot move the cut of a torn tail (an acknowledged record survives, no seq twice)', async () => {
    const path = await written(['one', 'two', 'three']);
    // One invalid byte inside line 2's note (decoded as U+FFFD, three bytes, by a text reader).
    const bytes = readFileSync(path);
    const at = bytes.indexOf('"two"') + 2;
    bytes[at] = 0xff;
    writeFileSync(path, Buffer.concat([bytes, Buffer.from('{"seq":4,"at":"2026')]));
    await scanJournal(path, { check: isNote });
    expect(readFileSync(path).subarray(-1)[0]).toBe(0x0a);
    await written(['acknowledged'], null, path);
    const { lines } = await readJournal(path, isNote);
    const seqs = lines.map((line) => line.seq);
    expect(lines.at(-1)?.record.note).toBe('acknowledged');
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.at(-1)).toBe(4);
  });

  it('reports and skips a corrupt line in the middle, keeping everything else and the file as it is', async () => {
    const path = await written(['n1', 'n2', 'n3']);
    const lines = linesOf(path);
    writeFileSync(path, `${[lines[0], lines[1], '#garbage#', lines[3]].join('\n')}\n`);
    const { lines: read, reading } = await readJournal(path, isNote);
    expect(read.map((line) => line.seq)).toEqual([1, 3]);
    // Among the sealed records: damage at the station, not tampering; the record after it is checked from itself.
    expect(reading.findings).toEqual([{ code: 'damaged', seq: 2, line: 3 }]);
    expect(reading.findings.map(findingText)).toEqual(['record 2 was damaged at the station (line 3 is not a readable record: bad bytes, not a change by hand); it was skipped and stays in the file as evidence, and the records after it are checked again from the next one']);
    expect(reading.chain).toBe('damaged');
    expect(readFileSync(path, 'utf8')).toContain('#garbage#');
  });
});

describe('tamper evidence', () => {
  it('one forged record (edited in place) is named by its seq', async () => {
    const path = await written(['Ah wins', 'Kc', '2d']);
    writeFileSync(path, readFileSync(path, 'utf8').replace('Ah wins', 'Ks wins'));
    expect(problems(path)).toEqual(['record 1 was changed after it was written: its seal does not match its content']);
  });

  it('a forged record sealed afresh (the forger recomputed its hash) breaks the link the next record carries', async () => {
    const path = await written(['a', 'b', 'c']);
    const lines = linesOf(path).map((line) => JSON.parse(line));
    const { Sealer } = await import('../../journal/seal');
    const { hash: _old, ...body } = lines[2];
    const forged = new Sealer(null).seal({ ...body, record: { note: 'B' } }).text;
    writeFileSync(path, `${[...linesOf(path).slice(0, 2), forged, ...linesOf(path).slice(3)].join('\n')}\n`);
    expect(problems(path)).toEqual(['record 2 does not match the seal the record after it carries: it was rewritten, or a record was removed or inserted after it']);
  });

  it('a removed line, two removed lines, and the first line removed', async () => {
    const path = await written(['a', 'b', 'c', 'd', 'e']);
    const lines = linesOf(path);
    const without = (...drop: number[]) => `${lines.filter((_, index) => !drop.includes(index)).join('\n')}\n`;
    writeFileSync(path, without(3));
    expect(problems(path)).toEqual(['record 3 is missing: it was removed']);
    writeFileSync(path, without(2, 3));
    expect(problems(path)).toEqual(['records 2–3 are missing: they were removed']);
    writeFileSync(path, without(1));
    expect(problems(path)).toEqual(['record 1 is missing: it was removed']);
  });

  it('a swapped pair is named by the first record out of order', async () => {
    const path = await written(['a', 'b', 'c', 'd']);
    const lines = linesOf(path);
    writeFileSync(path, `${[lines[0], lines[1], lines[3], lines[2], lines[4]].join('\n')}\n`);
    expect(problems(path)).toEqual(['record 2 is out of order: it comes after record 3']);
  });

  it('an inserted record: a copy of a line; a hand-written line without a seal in place of one', async () => {
    const path = await written(['a', 'b', 'c']);
    const lines = linesOf(path);
    writeFileSync(path, `${[lines[0], lines[1], lines[2], lines[2], lines[3]].join('\n')}\n`);
    expect(problems(path)).toEqual(['record 2 appears twice: one of them was inserted']);
    writeFileSync(path, `${[lines[0], lines[1], JSON.stringify({ seq: 2, at: 'x', record: { note: 'forged' } }), lines[3]].join('\n')}\n`);
    expect(problems(path)).toEqual(['record 2 has no seal although the journal is sealed: it was inserted or edited by hand']);
  });

  it('with a key (HMAC), a forger without the key cannot seal afresh; the check needs the key and names a wrong one', async () => {
    const key = Buffer.from('a key kept outside the data folder');
    const path = await written(['a', 'b'], key);
    expect(problems(path, key)).toEqual([]);
    expect(readJournalBytes(readFileSync(path), { check: isNote, key }).chain).toBe('intact');
    const lines = linesOf(path).map((line) => JSON.parse(line));
    const { Sealer } = await import('../../journal/seal');
    const { hash: _old, ...body } = lines[1];
    // Sealed afresh with plain SHA-256, as a forger without the key would.
    writeFileSync(path, `${[linesOf(path)[0], new Sealer(null).seal({ ...body, record: { note: 'A' } }).text, linesOf(path)[2]].join('\n')}\n`);
    expect(problems(path, key)).toEqual(['record 1 was changed after it was written: its seal does not match its content']);
    const noKey = readJournalBytes(readFileSync(path), { check: isNote });
    expect(noKey.chain).toBe('unchecked');
    expect(noKey.findings.map((finding) => finding.code)).toEqual(['key-missing']);
    const wrong = readJournalBytes(readFileSync(path), { check: isNote, key: Buffer.from('another key of enough length') });
    expect(wrong.findings.map((finding) => finding.code)).toEqual(['key-wrong']);
  });

  it('a journal of the old format is read as before and reported as unchained; sealing it afresh anchors those lines', async () => {
    const path = tempFile();
    const old = (seq: number, note: string) => JSON.stringify({ seq, at: '2026-11-28T10:00:00.000Z', record: { note } });
    writeFileSync(path, `${old(1, 'a')}\n${old(2, 'b')}\n`);
    const before = await readJournal(path, isNote);
    expect(before.lines.map((line) => line.record.note)).toEqual(['a', 'b']);
    expect(before.reading).toMatchObject({ chain: 'unchained', unchained: 2, findings: [] });
    await written(['c'], null, path);
    const after = await readJournal(path, isNote);
    expect(after.lines.map((line) => [line.seq, line.record.note])).toEqual([[1, 'a'], [2, 'b'], [3, 'c']]);
    expect(after.reading).toMatchObject({ chain: 'intact', unchained: 2, findings: [] });
    // An edit of the old lines afterwards breaks the anchor.
    writeFileSync(path, readFileSync(path, 'utf8').replace('"note":"a"', '"note":"A"'));
    expect(problems(path)).toEqual(['the 2 records written before the journal was sealed were changed afterwards']);
  });

  it('a journal from a newer version is never written past: its header, or a sealed record of an unknown kind, makes it read-only', async () => {
    const path = await written(['a']);
    const newer = readFileSync(path, 'utf8').replace('"version":2', '"version":3');
    writeFileSync(path, newer);
    const scan = await scanJournal(path, { check: isNote });
    expect(scan.readOnly).toEqual({ code: 'newer-version', version: 3 });
    await expect(JournalWriter.open(path, scan)).rejects.toThrow(/read-only/);

    const second = tempFile();
    const writer = await JournalWriter.open<unknown>(second, null, { clock: fixedClock });
    await writer.append({ note: 'a' });
    await writer.append({ kind: 'teleport', note: 7 });
    await writer.close();
    const reading = (await scanJournal(second, { check: isNote })).readOnly;
    expect(reading).toEqual({ code: 'unknown-record', seq: 2, kind: 'teleport' });
  });

  it('a clock set back is recorded as such: the times go back while the order and the monotonic time go on', async () => {
    const path = tempFile();
    const times = ['2026-11-29T12:00:00Z', '2026-11-29T12:00:05Z', '2026-11-29T11:59:00Z'];
    let tick = 0;
    const writer = await JournalWriter.open<Note>(path, null, { clock: () => new Date(times[Math.min(tick++, 2)] as string), monotonic: () => tick * 1000 });
    for (const note of ['a', 'b', 'c']) await writer.append({ note });
    await writer.close();
    const { reading } = await readJournal(path, isNote);
    expect(reading.findings).toEqual([{ code: 'clock-back', seq: 3, seconds: 65 }]);
    const lines = linesOf(path).slice(1).map((line) => JSON.parse(line));
    expect(lines.map((line) => line.t)).toEqual([...lines.map((line) => line.t)].sort((a, b) => a - b));
    expect(new Set(lines.map((line) => line.run)).size).toBe(1);
  });

  it('property: any single edit, removal, duplication or swap of record lines is found, and an untouched journal never is', async () => {
    const path = await written(Array.from({ length: 12 }, (_, index) => `note ${index}`));
    const lines = linesOf(path);
    expect(problems(path)).toEqual([]);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ kind: fc.constant('edit' as const), at: fc.integer({ min: 1, max: 12 }), offset: fc.nat(), byte: fc.integer({ min: 0x20, max: 0x7e }) }),
          fc.record({ kind: fc.constant('remove' as const), at: fc.integer({ min: 1, max: 11 }) }),
          fc.record({ kind: fc.constant('duplicate' as const), at: fc.integer({ min: 1, max: 12 }) }),
          fc.record({ kind: fc.constant('swap' as const), at: fc.integer({ min: 1, max: 11 }) }),
        ),
        (change) => {
          const copy = [...lines];
          if (change.kind === 'edit') {
            const line = copy[change.at] as string;
            const index = change.offset % line.length;
            if (line.charCodeAt(index) === change.byte) return;
            copy[change.at] = line.slice(0, index) + String.fromCharCode(change.byte) + line.slice(index + 1);
          } else if (change.kind === 'remove') copy.splice(change.at, 1);
          else if (change.kind === 'duplicate') copy.splice(change.at, 0, copy[change.at] as string);
          else [copy[change.at], copy[change.at + 1]] = [copy[change.at + 1] as string, copy[change.at] as string];
          const reading = readJournalBytes(Buffer.from(`${copy.join('\n')}\n`), { check: isNote });
          expect(reading.chain === 'broken' || reading.findings.length > 0).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('attacks on the seals (a review of the chain)', () => {
  const key = Buffer.from('a key kept outside the data folder');
  const fixedAt = '2026-11-29T12:00:00.000Z';

  it('a keyed journal rewritten with plain SHA-256 seals (which anyone can compute) fails the check with the key', async () => {
    const { verifyJournal } = await import('./verify');
    const forged = JournalEncoder.fresh(null);
    const bytes = Buffer.from([forged.next(fixedAt, 0, { note: 'forged' }), forged.next(fixedAt, 1, { note: 'also forged' })].join(''));
    const outcome = verifyJournal(bytes, key);
    expect(outcome.exit).toBe(1);
    expect(outcome.exit !== 2 && outcome.report.problems[0]?.problem).toMatch(/^the journal is not sealed with the key given/);
  });

  it('a SHA-256 header appended after keyed records, with forged records after it: the seal may not be loosened', async () => {
    const path = await written(['a', 'b'], key);
    const lines = linesOf(path).map((line) => JSON.parse(line));
    const { Sealer } = await import('../../journal/seal');
    const plain = new Sealer(null);
    const header = plain.seal({ journal: 'chip-race-console', version: 2, chain: 'sha256', created: fixedAt, prev: lines.at(-1).hash });
    const record = plain.seal({ seq: 3, at: fixedAt, run: 'x', t: 0, prev: header.hash, record: { note: 'forged' } });
    appendFileSync(path, `${header.text}\n${record.text}\n`);
    const reading = readJournalBytes(readFileSync(path), { check: isNote, key });
    expect(reading.chain).toBe('broken');
    expect(reading.findings.map((finding) => finding.code)).toContain('header');
  });

  it('the header of a keyed journal taken away (to pass its sealed lines off as the old format) is tampering, not "unchained"', async () => {
    const path = await written(['a', 'b'], key);
    writeFileSync(path, `${linesOf(path).slice(1).join('\n')}\n`);
    const reading = readJournalBytes(readFileSync(path), { check: isNote, key });
    expect(reading.chain).toBe('broken');
    expect(reading.findings.map(findingText)).toEqual(["the journal's header is missing: its sealed records, from record 1 on, were passed off as the old, unsealed format"]);
  });

  it('a line whose kind cannot be turned into text does not stop the reading', async () => {
    const path = await written(['a']);
    appendFileSync(path, '{"seq":99,"at":"x","record":{"kind":{"toString":0}}}\n');
    const reading = readJournalBytes(readFileSync(path), { check: isNote });
    // Reported as what it is (a record without a seal, of no kind this console knows, after a gap), never thrown.
    expect(reading.findings.map((finding) => finding.code).sort()).toEqual(['damaged', 'missing', 'unsealed']);
    // Its number is taken all the same: the next record is numbered past every line of the file.
    expect(reading.lastSeq).toBe(99);
  });

  it('a forged line with a huge sequence number is read at once; the numbering goes on past it (no number is ever given twice); the writer never writes past a safe number', async () => {
    const path = await written(['a']);
    appendFileSync(path, '{"seq":2000000000,"at":"x","record":{"note":"far"}}\n{"seq":100000000000}\n');
    const started = performance.now();
    const reading = readJournalBytes(readFileSync(path), { check: isNote });
    expect(performance.now() - started).toBeLessThan(1000);
    // The last line has no `{"seq":N,` prefix (nothing after its number): it takes the number after the one before it.
    expect(reading.lastSeq).toBe(2000000001);
    expect(reading.chain).toBe('broken');
    const encoder = new JournalEncoder(new (await import('../../journal/seal')).Sealer(null), Number.MAX_SAFE_INTEGER, null, null);
    expect(() => encoder.encode(fixedAt, 0, { note: 'x' })).toThrow(/sequence numbers are used up/);
  });

  it('an unsealed header of a "newer version" makes the journal read-only (the safe side) and is reported as tampering too', async () => {
    const path = await written(['a']);
    appendFileSync(path, '{"journal":"chip-race-console","version":3}\n');
    const reading = readJournalBytes(readFileSync(path), { check: isNote });
    expect(reading.readOnly).toEqual({ code: 'newer-version', version: 3 });
    expect(reading.findings.map((finding) => finding.code)).toContain('header');
  });

  it('an old journal ending in a torn line kept in place is anchored with the newline the writer puts after it: no false "anchor" finding', async () => {
    const path = tempFile();
    writeFileSync(path, `${JSON.stringify({ seq: 1, at: fixedAt, record: { note: 'old' } })}\n{"seq":2,"at":"torn`);
    const writer = await JournalWriter.open<Note>(path, (await readJournal(path, isNote)).reading, { clock: fixedClock });
    await writer.append({ note: 'new' });
    await writer.close();
    const reading = readJournalBytes(readFileSync(path), { check: isNote });
    expect(reading.findings.map((finding) => finding.code)).toEqual(['unreadable']);
    expect(reading.chain).toBe('intact');
  });
});

describe('journal writes the disk refuses', () => {
  it('rejects the append, and refuses every later one once the file cannot be cut back (/dev/full)', async () => {
    // /dev/full takes no byte (ENOSPC) and cannot be truncated: the writer must not go on after it.
    const writer = await JournalWriter.open<Note>('/dev/full', null, { clock: fixedClock });
    await expect(writer.append({ note: 'lost' })).rejects.toMatchObject({ code: 'ENOSPC' });
    await expect(writer.append({ note: 'after' })).rejects.toThrow(/^the journal could not be repaired after a failed write \(.*\); restart the console$/);
    await writer.close();
    expect(existsSync('/dev/full')).toBe(true);
  });
});

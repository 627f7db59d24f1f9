// The outbox sends only whole lines, exactly as the journal holds them: bytes, never re-decoded
// text. A damaged line goes as evidence (base64, `damaged`) under the number it took, and the
// records after it follow; a torn tail never goes. Real journals written (and fsynced) by the
// console's own writer, real files.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalPath } from '../../journal/location';
import { JournalWriter } from '../journal/journal';
import { nextBatch, OUTBOX_CURSOR_FILE, readCursor, writeCursor } from '../../replication/outbox';

const clock = () => new Date('2026-11-29T12:00:00Z');

/** A data folder whose journal holds one record per note, written by the console's writer. */
async function journalOf(notes: readonly string[]): Promise<{ dataDir: string; lines: Buffer[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outbox-'));
  const writer = await JournalWriter.open<{ note: string }>(journalPath(dataDir), null, { clock });
  for (const note of notes) await writer.append({ note });
  await writer.close();
  return { dataDir, lines: linesOf(dataDir) };
}

function linesOf(dataDir: string): Buffer[] {
  const bytes = readFileSync(journalPath(dataDir));
  const lines: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline < 0) break;
    lines.push(bytes.subarray(start, newline));
    start = newline + 1;
  }
  return lines;
}

const START = { table: 'table-1', offset: 0, seq: 0 };

describe('the outbox', () => {
  it('a line with a few bad bytes goes as damaged, its exact bytes in base64, under its own number; the records after it follow, each byte for byte', async () => {
    // Line 0 is the header; record n is line n. Names in three scripts: multi-byte UTF-8 is no damage.
    const { dataDir, lines } = await journalOf(['Matti', 'Йоханна', 'Ähtäri', 'Teppo', 'Kc']);
    const damaged = Buffer.from(lines[3] as Buffer);
    damaged.fill(0xff, 30, 34);
    writeFileSync(journalPath(dataDir), Buffer.concat([...lines.map((line, index) => (index === 3 ? damaged : line)).flatMap((line) => [line, Buffer.from('\n')])]));

    const batch = await nextBatch(dataDir, START, 0);
    expect(batch.records.map((record) => [record.seq, record.damaged === true])).toEqual([[1, false], [2, false], [3, true], [4, false], [5, false]]);
    const third = batch.records[2];
    expect(third).toEqual({ seq: 3, line: damaged.toString('base64'), headers: '', damaged: true });
    expect(Buffer.from(third?.line ?? '', 'base64').equals(damaged)).toBe(true);
    for (const record of batch.records.filter((entry) => entry.damaged !== true)) expect(Buffer.from(record.line).equals(lines[record.seq] as Buffer)).toBe(true);
    expect(batch.records[0]?.headers).toBe((lines[0] as Buffer).toString());
    expect(batch.next).toEqual({ table: 'table-1', offset: readFileSync(journalPath(dataDir)).length, seq: 5 });
    // Sent again from the cursor: nothing more.
    expect((await nextBatch(dataDir, batch.next, 5)).records).toEqual([]);
  });

  it('a line of garbage with no number of its own takes the one after the line before', async () => {
    const { dataDir, lines } = await journalOf(['a', 'b', 'c']);
    writeFileSync(journalPath(dataDir), `${[lines[0], lines[1], '#$%garbage%$#', lines[3]].join('\n')}\n`);
    const batch = await nextBatch(dataDir, START, 0);
    expect(batch.records.map((record) => ({ seq: record.seq, damaged: record.damaged ?? false }))).toEqual([{ seq: 1, damaged: false }, { seq: 2, damaged: true }, { seq: 3, damaged: false }]);
    expect(Buffer.from(batch.records[1]?.line ?? '', 'base64').toString()).toBe('#$%garbage%$#');
  });

  it('a torn tail is never sent; kept in place (a full disk) and ended by the next record, it goes as damaged under its own number', async () => {
    const { dataDir } = await journalOf(['a', 'b']);
    const fragment = '{"seq":3,"at":"2026-11-29T12:00:00.000Z","record":{"no';
    appendFileSync(journalPath(dataDir), fragment);
    const torn = await nextBatch(dataDir, START, 0);
    expect(torn.records.map((record) => record.seq)).toEqual([1, 2]);
    expect(torn.more).toBe(false);
    // The console's restart on a full disk: no copy could be made, the next record ends the line.
    const writer = await JournalWriter.open<{ note: string }>(journalPath(dataDir), { lastSeq: 3, end: { kind: 'sha256', keyId: null, lastHash: null }, unchained: 0, readOnly: null }, { clock });
    await writer.append({ note: 'c' });
    await writer.close();
    const after = await nextBatch(dataDir, torn.next, 2);
    expect(after.records.map((record) => ({ seq: record.seq, damaged: record.damaged ?? false }))).toEqual([{ seq: 3, damaged: true }, { seq: 4, damaged: false }]);
    expect(Buffer.from(after.records[0]?.line ?? '', 'base64').toString()).toBe(fragment);
  });

  it("the cursor (floor-outbox.json) is its owner's alone (0600) whatever the umask, and one an older version left readable by anyone is made so at the start", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outbox-cursor-'));
    const path = join(dataDir, OUTBOX_CURSOR_FILE);
    const umask = process.umask(0o022);
    try {
      await writeCursor(dataDir, { table: 'table-1', offset: 10, seq: 2 });
      expect(statSync(path).mode & 0o777).toBe(0o600);
      // As an older version wrote it: 0644.
      rmSync(path);
      writeFileSync(path, `${JSON.stringify({ table: 'table-1', offset: 20, seq: 3 })}\n`, { mode: 0o644 });
      expect(statSync(path).mode & 0o777).toBe(0o644);
      expect(await readCursor(dataDir, 'table-1')).toEqual({ table: 'table-1', offset: 20, seq: 3 });
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
    }
  });
});

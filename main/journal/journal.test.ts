import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalWriter, readJournal } from './journal';

type Note = { note: string };
const isNote = (value: unknown): value is Note => typeof (value as Note | null)?.note === 'string';
const fixedClock = () => new Date('2026-11-29T12:00:00Z');

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'journal-')), 'journal.jsonl');
}

describe('journal', () => {
  it('appends numbered, timestamped lines and reads them back in order', async () => {
    const path = tempFile();
    const writer = await JournalWriter.open<Note>(path, 0, fixedClock);
    await Promise.all(['a', 'b', 'c'].map((note) => writer.append({ note })));
    await writer.close();
    const replay = await readJournal(path, isNote);
    expect(replay.problems).toEqual([]);
    expect(replay.lines).toEqual([
      { seq: 1, at: '2026-11-29T12:00:00.000Z', record: { note: 'a' } },
      { seq: 2, at: '2026-11-29T12:00:00.000Z', record: { note: 'b' } },
      { seq: 3, at: '2026-11-29T12:00:00.000Z', record: { note: 'c' } },
    ]);
  });

  it('a missing file is an empty journal', async () => {
    expect(await readJournal(tempFile(), isNote)).toEqual({ lines: [], problems: [] });
  });

  it('discards and reports a last line cut off by a crash, and trims it so appends continue cleanly', async () => {
    const path = tempFile();
    writeFileSync(path, `${JSON.stringify({ seq: 1, at: 'x', record: { note: 'kept' } })}\n{"seq":2,"at":"x","rec`);
    const replay = await readJournal(path, isNote);
    expect(replay.lines.map((line) => line.record.note)).toEqual(['kept']);
    expect(replay.problems).toEqual([expect.stringMatching(/^the last record was cut off \(22 bytes/)]);
    const writer = await JournalWriter.open<Note>(path, 1, fixedClock);
    await writer.append({ note: 'after' });
    await writer.close();
    expect((await readJournal(path, isNote)).lines.map((line) => [line.seq, line.record.note])).toEqual([[1, 'kept'], [2, 'after']]);
  });

  it('reports and skips a corrupt line in the middle, keeping everything else', async () => {
    const path = tempFile();
    const good = (seq: number) => JSON.stringify({ seq, at: 'x', record: { note: `n${seq}` } });
    writeFileSync(path, `${good(1)}\n#garbage#\n${JSON.stringify({ seq: 3, at: 'x', record: { other: 1 } })}\n`);
    appendFileSync(path, `${good(4)}\n`);
    const replay = await readJournal(path, isNote);
    expect(replay.lines.map((line) => line.seq)).toEqual([1, 4]);
    expect(replay.problems).toEqual(['line 2 is not valid JSON and was skipped', 'line 3 is not a journal record and was skipped']);
    expect(readFileSync(path, 'utf8')).toContain('#garbage#');
  });
});

describe('journal writes the disk refuses', () => {
  it('rejects the append, and refuses every later one once the file cannot be cut back (/dev/full)', async () => {
    // /dev/full takes no byte (ENOSPC) and cannot be truncated: the writer must not go on after it.
    const writer = await JournalWriter.open<Note>('/dev/full', 0, fixedClock);
    await expect(writer.append({ note: 'lost' })).rejects.toMatchObject({ code: 'ENOSPC' });
    await expect(writer.append({ note: 'after' })).rejects.toThrow(/^the journal could not be repaired after a failed write \(.*\); restart the console$/);
    await writer.close();
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { journalPath } from '../../journal/location';
import type { HistoryEntry } from '../../protocol/contract';
import type { Session } from '../../replay/session';
import { ConsoleService } from './service';
import type { ServiceOptions } from './serviceOptions';
import { SETTINGS_FILE } from './stationSettings';
import { openStation } from './startup';
import { options, play, SETTINGS, step, STRUCTURE, type Step } from './testing/evenings';

// Issue 44: one line of a station's journal damaged (bytes flipped in its middle, as a failing disk
// leaves them) costs the race it is in, never the rest of the evening: every other race replays
// exactly as the whole journal shows it, the damaged one is on the history marked damaged, and a
// restart (from the checkpoint the first start wrote) shows the same.

const made: string[] = [];
const folder = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `damaged-race-${name}-`));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** An evening played through the real service: its journal's bytes and settings. */
async function evening(steps: readonly Step[]): Promise<{ journal: Buffer; settings: Buffer }> {
  const dir = folder('evening');
  const live = await ConsoleService.start({ ...options(dir, []), checkpointEvery: Number.MAX_SAFE_INTEGER });
  await live.saveSettings(SETTINGS);
  await live.saveStructure(STRUCTURE);
  await play(live, [{ t: 'start', chips: [7, 2, 2] }, ...steps]);
  await live.close();
  return { journal: readFileSync(journalPath(dir)), settings: readFileSync(join(dir, SETTINGS_FILE)) };
}

/** The session a start makes of the folder's journal, as plain data (summaries made), and whether it read on from a checkpoint. */
async function started(dir: string): Promise<{ session: Session; fromCheckpoint: boolean; findings: string[] }> {
  const station = await openStation({ ...options(dir, []), checkpointEvery: 0 } satisfies ServiceOptions);
  try {
    const session = JSON.parse(JSON.stringify(station.followers.session.session)) as Session;
    return { session, fromCheckpoint: station.fromCheckpoint, findings: station.report.findings.map((finding) => finding.code) };
  } finally {
    station.followers.clock.close();
    await station.journal?.close();
    await station.followers.checkpoint.settled();
  }
}

function folderWith(journal: Buffer, settings: Buffer): string {
  const dir = folder('start');
  writeFileSync(join(dir, SETTINGS_FILE), settings);
  writeFileSync(journalPath(dir), journal);
  return dir;
}

/** The journal's lines as text (the header first). */
const linesOf = (journal: Buffer) => journal.toString('utf8').split('\n').slice(0, -1);

/** The race open when each record of the journal was written (from its start to its confirmation or abandon), by seq. */
function racesBySeq(lines: readonly string[]): Map<number, string> {
  const races = new Map<number, string>();
  let open: string | null = null;
  for (const text of lines) {
    const { seq, record } = JSON.parse(text) as { seq?: number; record?: { kind: string; raceId?: string } };
    if (typeof seq !== 'number' || record === undefined) continue;
    if (record.kind === 'race-start') open = record.raceId ?? null;
    // Whatever it names: a line lost while a race is open may have been the race's own (nothing tells), so the race is marked.
    if (open !== null) races.set(seq, open);
    if ((record.kind === 'race-confirm' || record.kind === 'race-abandon') && record.raceId === open) open = null;
  }
  return races;
}

/** The journal with a few bytes in the middle of line `index` flipped. */
function damaged(journal: Buffer, index: number): Buffer {
  const ends = [...journal.entries()].filter(([, byte]) => byte === 0x0a).map(([at]) => at + 1);
  const from = index === 0 ? 0 : (ends[index - 1] as number);
  const to = (ends[index] as number) - 1;
  const copy = Buffer.from(journal);
  const middle = (from + to) >> 1;
  for (let at = middle; at < Math.min(middle + 4, to); at += 1) copy[at] = (copy[at] as number) ^ 0xff;
  return copy;
}

describe('a damaged line in a station journal', () => {
  it('costs only the race it is in: every other race replays as the whole journal shows it, the damaged one is marked, a restart shows the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 30, size: 'medium' }), fc.nat(), async (steps, where) => {
        const { journal, settings } = await evening([...steps, { t: 'start', chips: [3, 1, 4] }, { t: 'finish' }, { t: 'start', chips: [2, 7, 1] }, { t: 'finish' }]);
        const lines = linesOf(journal);
        // A record line, not the last (a damaged last line is a torn tail, another case).
        const index = 1 + (where % (lines.length - 2));
        const seq = (JSON.parse(lines[index] as string) as { seq: number }).seq;
        const raceOfLine = racesBySeq(lines).get(seq) ?? null;

        const whole = await started(folderWith(journal, settings));
        const dir = folderWith(damaged(journal, index), settings);
        const first = await started(dir);
        // Bytes flipped inside a text field may leave the line readable, its seal no longer matching (`altered`).
        expect(first.findings.some((code) => code === 'damaged' || code === 'altered')).toBe(true);
        const lost = first.findings.includes('damaged');

        // Every race without the damaged line: the very entry the whole journal gives, in the same order.
        const others = (history: readonly HistoryEntry[]) => history.filter((entry) => entry.id !== raceOfLine);
        expect(others(first.session.history)).toEqual(others(whole.session.history));
        expect(first.session.history.every((entry) => entry.id === raceOfLine || entry.damaged === undefined)).toBe(true);
        // The damaged race, when its start could be read and it ended on the history: marked, with the line's seq.
        const hit = first.session.history.find((entry) => entry.id === raceOfLine);
        if (hit !== undefined && lost) expect(hit.damaged?.seq).toBe(seq);
        if (!lost) {
          // Altered, not lost: replayed as it now reads (the finding says so).
        } else if (raceOfLine !== null && first.session.race?.id === raceOfLine) {
          // Still open only when its confirmation is the damaged line (the last race's, nothing started after it): marked too.
          expect(first.session.race.damaged).toBe(seq);
        } else if (raceOfLine !== null && whole.session.history.some((entry) => entry.id === raceOfLine) && hit === undefined) {
          // Absent only when the damaged line is its start (then none of its records can be applied).
          expect((JSON.parse(lines[index] as string) as { record: { kind: string } }).record.kind).toBe('race-start');
        }
        // The evening ends with a race confirmed: nothing open (but the damaged race when its confirmation is the damaged line), and the next race's id is not given twice.
        if (first.session.race?.id !== raceOfLine || raceOfLine === null) expect(first.session.race).toEqual(whole.session.race);
        expect(first.session.racesStarted).toBe(whole.session.racesStarted);
        // A restart (from the checkpoint the first start wrote) shows the same.
        const again = await started(dir);
        expect(again.session).toEqual(first.session);
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});

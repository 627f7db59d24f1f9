import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldLines, type FoldLine } from '../floor/fold';
import { journalPath } from '../journal/location';
import { readJournal } from '../main/journal/journal';
import { ConsoleService } from '../main/service/service';
import { options, play, SETTINGS, step, STRUCTURE } from '../main/service/testing/evenings';
import { isSessionRecord } from '../replay/session';

// Issue 44: the floor folds a table's lines with the station's own replay (replay/session.ts), a
// line damaged at the station held as evidence only (its record null). That line costs the race it
// is in, never the races after it: every other race folds exactly as the whole journal folds.

describe('the fold of a journal with one line damaged at the station', () => {
  it('folds every race without the damaged line as the whole journal folds it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 24, size: 'medium' }), fc.nat(), async (steps, where) => {
        const dir = mkdtempSync(join(tmpdir(), 'floor-fold-damaged-'));
        try {
          const live = await ConsoleService.start({ ...options(dir, []), checkpointEvery: Number.MAX_SAFE_INTEGER });
          await live.saveSettings(SETTINGS);
          await live.saveStructure(STRUCTURE);
          await play(live, [{ t: 'start', chips: [7, 2, 2] }, ...steps, { t: 'start', chips: [3, 1, 4] }, { t: 'finish' }, { t: 'start', chips: [2, 7, 1] }, { t: 'finish' }]);
          await live.close();
          const { lines } = await readJournal(journalPath(dir), isSessionRecord);
          const lastSeq = lines.at(-1)?.seq ?? 0;
          const damagedSeq = (lines[where % lines.length] as FoldLine).seq;
          const whole = foldLines(lines, lastSeq);
          const damaged = foldLines(lines.map((line): FoldLine => (line.seq === damagedSeq ? { seq: line.seq, at: null, record: null } : line)), lastSeq);
          expect(damaged.damaged).toEqual([damagedSeq]);
          // The race the damaged line is in (from its first to its last line, as the whole fold has it).
          const hit = whole.races.find((race) => race.firstSeq <= damagedSeq && damagedSeq <= (race.lastSeq ?? lastSeq))?.raceId ?? null;
          const others = (races: typeof whole.races) => races.filter((race) => race.raceId !== hit);
          expect(others(damaged.races)).toEqual(others(whole.races));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});

import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalPath } from '../../journal/location';
import type { JournalReport } from '../../protocol/contract';
import { checkpointPath } from '../journal/checkpoint';
import { ConsoleService } from './service';
import type { ServiceOptions } from './serviceOptions';
import { SETTINGS_FILE } from './stationSettings';
import { openStation, type OpenedStation } from './startup';
import { DECK, fromJournal, options, play, SETTINGS, step, STRUCTURE, type Step } from './testing/evenings';

// A start from a checkpoint of the followers (station/journal/checkpoint.ts) gives exactly the state
// a start reading the whole journal gives, wherever the checkpoint was taken; a checkpoint that is
// damaged or no longer matches the journal is said as a finding and the whole journal is read.

const KEY = Buffer.from('a journal key of enough length, 32');
const made: string[] = [];
const folder = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `checkpoint-${name}-`));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const stationOptions = (dataDir: string, key: Buffer | null, checkpointEvery = 0, coverBlockBytes?: number): ServiceOptions => ({ ...options(dataDir, []), journalKey: key, checkpointEvery, ...(coverBlockBytes === undefined ? {} : { coverBlockBytes }) });

/** Everything a start makes of the journal: each follower's state, exactly, and the journal's report and numbers. */
async function opened(dataDir: string, key: Buffer | null, checkpointEvery = Number.MAX_SAFE_INTEGER, coverBlockBytes?: number): Promise<{ state: unknown; findings: string[]; fromCheckpoint: boolean }> {
  const station: OpenedStation = await openStation(stationOptions(dataDir, key, checkpointEvery, coverBlockBytes));
  try {
    const { report, lastSeq, followers } = station;
    const state = JSON.parse(JSON.stringify({ followers: followers.registry.snapshot(), report: { ...report, path: undefined }, lastSeq, clock: followers.clock.view(null) })) as unknown;
    return { state, findings: report.findings.map((finding) => finding.code), fromCheckpoint: station.fromCheckpoint };
  } finally {
    station.followers.clock.close();
    await station.journal?.close();
    await station.followers.checkpoint.settled();
  }
}

/** An evening played through the real service: its journal's bytes and settings. */
async function evening(steps: readonly Step[], key: Buffer | null): Promise<{ journal: Buffer; settings: Buffer }> {
  const dir = folder('evening');
  const live = await ConsoleService.start({ ...options(dir, []), journalKey: key, checkpointEvery: Number.MAX_SAFE_INTEGER });
  await live.saveSettings(SETTINGS);
  await live.saveStructure(STRUCTURE);
  await play(live, [{ t: 'start', chips: [7, 2, 2] }, ...steps]);
  await live.close();
  return { journal: readFileSync(journalPath(dir)), settings: readFileSync(join(dir, SETTINGS_FILE)) };
}

/** The line ends of a journal: the places a checkpoint can be taken after. */
const lineEnds = (bytes: Buffer) => [...bytes.entries()].filter(([, byte]) => byte === 0x0a).map(([index]) => index + 1);

/**
 * A data folder whose checkpoint was taken after the first `cut` bytes of `journal` (a start on
 * them, writing it), then the rest of the journal appended as a later evening would have.
 */
async function checkpointedAt(journal: Buffer, settings: Buffer, cut: number, key: Buffer | null, coverBlockBytes?: number): Promise<string> {
  const dir = folder('cut');
  writeFileSync(join(dir, SETTINGS_FILE), settings);
  writeFileSync(journalPath(dir), journal.subarray(0, cut));
  await opened(dir, key, 0, coverBlockBytes);
  // The start wrote nothing to the journal (else the rest would not follow it).
  expect(readFileSync(journalPath(dir))).toEqual(journal.subarray(0, cut));
  appendFileSync(journalPath(dir), journal.subarray(cut));
  return dir;
}

function wholeJournal(journal: Buffer, settings: Buffer): string {
  const dir = folder('whole');
  writeFileSync(join(dir, SETTINGS_FILE), settings);
  writeFileSync(journalPath(dir), journal);
  return dir;
}

describe('the checkpoint of the followers', () => {
  let sample: { journal: Buffer; settings: Buffer };
  beforeAll(async () => {
    sample = await evening([{ t: 'deal', card: 0 }, { t: 'misread', times: 3 }, { t: 'finish' }, { t: 'break', level: 2 }, { t: 'colour-up' }, { t: 'start', chips: [4, 1, 3] }, { t: 'finish' }, { t: 'clock', press: 'start' }, { t: 'clock', press: 'pause' }, { t: 'start', chips: [1, 5, 2] }, { t: 'deal', card: 3 }], KEY);
  });

  it('starts from a checkpoint at any cut to exactly the state of reading the whole journal', async () => {
    const expected = await opened(wholeJournal(sample.journal, sample.settings), KEY);
    expect(expected.fromCheckpoint).toBe(false);
    // The evening reaches every follower: a colour-up race confirmed, the clock run, a race open.
    expect(JSON.stringify(expected.state)).toMatch(/"done":\[\{"raceId"/);
    expect(JSON.stringify(expected.state)).toMatch(/"local":\[\{"type":"start"/);
    const ends = lineEnds(sample.journal);
    // Every cut after the header: before it there is no chain to anchor to.
    for (const cut of ends.slice(1)) {
      const dir = await checkpointedAt(sample.journal, sample.settings, cut, KEY);
      expect(existsSync(checkpointPath(dir))).toBe(true);
      const resumed = await opened(dir, KEY);
      expect(resumed.fromCheckpoint).toBe(true);
      expect(resumed.state).toEqual(expected.state);
    }
  }, 120_000);

  it('starts from a checkpoint past a damaged line too, at any cut, to exactly the state of reading the whole journal (issue 44)', async () => {
    // A few bytes in the middle of the fifth record flipped, as a failing disk leaves them.
    const ends = lineEnds(sample.journal);
    const [from, to] = [ends[4] as number, (ends[5] as number) - 1];
    const journal = Buffer.from(sample.journal);
    for (let index = (from + to) >> 1; index < ((from + to) >> 1) + 4; index += 1) journal[index] = (journal[index] as number) ^ 0xff;
    const expected = await opened(wholeJournal(journal, sample.settings), KEY);
    expect(expected.findings).toContain('damaged');
    for (const cut of ends.slice(1)) {
      const dir = await checkpointedAt(journal, sample.settings, cut, KEY);
      const resumed = await opened(dir, KEY);
      // Anchored to a sealed line: never to the damaged one itself.
      expect(resumed.fromCheckpoint).toBe(cut !== to + 1);
      expect(resumed.state).toEqual(expected.state);
    }
  }, 120_000);

  it('for any evening and any cut, gives the state the whole journal gives, on the station the dealer sees too', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 30, size: 'medium' }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), async (steps, at, keyed) => {
        const key = keyed ? KEY : null;
        const { journal, settings } = await evening(steps, key);
        const ends = lineEnds(journal).slice(1);
        const cut = ends[Math.min(ends.length - 1, Math.floor(at * ends.length))] as number;
        const dir = await checkpointedAt(journal, settings, cut, key);
        const whole = wholeJournal(journal, settings);
        const resumed = await opened(dir, key);
        expect(resumed.fromCheckpoint).toBe(true);
        expect(resumed.state).toEqual((await opened(whole, key)).state);
        // And as the screens get it, through the kernel's state assembly.
        const [a, b] = [await ConsoleService.start({ ...options(dir, []), journalKey: key }), await ConsoleService.start({ ...options(whole, []), journalKey: key })];
        try {
          expect(fromJournal(a.getState())).toEqual(fromJournal(b.getState()));
          expect(a.getState().journal.findings).toEqual(b.getState().journal.findings);
        } finally {
          await a.close();
          await b.close();
        }
      }),
      { numRuns: 15 },
    );
  }, 240_000);

  it('is ignored with a finding when its bytes are damaged or cut short, and the whole journal gives the same state', async () => {
    const expected = await opened(wholeJournal(sample.journal, sample.settings), KEY);
    const ends = lineEnds(sample.journal);
    const dir = await checkpointedAt(sample.journal, sample.settings, ends[Math.floor(ends.length / 2)] as number, KEY);
    const good = readFileSync(checkpointPath(dir));
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: good.length - 1 }), fc.integer({ min: 1, max: 255 }), fc.boolean(), async (at, flip, truncate) => {
        const bad = Buffer.from(good);
        if (truncate) writeFileSync(checkpointPath(dir), bad.subarray(0, at));
        else {
          bad[at] = (bad[at] as number) ^ flip;
          writeFileSync(checkpointPath(dir), bad);
        }
        const resumed = await opened(dir, KEY);
        expect(resumed.fromCheckpoint).toBe(false);
        expect(['checkpoint-damaged', 'checkpoint-stale']).toContain(resumed.findings[0]);
        expect({ ...(resumed.state as object), report: undefined }).toEqual({ ...(expected.state as object), report: undefined });
        expect(resumed.findings.slice(1)).toEqual(expected.findings);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('is stale when the journal no longer holds the lines it covers: cut back, edited before it, or sealed with another key', async () => {
    const ends = lineEnds(sample.journal);
    const cut = ends[ends.length - 3] as number;
    // Cut back before the checkpoint's line: the journal is shorter than what it covers.
    const shorter = await checkpointedAt(sample.journal, sample.settings, cut, KEY);
    truncateSync(journalPath(shorter), ends[ends.length - 5] as number);
    const expectedShorter = await opened(wholeJournal(readFileSync(journalPath(shorter)), sample.settings), KEY);
    const resumedShorter = await opened(shorter, KEY);
    expect(resumedShorter.findings[0]).toBe('checkpoint-stale');
    expect({ ...(resumedShorter.state as object), report: undefined }).toEqual({ ...(expectedShorter.state as object), report: undefined });

    // A line before the checkpoint edited: the tampering is found as a start without a checkpoint finds it.
    const edited = await checkpointedAt(sample.journal, sample.settings, cut, KEY);
    const text = readFileSync(journalPath(edited), 'utf8');
    writeFileSync(journalPath(edited), text.replace('"chips":7', '"chips":8'));
    const resumedEdited = await opened(edited, KEY);
    expect(resumedEdited.findings[0]).toBe('checkpoint-stale');
    expect(resumedEdited.findings).toContain('altered');

    // Opened without the key it was made with.
    const otherKey = await opened(await checkpointedAt(sample.journal, sample.settings, cut, KEY), Buffer.from('another journal key of enough length'));
    expect(otherKey.findings[0]).toBe('checkpoint-stale');
  }, 60_000);

  it('is written live after a confirmed race, and a restart from it shows what the running console showed', async () => {
    const dir = folder('live');
    const live = await ConsoleService.start(stationOptions(dir, KEY, 1));
    await live.saveSettings(SETTINGS);
    await play(live, [{ t: 'start', chips: [7, 2, 2] }, { t: 'deal', card: 0 }, { t: 'misread', times: 2 }, { t: 'finish' }, { t: 'start', chips: [3, 3, 1] }, ...DECK.slice(0, 2).map((_, card) => ({ t: 'deal' as const, card }))]);
    await live.close();
    expect(existsSync(checkpointPath(dir))).toBe(true);
    const restarted = await openStation(stationOptions(dir, KEY));
    expect(restarted.fromCheckpoint).toBe(true);
    restarted.followers.clock.close();
    await restarted.journal?.close();
    const again = await ConsoleService.start(stationOptions(dir, KEY));
    try {
      expect(fromJournal(again.getState())).toEqual(fromJournal(live.getState()));
      expect(again.getState().journal.findings).toEqual([]);
    } finally {
      await again.close();
    }
  }, 60_000);

  describe('whose cover is checked in whole blocks after the start, the block under way before it', () => {
    // Blocks of 1 KiB, so that a short evening's journal has whole blocks before its checkpoint (a
    // real one's are 64 MiB: a journal of about 190,000 lines to have one).
    const BLOCK = 1024;
    const start = (dir: string) => ConsoleService.start(stationOptions(dir, KEY, Number.MAX_SAFE_INTEGER, BLOCK));
    /** The journal's report once the check has said what it found (told as any change of state is). */
    const checked = (service: ConsoleService) =>
      new Promise<JournalReport>((resolve) => {
        const now = service.getState().journal;
        if (now.coverCheck?.status !== 'checking') resolve(now);
        const stop = service.onState((state) => {
          if (state.journal.coverCheck?.status === 'checking') return;
          stop();
          resolve(state.journal);
        });
      });
    /** A checkpoint after the evening's third line from the end, with at least `blocks` whole blocks before it. */
    async function checkpointed(): Promise<{ dir: string; cut: number }> {
      const ends = lineEnds(sample.journal);
      const cut = ends[ends.length - 3] as number;
      expect(Math.floor(cut / BLOCK)).toBeGreaterThanOrEqual(3);
      return { dir: await checkpointedAt(sample.journal, sample.settings, cut, KEY, BLOCK), cut };
    }
    /** The journal with one byte of a record's digits changed at `at` or after it (a seal no longer matches its line). */
    function changeDigitAfter(dir: string, at: number): number {
      const bytes = readFileSync(journalPath(dir));
      const index = bytes.indexOf('"seq":', at) + '"seq":'.length;
      bytes[index] = bytes[index] === 0x31 ? 0x32 : 0x31;
      writeFileSync(journalPath(dir), bytes);
      return index;
    }

    it('gives the state the whole journal gives, wherever the checkpoint is, and finds every block unchanged', async () => {
      const expected = await opened(wholeJournal(sample.journal, sample.settings), KEY, Number.MAX_SAFE_INTEGER, BLOCK);
      const ends = lineEnds(sample.journal).slice(1);
      for (const cut of [ends[0], ends[Math.floor(ends.length / 2)], ends[ends.length - 1]] as number[]) {
        const dir = await checkpointedAt(sample.journal, sample.settings, cut, KEY, BLOCK);
        const resumed = await opened(dir, KEY, Number.MAX_SAFE_INTEGER, BLOCK);
        expect(resumed.fromCheckpoint).toBe(true);
        expect(resumed.state).toEqual(expected.state);
      }
      // The next checkpoint, written by a start that went on from one, covers what one from a whole read covers.
      const coverIn = (dir: string) => (JSON.parse(readFileSync(checkpointPath(dir), 'utf8')) as { cover: unknown }).cover;
      const resumedDir = await checkpointedAt(sample.journal, sample.settings, ends[Math.floor(ends.length / 2)] as number, KEY, BLOCK);
      expect((await opened(resumedDir, KEY, 0, BLOCK)).fromCheckpoint).toBe(true);
      const wholeDir = wholeJournal(sample.journal, sample.settings);
      await opened(wholeDir, KEY, 0, BLOCK);
      expect(coverIn(resumedDir)).toEqual(coverIn(wholeDir));
      expect((coverIn(wholeDir) as { blocks: unknown[] }).blocks.length).toBe(Math.floor(sample.journal.length / BLOCK));

      const { dir, cut } = await checkpointed();
      const service = await start(dir);
      try {
        expect(service.getState().journal.coverCheck).toEqual({ status: 'checking' });
        const report = await checked(service);
        expect(report.coverCheck).toMatchObject({ status: 'ok', bytes: Math.floor(cut / BLOCK) * BLOCK });
        expect(report.findings).toEqual([]);
      } finally {
        await service.close();
      }
      // A start reading the whole journal checked every byte itself: nothing to check after it.
      const whole = await start(wholeJournal(sample.journal, sample.settings));
      try {
        expect(whole.getState().journal.coverCheck).toBeUndefined();
      } finally {
        await whole.close();
      }
    }, 60_000);

    it('finds a byte changed in a whole block before the checkpoint once the console serves, and says which bytes', async () => {
      const { dir } = await checkpointed();
      const changed = changeDigitAfter(dir, BLOCK);
      const block = Math.floor(changed / BLOCK);
      const service = await start(dir);
      try {
        // The start went on from the checkpoint: only the check after it can see the change.
        expect(service.getState().journal.findings).toEqual([]);
        expect(service.getState().journal.coverCheck).toEqual({ status: 'checking' });
        const report = await checked(service);
        expect(report.coverCheck).toMatchObject({ status: 'damaged', block, from: block * BLOCK, to: (block + 1) * BLOCK });
      } finally {
        await service.close();
      }
    }, 60_000);

    it('still finds a byte changed in the block under way at the start: the checkpoint is stale and the whole journal is read', async () => {
      const { dir, cut } = await checkpointed();
      const tailFrom = Math.floor(cut / BLOCK) * BLOCK;
      const changed = changeDigitAfter(dir, tailFrom);
      // Before the anchored line (whose own seal is checked at its place anyway).
      expect(changed).toBeLessThan(lineEnds(sample.journal)[lineEnds(sample.journal).indexOf(cut) - 1] as number);
      const resumed = await opened(dir, KEY, Number.MAX_SAFE_INTEGER, BLOCK);
      expect(resumed.fromCheckpoint).toBe(false);
      expect(resumed.findings[0]).toBe('checkpoint-stale');
      expect(resumed.findings).toContain('altered');
    }, 60_000);

    it('is stopped by closing the console mid-check, which neither hangs nor throws, and writes nothing', async () => {
      const { dir } = await checkpointed();
      const before = [readFileSync(journalPath(dir)), readFileSync(checkpointPath(dir))];
      const service = await start(dir);
      const told: (string | undefined)[] = [];
      service.onState((state) => told.push(state.journal.coverCheck?.status));
      expect(service.getState().journal.coverCheck).toEqual({ status: 'checking' });
      await service.close();
      // Stopped before its end: it never said what it found.
      expect(told.filter((status) => status !== 'checking')).toEqual([]);
      expect([readFileSync(journalPath(dir)), readFileSync(checkpointPath(dir))]).toEqual(before);
      // And the next start checks again, from the start.
      const again = await start(dir);
      try {
        expect((await checked(again)).coverCheck?.status).toBe('ok');
      } finally {
        await again.close();
      }
    }, 60_000);
  });
});

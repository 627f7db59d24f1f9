import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../journal/read';
import type { JournalFollower } from '../../replay/follower';
import { ConsoleService } from './service';
import { DECK, FLOOR_OUT_OF_REACH, fromJournal, options, play, SETTINGS, step, STRUCTURE, type Step } from './testing/evenings';

// The journal's followers are one registry (station/service/followers.ts), fed the same way on start
// and live: a follower added there sees every record on both, and any evening a console lives
// through is, restarted, exactly the state it showed.

/** Keeps what it is fed: each line's seq and kind. */
class Recorder implements JournalFollower {
  readonly seen: { seq: number; kind: string }[] = [];
  constructor(readonly kinds?: readonly string[]) {}
  add(line: JournalLine<unknown>): void {
    this.seen.push({ seq: line.seq, kind: (line.record as { kind: string }).kind });
  }
}

/** An evening that writes every kind of record the console has: a race with misreads, confirmed, late-found chips, the clock, the break, a colour-up, a race abandoned, the floor's seating. */
const EVERY_KIND: Step[] = [
  { t: 'deal', card: 0 },
  { t: 'misread', times: 8 },
  { t: 'finish' },
  { t: 'exchange', race: 1, count: 2 },
  { t: 'clock', press: 'start' },
  { t: 'break', level: 2 },
  { t: 'colour-up' },
  { t: 'start', chips: [3, 3, 3] },
  { t: 'abandon' },
  { t: 'seating', version: 2 },
];

describe('the journal followers', () => {
  it('feeds a follower added to the registry every record, live and on start alike, and only the kinds it reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'followers-'));
    try {
      const every = new Recorder();
      const confirms = new Recorder(['race-confirm']);
      const live = await ConsoleService.start(options(dir, [every, confirms]));
      await live.saveSettings(SETTINGS);
      await live.saveStructure(STRUCTURE);
      await play(live, [{ t: 'start', chips: [7, 2, 2] }, { t: 'deal', card: 0 }, { t: 'misread', times: 3 }, { t: 'void' }, ...DECK.map((_, card) => ({ t: 'deal' as const, card })), { t: 'confirm' }, { t: 'clock', press: 'start' }]);
      await live.close();
      const records = live.getState().journal.records;
      expect(every.seen.map((line) => line.seq)).toEqual(Array.from({ length: records }, (_, index) => index + 1));
      expect(new Set(every.seen.map((line) => line.kind))).toEqual(new Set(['race-start', 'race-event', 'refused', 'refused-again', 'race-confirm', 'clock']));
      expect(confirms.seen).toEqual(every.seen.filter((line) => line.kind === 'race-confirm'));

      const everyAgain = new Recorder();
      const confirmsAgain = new Recorder(['race-confirm']);
      const restarted = await ConsoleService.start(options(dir, [everyAgain, confirmsAgain]));
      await restarted.close();
      expect(everyAgain.seen).toEqual(every.seen);
      expect(confirmsAgain.seen).toEqual(confirms.seen);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives, replayed at start, exactly the state the live console showed, for any evening', async () => {
    // Every kind of record the evenings wrote, all runs together: they must reach far (below).
    const kinds = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40, size: 'medium' }), fc.boolean(), async (steps, withStructure) => {
        const dir = mkdtempSync(join(tmpdir(), 'followers-property-'));
        try {
          const liveFollower = new Recorder();
          const live = await ConsoleService.start(options(dir, [liveFollower]));
          await live.saveSettings(SETTINGS);
          if (withStructure) await live.saveStructure(STRUCTURE);
          await play(live, [{ t: 'start', chips: [7, 2, 2] }, ...steps]);
          // Closing writes what was only counted (repeats, a burst of refusals): the live state after it.
          await live.close();
          const shown = fromJournal(live.getState());
          const startFollower = new Recorder();
          // Restarted linked to the floor (out of reach): a station starting unlinked gives the floor's seats back (floorFollowing.ts startUnlinked).
          const restarted = await ConsoleService.start({ ...options(dir, [startFollower]), ...FLOOR_OUT_OF_REACH });
          try {
            expect(fromJournal(restarted.getState())).toEqual(shown);
            expect(startFollower.seen).toEqual(liveFollower.seen);
            for (const line of liveFollower.seen) kinds.add(line.kind);
          } finally {
            await restarted.close();
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      // An evening that writes every kind, tried first whatever the seed: the kinds' check below
      // held only when the random evenings happened to reach them all (a seed that missed one
      // failed the test: issue 42).
      { numRuns: 40, examples: [[EVERY_KIND, true]] },
    );
    expect([...kinds].sort()).toEqual(['break-marked', 'chip-exchange', 'clock', 'color-up-race', 'floor-seating', 'race-abandon', 'race-confirm', 'race-event', 'race-start', 'refused', 'refused-again']);
  }, 240_000);
});

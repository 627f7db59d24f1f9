import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { journalPath } from '../journal/location';
import { readJournal } from '../station/journal/journal';
import { ConsoleService } from '../station/service/service';
import { isSessionRecord, valueDeltaOf } from '../replay/session';
import { foldLines, type FoldState } from '../floor/fold';
import { tableSettings } from './testing/stations';

// The fold against the console itself: random evenings of races on a real console (counts, cards,
// voids, misreads, confirmations, abandons, a race left open), its journal read back, folded at
// once and folded in two goes split anywhere (as the floor folds while records arrive): the same
// races, value deltas, corrections and refusals as the console's own history.

const DECK = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc', '9s', '8c', '7d', '6h', '5s', '3c', 'Jd', 'Qh', 'Kd', '2s', '9h', '8d', '7c', '6s', '5h', '3d', 'Qs', 'Js', 'As', '4c', '2h'];

interface RacePlan {
  readonly chips: readonly [number, number, number];
  readonly voidAt: number | null;
  readonly misreadAt: number | null;
  readonly end: 'confirm' | 'abandon' | 'leave-open';
  readonly shift: number;
  /** Cards dealt before a race left open stops (null: until it is complete). */
  readonly stopAfter: number | null;
}

const racePlan = fc.record({
  chips: fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 })),
  voidAt: fc.option(fc.integer({ min: 1, max: 6 })),
  misreadAt: fc.option(fc.integer({ min: 0, max: 6 })),
  end: fc.constantFrom('confirm', 'confirm', 'abandon', 'leave-open'),
  shift: fc.integer({ min: 0, max: DECK.length - 1 }),
  stopAfter: fc.option(fc.integer({ min: 0, max: 4 })),
}) as fc.Arbitrary<RacePlan>;

async function play(service: ConsoleService, plans: readonly RacePlan[]): Promise<void> {
  let raceNumber = 0;
  for (const [index, plan] of plans.entries()) {
    const started = await service.startRace(plan.chips.map((chips, seat) => ({ seat: seat + 1, chips, hasOther: true })));
    if (!started.ok) continue;
    raceNumber += 1;
    const id = `race-${raceNumber}`;
    const deck = [...DECK.slice(plan.shift), ...DECK.slice(0, plan.shift)];
    const last = index === plans.length - 1;
    const cards = plan.end === 'leave-open' && last && plan.stopAfter !== null ? plan.stopAfter : deck.length;
    for (let step = 0; step < cards && service.getState().race?.summary.status !== 'complete'; step += 1) {
      if (step === plan.misreadAt) await service.dealCard(id, 'Zz');
      await service.dealCard(id, deck[step] as string);
      if (step === plan.voidAt && service.getState().race?.summary.status !== 'complete') await service.voidCards(id, 1, 'exposed');
    }
    if (plan.end === 'leave-open' && last) return;
    if (plan.end === 'abandon' || service.getState().race?.summary.status !== 'complete') await service.abandonRace(id, 'recount');
    else await service.confirmRace(id);
  }
}

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('the fold of a console\'s journal', () => {
  it('equals the console\'s own history, folded at once or in two goes split anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(racePlan, { minLength: 1, maxLength: 5 }), fc.double({ min: 0, max: 1, noNaN: true }), async (plans, splitAt) => {
        const dir = mkdtempSync(join(tmpdir(), 'floor-fold-property-'));
        const service = await ConsoleService.start({ dataDir: dir, clock: () => new Date('2026-12-01T20:00:00Z'), station: 'pc' });
        try {
          await service.saveSettings(tableSettings('7'));
          await play(service, plans);
          const { lines } = await readJournal(journalPath(dir), isSessionRecord);
          const lastSeq = lines.at(-1)?.seq ?? 0;
          const whole = foldLines(lines, lastSeq);
          const history = service.history();
          const confirmed = whole.races.filter((race) => race.status === 'confirmed');
          expect(confirmed.map((race) => [race.raceId, race.valueDelta, race.corrections, race.refusals, race.winners])).toEqual(history.map((entry) => [entry.id, valueDeltaOf(entry), entry.corrections, entry.refusals, entry.summary.awards]));
          const open = service.getState().race;
          expect(whole.races.filter((race) => race.status === 'racing' || race.status === 'waiting-to-confirm').map((race) => race.raceId)).toEqual(open === null ? [] : [open.id]);

          // Folded as the floor folds while records arrive: up to a point, then on from the state the
          // first fold kept (through JSON, as floor_table_state keeps it), the new lines only; a race
          // folded again replaces what the first fold said of it.
          const cut = Math.floor(splitAt * lines.length);
          const early = foldLines(lines.slice(0, cut), lines[cut - 1]?.seq ?? 0);
          const later = foldLines(lines.slice(cut), lastSeq, JSON.parse(JSON.stringify(early.state)) as FoldState);
          const merged = new Map([...early.races, ...later.races].map((race) => [race.raceId, race]));
          expect([...merged.values()].sort((a, b) => a.firstSeq - b.firstSeq)).toEqual(whole.races);
          // The history the export replays (tableHistory) is the console's, at once or in two goes.
          expect(asJson(whole.history)).toEqual(asJson(history));
          expect(asJson([...early.history, ...later.history])).toEqual(asJson(history));
        } finally {
          await service.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

// Line noise at the console: random bytes on a real serial line (socat pseudo-terminals) as fast
// as the pty takes them, for 20 s, into a console with a race open. Before the noise flag, such a
// burst put 23 cards into a live race. Now a card decoded while the line is flagged as noise is
// held for the dealer's say: nothing is dealt unconfirmed, and dealing resumes once clean frames do.
// Every frame that is no card is on the race's record (issue 24), a line a reason, not a line a read.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLEAN_FRAMES_TO_CLEAR_NOISE, NOISE_FRAMES_FOR_BAUD_WARNING } from '../../hardware/pipeline';
import { seededRandom } from '../../hardware/simulator/shoe';
import { lineNoise } from '../../hardware/testing/lineNoise';
import { PtyPair, PtyWriter, waitFor } from '../../hardware/testing/ptyPair';
import type { ConsoleSettings, RaceRecordEvent } from '../../protocol/contract';
import { serialCardSources } from './cardSources';
import { ConsoleService } from './service';
import { MAX_HELD_CARDS } from './cardInputs';
import { REPEAT_FLUSH_MS } from './refusalRuns';
import { DEFAULT_SETTINGS } from './settings';

const NOISE_MS = 20_000;
const SEED = 20261201;

const cleanups: (() => Promise<void>)[] = [];

type Refused = Extract<RaceRecordEvent, { type: 'refused' }>;
const refusedOf = (events: readonly RaceRecordEvent[]): Refused[] => events.filter((event): event is Refused => event.type === 'refused');
/** A card read from noise with the hold full, and a frame that is no card (the decoder's or the framer's reason). */
const heldOver = (event: Refused) => event.said?.key === 'service.held.tooMany';
const unreadable = (event: Refused) => event.source === 'shoe' && event.said?.key.startsWith('hardware.') === true;
const countOf = (events: readonly Refused[]) => events.reduce((sum, event) => sum + event.count, 0);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('line noise into a live race', () => {
  it(`random bytes at pty speed for ${NOISE_MS / 1000} s deal nothing unconfirmed; clean frames bring dealing back`, async () => {
    const pair = await PtyPair.create('console-noise');
    cleanups.push(() => pair.dispose());
    const service = await ConsoleService.start({ dataDir: mkdtempSync(join(tmpdir(), 'noise-')), cardSources: serialCardSources });
    cleanups.push(() => service.close());
    const seats = Array.from({ length: 10 }, (_, index) => ({ seat: index + 1, name: `P${index + 1}` }));
    const table: ConsoleSettings = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats, button: 10, decks: 8 }, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } };
    expect(await service.saveSettings(table)).toEqual({ ok: true, value: null });
    expect(await service.startRace(seats.map(({ seat }) => ({ seat, chips: 3, hasOther: true })))).toEqual({ ok: true, value: null });
    await waitFor(() => service.getState().source.state === 'connected', 'the port to open');
    const raceId = service.getState().race?.id as string;
    let flagged = false;
    // Each read is published as it comes, as the state's last input: the frames that are no card, counted.
    let lastInput = service.getState().lastInput;
    let unreadableRead = 0;
    service.onState((state) => {
      if (state.source.code === 'wrong-baud') flagged = true;
      if (state.lastInput === lastInput) return;
      lastInput = state.lastInput;
      if (lastInput?.type === 'unknown') unreadableRead += 1;
    });
    const recordsBefore = service.getState().journal.records;

    const device = await PtyWriter.open(pair.a);
    cleanups.push(() => device.close());
    const random = seededRandom(SEED);
    let written = 0;
    const started = Date.now();
    while (Date.now() - started < NOISE_MS) {
      const chunk = lineNoise(random, 16 * 1024);
      await device.write(chunk);
      written += chunk.length;
    }
    // Let the console take what is still on its way.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await service.historyPage(null, 1);

    // Counts are written every REPEAT_FLUSH_MS of the clock while the reads last: on a busy machine
    // the console reads the noise for longer than it took to write, so the bound is the time it took.
    const flushes = Math.ceil((Date.now() - started) / REPEAT_FLUSH_MS);
    const noisy = service.getState();
    const record = await service.raceRecord(raceId);
    const refusals = refusedOf(record.ok ? record.value.events : []);
    const refusedWhileFull = countOf(refusals.filter(heldOver));
    const reasons = new Set(refusals.filter(unreadable).map((event) => JSON.stringify(event.said)));
    const lines = noisy.journal.records - recordsBefore;
    console.info(
      `line noise: ${written} bytes in ${Date.now() - started} ms; ${noisy.held.length + refusedWhileFull} cards decoded from the noise: ` +
        `${noisy.held.length} held for the dealer, ${refusedWhileFull} refused with ${MAX_HELD_CARDS} already waiting (on record), ${noisy.race?.summary.cards.length} dealt; ` +
        `${unreadableRead} frames that are no card (${countOf(refusals.filter(unreadable))} on record so far, the rest counted within ${REPEAT_FLUSH_MS / 1000} s) ` +
        `of ${reasons.size} reasons; ${lines} journal lines in all`,
    );
    expect(flagged).toBe(true);
    expect(noisy.race?.summary.cards).toEqual([]);
    expect(noisy.held.length).toBeGreaterThan(0);
    expect(noisy.held.length).toBeLessThanOrEqual(MAX_HELD_CARDS);
    expect(noisy.held.every((card) => card.why === 'noise' && card.target === raceId)).toBe(true);
    // Thousands of cards out of noise cost the journal a line, not a line each.
    expect(refusals.filter(heldOver).length).toBeLessThanOrEqual(1 + flushes);
    // So do thousands of frames that are no card: a line each until the line is flagged, then a line a reason.
    expect(unreadableRead).toBeGreaterThan(1000);
    expect(refusals.filter(unreadable).length).toBeLessThanOrEqual(NOISE_FRAMES_FOR_BAUD_WARNING + reasons.size);
    // With their counts, every REPEAT_FLUSH_MS: the journal grows by the reasons and the time, not by the reads.
    expect(lines).toBeLessThanOrEqual(NOISE_FRAMES_FOR_BAUD_WARNING + (reasons.size + 1) * (1 + flushes + 1));

    // The dealer discards what the noise made; clean frames resume: the first ones are still
    // held (they cleared the flag), after them cards are dealt as they come.
    for (const held of noisy.held) expect(await service.discardHeldCard(raceId, held.id)).toEqual({ ok: true, value: null });
    const clean = ['As', 'Ks', 'Qs', 'Js', 'Ts'];
    // The reader may be in the middle of a noise line: end it first.
    await device.write('\r\n');
    for (const card of clean) {
      await device.write(`${card}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await waitFor(() => service.getState().held.length >= clean.length, 'the clean cards to arrive', 5000);
    // The frames that cleared the flag wait for the dealer (they came while it was up); the ones
    // after them wait only behind those, to keep the order of the deal.
    const after = service.getState();
    expect(after.held.map((card) => [card.card, card.why])).toEqual(clean.map((card, index) => [card, index < CLEAN_FRAMES_TO_CLEAR_NOISE ? 'noise' : 'queued']));
    expect(after.source).toMatchObject({ state: 'connected' });
    for (const held of after.held.filter((card) => card.why === 'noise')) expect(await service.takeHeldCard(raceId, held.id)).toEqual({ ok: true, value: null });
    expect(service.getState().race?.summary.cards.map((card) => card.card)).toEqual(clean);
    // The line is clean: the next card is dealt as it comes.
    await device.write('9s\r\n');
    await waitFor(() => service.getState().race?.summary.cards.length === clean.length + 1, 'the next card to be dealt', 5000);
    expect(service.getState().held).toEqual([]);
    // The counts went on record before the cards dealt after them: every frame that was no card is on the race's record.
    const kept = await service.raceRecord(raceId);
    expect(countOf(refusedOf(kept.ok ? kept.value.events : []).filter(unreadable))).toBe(unreadableRead);
  }, 60_000);
});

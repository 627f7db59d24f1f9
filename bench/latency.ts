import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { Card } from '../engine/cards';
import { startRace } from '../engine/race/race';
import { dealUntilComplete } from '../engine/race/testing';
import { seededRandom, shuffleDecks } from '../engine/shoe';
import { startConsole, stopConsoles, type RunningConsole } from '../e2e/harness/console';
import { encodeCard } from '../hardware/encoding';
import { BUILT_IN_PROFILES, type DeviceProfile } from '../hardware/profile';
import { PtyPair, PtyWriter } from '../hardware/testing/ptyPair';
import type { ConsoleSettings, ConsoleState, SeatCount } from '../protocol/contract';
import { DEFAULT_SETTINGS } from '../main/service/settings';
import { playTemplateRaces, writeJournal } from './journal';
import type { BenchFigure } from './report';
import { benchDir, bridgeCall, CHROMIUM_ARGS, CHROMIUM_PATH, epochNow, percentile, requireChromium, round1, round2 } from './support';

/**
 * Shoe-to-screen latency, end to end with real parts: bytes written to one end of a socat
 * pseudo-terminal pair → browser mode (its own process: serial source, decoder, service, journal
 * append + fsync, WebSocket bridge) → Chromium (Pinia store, Vue) → the card on the page.
 *
 * The clocks: both sides read `performance.timeOrigin + performance.now()` (epoch milliseconds,
 * monotonic within a process). Any offset between the two processes is measured by round trips
 * (the page's clock read between two of ours; the tightest of 30 bounds the error to half its
 * round trip) and subtracted.
 *
 * "Visible": a MutationObserver sees the card's `dealt-card` element in the DOM; the figure is taken
 * once the frame holding it has been rendered (the next requestAnimationFrame, then a message
 * posted from it, which runs after that frame's style, layout and paint). The compositor's and the
 * monitor's share (headless, software: none; a real 60 Hz screen adds up to one refresh, 16.7 ms)
 * is outside what a page can observe.
 */

const MIN_CARDS = 300;
/** The journal the console starts with: this many events of races already confirmed. */
const HISTORY_EVENTS = 10_000;
/**
 * Pause after a card is seen before the next is written: 100–300 ms, drawn at random. A dealer
 * deals about two cards a second, so this is quicker than any table, and still lets the page go
 * idle between cards as it does at a table. (At a fixed 25 ms the cards came in step with the
 * page's 60 Hz frames and each waited some 12 ms for the next one: a rhythm no dealer keeps.)
 */
const GAP_MS = { min: 100, max: 300 };
const CARD_TIMEOUT_MS = 10_000;
/**
 * The issue sets p95 < 30 ms. The median target is ours: a median card already waits about half a
 * 60 Hz frame (8 ms) for the next frame and some 4 ms for it to render, so 25 ms leaves the
 * console's own path (serial, decoder, service, journal fsync, bridge, store, Vue) about 12 ms.
 */
const P50_TARGET_MS = 25;

/** Ten seats; 5s leave for 100s, so a seat holds up to 19 odd chips and a race deals up to 19 cards a seat. */
const SEATS = Array.from({ length: 10 }, (_, index) => ({ seat: index + 1, name: `Seat ${index + 1}` }));
const TABLE: ConsoleSettings['table'] = {
  ...DEFAULT_SETTINGS.table,
  seats: SEATS,
  button: 10,
  chipSet: [5, 25, 100, 500, 1000],
  removed: 5,
  next: 100,
  rules: 'tda',
  decks: 4,
};
/** Nine seats with 19 odd 5s, one with 1: 172 cards in the main deal (4 decks: up to 208), ties decided by more cards. */
const COUNTS: readonly SeatCount[] = SEATS.map(({ seat }) => ({ seat, chips: seat === 10 ? 1 : 19, hasOther: true }));

/** The cards the race takes, in the order dealt, for a shoe shuffled from `seed` (the service runs the same engine). */
function raceCards(seed: number): Card[] {
  const race = startRace({
    rules: TABLE.rules,
    removed: TABLE.removed,
    next: TABLE.next,
    button: TABLE.button,
    decks: TABLE.decks,
    seats: COUNTS.map((count) => ({ seat: count.seat, name: `Seat ${count.seat}`, chips: count.chips, other: count.hasOther ? TABLE.next : 0 })),
  });
  return dealUntilComplete(race, shuffleDecks(TABLE.decks, seededRandom(seed))).cards.map((dealt) => dealt.card);
}

const DEALT = '[data-testid="dealt-card"]';

/**
 * Runs in the page from its first moment (an init script, so it needs no inline script the CSP
 * would block). Plain JavaScript in a string: this file is type-checked without the DOM library,
 * and a function's source would carry the TypeScript loader's helpers into the page.
 */
const RECORDER = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const count = () => document.querySelectorAll('${DEALT}').length;
  const recorder = { seen: 0, message: 0, bytes: 0 };
  globalThis.__benchRecorder = recorder;
  // When the service's state reaches the page: a listener of our own, added before the page's.
  const NativeWebSocket = globalThis.WebSocket;
  globalThis.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        recorder.message = now();
        recorder.bytes = typeof event.data === 'string' ? event.data.length : 0;
      });
    }
  };
  new MutationObserver(() => {
    const shown = count();
    if (shown <= recorder.seen) return;
    const from = recorder.seen;
    recorder.seen = shown;
    const inDom = now();
    const message = recorder.message;
    const bytes = recorder.bytes;
    requestAnimationFrame(() => {
      const frame = now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const painted = now();
        for (let index = from; index < shown; index += 1) globalThis.__benchCardSeen(index, { message, bytes, inDom, frame, painted });
      };
      channel.port2.postMessage(null);
    });
  }).observe(document, { childList: true, subtree: true });
})();`;

interface Arrival {
  /** When the state message holding the card reached the page. */
  readonly message: number;
  /** Its length (characters of JSON). */
  readonly bytes: number;
  readonly inDom: number;
  /** The next animation frame's callbacks: the frame that renders the card starts. */
  readonly frame: number;
  /** That frame has been rendered (style, layout, paint). */
  readonly painted: number;
}

/** Arrivals reported by the page, by card index within the current race. */
class Arrivals {
  private readonly arrived = new Map<number, Arrival>();
  private readonly waiting = new Map<number, (arrival: Arrival) => void>();

  report(index: number, arrival: Arrival): void {
    const resolve = this.waiting.get(index);
    if (resolve) {
      this.waiting.delete(index);
      resolve(arrival);
    } else this.arrived.set(index, arrival);
  }

  clear(): void {
    this.arrived.clear();
    this.waiting.clear();
  }

  async of(index: number, card: Card): Promise<Arrival> {
    const early = this.arrived.get(index);
    if (early) return early;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        new Promise<Arrival>((resolve) => this.waiting.set(index, resolve)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`bench: card ${index + 1} (${card}) did not appear on the page within ${CARD_TIMEOUT_MS} ms`)), CARD_TIMEOUT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}

interface ClockReading {
  /** Our clock when it was read. */
  readonly at: number;
  /** The page's clock minus ours. */
  readonly offset: number;
  /** The most the offset can be wrong by: half the round trip. */
  readonly bound: number;
}

/** The page's clock minus ours, from the round trip (of 30) that bounds it best. */
async function clockOffset(page: Page): Promise<ClockReading> {
  let best: ClockReading = { at: 0, offset: 0, bound: Number.POSITIVE_INFINITY };
  for (let trip = 0; trip < 30; trip += 1) {
    const before = epochNow();
    const pageNow = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
    const after = epochNow();
    if ((after - before) / 2 < best.bound) best = { at: (before + after) / 2, offset: pageNow - (before + after) / 2, bound: (after - before) / 2 };
  }
  return best;
}

export interface LatencyResult {
  readonly figures: BenchFigure[];
  readonly details: Record<string, unknown>;
}

export async function latencyBenchmarks(): Promise<LatencyResult> {
  requireChromium();
  const profile = BUILT_IN_PROFILES.text as DeviceProfile;
  let pair: PtyPair | undefined;
  let app: RunningConsole | undefined;
  let browser: Browser | undefined;
  let writer: PtyWriter | undefined;
  try {
    pair = await PtyPair.create('bench');
    // A console that has been in use: 10,000 events of confirmed races in its journal, all in the
    // history the page holds. A card must not cost more for that (it did while every card pushed
    // the whole state, history included).
    const dataDir = benchDir('latency');
    const history = writeJournal(join(dataDir, 'journal.jsonl'), await playTemplateRaces(join(dataDir, 'template')), HISTORY_EVENTS, true);
    app = await startConsole(dataDir);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const arrivals = new Arrivals();
    await page.exposeBinding('__benchCardSeen', (_source, index: number, arrival: Arrival) => arrivals.report(index, arrival));
    await page.addInitScript({ content: RECORDER });
    await page.goto(app.url);
    await page.waitForSelector('[data-testid="view-setup"]', { timeout: 20_000 });
    const clockBefore = await clockOffset(page);

    const settings: ConsoleSettings = { ...DEFAULT_SETTINGS, table: TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } };
    await bridgeCall(app.url, 'saveSettings', settings);

    const samples: { sent: number; arrival: Arrival }[] = [];
    const races: { seed: number; cards: number }[] = [];
    const gaps = seededRandom(20261129);
    for (let seed = 1; samples.length < MIN_CARDS; seed += 1) {
      const cards = raceCards(seed);
      races.push({ seed, cards: cards.length });
      await bridgeCall(app.url, 'startRace', COUNTS);
      await page.waitForSelector('[data-testid="view-dealing"]');
      if (writer === undefined) {
        // The service's port must be open first: a pseudo-terminal drops what was written before.
        await page.waitForSelector('[data-testid="source-status"][data-state="connected"]', { timeout: 15_000 });
        writer = await PtyWriter.open(pair.a);
      }
      arrivals.clear();
      const shown = (await page.evaluate(`globalThis.__benchRecorder.seen = document.querySelectorAll('${DEALT}').length`)) as number;
      if (shown !== 0) throw new Error(`bench: a new race shows ${shown} dealt cards`);
      for (const [index, card] of cards.entries()) {
        const sent = epochNow();
        await writer.write(encodeCard(card, profile));
        samples.push({ sent, arrival: await arrivals.of(index, card) });
        await sleep(GAP_MS.min + gaps() * (GAP_MS.max - GAP_MS.min));
      }
      // The race is over only if the service took every card as the engine did: the result screen shows them all.
      await page.waitForSelector('[data-testid="view-result"]');
      const onPage = (await page.evaluate(`Array.from(document.querySelectorAll('${DEALT}'), (element) => element.getAttribute('data-card'))`)) as string[];
      if (JSON.stringify([...onPage].sort()) !== JSON.stringify([...cards].sort())) {
        throw new Error(`bench: the page shows other cards than the shoe sent (race ${races.length}: ${onPage.length} shown, ${cards.length} sent)`);
      }
      // The service confirms only the race it is named (a stale screen cannot confirm the next one).
      const { race } = (await bridgeCall(app.url, 'getState')) as ConsoleState;
      if (race === null) throw new Error('bench: no race open to confirm');
      await bridgeCall(app.url, 'confirmRace', race.id);
      await page.waitForSelector('[data-testid="view-result"]', { state: 'detached' });
    }
    const clockAfter = await clockOffset(page);
    // The offset drifts a little between the readings: take it as a straight line between them.
    const offsetAt = (at: number) => clockBefore.offset + ((clockAfter.offset - clockBefore.offset) * (at - clockBefore.at)) / (clockAfter.at - clockBefore.at);
    // Each reading's bound, and the page's timer resolution (Chromium coarsens performance.now() to 0.1 ms).
    const clockError = Math.max(clockBefore.bound, clockAfter.bound) + 0.1;
    const toScreen = samples.map(({ sent, arrival }) => arrival.painted - offsetAt(sent) - sent);
    const stages = {
      toPage: samples.map(({ sent, arrival }) => arrival.message - offsetAt(sent) - sent),
      pageToDom: samples.map(({ arrival }) => arrival.inDom - arrival.message),
      frameWait: samples.map(({ arrival }) => arrival.frame - arrival.inDom),
      frameRender: samples.map(({ arrival }) => arrival.painted - arrival.frame),
      messageChars: samples.map(({ arrival }) => arrival.bytes),
    };
    const cards = samples.length;
    const p95 = round1(percentile(toScreen, 95));
    return {
      figures: [
        { name: `shoe-to-screen latency p50 (pty → browser mode → Chromium, ${cards} cards, ${history.confirmed} races in history)`, value: round1(percentile(toScreen, 50)), unit: 'ms', target: P50_TARGET_MS, better: 'lower' },
        { name: `shoe-to-screen latency p95 (pty → browser mode → Chromium, ${cards} cards, ${history.confirmed} races in history)`, value: p95, unit: 'ms', target: 30, better: 'lower' },
      ],
      details: {
        method:
          'bytes written to a socat pty pair (serial source, text decoder) → card rendered in Chromium; page and bench clocks compared by round trips; "rendered" = the frame after the dealt-card element entered the DOM',
        cards,
        history: { events: history.events, racesConfirmed: history.confirmed, journalBytes: history.bytes },
        races,
        gapMs: GAP_MS,
        toScreenMs: { p50: round1(percentile(toScreen, 50)), p95, max: round1(Math.max(...toScreen)), min: round1(Math.min(...toScreen)) },
        // Where the time goes: bytes written → state message in the page (serial, decoder, service,
        // journal fsync, bridge) → card in the DOM (store, Vue) → next frame starts → frame rendered.
        stages: Object.fromEntries(
          Object.entries(stages).map(([stage, values]) => [stage, { p50: round1(percentile(values, 50)), p95: round1(percentile(values, 95)), max: round1(Math.max(...values)) }]),
        ),
        clock: { offsetBeforeMs: round2(clockBefore.offset), offsetAfterMs: round2(clockAfter.offset), errorBoundMs: round2(clockError) },
      },
    };
  } finally {
    await writer?.close();
    await browser?.close();
    await stopConsoles(app);
    await pair?.dispose();
  }
}

import type { BenchFigure } from './report';
import { percentile, round1, round2 } from './support';

/** What the page saw of one card (or one bare frame), in the page's clock (epoch milliseconds). */
export interface Arrival {
  /** When the message holding the card reached the page. */
  readonly message: number;
  /** Its length (characters of JSON, or of the bare frame). */
  readonly bytes: number;
  /** The card's element is in the DOM. */
  readonly inDom: number;
  /** The next animation frame's callbacks: the frame that renders the card starts. */
  readonly frame: number;
  /** That frame has been rendered (style, layout, paint). */
  readonly painted: number;
}

/** One card: when its bytes went to the pseudo-terminal (our clock) and what the page saw. */
export interface Sample {
  readonly sent: number;
  readonly arrival: Arrival;
}

export interface ClockReading {
  /** Our clock when it was read. */
  readonly at: number;
  /** The page's clock minus ours. */
  readonly offset: number;
  /** The most the offset can be wrong by: half the round trip. */
  readonly bound: number;
}

/** The page's clock minus ours at any moment: it drifts a little, so a straight line through a reading before and one after. */
export function offsetBetween(before: ClockReading, after: ClockReading): (at: number) => number {
  if (after.at === before.at) return () => before.offset;
  return (at) => before.offset + ((after.offset - before.offset) * (at - before.at)) / (after.at - before.at);
}

/** Where a card's time goes, in milliseconds, one value per sample. */
export interface Stages {
  /** Bytes written → the message in the page (for the console: serial, decoder, service, journal fsync, bridge). */
  readonly toPage: number[];
  /** Message in the page → the card in the DOM (for the console: the store and Vue). */
  readonly pageToDom: number[];
  /** Bytes written → the card in the DOM: the two above, no frame waited for. */
  readonly toDom: number[];
  /** Card in the DOM → the next frame starts (the page's frame rhythm, not its work). */
  readonly frameWait: number[];
  /** That frame's style, layout and paint. */
  readonly frameRender: number[];
  /** Bytes written → the frame showing the card rendered: shoe to screen. */
  readonly toScreen: number[];
}

export function stagesOf(samples: readonly Sample[], offsetAt: (at: number) => number): Stages {
  // A moment of ours in the page's clock.
  const sentInPage = ({ sent }: Sample) => sent + offsetAt(sent);
  return {
    toPage: samples.map((sample) => sample.arrival.message - sentInPage(sample)),
    pageToDom: samples.map(({ arrival }) => arrival.inDom - arrival.message),
    toDom: samples.map((sample) => sample.arrival.inDom - sentInPage(sample)),
    frameWait: samples.map(({ arrival }) => arrival.frame - arrival.inDom),
    frameRender: samples.map(({ arrival }) => arrival.painted - arrival.frame),
    toScreen: samples.map((sample) => sample.arrival.painted - sentInPage(sample)),
  };
}

export interface Spread {
  readonly p50: number;
  readonly p95: number;
  readonly min: number;
  readonly max: number;
}

/** Median, p95 (nearest rank), least and most, to 0.1. */
export function spreadOf(values: readonly number[]): Spread {
  return { p50: round1(percentile(values, 50)), p95: round1(percentile(values, 95)), min: round1(Math.min(...values)), max: round1(Math.max(...values)) };
}

/** `value` as a multiple of `baseline`, to 0.01. */
export function ratioOf(value: number, baseline: number): number {
  if (!(baseline > 0)) throw new Error(`bench: a ratio to a baseline of ${baseline}`);
  return round2(value / baseline);
}

/**
 * What the page itself does for a card, the part of shoe-to-screen the page's code controls (issue
 * 42: the share and the ratio are wall times that follow the machine, so they are shown, and this
 * gates, as the service's CPU per card does): the main thread's task time in Chromium's performance
 * metrics (Performance.getMetrics' TaskDuration: script, style, layout and paint) from before each
 * race's first card to its result shown, over the cards dealt. Measured 17.21, 14.25 and 14.47 ms
 * in three looks on 2026-12-06 (the page's periodic work between cards included); a quarter above
 * the highest.
 */
const PAGE_CPU_PER_CARD_MS = 22;
/**
 * Targets. The absolute ones are the first (p95 30 ms) and ours (p50 25 ms: a median card
 * already waits about half a 60 Hz frame, 8 ms, for the next frame and some 4 ms for it to
 * render); the p50 is reported, the p95 gates (it follows the machine: 31–37 ms at p95 on slow
 * stretches of a healthy one, hence the second looks of bench/secondLook.ts). Issue 22 sets the console's share at p95 ≤ 8 ms and the
 * shoe-to-screen p95 ≤ 1.5 × the bare path's.
 */
export const LATENCY_TARGETS = { p50Ms: 25, p95Ms: 30, shareP95Ms: 8, ratioP95: 1.5, pageCpuPerCardMs: PAGE_CPU_PER_CARD_MS } as const;

const ABSOLUTE_NOTE = "the machine's figure";
/**
 * The ratio has not met its 1.5× here. Last session: 2.25–3.77× on ten measurements, 2.71× on the
 * quietest, most of it the console's page waiting for its next frame behind the 0.9 s card-flash
 * animation (6.1 / 12.4 ms p50/p95 against the bare page's 0.6 / 1.9 ms). The flash is now held,
 * not animated (renderer/styles/cards.css), and a card redraws only the seat and grid row it
 * changes: the console's frame wait went 6.0–6.6 → 2.8–3.5 ms at p50 and its shoe-to-screen p50
 * 23–29 → 18–21 ms, in runs interleaved with the version before on the shared 2-core machine (load
 * 2–8; four runs before, three after). The p95 ratio did not follow: 2.01–2.24× after, 1.93–2.64×
 * before, the tails being the same stages at p95 (console / bare, ms): pty → page 11–23 / 6–13
 * (service, journal append and fsync, bridge), page → DOM 8–9 / 1–1.5 (JSON, store, Vue), frame
 * wait 9–10 / 3.5–4.2, frame render 11–14 / 7–8 (a bigger page). So the absolute p95 stays the gate
 * it was (30 ms, met in CI's quiet runs) and the ratio is measured and shown beside it.
 */
const RATIO_NOTE = "wall times that follow the machine (2.0-2.6x here, the bare path itself 5.3-10.1 ms at p95): the page's own CPU per card and the absolute p95 gate";
/**
 * The share has never met its 8 ms here: p95 10.9–13 ms on a quiet machine in an earlier attempt,
 * 13.4 ms in last session's quietest run (load average falling to 0.6) and 21.9–83.9 ms on the
 * shared machine under load (4–10), where the bare path's own pty → DOM took 4–30 ms at p95. This
 * session, interleaved with the version before on the shared machine (load 2–8): p50 / p95 9.0–10.2
 * / 16.9–31.7 ms after, 11.5–14.8 / 25.2–57.6 ms before, the bare path's own pty → DOM 3.5–4.5 /
 * 7.2–20 ms (so on this machine the 8 ms cannot be judged). Left in it (p50, console / bare): pty →
 * page 5–6 / 3–3.6 ms (the service's own JavaScript is under 1 ms a card in a CPU profile; the rest
 * is waiting between its steps, not yet measured one by one: the serial stream, the command queue,
 * the journal's append and its fsync, each a thread-pool round trip, the WebSocket write), page → DOM 3.4 / 0.3–0.4 ms. It gates nothing until the
 * console's path fits it.
 */
const SHARE_NOTE = "a wall time that follows the machine (5.7 ms p95 in one clean-clone run, 12.9-31.7 ms in others): the page's own CPU per card and the absolute p95 gate";

export interface LatencyMeasured {
  /** Cards dealt through the console, and the confirmed races in its history. */
  readonly cards: number;
  readonly racesInHistory: number;
  readonly bareCards: number;
  /** Shoe to screen through the console. */
  readonly toScreen: Spread;
  /** The console's share: pty → card in the DOM, no frame wait. */
  readonly share: Spread;
  /** Shoe to screen down the bare path. */
  readonly bareToScreen: Spread;
  /** The console's page's main thread per card dealt (Chromium's performance metrics over the races' dealing), ms. */
  readonly pageCpuPerCardMs: number;
}

/** The latency group's figures: the absolute p95 gating, the ratio to the bare path and the console's share beside it. */
export function latencyFigures(measured: LatencyMeasured): BenchFigure[] {
  const path = `pty → browser mode → Chromium, ${measured.cards} cards, ${measured.racesInHistory} races in history`;
  return [
    { name: `shoe-to-screen latency p50 (${path})`, value: measured.toScreen.p50, unit: 'ms', target: LATENCY_TARGETS.p50Ms, better: 'lower', reportOnly: ABSOLUTE_NOTE },
    { name: `shoe-to-screen latency p95 (${path})`, value: measured.toScreen.p95, unit: 'ms', target: LATENCY_TARGETS.p95Ms, better: 'lower' },
    { name: `bare path p95 (pty → a tiny process → WebSocket → Chromium, no console; ${measured.bareCards} cards interleaved)`, value: measured.bareToScreen.p95, unit: 'ms', better: 'lower' },
    { name: "shoe-to-screen p95 ÷ the bare path's p95", value: ratioOf(measured.toScreen.p95, measured.bareToScreen.p95), unit: '×', target: LATENCY_TARGETS.ratioP95, better: 'lower', reportOnly: RATIO_NOTE },
    { name: "console's share p95 (pty → state message in the page → card in the DOM, no frame wait)", value: measured.share.p95, unit: 'ms', target: LATENCY_TARGETS.shareP95Ms, better: 'lower', reportOnly: SHARE_NOTE },
    { name: "the console page's own work per card (script, style, layout, paint: Chromium's TaskDuration over the races dealt)", value: measured.pageCpuPerCardMs, unit: 'ms', target: LATENCY_TARGETS.pageCpuPerCardMs, better: 'lower' },
  ];
}

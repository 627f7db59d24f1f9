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

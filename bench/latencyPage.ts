import type { Page } from '@playwright/test';
import type { Card } from '../engine/cards';
import type { Arrival, ClockReading } from './latencyFigures';
import { epochNow } from './support';

/**
 * The page's side of the latency bench, the same for the console's page and the bare path's: what
 * the page records of each card, and its clock against ours.
 *
 * "Visible": a MutationObserver sees the card's `dealt-card` element in the DOM; the figure is taken
 * once the frame holding it has been rendered (the next requestAnimationFrame, then a message
 * posted from it, which runs after that frame's style, layout and paint). The compositor's and the
 * monitor's share (headless, software: none; a real 60 Hz screen adds up to one refresh, 16.7 ms)
 * is outside what a page can observe.
 */

export const DEALT = '[data-testid="dealt-card"]';
const CARD_TIMEOUT_MS = 10_000;

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
  // When a message reaches the page: a listener of our own, added before the page's.
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

/** Arrivals reported by one page, by card index (since the last `clear`). */
export class Arrivals {
  private readonly arrived = new Map<number, Arrival>();
  private readonly waiting = new Map<number, (arrival: Arrival) => void>();

  /** Records what `page` sees from its first moment: call before the page is loaded. */
  static async watch(page: Page): Promise<Arrivals> {
    const arrivals = new Arrivals();
    await page.exposeBinding('__benchCardSeen', (_source, index: number, arrival: Arrival) => arrivals.report(index, arrival));
    await page.addInitScript({ content: RECORDER });
    return arrivals;
  }

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

/**
 * The page's clock minus ours, from the round trip (of 30) that bounds it best. Both sides read
 * `performance.timeOrigin + performance.now()` (epoch milliseconds, monotonic within a process);
 * the tightest round trip bounds the error to half its length.
 */
export async function clockOffset(page: Page): Promise<ClockReading> {
  let best: ClockReading = { at: 0, offset: 0, bound: Number.POSITIVE_INFINITY };
  for (let trip = 0; trip < 30; trip += 1) {
    const before = epochNow();
    const pageNow = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
    const after = epochNow();
    if ((after - before) / 2 < best.bound) best = { at: (before + after) / 2, offset: pageNow - (before + after) / 2, bound: (after - before) / 2 };
  }
  return best;
}

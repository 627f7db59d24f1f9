import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from '../e2e/harness/console';
import type { BenchFigure } from './report';
import { benchDir, CHROMIUM_ARGS, CHROMIUM_PATH, percentile, requireChromium, ROOT } from './support';

/**
 * The renderer: the JavaScript it ships (gzip) and how soon after navigation the setup screen can
 * be used, in Chromium against browser mode.
 */

const LOADS = 10;

function javascriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every script of the built renderer, gzipped one by one (zlib's default level 6, as gzip and most servers use). */
function shippedJavascript(): { gzipBytes: number; rawBytes: number; files: Record<string, number> } {
  const dir = join(ROOT, 'out', 'renderer');
  const files = javascriptFiles(dir);
  if (files.length === 0) throw new Error(`bench: no JavaScript in ${dir}: did the build run?`);
  let gzipBytes = 0;
  let rawBytes = 0;
  const sizes: Record<string, number> = {};
  for (const file of files) {
    const content = readFileSync(file);
    const zipped = gzipSync(content).length;
    gzipBytes += zipped;
    rawBytes += content.length;
    sizes[relative(ROOT, file)] = zipped;
  }
  return { gzipBytes, rawBytes, files: sizes };
}

/**
 * Installed before the page's own scripts: records `performance.now()` (milliseconds since the
 * navigation started) once the setup screen's save button is in the page, enabled and visible, and
 * the frame showing it has been rendered (the next animation frame, then a message posted from it).
 */
const READY_PROBE = `(() => {
  const ready = () => {
    const button = document.querySelector('[data-testid="setup-save"]');
    if (button === null || button.disabled || document.querySelector('[data-testid="loading"]') !== null) return false;
    return typeof button.checkVisibility === 'function' ? button.checkVisibility() : button.getClientRects().length > 0;
  };
  const observer = new MutationObserver(() => {
    if (!ready()) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => globalThis.__benchSetupReady(performance.now());
      channel.port2.postMessage(null);
    });
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

export interface RendererResult {
  readonly figures: BenchFigure[];
  readonly details: Record<string, unknown>;
}

export async function rendererBenchmarks(): Promise<RendererResult> {
  requireChromium();
  const shipped = shippedJavascript();
  let app: RunningConsole | undefined;
  let browser: Browser | undefined;
  const loads: number[] = [];
  const milestones: { html: number; domContentLoaded: number }[] = [];
  try {
    app = await startConsole(benchDir('renderer'));
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    for (let load = 0; load < LOADS; load += 1) {
      // A new context each time: no HTTP cache, no page state; the console opened afresh.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        let resolveReady: (at: number) => void = () => undefined;
        const ready = new Promise<number>((resolve) => (resolveReady = resolve));
        await page.exposeBinding('__benchSetupReady', (_source, at: number) => resolveReady(at));
        await page.addInitScript({ content: READY_PROBE });
        // The printed address, as the dealer opens it: its 303 (the key set as a cookie) is part of the load.
        await page.goto(app.url);
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('bench: the setup screen did not become interactive within 20 s')), 20_000);
        });
        loads.push(await Promise.race([ready, timeout]).finally(() => clearTimeout(timer)));
        // Where the time went: the page's own navigation timing (ms since navigation start).
        milestones.push(
          (await page.evaluate(
            `(() => { const n = performance.getEntriesByType('navigation')[0]; return { html: Math.round(n.responseEnd), domContentLoaded: Math.round(n.domContentLoadedEventEnd) }; })()`,
          )) as { html: number; domContentLoaded: number },
        );
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser?.close();
    await stopConsoles(app);
  }
  const median = Math.round(percentile(loads, 50));
  return {
    figures: [
      { name: 'renderer: JavaScript shipped, gzip (out/renderer)', value: Math.round(shipped.gzipBytes / 102.4) / 10, unit: 'KB', target: 200, better: 'lower' },
      { name: `renderer: navigation to interactive setup screen, median of ${LOADS} cold loads`, value: median, unit: 'ms', target: 1500, better: 'lower' },
    ],
    details: {
      javascript: { gzipBytes: shipped.gzipBytes, rawBytes: shipped.rawBytes, gzipBytesByFile: shipped.files },
      setupScreen: {
        method:
          'fresh browser context per load (no cache); navigation start (performance.timeOrigin) to the frame rendered after setup-save is present, enabled and visible with the service state loaded',
        loadsMs: loads.map(Math.round),
        // Medians: the HTML received, the scripts run (DOMContentLoaded); the rest is the bridge connecting and the first state.
        htmlMs: percentile(milestones.map((entry) => entry.html), 50),
        domContentLoadedMs: percentile(milestones.map((entry) => entry.domContentLoaded), 50),
        medianMs: median,
        maxMs: Math.round(Math.max(...loads)),
      },
    },
  };
}

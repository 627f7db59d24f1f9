// The history's export on a long journal, in a fresh process (bench/historyExport.ts runs it):
// `node --expose-gc --import tsx bench/exportChild.ts DATA_DIR OUT_DIR` starts the console on
// DATA_DIR, then downloads the CSV and the JSON from browser mode's address (the station's
// streamed route; the bytes counted and dropped, as a browser writing them to disk would take
// them) and saves the CSV to a file as the Electron window's save does. It prints one JSON line, an
// ExportReport: each export's bytes, time and the process's memory while it ran.
import { request } from 'node:http';
import { join } from 'node:path';
import { writeChunksAtomically } from '../station/service/atomicWrite';
import { ConsoleService } from '../station/service/service';
import { cookieName } from '../station/web/access';
import { newKey } from '../station/web/key';
import { startWebServer } from '../station/web/server';

export interface ExportRun {
  readonly how: 'download' | 'file';
  readonly format: 'csv' | 'json';
  readonly bytes: number;
  readonly ms: number;
  /** Resident memory just before the export (after a full GC), and the most sampled while it ran (every 10 ms), MB. */
  readonly rssBeforeMb: number;
  readonly rssPeakMb: number;
  /** The JS heap in use just before, and the most sampled while it ran, MB. */
  readonly heapBeforeMb: number;
  readonly heapPeakMb: number;
  /** The JS heap in use after it, after a full GC: what the export left behind, MB. */
  readonly heapAfterMb: number;
}

export interface ExportReport {
  readonly races: number;
  readonly startMs: number;
  /** The process's peak resident memory over its whole life (the start's included), MB. */
  readonly maxRssMb: number;
  readonly runs: readonly ExportRun[];
  /** Summaries the history held made (not lazy) before and after the exports: the export must keep none. */
  readonly summariesKept: { readonly before: number; readonly after: number };
}

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Runs `work`, sampling memory every 10 ms; its figures beside the work's own. */
async function sampled(work: () => Promise<number>): Promise<Omit<ExportRun, 'how' | 'format'>> {
  gc();
  const before = process.memoryUsage();
  let rssPeak = before.rss;
  let heapPeak = before.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 10);
  const started = performance.now();
  try {
    const bytes = await work();
    const ms = performance.now() - started;
    const now = process.memoryUsage();
    gc();
    return { bytes, ms, rssBeforeMb: before.rss / MB, rssPeakMb: Math.max(rssPeak, now.rss) / MB, heapBeforeMb: before.heapUsed / MB, heapPeakMb: Math.max(heapPeak, now.heapUsed) / MB, heapAfterMb: process.memoryUsage().heapUsed / MB };
  } finally {
    clearInterval(timer);
  }
}

/** A download from the station's address, its bytes counted and dropped. */
function download(url: string, cookie: string, path: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path, headers: { cookie } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`bench: ${path} answered ${response.statusCode}`));
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const made = (service: ConsoleService) => service.history().filter((entry) => Object.getOwnPropertyDescriptor(entry, 'summary')?.get === undefined).length;

const [dataDir, outDir] = process.argv.slice(2);
if (dataDir === undefined || outDir === undefined) throw new Error('usage: node --expose-gc --import tsx bench/exportChild.ts DATA_DIR OUT_DIR');
const started = performance.now();
const service = await ConsoleService.start({ dataDir });
const startMs = performance.now() - started;
const key = newKey();
const server = await startWebServer({ service, rendererDir: outDir, key, log: () => undefined });
const cookie = `${cookieName(Number(new URL(server.url).port))}=${key}`;
const before = made(service);
const runs: ExportRun[] = [];
try {
  for (const format of ['csv', 'json'] as const) {
    runs.push({ how: 'download', format, ...(await sampled(() => download(server.url, cookie, `/export/history.${format}`))) });
  }
  runs.push({ how: 'file', format: 'csv', ...(await sampled(async () => writeChunksAtomically(join(outDir, 'history.csv'), (await service.historyExport('csv')).pieces))) });
} finally {
  await server.close();
}
const report: ExportReport = { races: service.history().length, startMs, maxRssMb: process.resourceUsage().maxRSS / 1024, runs, summariesKept: { before, after: made(service) } };
await service.close();
process.stdout.write(`${JSON.stringify(report)}\n`);

import { mkdtempSync, writeFileSync } from 'node:fs';
import { rawRequest } from './testing/rawRequest';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../protocol/contract';
import { historyCsv, historyJson } from '../../replay/historyExport';
import { ConsoleService } from '../service/service';
import { DEFAULT_SETTINGS } from '../service/settings';
import type { ExportFormat, HistoryExport } from '../service/historyCommands';
import { cookieName, displayCookieName } from './access';
import { exportFormatOf, writePieces } from './exportRoute';
import { newKey } from './key';
import { startWebServer, type WebServer } from './server';

const rendererDir = mkdtempSync(join(tmpdir(), 'renderer-'));
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Chip Race Console</title>');

const clock = () => new Date('2026-11-29T12:00:00Z');
const SETTINGS = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Jo, "the rock"' }, { seat: 3, name: '=cmd' }], button: 3 } };
const COUNTS = [{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }];
const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];

interface Running {
  readonly service: ConsoleService;
  readonly server: WebServer;
  readonly port: number;
  readonly key: string;
  readonly displayKey: string;
  /** Our own page's headers: its Host and its key's cookie. */
  readonly own: Record<string, string>;
}

const started: Running[] = [];
afterEach(async () => {
  for (const running of started.splice(0)) {
    await running.server.close();
    await running.service.close();
  }
});

/** Browser mode over a service (or the same service with its export replaced), the display given a key of its own. */
async function serve(service: ConsoleService, historyExport?: (format: ExportFormat) => Promise<HistoryExport>): Promise<Running> {
  const key = newKey();
  const displayKey = newKey();
  const served = historyExport === undefined ? service : Object.assign(Object.create(service) as ConsoleService, { historyExport });
  const server = await startWebServer({ service: served, rendererDir, key, displayKey, log: () => undefined });
  const port = Number(new URL(server.url).port);
  const running = { service, server, port, key, displayKey, own: { host: `127.0.0.1:${port}`, cookie: `${cookieName(port)}=${key}` } };
  started.push(running);
  return running;
}

/** A station with three confirmed races, started again so its history is replayed from the journal (each summary made only when read). */
async function stationWithRaces(): Promise<ConsoleService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'export-data-'));
  const first = await ConsoleService.start({ dataDir, clock, station: 'pc-1' });
  expect(await first.saveSettings(SETTINGS)).toEqual({ ok: true, value: null });
  for (const race of ['race-1', 'race-2', 'race-3']) {
    expect(await first.startRace(COUNTS)).toEqual({ ok: true, value: null });
    for (const card of CARDS) await first.dealCard(race, card);
    expect(await first.confirmRace(race)).toEqual({ ok: true, value: null });
  }
  await first.close();
  return ConsoleService.start({ dataDir, clock, station: 'pc-1' });
}

const get = rawRequest;

const notMadeYet = (entry: HistoryEntry) => typeof Object.getOwnPropertyDescriptor(entry, 'summary')?.get === 'function';

describe('the history export download (browser mode)', () => {
  it('is the export as the one-string export wrote it, as an attachment, and leaves the history holding no summary it did not hold', async () => {
    const service = await stationWithRaces();
    const running = await serve(service);
    const history = service.history();
    expect(history).toHaveLength(3);
    expect(history.every(notMadeYet)).toBe(true);
    const journal = service.getState().journal;
    const csv = await get(running.port, '/export/history.csv', running.own);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="chip-races-2026-11-29.csv"');
    expect(csv.headers['content-length']).toBeUndefined();
    expect(csv.headers['transfer-encoding']).toBe('chunked');
    expect(csv.headers['x-content-type-options']).toBe('nosniff');
    expect(history.every(notMadeYet)).toBe(true);
    const json = await get(running.port, '/export/history.json', running.own);
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toBe('attachment; filename="chip-races-2026-11-29.json"');
    expect(history.every(notMadeYet)).toBe(true);
    // The one-string exports read every summary (and keep it): after the downloads, as the reference.
    expect(csv.body).toBe(historyCsv(history, journal));
    expect(json.body).toBe(historyJson(history, journal));
    expect(csv.body.split('\r\n')).toHaveLength(5);
    expect(csv.body).toContain(`"1 Matti (A♥); 2 Jo, ""the rock"" (10♠)"`);
    expect(JSON.parse(json.body).races.map((race: { id: string }) => race.id)).toEqual(['race-1', 'race-2', 'race-3']);
    // HEAD: the headers only.
    const head = await get(running.port, '/export/history.csv', running.own, 'HEAD');
    expect([head.status, head.headers['content-disposition'], head.body]).toEqual([200, 'attachment; filename="chip-races-2026-11-29.csv"', '']);
  });

  it('starts the CSV with a byte-order mark, separates it as the station’s language does unless ?sep= says, and refuses a separator it does not write', async () => {
    const service = await stationWithRaces();
    const running = await serve(service);
    const journal = service.getState().journal;
    const csv = await get(running.port, '/export/history.csv', running.own);
    expect(csv.body.startsWith('\uFEFFrace,table,level,station,started,started local,confirmed,confirmed local,')).toBe(true);
    const semi = await get(running.port, '/export/history.csv?sep=%3B', running.own);
    expect(semi.status).toBe(200);
    expect(semi.body).toBe(historyCsv(service.history(), journal, { separator: ';' }));
    expect(semi.body.startsWith('\uFEFFrace;table;level;')).toBe(true);
    expect((await get(running.port, '/export/history.csv?sep=semicolon', running.own)).body).toBe(semi.body);
    expect((await get(running.port, '/export/history.csv?sep=tab', running.own)).status).toBe(400);
    // A Finnish station: ';' unless asked for ','.
    expect(await service.setLanguage('fi')).toEqual({ ok: true, value: null });
    expect((await get(running.port, '/export/history.csv', running.own)).body).toBe(semi.body);
    expect((await get(running.port, '/export/history.csv?sep=,', running.own)).body).toBe(csv.body);
  });

  it('is refused without the key, with the player display’s key, and under another Host, like every other address', async () => {
    const running = await serve(await ConsoleService.start({ dataDir: mkdtempSync(join(tmpdir(), 'export-data-')), clock }));
    let asked = 0;
    const counting = await serve(running.service, async (format) => {
      asked += 1;
      return running.service.historyExport(format);
    });
    for (const path of ['/export/history.csv', '/export/history.json']) {
      const own = counting.own;
      expect((await get(counting.port, path, own)).status).toBe(200);
      expect((await get(counting.port, path, { host: own.host })).status).toBe(403);
      expect((await get(counting.port, path, { host: own.host, cookie: `${cookieName(counting.port)}=${newKey()}` })).status).toBe(403);
      // The display's key opens the display's page and nothing else: not the export.
      const display = await get(counting.port, path, { host: own.host, cookie: `${displayCookieName(counting.port)}=${counting.displayKey}` });
      expect(display.status).toBe(403);
      expect(display.headers['content-disposition']).toBeUndefined();
      expect((await get(counting.port, `${path}?key=${counting.displayKey}`, { host: own.host })).status).toBe(403);
      // DNS rebinding: another name for loopback, even with the cookie.
      expect((await get(counting.port, path, { ...own, host: `attacker.example:${counting.port}` })).status).toBe(421);
      // Another site's script.
      expect((await get(counting.port, path, { ...own, origin: 'http://attacker.example' })).status).toBe(403);
      expect((await get(counting.port, path, own, 'POST')).status).toBe(405);
    }
    // Only the two with the key reached the service.
    expect(asked).toBe(2);
    expect(exportFormatOf('/export/history.xml')).toBeNull();
    expect(exportFormatOf('/export/constructor')).toBeNull();
    expect((await get(counting.port, '/export/history.xml', counting.own)).headers['content-disposition']).toBeUndefined();
  });

  it('streams: the first pieces reach the browser before the rest is made, and no faster than it reads them', async () => {
    const service = await ConsoleService.start({ dataDir: mkdtempSync(join(tmpdir(), 'export-data-')), clock });
    const PIECES = 400;
    const PIECE = 'x'.repeat(64 * 1024);
    let made = 0;
    const running = await serve(service, async () => ({
      file: 'chip-races-2026-11-29.csv',
      pieces: (function* pieces() {
        for (; made < PIECES; ) {
          made += 1;
          yield PIECE;
        }
      })(),
    }));
    const { response, madeAtFirst } = await new Promise<{ response: IncomingMessage; madeAtFirst: number }>((resolve, reject) => {
      request({ host: '127.0.0.1', port: running.port, path: '/export/history.csv', headers: running.own, setHost: false }, (answer) => {
        answer.once('data', () => {
          answer.pause();
          resolve({ response: answer, madeAtFirst: made });
        });
      })
        .on('error', reject)
        .end();
    });
    expect(madeAtFirst).toBeLessThan(PIECES);
    // The browser reads nothing for a while: the station makes only what the socket's buffers take (a few MB), not the 25 MB.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const madeWhilePaused = made;
    expect(madeWhilePaused).toBeLessThan(PIECES / 2);
    let bytes = 0;
    response.on('data', (chunk: Buffer) => (bytes += chunk.length));
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    expect(made).toBe(PIECES);
    expect(bytes).toBeGreaterThanOrEqual((PIECES - madeWhilePaused) * PIECE.length);
  });
});

describe('writing the pieces', () => {
  /** A sink that takes `room` pieces before its write says wait, and drains when told. */
  class SlowSink extends Writable {
    readonly got: string[] = [];
    private pending: (() => void) | null = null;
    constructor() {
      super({ highWaterMark: 2, decodeStrings: false, objectMode: true });
    }
    override _write(piece: string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
      this.got.push(piece);
      this.pending = done;
    }
    release(): void {
      const pending = this.pending;
      this.pending = null;
      pending?.();
    }
  }

  it('makes the next piece only when the sink has room, and stops making them when it goes away', async () => {
    const sink = new SlowSink();
    let made = 0;
    const pieces = (function* pieces() {
      for (; made < 100; ) {
        made += 1;
        yield `piece ${made}`;
      }
    })();
    const writing = writePieces(sink, pieces);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One being written, one waiting in the sink's buffer: nothing more made until it drains.
    expect(made).toBe(2);
    sink.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(made).toBeLessThanOrEqual(4);
    sink.destroy();
    expect(await writing).toBe(false);
    expect(made).toBeLessThanOrEqual(4);
  });

  it('writes every piece in order to a sink that keeps up', async () => {
    const got: string[] = [];
    const sink = new Writable({ decodeStrings: false, write: (piece: string, _encoding, done) => (got.push(piece), done()) });
    expect(await writePieces(sink, ['a', 'b', 'c'])).toBe(true);
    expect(got).toEqual(['a', 'b', 'c']);
  });
});

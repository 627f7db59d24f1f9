import type { ServerResponse } from 'node:http';
import { decisionWordIn, parseSeparator, separatorFor } from '../../replay/csv';
import { floorCsvChunks, floorJsonChunks } from '../export';
import { summaryCsv, summaryJson, tournamentSummary } from '../summary';
import { HEADERS, send } from './answer';
import type { Exchange, FloorHttp } from './route';

/** How many whole-floor exports are written at once; the others wait their turn (streamExport). */
const EXPORTS_AT_ONCE = 2;

/** At most `n` holders at a time, the others queued in order. */
function turns(n: number): { take(): Promise<void>; give(): void } {
  let free = n;
  const waiting: (() => void)[] = [];
  return {
    take: () => {
      if (free > 0) {
        free -= 1;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    give: () => {
      const next = waiting.shift();
      if (next === undefined) free += 1;
      else next();
    },
  };
}

/**
 * How long an export waits for its reader to take more before the connection is cut: a client
 * that stops reading (a laptop closed mid-download) would hold one of the EXPORTS_AT_ONCE turns,
 * and its place in line, for as long as its connection lasted.
 */
export const EXPORT_STALL_MS = 60_000;

/**
 * Resolves when `response` takes more (drained), or is closed; a response that takes nothing for
 * `stallMs` is destroyed (then it resolves, closed).
 */
export function writable(response: ServerResponse, stallMs: number = EXPORT_STALL_MS): Promise<void> {
  return new Promise((resolve) => {
    const stalled = setTimeout(() => response.destroy(), stallMs);
    const done = () => {
      clearTimeout(stalled);
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}

/**
 * The server's exports, EXPORTS_AT_ONCE at a time. Each is written as its pieces come (chunked;
 * HEAD: the headers only, nothing read), each written when the connection takes it. A failure
 * before the first piece is any request's (thrown, answered as the others are); after it the
 * answer has begun: the connection is cut, so the download is seen to have failed rather than
 * taken short. A connection closed stops it.
 */
export function createStreamExport(log: (line: string) => void): FloorHttp['streamExport'] {
  const exportTurn = turns(EXPORTS_AT_ONCE);
  return async (response, type, extra, head, pieces) => {
    if (head) {
      response.writeHead(200, { ...HEADERS, 'Content-Type': type, ...extra });
      response.end();
      return;
    }
    // Two at a time: the others wait their turn, so the pages answer between the pieces of two, not of every download.
    await exportTurn.take();
    if (response.destroyed) {
      // Gone while it waited its turn.
      exportTurn.give();
      return;
    }
    let first: IteratorResult<string, void>;
    try {
      first = await pieces.next();
    } catch (error) {
      exportTurn.give();
      throw error;
    }
    response.writeHead(200, { ...HEADERS, 'Content-Type': type, ...extra });
    try {
      for (let next = first; next.done !== true; next = await pieces.next()) {
        if (!response.write(next.value) && !response.destroyed) await writable(response);
        if (response.destroyed) {
          await pieces.return(undefined);
          return;
        }
      }
      response.end();
    } catch (error) {
      log(`export: ${(error as Error).message}`);
      response.destroy();
    } finally {
      exportTurn.give();
    }
  };
}

/**
 * The exports' route (/export.csv, /export.json, /export/summary.csv, /export/summary.json). The
 * CSVs: a byte-order mark, the separator the language's office expects (?lang=, else the
 * browser's) unless ?sep= says, the local times in the floor's own time zone (replay/csv.ts).
 */
export function exportFile(csv: boolean, summary: boolean) {
  return async ({ response, query, language, head }: Exchange, floor: FloorHttp): Promise<void> => {
    const separator = parseSeparator(query.get('sep') ?? '') ?? separatorFor(language);
    const file = `${summary ? 'floor-summary' : 'floor'}.${csv ? 'csv' : 'json'}`;
    const type = csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
    const disposition = { 'Content-Disposition': `attachment; filename="${file}"` };
    if (!summary) {
      // Every race of the tournament: streamed a page at a time (floor/export.ts), a pool client
      // lent for each read only, so the pages answer while exports are under way.
      await floor.streamExport(response, type, disposition, head, csv ? floorCsvChunks(floor.withClient, { separator, decisionWord: decisionWordIn(language) }) : floorJsonChunks(floor.withClient));
      return;
    }
    const body = await floor.withClient(async (client) => {
      const made = await tournamentSummary(client);
      return csv ? summaryCsv(made, { separator, decisionWord: decisionWordIn(language) }) : summaryJson(made);
    });
    send(response, 200, type, body, disposition, head);
  };
}

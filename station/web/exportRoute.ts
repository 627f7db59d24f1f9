import type { ServerResponse } from 'node:http';
import type { ExportFormat, HistoryExport } from '../service/historyCommands';
import { SECURITY_HEADERS } from './static';
import { parseSeparator, type CsvSeparator } from '../../replay/csv';

/**
 * Browser mode's download of the history's export: GET /export/history.csv or .json, behind the
 * same checks as every other address (station/web/access.ts: the console's own Host, the browser
 * key's cookie; the player display's key does not open it). The body is streamed as the service
 * produces it, a page of races at a time, and only as fast as the browser takes it: the station
 * never holds the whole export, however long its history.
 */
export const EXPORT_ROUTES: Readonly<Record<string, ExportFormat>> = {
  '/export/history.csv': 'csv',
  '/export/history.json': 'json',
};

/** The export an address asks for, or null when it is not an export's. */
export function exportFormatOf(path: string): ExportFormat | null {
  return Object.hasOwn(EXPORT_ROUTES, path) ? (EXPORT_ROUTES[path] as ExportFormat) : null;
}

/** What serves the export: the service (ConsoleService.historyExport); the CSV's separator when the address names one. */
export interface ExportSource {
  historyExport(format: ExportFormat, separator?: CsvSeparator): Promise<HistoryExport>;
}

/**
 * The CSV separator an export's address asks for: `?sep=;` (or `semicolon`, `,`, `comma`; URL-encoded
 * or not); undefined for none (the station's language chooses), null for one it does not write.
 */
export function separatorAsked(url: string | undefined): CsvSeparator | undefined | null {
  const mark = (url ?? '').indexOf('?');
  if (mark < 0) return undefined;
  const asked = new URLSearchParams((url ?? '').slice(mark + 1)).get('sep');
  return asked === null ? undefined : parseSeparator(asked);
}

const TYPES: Readonly<Record<ExportFormat, string>> = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' };

/** The part of a response (or any stream) the writer needs. */
export interface PieceSink {
  write(piece: string): boolean;
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  readonly destroyed: boolean;
}

/** Resolves true once the sink takes more (drain), false when it closed or failed first. */
function drained(sink: PieceSink): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (open: boolean) => () => {
      sink.off('drain', onDrain);
      sink.off('close', onClose);
      sink.off('error', onClose);
      resolve(open);
    };
    const onDrain = done(true);
    const onClose = done(false);
    sink.once('drain', onDrain);
    sink.once('close', onClose);
    sink.once('error', onClose);
  });
}

/**
 * Writes the pieces to the sink with backpressure: the next piece is made only when the sink has
 * taken the last one (its write said so, or it drained), and the station's other work gets a turn
 * between pieces. True when all were written; false when the sink went away first (the rest is
 * never made).
 */
export async function writePieces(sink: PieceSink, pieces: Iterable<string>): Promise<boolean> {
  for (const piece of pieces) {
    if (sink.destroyed) return false;
    if (!sink.write(piece)) {
      if (!(await drained(sink))) return false;
    } else {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return !sink.destroyed;
}

/** Answers an export's address: the file as an attachment, streamed (HEAD: its headers only). */
export async function serveExport(response: ServerResponse, method: string | undefined, source: ExportSource, format: ExportFormat, log: (line: string) => void, separator?: CsvSeparator): Promise<void> {
  let made: HistoryExport;
  try {
    made = await (separator === undefined ? source.historyExport(format) : source.historyExport(format, separator));
  } catch (error) {
    log(`exporting the history as ${format}: ${String(error)}`);
    response.writeHead(500, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('internal error\n');
    return;
  }
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': TYPES[format],
    'Content-Disposition': `attachment; filename="${made.file}"`,
  });
  if (method === 'HEAD') {
    response.end();
    return;
  }
  try {
    if (await writePieces(response, made.pieces)) response.end();
  } catch (error) {
    // Half a file already went: cut the connection so the browser reports the download failed rather than keep half of it.
    log(`exporting the history as ${format}: ${String(error)}`);
    response.destroy();
  }
}

import { MAX_SEATS, NAME_MAX, TABLE_NAME_MAX } from '../protocol/constants';
import { tableNameOf } from '../protocol/tableName';
import type { FloorMessage } from './page/words';
import { FloorRefusal } from './refusal';

/**
 * The seat list a tournament clock exports (The Tournament Director and the like: table, seat,
 * player), read into the floor's seating rows or refused in keys naming the line. The seating's
 * store and its edits are floor/seating.ts.
 */

export interface SeatRow {
  readonly table: string;
  readonly seat: number;
  readonly player: string;
}

/** The largest seat list the floor reads (a thousand tables' seats fit many times over). */
export const SEATING_MAX_BYTES = 256 * 1024;

const SEPARATORS = [',', ';', '\t'] as const;

/** Header words for each column, in the languages the floor speaks (any case). */
const HEADERS: Readonly<Record<'table' | 'seat' | 'player', readonly string[]>> = {
  table: ['table', 'pöytä', 'стол'],
  seat: ['seat', 'paikka', 'место'],
  player: ['player', 'name', 'pelaaja', 'nimi', 'игрок', 'имя'],
};

/** A seating refusal (field `seating`), said in the floor's words. */
export const refuse = (message: FloorMessage): never => {
  throw new FloorRefusal('seating', message);
};

interface CsvRecord {
  /** The line (1-based) the record starts on. */
  readonly line: number;
  readonly cells: readonly string[];
}

/** The records of an RFC 4180 text with one separator (quoted cells, doubled quotes, CR LF or LF), or the line of the first malformed quote. */
function readCsv(text: string, separator: string): CsvRecord[] | { readonly badLine: number } {
  const records: CsvRecord[] = [];
  let line = 1;
  let start = 1;
  let cells: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  const endRecord = () => {
    cells.push(cell);
    // A line holding nothing at all is passed over (a blank line at the end, between blocks).
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const char = text[i] as string;
    if (cell === '' && char === '"' && !quoted) {
      // A quoted cell: up to the closing quote (a doubled one is a quote in the cell).
      quoted = true;
      const opened = line;
      i += 1;
      for (;;) {
        if (i >= text.length) return { badLine: opened };
        const inner = text[i] as string;
        if (inner === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (inner === '\n') line += 1;
        cell += inner;
        i += 1;
      }
      const after = text[i];
      // Named by the line the quote opened on: a quote left open swallows the lines after it.
      if (after !== undefined && after !== separator && after !== '\n' && after !== '\r') return { badLine: opened };
      continue;
    }
    if (char === separator) {
      cells.push(cell);
      cell = '';
      quoted = false;
      i += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      endRecord();
      quoted = false;
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      start = line;
      continue;
    }
    // A quote inside an unquoted cell, or after a quoted one's closing quote: malformed.
    if (char === '"' || quoted) return { badLine: line };
    cell += char;
    i += 1;
  }
  if (cell !== '' || cells.length > 0 || quoted) endRecord();
  return records;
}

/** Which header word a cell is, if any. */
function headerOf(cell: string): keyof typeof HEADERS | null {
  const word = cell.trim().toLowerCase();
  for (const [column, words] of Object.entries(HEADERS)) if (words.includes(word)) return column as keyof typeof HEADERS;
  return null;
}

/**
 * The seating a seat list gives: one line per seat (table, seat, player), in RFC 4180 CSV with
 * `,` `;` or tab between cells (whichever gives three cells on most lines), a byte-order mark
 * passed over, an optional header line first (its words in any order name the columns; a first
 * line whose seat cell is no number is a header in the usual order). A line with an empty player
 * is an empty seat. Refused naming the line and why: a table name the floor does not take, a seat
 * outside 1..MAX_SEATS, a name too long, a seat given twice. Sorted by table and seat.
 */
export function seatingFromCsv(text: string): SeatRow[] {
  if (Buffer.byteLength(text, 'utf8') > SEATING_MAX_BYTES) refuse({ key: 'floor.seating.tooLarge', params: { n: SEATING_MAX_BYTES / 1024 } });
  // Read as UTF-8 (the page's upload, the command line's file), a Latin-1 or Windows-1252 file's
  // letters beyond ASCII become U+FFFD: names mangled, so the file is refused, naming the first such line.
  const mangled = text.indexOf('\uFFFD');
  if (mangled >= 0) refuse({ key: 'floor.seating.notUtf8', params: { line: text.slice(0, mangled).split(/\r\n|\r|\n/).length } });
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let best: CsvRecord[] | null = null;
  let bestScore = -1;
  let firstBad: number | null = null;
  for (const separator of SEPARATORS) {
    const read = readCsv(body, separator);
    if (!Array.isArray(read)) {
      firstBad ??= read.badLine;
      continue;
    }
    const score = read.filter((record) => record.cells.length === 3).length;
    if (score > bestScore) {
      best = read;
      bestScore = score;
    }
  }
  if (best === null) return refuse({ key: 'floor.seating.quote', params: { line: firstBad ?? 1 } });
  let records = best;
  let order: readonly (keyof typeof HEADERS)[] = ['table', 'seat', 'player'];
  const first = records[0];
  if (first !== undefined && first.cells.length === 3) {
    const named = first.cells.map(headerOf);
    if (named.every((column) => column !== null) && new Set(named).size === 3) {
      order = named as (keyof typeof HEADERS)[];
      records = records.slice(1);
    } else if (!/^\s*\d+\s*$/.test(first.cells[1] as string)) {
      records = records.slice(1);
    }
  }
  const rows: SeatRow[] = [];
  const seen = new Map<string, number>();
  for (const record of records) {
    const { line, cells } = record;
    if (cells.length !== 3) refuse({ key: 'floor.seating.columns', params: { line, n: cells.length } });
    const cell = (column: keyof typeof HEADERS) => cells[order.indexOf(column)] as string;
    const table = tableNameOf(cell('table')) ?? refuse({ key: 'floor.seating.table', params: { line, table: cell('table').trim().slice(0, 40), n: TABLE_NAME_MAX } });
    const seatText = cell('seat').trim();
    const seat = /^\d{1,3}$/.test(seatText) ? Number(seatText) : NaN;
    if (!(seat >= 1 && seat <= MAX_SEATS)) refuse({ key: 'floor.seating.seat', params: { line, seat: seatText.slice(0, 20), n: MAX_SEATS } });
    const player = cell('player').trim();
    if (player.length > NAME_MAX || /\p{Cc}/u.test(player)) refuse({ key: 'floor.seating.player', params: { line, n: NAME_MAX } });
    const key = JSON.stringify([table, seat]);
    const earlier = seen.get(key);
    if (earlier !== undefined) refuse({ key: 'floor.seating.twice', params: { line, table, seat, first: earlier } });
    seen.set(key, line);
    if (player !== '') rows.push({ table, seat, player });
  }
  if (rows.length === 0) refuse({ key: 'floor.seating.empty' });
  return rows.sort(bySeat);
}

const bySeat = (a: SeatRow, b: SeatRow) => (a.table < b.table ? -1 : a.table > b.table ? 1 : a.seat - b.seat);

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInputError } from '../engine/errors';
import { MAX_SEATS, NAME_MAX } from '../protocol/constants';
import { isTableName } from '../protocol/tableName';
import { seatingFromCsv, type SeatRow } from './seating';

/** The refusal's key and parameters (the property names the line). */
function refusal(text: string): { key: string; params?: Record<string, unknown> } {
  try {
    seatingFromCsv(text);
  } catch (error) {
    if (isInputError(error) && error.said !== undefined) return error.said as { key: string; params?: Record<string, unknown> };
    throw error;
  }
  throw new Error('not refused');
}

const SEPARATORS = [',', ';', '\t'] as const;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** A cell as a spreadsheet writes it: quoted when it must be (or, `always`, every time), quotes doubled. */
function cellOf(value: string, always: boolean): string {
  return always || NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const tableArb = fc.string({ minLength: 1, maxLength: 32, unit: fc.constantFrom('1', '2', 'A', 'b', ' ', 'ö', 'Ж', ',', ';', '"', '-', '\t') }).filter((name) => isTableName(name));
const playerArb = fc
  .string({ minLength: 1, maxLength: NAME_MAX, unit: fc.constantFrom('a', 'Z', ' ', 'ä', 'Ё', ',', ';', '"', "'", '\t', '.') })
  .map((name) => name.trim())
  .filter((name) => name !== '' && !/\p{Cc}/u.test(name));
const seatingArb = fc.uniqueArray(fc.record({ table: tableArb, seat: fc.integer({ min: 1, max: MAX_SEATS }), player: playerArb }), { minLength: 1, maxLength: 30, selector: (row) => `${row.table}\u0000${row.seat}` });

const sorted = (rows: readonly SeatRow[]) => [...rows].sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : a.seat - b.seat));

describe('seatingFromCsv', () => {
  it('reads back any seating written as CSV, with any separator, quoting, line end, header and byte-order mark', () => {
    fc.assert(
      fc.property(seatingArb, fc.constantFrom(...SEPARATORS), fc.boolean(), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean(), fc.boolean(), (rows, separator, always, end, header, bom, lastEnd) => {
        const lines = rows.map((row) => [row.table, String(row.seat), row.player].map((cell) => cellOf(cell, always)).join(separator));
        if (header) lines.unshift(['Table', 'Seat', 'Player'].map((cell) => cellOf(cell, always)).join(separator));
        const text = `${bom ? '\uFEFF' : ''}${lines.join(end)}${lastEnd ? end : ''}`;
        expect(seatingFromCsv(text)).toEqual(sorted(rows));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the columns in the header\'s order, in any case and the floor\'s languages', () => {
    expect(seatingFromCsv('PLAYER;Table;seat\r\nAnna Virtanen;7;3\r\n')).toEqual([{ table: '7', seat: 3, player: 'Anna Virtanen' }]);
    expect(seatingFromCsv('Pelaaja\tPöytä\tPaikka\nMatti\t2\t10\n')).toEqual([{ table: '2', seat: 10, player: 'Matti' }]);
    expect(seatingFromCsv('стол,место,игрок\n1,1,Иван\n')).toEqual([{ table: '1', seat: 1, player: 'Иван' }]);
    // A header in words the floor does not know: its seat cell is no number.
    expect(seatingFromCsv('Tisch,Sitz,Spieler\n1,1,Hans\n')).toEqual([{ table: '1', seat: 1, player: 'Hans' }]);
  });

  it('takes a semicolon list whose names hold unquoted commas (a spreadsheet in a Finnish locale), trims names, passes empty seats and blank lines over', () => {
    expect(seatingFromCsv('1;1; Virtanen, Anna \n\n1;2;\n1;3;Korhonen, Matti\n')).toEqual([
      { table: '1', seat: 1, player: 'Virtanen, Anna' },
      { table: '1', seat: 3, player: 'Korhonen, Matti' },
    ]);
  });

  it('refuses malformed lines, naming the line and why', () => {
    expect(refusal('1,1,Anna\n1,2,"Matti\n')).toMatchObject({ key: 'floor.seating.quote', params: { line: 2 } });
    expect(refusal('1,1,Anna\n1,2,"Matti"x\n')).toMatchObject({ key: 'floor.seating.quote', params: { line: 2 } });
    expect(refusal('table,seat,player\n1,1,Anna\n1,2\n')).toMatchObject({ key: 'floor.seating.columns', params: { line: 3, n: 2 } });
    expect(refusal('1,1,Anna\n1,11,Matti\n')).toMatchObject({ key: 'floor.seating.seat', params: { line: 2, seat: '11', n: MAX_SEATS } });
    expect(refusal('1,1,Anna\n1,0,Matti\n')).toMatchObject({ key: 'floor.seating.seat', params: { line: 2 } });
    expect(refusal(`1,1,Anna\n${'x'.repeat(33)},2,Matti\n`)).toMatchObject({ key: 'floor.seating.table', params: { line: 2 } });
    expect(refusal(`1,1,${'a'.repeat(NAME_MAX + 1)}\n`)).toMatchObject({ key: 'floor.seating.player', params: { line: 1 } });
    expect(refusal('1,1,Anna\n2,1,Pekka\n1,1,Matti\n')).toMatchObject({ key: 'floor.seating.twice', params: { line: 3, table: '1', seat: 1, first: 1 } });
    expect(refusal('table,seat,player\n')).toMatchObject({ key: 'floor.seating.empty' });
    expect(refusal('x'.repeat(300 * 1024))).toMatchObject({ key: 'floor.seating.tooLarge' });
  });

  it('refuses a file that is not UTF-8 (a Latin-1 one, read as UTF-8 by the page and the command line), naming its first such line, rather than take names mangled', () => {
    const latin1 = Buffer.from('Table;Seat;Player\n7;1;Anna\n7;2;Jürgen Müller\n7;3;Åsa\n', 'latin1').toString('utf8');
    expect(latin1).toContain('\uFFFD');
    expect(refusal(latin1)).toMatchObject({ key: 'floor.seating.notUtf8', params: { line: 3 } });
    expect(refusal(Buffer.from('7,1,Jürgen\r\n', 'latin1').toString('utf8'))).toMatchObject({ key: 'floor.seating.notUtf8', params: { line: 1 } });
    // Excel's "Unicode text" (UTF-16 with its mark) is no UTF-8 either.
    expect(refusal(Buffer.from('\uFEFF7,1,Anna\n', 'utf16le').toString('utf8'))).toMatchObject({ key: 'floor.seating.notUtf8', params: { line: 1 } });
    expect(seatingFromCsv(Buffer.from('7,2,Jürgen Müller\n', 'utf8').toString('utf8'))).toEqual([{ table: '7', seat: 2, player: 'Jürgen Müller' }]);
  });

  it('files a table by its composed name (NFC) however it is spelt, and refuses one with a text-direction control or an invisible character (issue 44)', () => {
    const nfd = 'Pöytä 12'.normalize('NFD');
    expect(seatingFromCsv(`${nfd},1,Anna\nPöytä 12,2,Matti\n`)).toEqual([{ table: 'Pöytä 12', seat: 1, player: 'Anna' }, { table: 'Pöytä 12', seat: 2, player: 'Matti' }]);
    // The same seat in both spellings is one seat given twice.
    expect(refusal(`${nfd},1,Anna\nPöytä 12,1,Matti\n`)).toMatchObject({ key: 'floor.seating.twice', params: { line: 2 } });
    expect(refusal('7,1,Anna\n\u202E21,1,Matti\n')).toMatchObject({ key: 'floor.seating.table', params: { line: 2 } });
    expect(refusal('7,1,Anna\n7\u200B,2,Matti\n')).toMatchObject({ key: 'floor.seating.table', params: { line: 2 } });
  });

  it('refuses a name spread over lines (naming the line it starts on), and counts the lines after it', () => {
    expect(refusal('1,1,"Anna\nVirtanen"\n1,12,Matti\n')).toMatchObject({ key: 'floor.seating.player', params: { line: 1 } });
    expect(refusal('"Table\nOne",seat,player\n1,12,Matti\n')).toMatchObject({ key: 'floor.seating.seat', params: { line: 3 } });
  });

  it('refuses any line made malformed, naming it', () => {
    fc.assert(
      fc.property(seatingArb, fc.nat(), fc.constantFrom('seat', 'columns', 'quote'), (rows, pick, damage) => {
        const lines = rows.map((row) => [row.table, String(row.seat), row.player].map((cell) => cellOf(cell, true)).join(','));
        const at = pick % lines.length;
        const row = rows[at] as SeatRow;
        lines[at] = damage === 'seat' ? `${cellOf(row.table, true)},${MAX_SEATS + 1},x` : damage === 'columns' ? cellOf(row.table, true) : `${cellOf(row.table, true)},1,"x"y`;
        const said = refusal(lines.join('\n'));
        expect(said.params?.line).toBe(at + 1);
      }),
      { numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, CSV_EOL, csvCell, csvLine, localTime, offsetIn, parseSeparator, separatorFor, type CsvSeparator } from './csv';
import { parseCsv, readBack } from './testing/readCsv';

const tricky = fc.constantFrom('♠', '♥', '♦', '♣', 'A♠ K♥', 'Järvinen', 'Ёлка', 'Åsa Ö', 'é', ',', ';', '"', '""', '\r\n', '\n', '\r', '=SUM(A1)', '+1', '-2', '@x', '\t', ' ', "'");
const text = fc.oneof(fc.string({ unit: fc.oneof(fc.constantFrom('♠', '♥', '♦', '♣', 'ä', 'ö', 'å', 'é', 'Ж', 'й', ',', ';', '"', '\r', '\n', ' ', '=', '+', '-', '@', '\t'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 20 }), tricky, fc.string({ unit: 'grapheme', maxLength: 12 }));
const cell = fc.oneof(text, fc.integer({ min: -1_000_000, max: 1_000_000 }));
const separator = fc.constantFrom<CsvSeparator>(',', ';');

describe('the CSV writer', () => {
  it('round-trips any cells (suits, accents, quotes, separators, line breaks) through an RFC 4180 reader, for both separators', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }), separator, (rows, sep) => {
        const file = rows.map((row) => `${csvLine(row, sep)}${CSV_EOL}`).join('');
        const read = parseCsv(file, sep);
        expect(read).toEqual(rows.map((row) => row.map(readBack)));
      }),
      { numRuns: 500 },
    );
  });

  it('quotes a cell holding the separator in use, and only then for that reason', () => {
    expect(csvCell('a,b', ',')).toBe('"a,b"');
    expect(csvCell('a;b', ',')).toBe('a;b');
    expect(csvCell('a;b', ';')).toBe('"a;b"');
    expect(csvCell('a,b', ';')).toBe('a,b');
    expect(csvCell('say "hi"', ';')).toBe('"say ""hi"""');
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('A♠ Järvinen')).toBe('A♠ Järvinen');
  });

  it('has the BOM the spreadsheet needs to read UTF-8', () => {
    expect(CSV_BOM).toBe('\uFEFF');
    expect(Buffer.from(CSV_BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('chooses the separator by the language, and reads one a request names', () => {
    expect(separatorFor('en')).toBe(',');
    expect(separatorFor('fi')).toBe(';');
    expect(separatorFor('ru')).toBe(';');
    expect(separatorFor('fi-FI')).toBe(';');
    expect(separatorFor(undefined)).toBe(',');
    expect(parseSeparator(';')).toBe(';');
    expect(parseSeparator('semicolon')).toBe(';');
    expect(parseSeparator(',')).toBe(',');
    expect(parseSeparator('comma')).toBe(',');
    expect(parseSeparator('tab')).toBeNull();
  });

  it('writes local times with the offset of that instant (Helsinki: +02:00 in winter, +03:00 in summer)', () => {
    const helsinki = offsetIn('Europe/Helsinki');
    expect(localTime('2026-12-04T16:05:00.000Z', helsinki)).toBe('2026-12-04 18:05:00 +02:00');
    expect(localTime('2026-07-04T16:05:00.000Z', helsinki)).toBe('2026-07-04 19:05:00 +03:00');
    expect(localTime('2026-12-04T16:05:00.000Z', offsetIn('UTC'))).toBe('2026-12-04 16:05:00 +00:00');
    expect(localTime('2026-12-04T02:05:00.000Z', offsetIn('America/St_Johns'))).toBe('2026-12-03 22:35:00 -03:30');
    expect(localTime('2026-12-04T16:05:00.000Z', () => 330)).toBe('2026-12-04 21:35:00 +05:30');
    expect(localTime('')).toBe('');
    expect(localTime(undefined)).toBe('');
    expect(localTime('not a time')).toBe('not a time');
  });
});

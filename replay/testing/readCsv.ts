import type { CsvSeparator } from '../csv';

/** An RFC 4180 reader (quoted fields, doubled quotes, CRLF records; the separator given), written apart from the writer. */
export function parseCsv(text: string, separator: CsvSeparator): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let index = 0;
  let quoted = false;
  while (index < text.length) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        quoted = false;
        index += 1;
        continue;
      }
      field += char;
      index += 1;
      continue;
    }
    if (char === '"' && field === '') {
      quoted = true;
      index += 1;
    } else if (char === separator) {
      record.push(field);
      field = '';
      index += 1;
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 2;
    } else if (char === '"' || char === '\r' || char === '\n') {
      throw new Error(`not RFC 4180: a bare ${JSON.stringify(char)} at ${index}`);
    } else {
      field += char;
      index += 1;
    }
  }
  if (quoted) throw new Error('not RFC 4180: a quote left open');
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** What a cell reads back as: the text itself, or, for text a spreadsheet would run, the text led by `'`. */
export const readBack = (value: string | number) => (typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value));

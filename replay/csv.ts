import { DECISION_WORDS, type FloorDecisionKind } from '../protocol/races';
import { ENGINE_CATALOGS, formatMessage, type MessageLanguage } from '../engine/messages';
/**
 * The one CSV writer of the console's exports (the station's history, the floor's races and its
 * per-tournament summary): files the office's spreadsheet opens with its suits and accents intact.
 *
 * - UTF-8 with a byte-order mark (CSV_BOM) first: without it Excel reads the file as the machine's
 *   ANSI code page, and A♠ or Järvinen come out as mojibake.
 * - The separator Excel expects in the office's locale: ',' in English, ';' in Finnish and Russian
 *   (where ',' is the decimal comma); a request or option can name the other (parseSeparator).
 * - Cells quoted per RFC 4180: a cell holding the separator, a quote or a line break is quoted and
 *   its quotes doubled. A text cell a spreadsheet would take for a formula (=, +, -, @, tab, CR
 *   first) is led by `'` and quoted, so it is shown, never run.
 * - Lines end in CRLF.
 */

export type CsvSeparator = ',' | ';';

export const CSV_SEPARATORS: readonly CsvSeparator[] = [',', ';'];

/** The byte-order mark that leads every CSV export (U+FEFF, EF BB BF in UTF-8). */
export const CSV_BOM = '\uFEFF';

/** The end of every CSV line. */
export const CSV_EOL = '\r\n';

/** The director's decisions in a language's words, for the exports' decision cells (the station's CSV in its language, the floor's in the page's). */
export function decisionWordIn(language: MessageLanguage): (decision: FloorDecisionKind) => string {
  return (decision) => formatMessage({ key: DECISION_WORDS[decision] }, language, ENGINE_CATALOGS[language]);
}

/** A decision as the JSON exports write it: its key (`decision`, `race-stands`) for programs, and its words in each language (`decisionWords`) for people. */
export function decisionForJson<T extends { readonly decision: FloorDecisionKind }>(note: T): T & { readonly decisionWords: Readonly<Record<MessageLanguage, string>> } {
  return { ...note, decisionWords: { en: decisionWordIn('en')(note.decision), fi: decisionWordIn('fi')(note.decision), ru: decisionWordIn('ru')(note.decision) } };
}

/** The language of the words a CSV is written in: the station's or the page's, English when it names none the catalogs hold. */
export function csvLanguage(language: string | null | undefined): MessageLanguage {
  const base = (language ?? '').toLowerCase().split(/[-_]/)[0];
  return base === 'fi' || base === 'ru' ? base : 'en';
}

/** The separator a spreadsheet in this language's locale expects: ';' for Finnish and Russian, ',' otherwise. */
export function separatorFor(language: string | null | undefined): CsvSeparator {
  return csvLanguage(language) === 'en' ? ',' : ';';
}

/** A separator as a request names it (`?sep=;`, `?sep=semicolon`, `comma`, …), or null when it names none the exports write. */
export function parseSeparator(value: string): CsvSeparator | null {
  switch (value.trim().toLowerCase()) {
    case ',':
    case 'comma':
      return ',';
    case ';':
    case 'semicolon':
      return ';';
    default:
      return null;
  }
}

/** One cell, quoted when it must be (RFC 4180, with the separator in use), text a spreadsheet would run as a formula led by `'`. */
export function csvCell(value: string | number, separator: CsvSeparator = ','): string {
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return safe !== text || /["\n\r]/.test(safe) || safe.includes(separator) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line's cells, quoted and joined by the separator (no line ending). */
export function csvLine(cells: readonly (string | number)[], separator: CsvSeparator = ','): string {
  return cells.map((cell) => csvCell(cell, separator)).join(separator);
}

/** Minutes east of UTC at an instant (Helsinki in winter: 120); the local-time columns ask it of each time. */
export type OffsetOf = (at: Date) => number;

/** The offset of the machine's own time zone (its TZ): what the station or floor shows on its clock. */
export const localOffset: OffsetOf = (at) => -at.getTimezoneOffset();

/** The offset of a named IANA time zone (`Europe/Helsinki`), daylight saving and all: for tests and a floor told its zone. */
export function offsetIn(timeZone: string): OffsetOf {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  return (at) => {
    const name = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
    const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
    if (match === null || match[1] === undefined) return 0;
    const minutes = Number(match[2]) * 60 + Number(match[3]);
    return match[1] === '-' ? -minutes : minutes;
  };
}

const two = (value: number) => String(value).padStart(2, '0');

/**
 * An ISO time as the local clock read it, with that instant's offset: `2026-12-04 18:05:00 +02:00`
 * (sortable, and read by a spreadsheet as a date and time). '' for no time, the text itself for one
 * that is not a time.
 */
export function localTime(iso: string | null | undefined, offsetOf: OffsetOf = localOffset): string {
  if (iso === null || iso === undefined || iso === '') return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const offset = offsetOf(at);
  const local = new Date(at.getTime() + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const size = Math.abs(offset);
  return `${local.toISOString().slice(0, 19).replace('T', ' ')} ${sign}${two(Math.floor(size / 60))}:${two(size % 60)}`;
}

/** How a CSV export is written: its separator (',' unless told) and the local-time columns' time zone (the machine's unless told). */
export interface CsvOptions {
  readonly separator?: CsvSeparator | undefined;
  readonly offsetOf?: OffsetOf | undefined;
  /** The director's decisions in the reader's words (the floor's exports: the page's language); absent, their keys (`race-stands`). */
  readonly decisionWord?: ((decision: FloorDecisionKind) => string) | undefined;
}

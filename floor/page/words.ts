import { ENGINE_CATALOGS, formatMessage, groupedDelta, groupedNumber, type Message, type MessageKey, type MessageParam } from '../../engine/messages';

/**
 * The floor page's words are the console's: the engine's catalogs (engine/messages), where the
 * station's screens find theirs too, so a race's record, the clock and a colour-up read the same on
 * the floor as at the table (`floor.page.*` and `floor.http.*` are the floor's own; `record.*`,
 * `clock.*` and `floorLink.chain.*` the station's and the floor's alike). A key no catalog holds
 * does not compile.
 */
export type FloorLanguage = 'en' | 'fi' | 'ru';
export const FLOOR_LANGUAGES: readonly FloorLanguage[] = ['en', 'fi', 'ru'];

export function isFloorLanguage(value: string): value is FloorLanguage {
  return (FLOOR_LANGUAGES as readonly string[]).includes(value);
}

/** A message in the language, numbers grouped the language's way and cards as cards (A♥), as the station's screens say it. */
export function sayMessage(language: FloorLanguage, message: Message): string {
  return formatMessage(message, language, ENGINE_CATALOGS[language], { numbers: 'grouped' });
}

/** The words of `key` in the language. */
export function say(language: FloorLanguage, key: MessageKey, params?: Readonly<Record<string, MessageParam>>): string {
  return sayMessage(language, params === undefined ? { key } : { key, params });
}

/** The language a request asks for: `?lang=`, else the first of Accept-Language the floor speaks, else English. */
export function languageOf(query: string | null, acceptLanguage: string | undefined): FloorLanguage {
  if (query !== null && isFloorLanguage(query)) return query;
  const wanted = (acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^q=([0-9.]+)$/.exec(param.trim())?.[1]).find((value) => value !== undefined);
      return { language: tag.toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { language } of wanted) if (isFloorLanguage(language)) return language;
  return 'en';
}

/** Numbers grouped the language's way (1,234 / 1 234), with a sign for a change: the console's rule (engine/messages). */
export function formatNumber(language: FloorLanguage, value: number, signed = false): string {
  return signed ? groupedDelta(value, language) : groupedNumber(value, language);
}

/** A time as the language writes it, in the floor's own time zone. */
export function formatTime(language: FloorLanguage, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' }).format(date);
}

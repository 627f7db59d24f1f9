import { formatMessage, groupedDelta, groupedNumber, type Catalog, type Message, type MessageKey, type MessageParam } from '../../engine/messages';
import { en, type DeepStrings } from '../../engine/messages/en';
import { fi } from '../../engine/messages/fi';
import type { KeysOf } from '../../engine/messages/keys';
import { ru } from '../../engine/messages/ru';
import { enFloorWords } from '../words/en';
import { fiFloorWords } from '../words/fi';
import { ruFloorWords } from '../words/ru';

/**
 * The floor's words: the engine's catalogs (engine/messages), where the station's screens find
 * theirs too, so a race's record, the clock and a colour-up read the same on the floor as at the
 * table (`record.*`, `clock.*`, `floorLink.chain.*`, `floor.decision.*`), joined with the floor's
 * own (floor/words: `floor.seating.*`, `floor.tables.*`, `floor.tournament.*`, `floor.page.*`,
 * `floor.capacity.*`, `floor.http.*`), which only the floor says. Said through the engine's
 * formatter. A key neither holds does not compile.
 */
export type FloorLanguage = 'en' | 'fi' | 'ru';
export const FLOOR_LANGUAGES: readonly FloorLanguage[] = ['en', 'fi', 'ru'];

/** Every key the floor says: the engine's and its own. */
export type FloorKey = MessageKey | KeysOf<{ floor: typeof enFloorWords }>;
/** A message the floor says: a key of the engine's or its own, its parameters nesting either. */
export type FloorMessage = Message<FloorKey>;
export type FloorParam = MessageParam<FloorKey>;

const floorEn = { ...en, floor: { ...en.floor, ...enFloorWords } } as const satisfies Catalog;
/** The floor's catalog as every language has it: the engine's keys and the floor's own. */
export type FloorCatalog = DeepStrings<typeof floorEn>;

/** Each language's catalog of the floor: the engine's, with the floor's own words beside its `floor.*`. */
export const FLOOR_CATALOGS: Readonly<Record<FloorLanguage, FloorCatalog>> = {
  en: floorEn,
  fi: { ...fi, floor: { ...fi.floor, ...fiFloorWords } },
  ru: { ...ru, floor: { ...ru.floor, ...ruFloorWords } },
};

export function isFloorLanguage(value: string): value is FloorLanguage {
  return (FLOOR_LANGUAGES as readonly string[]).includes(value);
}

/** A message in the language, numbers grouped the language's way and cards as cards (A♥), as the station's screens say it. */
export function sayMessage(language: FloorLanguage, message: FloorMessage): string {
  return formatMessage(message, language, FLOOR_CATALOGS[language], { numbers: 'grouped' });
}

/** The words of `key` in the language. */
export function say(language: FloorLanguage, key: FloorKey, params?: Readonly<Record<string, FloorParam>>): string {
  return sayMessage(language, params === undefined ? { key } : { key, params });
}

/** The message in English with card codes, as the command line prints it: the engine's englishText, with the floor's words. */
export function englishFloorText(message: FloorMessage): string {
  return formatMessage(message, 'en', FLOOR_CATALOGS.en, { cards: 'code' });
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

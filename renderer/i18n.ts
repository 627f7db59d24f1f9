import { createI18n } from 'vue-i18n';
import { ENGINE_CATALOGS, pluralIndex, type Catalog } from '../engine/messages';
import { LANGUAGES } from '../protocol/constants';
import type { en as engineEn } from '../engine/messages/en';
import en from './locales/en.json';
import fi from './locales/fi.json';
import ru from './locales/ru.json';

/** The screens' own words and what the engine says (engine/messages), one tree per language. */
export type MessageSchema = typeof en & typeof engineEn;

export const LOCALES = LANGUAGES;
export type Locale = (typeof LOCALES)[number];

/** Each locale's name in its own language, for the language picker. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', fi: 'Suomi', ru: 'Русский' };

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** The first supported locale among the browser's preferred languages ('fi-FI' → 'fi'), else 'en'. */
export function pickLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (isLocale(base)) return base;
  }
  return 'en';
}

/** Russian plural forms, messages written `one | few | many` (the engine's rule, engine/messages). */
export function russianPlural(choice: number, choicesLength: number): number {
  return pluralIndex('ru', choice, choicesLength);
}

/** `a` with `b`'s entries added, tree by tree (the screens' locale and the engine's catalog share namespaces such as `race`). */
function merged(a: Catalog, b: Catalog): Catalog {
  const out: Record<string, string | Catalog> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    out[key] = typeof mine === 'object' && typeof value === 'object' ? merged(mine, value) : value;
  }
  return out;
}

/** Each language's messages: the screens' locale file with the engine's catalog merged in. */
export const LOCALE_MESSAGES = {
  en: merged(en, ENGINE_CATALOGS.en),
  fi: merged(fi, ENGINE_CATALOGS.fi),
  ru: merged(ru, ENGINE_CATALOGS.ru),
} as unknown as Record<Locale, MessageSchema>;

export interface I18nOptions {
  /** Called for a key missing in the current locale (tests use it to prove every screen is translated). */
  readonly onMissing?: (locale: string, key: string) => void;
}

export function createConsoleI18n(locale: Locale, options: I18nOptions = {}) {
  const onMissing = options.onMissing;
  return createI18n<[MessageSchema], Locale, false>({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages: LOCALE_MESSAGES,
    pluralRules: { ru: russianPlural },
    ...(onMissing === undefined
      ? {}
      : {
          missing: (missingLocale: string, key: string) => {
            onMissing(missingLocale, key);
          },
        }),
  });
}

export type ConsoleI18n = ReturnType<typeof createConsoleI18n>;

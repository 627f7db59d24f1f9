import { createI18n } from 'vue-i18n';
import en from './locales/en.json';
import fi from './locales/fi.json';
import ru from './locales/ru.json';

export type MessageSchema = typeof en;

export const LOCALES = ['en', 'fi', 'ru'] as const;
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

/**
 * Russian plural forms, messages written `one | few | many`: 1, 21 карта; 2–4, 22 карты; 0, 5–20 карт.
 * (English and Finnish use vue-i18n's default `one | other`.)
 */
export function russianPlural(choice: number, choicesLength: number): number {
  const n = Math.abs(choice);
  if (choicesLength < 3) return n === 1 ? 0 : 1;
  const lastTwo = n % 100;
  const last = n % 10;
  if (lastTwo >= 11 && lastTwo <= 14) return 2;
  if (last === 1) return 0;
  if (last >= 2 && last <= 4) return 1;
  return 2;
}

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
    messages: { en, fi, ru },
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

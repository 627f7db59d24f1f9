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

export function createConsoleI18n(locale: Locale) {
  return createI18n<[MessageSchema], Locale, false>({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages: { en, fi, ru },
  });
}

import { describe, expect, it } from 'vitest';
import { FLOOR_LANGUAGES, FLOOR_WORDS, formatNumber, languageOf } from './words';

/** Every entry's path, with what it is (text or a function of parameters). */
function shape(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return [`${path}: text`];
  if (typeof value === 'function') return [`${path}: ${value.length} parameters`];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, entry]) => shape(entry, `${path}.${key}`)).sort();
}

describe('the floor page\'s words', () => {
  it('has every entry in English, Finnish and Russian, none empty', () => {
    const english = shape(FLOOR_WORDS.en);
    for (const language of FLOOR_LANGUAGES) {
      expect(shape(FLOOR_WORDS[language])).toEqual(english);
      const texts = (value: unknown): string[] =>
        typeof value === 'string' ? [value] : typeof value === 'function' ? [(value as (...args: string[]) => string)('1', '2')] : Object.values(value as object).flatMap(texts);
      for (const text of texts(FLOOR_WORDS[language])) expect(text.trim()).not.toBe('');
    }
    expect(FLOOR_WORDS.fi.title).not.toBe(FLOOR_WORDS.en.title);
    expect(FLOOR_WORDS.ru.title).not.toBe(FLOOR_WORDS.en.title);
  });

  it('groups numbers the language\'s way', () => {
    expect(formatNumber('en', 1234567)).toBe('1,234,567');
    expect(formatNumber('fi', 1234567)).toMatch(/^1\s234\s567$/u);
    expect(formatNumber('ru', 1234567)).toMatch(/^1\s234\s567$/u);
    expect(formatNumber('en', 25, true)).toBe('+25');
    expect(formatNumber('en', 0, true)).toBe('0');
  });

  it('takes ?lang= first, then Accept-Language by weight, then English', () => {
    expect(languageOf('fi', 'ru')).toBe('fi');
    expect(languageOf(null, 'de;q=1, ru;q=0.8, fi;q=0.9')).toBe('fi');
    expect(languageOf(null, 'ru-RU')).toBe('ru');
    expect(languageOf(null, undefined)).toBe('en');
    expect(languageOf(null, 'x'.repeat(10_000))).toBe('en');
  });
});

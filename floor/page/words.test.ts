import { describe, expect, it } from 'vitest';
import { en } from '../../engine/messages/en';
import { enFloorWords } from '../words/en';
import { formatNumber, languageOf, say, FLOOR_LANGUAGES } from './words';

describe("the floor page's words", () => {
  it('are the console\'s catalogs and the floor\'s own: every language says every key of the page, none as a bare key or with a placeholder left', () => {
    const keys = (tree: object, prefix: string): string[] => Object.entries(tree).flatMap(([name, value]) => (typeof value === 'string' ? [`${prefix}${name}`] : keys(value as object, `${prefix}${name}.`)));
    const pageKeys = [...keys(enFloorWords.page, 'floor.page.'), ...keys(enFloorWords.http, 'floor.http.'), ...keys(en.record, 'record.')];
    expect(pageKeys.length).toBeGreaterThan(80);
    for (const language of FLOOR_LANGUAGES) {
      for (const key of pageKeys) {
        const text = say(language, key as Parameters<typeof say>[1], { n: 2 });
        expect(text, `${language} ${key}`).not.toBe(key);
        expect(text.trim(), `${language} ${key}`).not.toBe('');
      }
    }
    expect(say('fi', 'floor.page.title')).toBe('Sali');
    expect(say('ru', 'floor.page.title')).toBe('Зал');
  });

  it('groups numbers the language\'s way', () => {
    expect(formatNumber('en', 1234567)).toBe('1,234,567');
    expect(formatNumber('fi', 1234567)).toMatch(/^1\s234\s567$/u);
    expect(formatNumber('ru', 1234567)).toMatch(/^1\s234\s567$/u);
    expect(formatNumber('en', 25, true)).toBe('+25');
    expect(formatNumber('en', 0, true)).toBe('0');
    expect(say('fi', 'floor.page.behind', { n: 1234 })).toMatch(/^jäljessä 1\s234 kirjausta$/u);
  });

  it('takes ?lang= first, then Accept-Language by weight, then English', () => {
    expect(languageOf('fi', 'ru')).toBe('fi');
    expect(languageOf(null, 'de;q=1, ru;q=0.8, fi;q=0.9')).toBe('fi');
    expect(languageOf(null, 'ru-RU')).toBe('ru');
    expect(languageOf(null, undefined)).toBe('en');
    expect(languageOf(null, 'x'.repeat(10_000))).toBe('en');
  });
});

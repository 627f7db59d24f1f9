import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { fi } from './fi';
import { ru } from './ru';

// One vocabulary: the same thing is called the same in every text the product says (the engine's
// catalogs, which the floor page says too, and the screens' own locale files), and different
// things are not called alike.

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([name, value]): [string, string][] => (typeof value === 'string' ? [[`${prefix}${name}`, value]] : leaves(value, `${prefix}${name}.`)));
}

const screens = (language: string): Tree => JSON.parse(readFileSync(new URL(`../../renderer/locales/${language}.json`, import.meta.url), 'utf8')) as Tree;

/** Every text of a language, by key: the engine's catalog and the screens' locale. */
function texts(catalog: Tree, language: string): Map<string, string> {
  return new Map([...leaves(catalog), ...leaves(screens(language))]);
}

const english = texts(en, 'en');
const finnish = texts(fi, 'fi');
const russian = texts(ru, 'ru');

/** The keys whose English says `pattern`, with what another language says there. */
function whereEnglishSays(pattern: RegExp, other: Map<string, string>): [string, string][] {
  return [...english].filter(([, text]) => pattern.test(text)).map(([key]) => [key, other.get(key) ?? '']);
}

describe('Russian: voiding a card and abandoning a race are different verbs', () => {
  it('voiding is «аннулировать» wherever the English voids', () => {
    const voiding = whereEnglishSays(/\bvoid/i, russian);
    expect(voiding.length).toBeGreaterThan(10);
    expect(voiding.filter(([, text]) => !/аннулир/i.test(text) || /отмен/i.test(text))).toEqual([]);
  });

  it('abandoning is «прервать» wherever the English abandons', () => {
    const abandoning = whereEnglishSays(/\babandon/i, russian);
    expect(abandoning.length).toBeGreaterThan(5);
    expect(abandoning.filter(([, text]) => !/прерв/i.test(text) || /отмен|аннулир/i.test(text))).toEqual([]);
  });

  it('the floor page names a race\'s end as the station\'s record does', () => {
    expect(ru.floor.page.raceStatus.abandoned.toLowerCase()).toBe(ru.record.status.abandoned.toLowerCase());
    expect(ru.floor.page.raceStatus.confirmed.toLowerCase()).toBe(ru.record.status.confirmed.toLowerCase());
  });
});

describe('Finnish: one word for the colour-up and one for the floor', () => {
  it('the colour-up is «pelimerkkien vaihto» (never «värinvaihto»), at the station and on the floor page', () => {
    const colourUps = whereEnglishSays(/colou?r-up/i, finnish);
    expect(colourUps.length).toBeGreaterThan(10);
    expect(colourUps.filter(([, text]) => !/vaihto|vaihdo|vaihtoa|vaihdon/i.test(text))).toEqual([]);
    expect([...finnish].filter(([, text]) => /värinvaih/i.test(text))).toEqual([]);
    expect(fi.floor.page.colourUp).toBe('Pelimerkkien vaihto');
    expect(fi.record.level.startsWith(fi.floor.page.colourUp)).toBe(true);
  });

  it('the floor is «sali» (never «lattia» or «valvonta»), at the station and on the floor page', () => {
    const floors = whereEnglishSays(/\bfloor\b(?! supervisor)/i, finnish);
    expect(floors.length).toBeGreaterThan(20);
    expect(floors.filter(([, text]) => !/sali/i.test(text))).toEqual([]);
    expect([...finnish].filter(([, text]) => /lattia|valvonta|valvonna/i.test(text))).toEqual([]);
    expect(fi.floor.page.title).toBe('Sali');
    expect(fi.record.signFloor).toBe('Salivalvoja');
  });

  it('the floor page names a race, a record and the shoe as the station does', () => {
    expect(fi.floor.page.race).toBe('Arvonta');
    expect(fi.floor.page.raceStatus.abandoned.toLowerCase()).toBe(fi.record.status.abandoned.toLowerCase());
    expect(fi.floor.page.raceStatus.confirmed.toLowerCase()).toBe(fi.record.status.confirmed.toLowerCase());
    expect([...finnish].filter(([key, text]) => key.startsWith('floor.') && /tietue|\bkisa|\bmerkki\b/i.test(text))).toEqual([]);
  });
});

describe('English: a seat is a person', () => {
  it('never "its" chips, cards or seat of a player (issue 24: "its odd chips leave play")', () => {
    const said = [...english].filter(([, text]) => /\{(seat|player)\}[^.]*\bits (odd )?(chips?|cards?|seat)\b/.test(text));
    expect(said).toEqual([]);
  });
});

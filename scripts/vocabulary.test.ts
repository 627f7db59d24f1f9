import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FLOOR_CATALOGS } from '../floor/page/words';

// One vocabulary: the same thing is called the same in every text the product says (the engine's
// catalogs, which the floor page says too, the floor's own words and the screens' own locale
// files), and different things are not called alike. The terms are docs/glossary.md's: this reads them from there.

/** Every language's words but the screens' own: the engine's catalogs with the floor's (floor/words). */
const { en, fi, ru } = FLOOR_CATALOGS;

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([name, value]): [string, string][] => (typeof value === 'string' ? [[`${prefix}${name}`, value]] : leaves(value, `${prefix}${name}.`)));
}

const screens = (language: string): Tree => JSON.parse(readFileSync(new URL(`../renderer/locales/${language}.json`, import.meta.url), 'utf8')) as Tree;

/** Every text of a language, by key: the engine's catalog and the screens' locale. */
function texts(catalog: Tree, language: string): Map<string, string> {
  return new Map([...leaves(catalog), ...leaves(screens(language))]);
}

const english = texts(en, 'en');
const finnish = texts(fi, 'fi');
const russian = texts(ru, 'ru');

/** A row of docs/glossary.md's table: the English that names the concept, each language's term and the words it never uses. */
interface Concept {
  readonly concept: string;
  readonly english: RegExp | null;
  readonly term: Readonly<Record<'fi' | 'ru', RegExp | null>>;
  readonly never: Readonly<Record<'fi' | 'ru', readonly RegExp[]>>;
}

const glossaryText = readFileSync(new URL('../docs/glossary.md', import.meta.url), 'utf8');

/** A table's rows (after its header and rule), each cell's text with `\|` read as `|`. */
function tableRows(heading: string): string[][] {
  const lines = glossaryText.split('\n');
  const at = lines.findIndex((line) => line.startsWith(heading));
  const rows: string[][] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|')));
  }
  return rows;
}

const patterns = (cell: string): RegExp[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => new RegExp(match[1] as string, 'iu'));

const CONCEPTS: readonly Concept[] = tableRows('| concept |').map(([concept = '', english = '', fi = '', fiNever = '', ru = '', ruNever = '']) => ({
  concept,
  english: patterns(english)[0] ?? null,
  term: { fi: patterns(fi).at(-1) ?? null, ru: patterns(ru).at(-1) ?? null },
  never: { fi: patterns(fiNever), ru: patterns(ruNever) },
}));
/** Keys that keep a refused word (the product's name), with why. */
const KEPT = new Set(tableRows('| key |').map(([key = '']) => key.replace(/`/g, '')));

/** A text without its placeholders: `{seat}` names no seat in the words. */
const words = (text: string) => text.replace(/\{\w+\}/g, ' ');

describe('one term per concept (docs/glossary.md), in every text of fi and ru', () => {
  it('the glossary is read: each concept with its English and both terms', () => {
    expect(CONCEPTS.length).toBeGreaterThanOrEqual(12);
    for (const concept of CONCEPTS) expect([concept.concept, concept.english !== null, concept.term.fi !== null, concept.term.ru !== null]).toEqual([concept.concept, true, true, true]);
    expect(KEPT.has('app.name')).toBe(true);
  });

  describe.each([
    ['fi', finnish],
    ['ru', russian],
  ] as const)('%s', (language, texts) => {
    it.each(CONCEPTS.map((concept) => [concept.concept, concept] as const))('%s: the term wherever the English names it, a word it never uses nowhere', (_name, concept) => {
      const named = [...english].filter(([key, text]) => !KEPT.has(key) && concept.english?.test(words(text)));
      expect(named.length, 'texts the English names it in').toBeGreaterThan(0);
      const term = concept.term[language] as RegExp;
      expect(named.filter(([key]) => !term.test(words(texts.get(key) ?? ''))).map(([key]) => `${key}: ${texts.get(key) ?? '(missing)'}`)).toEqual([]);
      const refused = [...texts].filter(([key, text]) => !KEPT.has(key) && concept.never[language].some((never) => never.test(words(text))));
      expect(refused.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
    });
  });
});

describe('the floor page and the station name the same things alike', () => {
  it('Russian: a race\'s end as the station\'s record does', () => {
    expect(ru.floor.page.raceStatus.abandoned.toLowerCase()).toBe(ru.record.status.abandoned.toLowerCase());
    expect(ru.floor.page.raceStatus.confirmed.toLowerCase()).toBe(ru.record.status.confirmed.toLowerCase());
  });

  it('Finnish: the colour-up, the floor, a race, a record and the shoe as the station does', () => {
    expect(fi.floor.page.colourUp).toBe('Pelimerkkien vaihto');
    expect(fi.record.level.startsWith(fi.floor.page.colourUp)).toBe(true);
    expect(fi.floor.page.title).toBe('Sali');
    expect(fi.record.signFloor).toBe('Salivalvoja');
    expect(fi.floor.page.race).toBe('Arvonta');
    expect(fi.floor.page.raceStatus.abandoned.toLowerCase()).toBe(fi.record.status.abandoned.toLowerCase());
    expect(fi.floor.page.raceStatus.confirmed.toLowerCase()).toBe(fi.record.status.confirmed.toLowerCase());
    expect([...finnish].filter(([key, text]) => key.startsWith('floor.') && /tietue|\bmerkki\b/i.test(text))).toEqual([]);
  });
});

describe('English: a seat is a person', () => {
  it('never "its" chips, cards or seat of a player (issue 24: "its odd chips leave play")', () => {
    const said = [...english].filter(([, text]) => /\{(seat|player)\}[^.]*\bits (odd )?(chips?|cards?|seat)\b/.test(text));
    expect(said).toEqual([]);
  });
});

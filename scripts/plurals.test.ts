import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FLOOR_CATALOGS } from '../floor/page/words';

// A count said with its noun agrees with it: "1 table", "2 tables"; Russian "1 стол", "2 стола",
// "5 столов" (issue 41: "Break held by the floor: 1 tables still colouring up"). A message picks its
// plural form by its number `n` (engine/messages/message.ts; vue-i18n for the screens' own words
// when they name it `n`), so a count beside a noun is `{n}` in a message with the forms: two in
// English and Finnish, three in Russian (`one | few | many`). Every text of the three languages
// is held to it: the engine's catalogs, the floor's own words (floor/words) and the screens' locales.

/** Every language's words but the screens' own: the engine's catalogs with the floor's (floor/words). */
const { en, fi, ru } = FLOOR_CATALOGS;

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([name, value]): [string, string][] => (typeof value === 'string' ? [[`${prefix}${name}`, value]] : leaves(value, `${prefix}${name}.`)));
}

const screens = (language: string): Tree => JSON.parse(readFileSync(new URL(`../renderer/locales/${language}.json`, import.meta.url), 'utf8')) as Tree;
const LANGUAGES = [
  ['en', en, 2],
  ['fi', fi, 2],
  ['ru', ru, 3],
] as const;
const textsOf = (catalog: object, language: string): [string, string][] => [...leaves(catalog as Tree), ...leaves(screens(language))];

/** Words after a number that are no noun agreeing with it ("1 of 7", "от 1 до 5"). */
const NOT_NOUNS = new Set(['of', 'to', 'and', 'or', 'is', 'are', 'из', 'до', 'и', 'или', 'tai', 'ja']);

/** Messages whose `n` is a fixed limit, never 1 where it is said, or a case that agrees with any number. */
const FIXED_N: Readonly<Record<string, string>> = {
  'value.tooDeep': 'MAX_NESTING',
  'poker.input.trickTooLong': 'more cards than players, so three or more',
  'settings.floorEnvTable': 'the table name’s length limit',
  'floor.seating.table': 'the table name’s length limit',
  'floor.seating.player': 'the player name’s length limit',
  'floor.page.runner.badTick': 'the runner name’s length limit',
  'floor.seating.tooLarge': 'the seat list’s size limit',
  'floor.tournament.tooLarge': 'the tournament sheet’s size limit',
  'counts.stack.add': 'Finnish "{n} pelimerkin pino": the genitive agrees with any number',
};

/** Verbs after a name ("{race} is open"): no noun. */
const VERBS = new Set(['is', 'was', 'has', 'does', 'appears', 'takes']);

/**
 * Placeholders that are not a count of the noun after them, with why: a denomination names a chip
 * ("25 chips" are chips of 25), and a limit or a figure that is never 1 where it is said.
 */
const NOT_COUNTS: Readonly<Record<string, string>> = {
  removed: 'a denomination', next: 'a denomination', chip: 'a denomination', raceRemoved: 'a denomination', raceNext: 'a denomination', smaller: 'a denomination', larger: 'a denomination',
  max: 'a fixed limit', kb: 'a fixed limit', mb: 'a fixed limit', ms: 'a fixed time', baud: 'a line speed', size: 'a hand of five', tricks: 'five tricks a deal',
  target: 'a game’s target (13, 52)', stop: 'the buy stop (42)', total: 'points at or past the buy stop or the target', points: 'the winner’s points, at least the target', last: 'the last trick’s points (2 or 5)',
  seat: 'a name', seats: 'a name', player: 'a name', name: 'a name', list: 'a list', card: 'a card', chips: 'a list of chips ("25s leave")',
  cards: 'more cards than a shoe holds',
  copies: 'refused at the shoe’s decks, two or more', decks: 'two or more where a card comes again', frames: 'a warning needs three bad frames', players: 'two to six players',
};

describe('a count beside its noun agrees with it, in en, fi and ru', () => {
  it.each(LANGUAGES)('%s: every {n} followed by a word is a message with the plural forms', (language, catalog, forms) => {
    const texts = textsOf(catalog, language);
    const counted = texts.filter(([key]) => FIXED_N[key] === undefined).filter(([, text]) => [...text.matchAll(/\{n\}\s+([\p{L}-]+)/gu)].some((match) => !NOT_NOUNS.has((match[1] as string).toLowerCase())));
    expect(counted.length).toBeGreaterThan(10);
    expect(counted.filter(([, text]) => text.split(' | ').length !== forms).map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });

  it('English: no other count is said beside a plural noun without the forms ("{tables} tables", "{records} records")', () => {
    const unagreeing = textsOf(en, 'en').flatMap(([key, text]) =>
      [...text.matchAll(/\{(\w+)\}\s+([a-z-]+s)\b/g)]
        .filter((match) => match[1] !== 'n' && NOT_COUNTS[match[1] as string] === undefined && !VERBS.has(match[2] as string))
        .map((match) => `${key}: ${match[0]} (${text})`),
    );
    expect(unagreeing).toEqual([]);
  });

  it('the held break and the floor’s held clock say one table as one table in every language (issue 41)', () => {
    const said = (text: string, n: number, forms: number) => {
      const chosen = text.split(' | ');
      if (forms === 2) return chosen[n === 1 ? 0 : 1];
      const [one, few, many] = chosen;
      return n % 10 === 1 && n % 100 !== 11 ? one : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? few : many;
    };
    for (const [language, catalog, forms] of LANGUAGES) {
      const held = screens(language)['colorUp'] as Tree;
      expect(said(held['held'] as string, 1, forms), language).not.toMatch(/\{n\} (tables|pöytää|стола|столов)/);
      expect(said(catalog.floor.page.clock.held, 1, forms), language).not.toMatch(/\{n\} (tables|pöytää|стола|столов)/);
    }
  });
});

import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { en } from '../engine/messages/en';
import { fi } from '../engine/messages/fi';
import { ru } from '../engine/messages/ru';
import type { Language } from '../protocol/contract';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { enterCard, enterCounts, FINNISH_COUNTS, FINNISH_TABLE, openConsole, setUpTable, startRace } from './harness/flows';
import { typeAsPerson } from './harness/scanner';
import { chooseLanguage } from './harness/tour';

// In Finnish and in Russian, the console is made to refuse things — a card already dealt, an
// illegal play in Pistepokeri, a race the shoe cannot deal (a setup field at fault), a structure
// sheet that cannot be read — and the page after each refusal holds no English word of the
// engine's catalog or of the screens' English locale. Words the other languages share with English
// (numbers, card codes, names such as TDA or Pistepokeri) are not counted as English.

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : leaves(value)));
}

function locale(language: Language): Tree {
  return JSON.parse(readFileSync(new URL(`../renderer/locales/${language}.json`, import.meta.url), 'utf8')) as Tree;
}

/** The words of some texts, lower case, placeholders left out: `Deal {n} cards to {seat}` → deal, cards, to. */
function words(texts: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts) for (const word of text.replace(/\{\w+\}/g, ' ').match(/[A-Za-z][A-Za-z'’]+/g) ?? []) found.add(word.toLowerCase());
  return found;
}

const shared = words([...leaves(fi), ...leaves(ru), ...leaves(locale('fi')), ...leaves(locale('ru'))]);
const ENGLISH = new Set([...words([...leaves(en), ...leaves(locale('en'))])].filter((word) => !shared.has(word)));

/**
 * The English words among what the page shows (its visible text). The language menu is left out:
 * each language is named there in itself ("English", "Suomi", "Русский") so a dealer can find theirs.
 */
async function englishOn(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const menu = document.querySelector<HTMLElement>('[data-testid="locale"]');
    const display = menu?.style.display ?? '';
    if (menu) menu.style.display = 'none';
    const shown = document.body.innerText;
    if (menu) menu.style.display = display;
    return shown;
  });
  return [...words([text])].filter((word) => ENGLISH.has(word)).sort();
}

async function expectNoEnglish(page: Page, where: string): Promise<void> {
  expect(ENGLISH.size, 'the English words to look for').toBeGreaterThan(300);
  expect(await englishOn(page), `English words on the page after ${where}`).toEqual([]);
}

/** Pistepokeri's seed hands: Ville must follow Anna's 9♥ with his A♥, so his K♠ is an illegal play. */
const HANDS = [
  ['5h', '6h', '7h', '8h', '9h'],
  ['Ks', 'Kc', 'Kd', 'Ah', 'Qd'],
  ['2c', '2s', '3c', '3s', '4c'],
] as const;

for (const language of ['fi', 'ru'] as const) {
  test.describe(`no English in ${language === 'fi' ? 'Finnish' : 'Russian'}`, () => {
    let app: RunningConsole;
    test.beforeEach(async ({ page }) => {
      app = await startConsole();
      await openConsole(page, app.url);
      await chooseLanguage(page, language);
    });
    test.afterEach(async () => {
      await stopConsoles(app);
    });

    test('a card already dealt', async ({ page }) => {
      await setUpTable(page, FINNISH_TABLE);
      await enterCounts(page, FINNISH_COUNTS);
      await startRace(page);
      await enterCard(page, 'ah');
      await typeAsPerson(page, 'ah');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('deal-error')).toBeVisible();
      await expect(page.getByTestId('deal-error')).toContainText('A♥');
      await expectNoEnglish(page, 'a card already dealt');
    });

    test('a race the shoe cannot deal (a setup field at fault)', async ({ page }) => {
      // 25s leave, 500 is the next chip (20 to a chip): 19 + 19 + 19 + 1 + 1 odd chips race for 3 chips,
      // 59 cards, and a one-deck shoe holds 52.
      const seats = [...FINNISH_TABLE.seats, { seat: 4, name: 'Anna' }, { seat: 5, name: 'Ville' }];
      await setUpTable(page, { ...FINNISH_TABLE, seats, next: 500 });
      await page.getByTestId('nav-race').click();
      const view = page.getByTestId('view-counts');
      for (const [seat, chips] of [[1, 19], [2, 19], [3, 19], [4, 1], [5, 1]] as const) {
        await view.getByTestId(`counts-seat-${seat}-chips`).fill(String(chips));
        await view.getByTestId(`counts-seat-${seat}-other`).setChecked(true);
      }
      await expect(view.getByTestId('counts-error')).toBeVisible();
      await expect(view.getByTestId('counts-error')).toContainText('59');
      await expectNoEnglish(page, 'a race the shoe cannot deal');
    });

    test('an illegal play in Pistepokeri', async ({ page }) => {
      await page.getByTestId('nav-points').click();
      const start = page.getByTestId('view-points-start');
      for (const [index, player] of ['Anna', 'Ville', 'Sanna'].entries()) await start.getByTestId(`player-${index + 1}-name`).fill(player);
      await start.getByTestId('start-game').click();
      const game = page.getByTestId('view-game');
      await expect(game).toHaveAttribute('data-phase', 'dealing');
      for (let index = 0; index < 5; index += 1) for (const hand of HANDS) await enterCard(page, hand[index] as string);
      await expect(game).toHaveAttribute('data-phase', 'exchanging');
      for (let player = 0; player < 3; player += 1) await page.getByTestId('stand-pat').click();
      await expect(game).toHaveAttribute('data-phase', 'playing');
      await enterCard(page, '9h');
      await typeAsPerson(page, 'ks');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('deal-error')).toBeVisible();
      await expectNoEnglish(page, 'an illegal play');
    });

    test('a structure sheet that cannot be read', async ({ page }) => {
      await page.getByTestId('nav-structure').click();
      const view = page.getByTestId('view-structure');
      await expect(view).toBeVisible();
      // The file's name is the director's, shown as given: a name of no language, so only the console's words are judged.
      await view.getByTestId('structure-import').setInputFiles({ name: 'k7.csv', mimeType: 'text/csv', buffer: Buffer.from('chips,25,100\r\nlevel,25,fifty\r\n') });
      await expect(view.getByTestId('structure-import-error')).toBeVisible();
      await expectNoEnglish(page, 'a structure refused');
    });
  });
}

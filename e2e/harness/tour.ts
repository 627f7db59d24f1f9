import { expect, type Page } from '@playwright/test';
import type { Card } from '../../engine/cards';
import type { Language } from '../../protocol/contract';
import type { RunningConsole } from './console';
import { allDealt, enterCounts, FINNISH_COUNTS, FINNISH_TABLE, manualInput, openConsole, setUpTable, startRace, type TableSetup } from './flows';

/**
 * A walk through every screen of the console with one race, for the specs that check each screen
 * (languages, accessibility, screenshots). The race is the Finnish example with a two-deck shoe,
 * dealt so that Teppo and Johanna tie with K♦ for the second chip: the tie-break screen comes up,
 * and the result is again Matti and Teppo, value +25.
 */

export const SCREENS = ['setup', 'counts', 'dealing', 'tiebreak', 'result', 'display', 'history', 'record', 'settings'] as const;
export type ScreenName = (typeof SCREENS)[number];

/** Called on each screen, with the page showing it (the player display is a page of its own). */
export type Visit = (screen: ScreenName, page: Page) => Promise<void>;

export const TOUR_TABLE: TableSetup = { ...FINNISH_TABLE, decks: 2, name: 'Table 7' };
const MAIN_DEAL_FIRST: readonly Card[] = ['As', '3c', '4d'];
const MAIN_DEAL_REST: readonly Card[] = ['Kd', '5h', 'Kd', '2c'];
const TIEBREAK: readonly Card[] = ['Qs', '9h'];

/** Switches the console's language from the top bar; the page's <html lang> follows. */
export async function chooseLanguage(page: Page, language: Language): Promise<void> {
  await page.getByTestId('locale').selectOption(language);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.getByTestId('locale')).toHaveValue(language);
}

/** Deals a card through the manual entry field (language-neutral: waits for the card count). */
async function deal(page: Page, card: Card): Promise<void> {
  const before = (await allDealt(page)).length;
  const input = manualInput(page);
  await input.fill(card);
  await input.press('Enter');
  await expect.poll(async () => (await allDealt(page)).length, { message: `card ${card} appears` }).toBe(before + 1);
}

/** A structure whose break after level 2 colours up 25 → 100: the tour's race is that break's. */
const BREAK_SHEET = ['chips,25,100,500,1000', 'level,25,50,,20', 'level,50,100,,20', 'break,15', 'level,100,200,,20', 'level,200,400,,20', ''].join('\r\n');

/** The tournament at its break after level 2: the structure imported and saved, the break marked; the colour-up banner up. */
export async function markTheBreak(page: Page): Promise<void> {
  await page.getByTestId('nav-structure').click();
  const view = page.getByTestId('view-structure');
  await view.getByTestId('structure-import').setInputFiles({ name: 'tour.csv', mimeType: 'text/csv', buffer: Buffer.from(BREAK_SHEET) });
  await view.getByTestId('structure-save').click();
  await expect(view.getByTestId('structure-saved')).toBeVisible();
  await view.getByTestId('structure-at').selectOption('2');
  await expect(page.getByTestId('color-up-banner')).toHaveAttribute('data-state', 'offer');
  await page.getByTestId('color-up-start').click();
  await expect(page.getByTestId('view-counts')).toBeVisible();
}

/**
 * Opens the console (a fresh service), optionally switches its language, and walks through every
 * screen, calling `visit` on each. Returns the screens visited, in order. With `banner`, the race
 * is the colour-up of a break (the banner up over every screen from the counts on, as at a real break).
 */
export async function tourScreens(page: Page, app: RunningConsole, visit: Visit, language?: Language, options: { readonly banner?: boolean } = {}): Promise<ScreenName[]> {
  const visited: ScreenName[] = [];
  const stop = async (screen: ScreenName, on: Page = page) => {
    visited.push(screen);
    await visit(screen, on);
  };

  await openConsole(page, app.url);
  if (language !== undefined) await chooseLanguage(page, language);

  await setUpTable(page, TOUR_TABLE);
  await stop('setup');
  if (options.banner === true) await markTheBreak(page);

  await enterCounts(page, FINNISH_COUNTS);
  await stop('counts');

  await startRace(page);
  for (const card of MAIN_DEAL_FIRST) await deal(page, card);
  await expect(page.getByTestId('view-dealing')).toHaveAttribute('data-status', 'dealing');
  await stop('dealing');

  for (const card of MAIN_DEAL_REST) await deal(page, card);
  await expect(page.getByTestId('view-dealing')).toHaveAttribute('data-status', 'tiebreak');
  await expect(page.getByTestId('tiebreak-round')).toBeVisible();
  await stop('tiebreak');

  for (const card of TIEBREAK) await deal(page, card);
  await expect(page.getByTestId('view-result')).toBeVisible();
  await expect(page.getByTestId('winner-1')).toHaveAttribute('data-card', 'As');
  await expect(page.getByTestId('winner-2')).toHaveAttribute('data-card', 'Kd');
  await expect(page.getByTestId('value-delta')).toHaveText('+25');
  await stop('result');

  const display = await page.context().newPage();
  try {
    await display.goto(`${app.url}#/display`);
    await expect(display.getByTestId('display-winners')).toBeVisible({ timeout: 20_000 });
    await expect(display.getByTestId('display-value-delta')).toHaveText('+25');
    if (language !== undefined) await expect(display.locator('html')).toHaveAttribute('lang', language);
    await stop('display', display);
  } finally {
    await display.close();
  }

  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('view-history')).toBeVisible();
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  await stop('history');

  await page.getByTestId('history-open-record').click();
  await expect(page.getByTestId('race-record')).toHaveAttribute('data-chain', 'intact');
  await stop('record');

  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('view-settings')).toBeVisible();
  await stop('settings');

  return visited;
}

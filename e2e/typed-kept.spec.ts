import { expect, test, type Locator, type Page } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { allDealt, enterCounts, FINNISH_COUNTS, FINNISH_TABLE, manualInput, openConsole, setUpTable, startRace } from './harness/flows';
import { HUMAN_KEY_DELAY_MS } from './harness/scanner';

// Issue 24, nothing typed is lost: a dealer types the next card while the one before is still on
// its way to the service (its answer comes after the keys), and a refused card is corrected by
// typing over it. Before, the answer to a card cleared the field the next card was typed in (the
// next Enter found it empty and dealt nothing), and a refused card stayed unselected, so the next
// card's keys were appended to it.

let app: RunningConsole;

test.beforeEach(async () => {
  app = await startConsole();
});

test.afterEach(async () => {
  await stopConsoles(app);
});

/** The Finnish race started by hand, the card entry focused as the dealing screen opens. */
async function dealingFinnishRace(page: Page): Promise<Locator> {
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  const input = manualInput(page);
  await expect(input).toBeFocused();
  return input;
}

test('cards typed one after the other without waiting: ah⏎ ah⏎ (refused) kc⏎ 2d⏎ deals ah, kc, 2d and leaves the field empty', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  const input = await dealingFinnishRace(page);
  // At a person's pace, Enter pressed at once after each card: nothing waits for the screen.
  for (const card of ['ah', 'ah', 'kc', '2d']) {
    await page.keyboard.type(card, { delay: HUMAN_KEY_DELAY_MS });
    await page.keyboard.press('Enter');
  }
  await expect.poll(() => allDealt(page)).toEqual(['Ah', 'Kc', '2d']);
  await expect(input).toHaveValue('');
  // Nothing more dealt after a moment: no card sent twice.
  await page.waitForTimeout(500);
  expect(await allDealt(page)).toEqual(['Ah', 'Kc', '2d']);
});

test('the next card typed while the one before is on its way is kept, and its Enter too', async ({ page }) => {
  const input = await dealingFinnishRace(page);
  // As fast as the keyboard goes: the second card and its Enter reach the field before the first's answer.
  await page.keyboard.type('ah');
  await page.keyboard.press('Enter');
  await page.keyboard.type('kc');
  await page.keyboard.press('Enter');
  await page.keyboard.type('2d');
  await expect.poll(() => allDealt(page)).toEqual(['Ah', 'Kc']);
  await expect(input).toHaveValue('2d');
  await page.keyboard.press('Enter');
  await expect.poll(() => allDealt(page)).toEqual(['Ah', 'Kc', '2d']);
  await expect(input).toHaveValue('');
});

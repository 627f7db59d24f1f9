import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { FINNISH_TABLE, openConsole, setUpTable } from './harness/flows';
import { chooseLanguage } from './harness/tour';

// A discretionary colour-up of a player at any time (TDA 25B, issue 25): no break marked, a late
// registration's chips exchanged from the counts screen with the reason; the player display tells
// the room, in the station's language.

let app: RunningConsole | undefined;
test.afterEach(async () => {
  await stopConsoles(app);
  app = undefined;
});

test('a player coloured up outside a break, announced on the player display in English, Finnish and Russian', async ({ page, context }) => {
  app = await startConsole();
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  await page.getByTestId('nav-race').click();
  const counts = page.getByTestId('view-counts');
  await expect(page.getByTestId('color-up-banner')).toHaveCount(0);
  await counts.getByTestId('colour-up-player').click();
  const dialog = page.getByTestId('chip-exchange');
  await expect(dialog).toHaveAttribute('data-reason', 'discretionary');
  await dialog.getByTestId('chip-exchange-count').fill('5');
  await dialog.getByTestId('chip-exchange-seat').selectOption('2');
  await dialog.getByTestId('chip-exchange-note').fill('late registration');
  await dialog.getByTestId('chip-exchange-record').click();
  await expect(dialog).toBeHidden();
  await expect(counts.getByTestId('colour-up-player-done')).toContainText('5 × 25');

  const display = await context.newPage();
  await display.goto(app.displayUrl);
  const told = display.getByTestId('display-colour-up');
  await expect(told).toContainText('Teppo');
  await expect(told).toContainText('late registration');
  const said = new Set<string>();
  for (const language of ['en', 'fi', 'ru'] as const) {
    await chooseLanguage(page, language);
    await expect(display.locator('html')).toHaveAttribute('lang', language);
    said.add((await told.textContent()) ?? '');
  }
  expect(said.size).toBe(3);
  await display.close();
});

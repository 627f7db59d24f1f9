import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { enterCard, enterCounts, FINNISH_CARDS, FINNISH_COUNTS, FINNISH_TABLE, openConsole, setUpTable, startRace } from './harness/flows';

// Issue 24: the result stays on the players' screen once the dealer confirms it (players back
// from the bar see who won, and when), until the next race or the settings' minutes; set to "not
// kept", it goes at once.

let app: RunningConsole;

test.beforeEach(async () => {
  app = await startConsole();
});

test.afterEach(async () => {
  await stopConsoles(app);
});

test('the player display keeps the confirmed result with its time, until the setting says otherwise', async ({ page }) => {
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  for (const card of FINNISH_CARDS) await enterCard(page, card);
  await expect(page.getByTestId('view-result')).toBeVisible();

  const display = await page.context().newPage();
  await display.setViewportSize({ width: 1920, height: 1080 });
  await display.goto(`${app.url}#/display`);
  await expect(display.getByTestId('display-winners')).toBeVisible({ timeout: 20_000 });
  await expect(display.getByTestId('display-kept')).toHaveCount(0);

  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('view-history')).toBeVisible();
  // Confirmed: the winners stay, with the time, on the players' screen.
  await expect(display.getByTestId('display-kept')).toHaveText(/^Confirmed at \d{1,2}:\d{2}/);
  await expect(display.getByTestId('player-display')).toHaveAttribute('data-showing', 'result');
  await expect(display.getByTestId('display-winner-1')).toContainText('Matti');
  await expect(display.getByTestId('display-winner-2')).toContainText('Teppo');

  // The dealer's setting: not kept, and the display waits for the next race at once.
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('display-result-minutes')).toHaveValue('10');
  await page.getByTestId('display-result-minutes').selectOption('0');
  await expect(display.getByTestId('player-display')).toHaveAttribute('data-showing', /idle|clock/);
  await expect(display.getByTestId('display-kept')).toHaveCount(0);
  await display.close();
});

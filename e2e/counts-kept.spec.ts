import { expect, test, type Page } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { enterCard, expectFinnishResult, FINNISH_CARDS, FINNISH_TABLE, openConsole, setUpTable, typeCard } from './harness/flows';

// The counts typed on the counts screen are the service's (issue 14): a reload gets them back, a
// second window shows the same, and the race starting clears them. The table's name goes with the race.

let app: RunningConsole;

test.beforeAll(async () => {
  app = await startConsole();
});

test.afterAll(async () => {
  await stopConsoles(app);
});

/** The counts screen of a page, opened from the navigation. */
async function countsOf(page: Page) {
  await page.getByTestId('nav-race').click();
  const view = page.getByTestId('view-counts');
  await expect(view).toBeVisible();
  return view;
}

async function expectCounts(page: Page, chips: readonly string[], other: readonly boolean[]): Promise<void> {
  const view = page.getByTestId('view-counts');
  for (const [index, value] of chips.entries()) await expect(view.getByTestId(`counts-seat-${index + 1}-chips`)).toHaveValue(value);
  for (const [index, checked] of other.entries()) {
    if (checked) await expect(view.getByTestId(`counts-seat-${index + 1}-other`)).toBeChecked();
    else await expect(view.getByTestId(`counts-seat-${index + 1}-other`)).not.toBeChecked();
  }
}

test('counts typed survive a reload and show in a second window; the race starting clears them', async ({ page, context }) => {
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, name: 'Table 7' });

  await test.step('typed, incomplete: seat 3 not entered yet', async () => {
    const view = await countsOf(page);
    await expect(view.getByTestId('counts-table-name')).toHaveText('Table: Table 7');
    await view.getByTestId('counts-seat-1-chips').fill('7');
    await view.getByTestId('counts-seat-2-chips').fill('2');
    await view.getByTestId('counts-seat-2-other').setChecked(false);
    await expect(view.getByTestId('counts-incomplete')).toBeVisible();
  });

  await test.step('a reload gets them back from the service', async () => {
    // The store sends them once the typing pauses: wait for the service to hold them, then reload.
    await page.waitForTimeout(600);
    await page.reload();
    await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
    await countsOf(page);
    await expectCounts(page, ['7', '2', ''], [true, false, true]);
  });

  const second = await context.newPage();
  await test.step('a second window shows the same counts, and what it types shows in the first', async () => {
    await openConsole(second, app.url);
    await countsOf(second);
    await expectCounts(second, ['7', '2', ''], [true, false, true]);
    await second.getByTestId('view-counts').getByTestId('counts-seat-2-other').setChecked(true);
    await second.getByTestId('view-counts').getByTestId('counts-seat-3-chips').fill('2');
    await expectCounts(page, ['7', '2', '2'], [true, true, true]);
  });

  await test.step('the race starts: the counts are its own, the next race starts from empty fields', async () => {
    await expect(page.getByTestId('start-race')).toBeEnabled();
    await page.getByTestId('start-race').click();
    await expect(page.getByTestId('view-dealing')).toBeVisible();
    // The second window follows the race.
    await expect(second.getByTestId('view-dealing')).toBeVisible();
    for (const card of FINNISH_CARDS.slice(0, -1)) await typeCard(page, card.toLowerCase());
    // The last card ends the deal: the result replaces the entry.
    await enterCard(page, (FINNISH_CARDS.at(-1) ?? '').toLowerCase());
    await expectFinnishResult(page);
    await page.getByTestId('confirm-race').click();
    const history = page.getByTestId('view-history');
    await expect(history.getByTestId('history-row')).toHaveCount(1);
    await expect(history.getByTestId('history-table-name').first()).toHaveText('Table 7');
    await expect(history.getByTestId('history-running').first()).toHaveText('+25');
    await countsOf(second);
    await expectCounts(second, ['', '', ''], [true, true, true]);
    await page.reload();
    await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
    await countsOf(page);
    await expectCounts(page, ['', '', ''], [true, true, true]);
  });
  await second.close();
});

import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import {
  expectDealt, expectFinnishResult, FINNISH_CARDS, FINNISH_COUNTS, FINNISH_HISTORY_WINNERS, FINNISH_TABLE, confirmAndExpectHistory,
  openConsole, setUpTable, startRace, typeCard,
} from './harness/flows';

// Issue 7's acceptance in the console: a structure edited on the Structure screen shows its planned
// colour-ups; marked at the planned break, the console proposes the colour-up and one click opens the
// race with the right denominations (the table had other ones before); a race abandoned asks why
// (issue 23), and once the colour-up is done a second race of its chips at the break is refused,
// naming the race. Also a CSV imported, a JSON exported, and a structure the service refuses,
// named by its field.

let app: RunningConsole;

test.beforeEach(async () => {
  app = await startConsole();
});

test.afterEach(async () => {
  await stopConsoles(app);
});

async function openStructure(page: Page): Promise<void> {
  await page.getByTestId('nav-structure').click();
  await expect(page.getByTestId('view-structure')).toBeVisible();
  await expect(page.getByTestId('nav-structure')).toHaveAttribute('aria-current', 'page');
}

/** Adds a level at the end (its small blind takes the focus) and types its blinds. */
async function addLevel(page: Page, index: number, sb: number, bb: number): Promise<void> {
  await page.getByTestId('structure-add-level').click();
  await expect(page.getByTestId(`structure-row-${index}-sb`)).toBeFocused();
  await page.keyboard.type(String(sb));
  await page.getByTestId(`structure-row-${index}-bb`).fill(String(bb));
}

test('a structure edited in the console: planned colour-up, marked at its break, started with one click', async ({ page }) => {
  await openConsole(page, app.url);
  // The table races 100s into 500s before the tournament reaches its break.
  await setUpTable(page, { ...FINNISH_TABLE, removed: 100, next: 500 });
  const view = page.getByTestId('view-structure');

  await test.step('four levels and a break, added through the screen', async () => {
    await openStructure(page);
    await expect(view.getByTestId('structure-empty')).toBeVisible();
    await expect(view.getByTestId('structure-plan-none')).toBeVisible();
    await expect(view.getByTestId('structure-chips').locator('.chip')).toHaveText(['25', '100', '500', '1000', '5000']);
    await addLevel(page, 0, 25, 50);
    await addLevel(page, 1, 50, 100);
    await addLevel(page, 2, 100, 200);
    await addLevel(page, 3, 200, 400);
    await view.getByTestId('structure-row-3-ante').fill('100');
    await view.getByTestId('structure-add-break').click();
    await expect(view.getByTestId('structure-row-4-minutes')).toBeFocused();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('20');
    // Moved up twice by keyboard: the focus stays on the moved break's button.
    await view.getByTestId('structure-row-4-up').focus();
    await page.keyboard.press('Enter');
    await expect(view.getByTestId('structure-row-3-up')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(view.getByTestId('structure-row-2-up')).toBeFocused();
    await expect(view.locator('[data-kind]')).toHaveCount(5);
    await expect(view.getByTestId('structure-row-2')).toHaveAttribute('data-kind', 'break');
    await expect(view.getByTestId('structure-row-2')).toHaveAttribute('data-level', '2');
    await expect(view.getByTestId('structure-row-2-minutes')).toHaveValue('20');
    await expect(view.getByTestId('structure-plan-stale')).toBeVisible();
  });

  await test.step('saved: the planned colour-up beside the break, the chip each level needs', async () => {
    await view.getByTestId('structure-save').click();
    await expect(view.getByTestId('structure-saved')).toBeVisible();
    await expect(view.getByTestId('structure-error')).toHaveCount(0);
    const planned = view.getByTestId('plan-after-2');
    await expect(planned.getByTestId('plan-text')).toHaveText('Colour-up: 25 leaves, smallest chip now 100');
    await expect(planned).toHaveAttribute('data-remove', '25');
    await expect(planned).toHaveAttribute('data-next', '100');
    await expect(planned.getByTestId('plan-source')).toHaveText('Planned');
    await expect(view.getByTestId('need-2')).toHaveText('25 (small blind 50)');
    await expect(view.getByTestId('need-4')).toHaveText('100 (small blind 200)');
    await expect(view.getByTestId('structure-plan-list')).toHaveText('On the break after level 2: colour up 25 → 100');
    await expect(page.getByTestId('color-up-banner')).toHaveCount(0);
  });

  await test.step('the tournament reaches the break: the colour-up is proposed', async () => {
    const at = view.getByTestId('structure-at');
    await expect(at.locator('option')).toHaveText(['Playing a level (not on a break)', 'On the break after level 2: colour up 25 → 100']);
    await at.selectOption('2');
    await expect(view.getByTestId('plan-after-2').getByTestId('plan-now')).toBeVisible();
    const banner = page.getByTestId('color-up-banner');
    await expect(banner).toHaveAttribute('data-state', 'offer');
    await expect(banner.getByTestId('color-up-title')).toHaveText('Break after level 2: colour up — 25 → 100 Planned');
    // The setup screen proposes it too.
    await page.getByTestId('nav-setup').click();
    await expect(page.getByTestId('view-setup')).toBeVisible();
    await expect(page.getByTestId('setup-removed')).toHaveValue('100');
    await expect(banner.getByTestId('color-up-start')).toHaveText('Start the colour-up: 25 → 100');
  });

  await test.step('one click: the counts open for 25 → 100, the first count ready for the keys typed next', async () => {
    await page.getByTestId('color-up-start').click();
    // The keys typed next land in seat 1's count, not on the screen's title (issue 24).
    const counts = page.getByTestId('view-counts');
    await expect(counts.getByTestId('counts-seat-1-chips')).toBeFocused();
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await expect(counts.getByTestId('counts-seat-1-chips')).toHaveValue('7');
    await expect(counts.getByTestId('counts-seat-2-chips')).toBeFocused();
    await expect(counts.getByTestId('counts-intro')).toContainText("Count each player's 25 chips: 4 × 25 = 1 × 100.");
    await expect(page.getByTestId('nav-race')).toHaveAttribute('aria-current', 'page');
    for (const count of FINNISH_COUNTS) {
      await counts.getByTestId(`counts-seat-${count.seat}-chips`).fill(String(count.chips));
      await counts.getByTestId(`counts-seat-${count.seat}-other`).setChecked(count.hasOther);
    }
    await expect(counts.getByTestId('counts-pool')).toHaveText('7 × 25 = 175');
    await expect(counts.getByTestId('counts-race-chips')).toHaveText('2');
  });

  await test.step('a race abandoned says why: Abandon waits for a reason, one tap gives it', async () => {
    await startRace(page);
    await page.getByTestId('abandon-race').click();
    await expect(page.getByTestId('abandon-confirm')).toBeDisabled();
    await page.getByTestId('abandon-reason-text').press('Enter');
    await expect(page.getByTestId('view-dealing')).toBeVisible();
    await page.getByTestId('abandon-reason-misdeal').click();
    await expect(page.getByTestId('abandon-reason-text')).toHaveValue('Misdeal');
    await page.getByTestId('abandon-confirm').click();
    // Issue 41: the abandoned race's counts come back for the re-race (before: typed again).
    await expect(page.getByTestId('notice')).toHaveText('Race abandoned. Its counts are back: correct what was wrong, then start again.');
    const counts = page.getByTestId('view-counts');
    for (const count of FINNISH_COUNTS) {
      await expect(counts.getByTestId(`counts-seat-${count.seat}-chips`)).toHaveValue(String(count.chips));
      await expect(counts.getByTestId(`counts-seat-${count.seat}-other`)).toBeChecked({ checked: count.hasOther });
    }
    await expect(counts.getByTestId('counts-race-chips')).toHaveText('2');
  });

  await test.step('the race runs 25 → 100 and, confirmed, completes the colour-up', async () => {
    await startRace(page);
    const dealing = page.getByTestId('view-dealing');
    await expect(dealing).toContainText('25 → 100, Classic');
    await expect(page.getByTestId('color-up-running')).toHaveText('Race 1 of 1 in progress: 25 → 100.');
    await expect(page.getByTestId('color-up-start')).toHaveCount(0);
    for (const card of FINNISH_CARDS.slice(0, -1)) await typeCard(page, card);
    await expectDealt(page, 3, ['Td']);
    // The last card completes the race: the result replaces the dealing screen.
    await page.keyboard.type('tc');
    await page.keyboard.press('Enter');
    await expectFinnishResult(page);
    await expect(page.getByTestId('view-result')).toContainText('25 → 100');
    await confirmAndExpectHistory(page, 1, FINNISH_HISTORY_WINNERS, '+25');
    await expect(page.getByTestId('history-row').first()).toContainText('25 → 100');
    await expect(page.getByTestId('color-up-done')).toHaveText('Colour-up done: the smallest chip is now 100.');
    await page.getByTestId('nav-setup').click();
    await expect(page.getByTestId('setup-removed')).toHaveValue('25');
    await expect(page.getByTestId('setup-next')).toHaveValue('100');
  });

  await test.step('a second race of the 25s at this break is refused, naming the race that raced them off', async () => {
    await page.getByTestId('nav-race').click();
    const counts = page.getByTestId('view-counts');
    for (const count of FINNISH_COUNTS) {
      await counts.getByTestId(`counts-seat-${count.seat}-chips`).fill(String(count.chips));
      await counts.getByTestId(`counts-seat-${count.seat}-other`).setChecked(count.hasOther);
    }
    await expect(counts.getByTestId('counts-race-chips')).toHaveText('2');
    await counts.getByTestId('start-race').click();
    await expect(counts.getByTestId('start-error')).toHaveText(
      /^This race cannot start: the 25 chips were already raced off at this break \(after level 2\), in race-2 confirmed at \d\d:\d\d: they cannot be raced a second time at this break\s*$/,
    );
    await expect(page.getByTestId('view-dealing')).toHaveCount(0);
  });
});

const SHEET = ['chips,25,100,500,1000', 'starting stack,10000', 'rebuys,10000,3', 'level,25,50', 'level,50,100', 'break,15', 'level,100,200', 'level,200,400,100', 'break,15', 'level,300,600,100', 'level,500,1000', ''].join('\r\n');

const SHEET_STRUCTURE = {
  chips: [25, 100, 500, 1000],
  levels: [
    { sb: 25, bb: 50 },
    { sb: 50, bb: 100 },
    { break: 15 },
    { sb: 100, bb: 200 },
    { sb: 200, bb: 400, ante: 100 },
    { break: 15 },
    { sb: 300, bb: 600, ante: 100 },
    { sb: 500, bb: 1000 },
  ],
  startingStack: 10000,
  rebuys: { amount: 10000, untilLevel: 3 },
};

test('a CSV imported, a refusal named by its field, the structure exported as JSON', async ({ page }) => {
  await openConsole(page, app.url);
  await openStructure(page);
  const view = page.getByTestId('view-structure');
  const input = view.getByTestId('structure-import');

  await test.step('a broken sheet is refused, naming its line', async () => {
    await input.setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from('chips,25,100\r\nlevel,25,fifty\r\n') });
    const error = view.getByTestId('structure-import-error');
    await expect(error).toHaveText('broken.csv was not imported: line 2, big blind: "fifty" is not a whole number');
    await expect(error).toHaveAttribute('data-field', 'line 2, big blind');
  });

  await test.step('the sheet imported into the form, then saved and planned', async () => {
    await input.setInputFiles({ name: 'main-event.csv', mimeType: 'text/csv', buffer: Buffer.from(SHEET) });
    await expect(view.getByTestId('structure-imported')).toHaveText('main-event.csv imported: check it, then save.');
    await expect(view.getByTestId('structure-import-error')).toHaveCount(0);
    await expect(view.locator('[data-kind]')).toHaveCount(8);
    await expect(view.getByTestId('structure-chips').locator('.chip')).toHaveText(['25', '100', '500', '1000']);
    await expect(view.getByTestId('structure-starting-stack')).toHaveValue('10000');
    await expect(view.getByTestId('structure-rebuy-until')).toHaveValue('3');
    await view.getByTestId('structure-save').click();
    await expect(view.getByTestId('structure-saved')).toBeVisible();
    await expect(view.getByTestId('plan-after-2').getByTestId('plan-text')).toHaveText('Colour-up: 25 leaves, smallest chip now 100');
    await expect(view.getByTestId('plan-after-4').getByTestId('plan-text')).toHaveText('No colour-up here');
    // The table plays with the structure's chips.
    await page.getByTestId('nav-setup').click();
    await expect(page.getByTestId('chipset').locator('.chip')).toHaveText(['25', '100', '500', '1000']);
    await openStructure(page);
  });

  await test.step("the service's refusal: message and field, the field marked", async () => {
    await view.getByTestId('structure-row-3-sb').fill('30');
    await view.getByTestId('structure-save').click();
    const error = view.getByTestId('structure-error');
    await expect(error).toHaveAttribute('data-field', 'tournament.structure.levels[3].sb');
    await expect(error).toContainText("Not saved: level 3's small blind 30 is not a multiple of any chip (25, 100, 500, 1000), so it cannot be paid");
    await expect(view.getByTestId('structure-error-where')).toHaveText('Check: Level 3: Small blind');
    await expect(view.getByTestId('structure-row-3-sb')).toHaveAttribute('aria-invalid', 'true');
    await expect(view.getByTestId('structure-row-3-sb')).toBeFocused();
    await view.getByTestId('structure-revert').click();
    await expect(view.getByTestId('structure-row-3-sb')).toHaveValue('100');
    await expect(view.getByTestId('structure-error')).toHaveCount(0);
  });

  await test.step('exported as JSON: the file is the saved structure', async () => {
    await view.getByTestId('structure-export-json').click();
    const link = view.getByTestId('structure-download');
    await expect(link).toHaveAttribute('data-format', 'json');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^structure-\d{4}-\d{2}-\d{2}\.json$/);
    const path = await download.path();
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(SHEET_STRUCTURE);
  });
});

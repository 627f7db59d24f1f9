import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { expectInView, expectNoScroll, expectTouchTargets } from './harness/fit';
import { confirmFinnishRaceWithAVoid, openConsole } from './harness/flows';
import { journalOf } from './harness/journal';

// Late-found chips (TDA 24C) on the table's touchscreen: after the Finnish race is confirmed, five
// 25s turn up under Johanna's chair. From the race's record the dealer enters them, sees what they
// give before recording (one 100 given, one 25 taken off), and records them: the journal holds a
// chip-exchange record against race-1, the record lists them, and so does the history's CSV.

let app: RunningConsole | undefined;

test.use({ viewport: { width: 1024, height: 600 } });

test.afterAll(async () => {
  await stopConsoles(app);
});

test("late-found chips recorded on a confirmed race's record, shown before recording and on the record after, at 1024x600", async ({ page }) => {
  app = await startConsole();
  await openConsole(page, app.url);
  await confirmFinnishRaceWithAVoid(page);

  await test.step('the record offers late-found chips; the dialog fits the screen and its controls a fingertip', async () => {
    await page.getByTestId('history-open-record').first().click();
    const slip = page.getByTestId('race-record');
    await expect(slip.getByTestId('record-status')).toHaveText('Confirmed');
    await slip.getByTestId('record-late-found').click();
    const dialog = page.getByTestId('chip-exchange');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading')).toHaveText('Late-found chips of race-1');
    await expect(dialog.getByTestId('chip-exchange-chips')).toHaveText('25 chips for 100');
    await expect(dialog.getByTestId('chip-exchange-count')).toBeFocused();
    await expect(dialog.getByTestId('chip-exchange-record')).toBeDisabled();
    await expectInView(dialog, 'the late-found chips dialog');
    await expectNoScroll(page, 'the record with the dialog');
    await expectTouchTargets(page, 'the late-found chips dialog');
  });

  await test.step('what they give is shown before anything is recorded; Enter in a field records nothing', async () => {
    const dialog = page.getByTestId('chip-exchange');
    await dialog.getByTestId('chip-exchange-count').fill('5');
    await expect(dialog.getByTestId('chip-exchange-gives')).toHaveText('1 × 100 given, 1 × 25 taken off (-25)');
    await dialog.getByTestId('chip-exchange-seat').selectOption('3');
    await dialog.getByTestId('chip-exchange-note').fill('under the chair');
    await dialog.getByTestId('chip-exchange-note').press('Enter');
    await expect(dialog).toBeVisible();
    expect((await journalOf(app?.dataDir as string)).records.filter((record) => record.kind === 'chip-exchange')).toEqual([]);
    await expectInView(dialog, 'the filled dialog');
    await dialog.getByTestId('chip-exchange-record').click();
    await expect(dialog).toBeHidden();
  });

  await test.step('the journal holds the exchange, and the record lists it', async () => {
    const { records } = await journalOf(app?.dataDir as string);
    expect(records.filter((record) => record.kind === 'chip-exchange')).toEqual([
      { kind: 'chip-exchange', reason: 'late-found', raceId: 'race-1', seat: 3, removed: 25, count: 5, next: 100, note: 'under the chair' },
    ]);
    const found = page.getByTestId('record-late-found-chips');
    await expect(found).toHaveText(/: 5 × 25 found — 1 × 100 given, 1 × 25 taken off \(-25\) · Seat 3 — Johanna · under the chair$/);
    await expectNoScroll(page, 'the record with its late-found chips');
  });

  await test.step("the history's CSV carries them in the race's row", async () => {
    const link = page.getByTestId('export-csv');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const rows = readFileSync((await download.path()) as string, 'utf8').split('\r\n');
    expect(rows[0]).toContain(',value delta,late-found chips,cards,');
    expect(rows[1]).toContain(',"5 × 25 → 1 × 100, 1 × 25 taken off (-25), seat 3: under the chair",');
  });
});

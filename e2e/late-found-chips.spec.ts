import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { expectInView, expectNoScroll, expectTouchTargets } from './harness/fit';
import { confirmFinnishRaceWithAVoid, openConsole } from './harness/flows';
import { journalOf } from './harness/journal';
import { DEFAULT_SETTINGS } from '../station/service/settings';

// Late-found chips (TDA 24C) on the table's touchscreen: after the Finnish race is confirmed, five
// 25s turn up under Johanna's chair. From the race's record the dealer enters them, sees what they
// give before recording (one 100 given, one 25 taken off), and records them: the journal holds a
// chip-exchange record against race-1, the record lists them, and so does the history's CSV.
// Then, at a tournament's break, a player's 25s coloured up from the counts screen, with the reason.

let app: RunningConsole | undefined;
let atBreak: RunningConsole | undefined;

test.use({ viewport: { width: 1024, height: 600 } });

test.afterAll(async () => {
  await stopConsoles(app, atBreak);
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

test('a colour-up of a player at a break, from the counts screen: the reason asked, what it gives shown, at 1024x600', async ({ page }) => {
  // A station whose tournament is on the break after level 2 (its colour-up takes the 25s off into 100s).
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-colour-up-'));
  const table = { ...DEFAULT_SETTINGS.table, chipSet: [25, 100, 500, 1000], seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Johanna' }], button: 3 };
  const structure = { chips: [25, 100, 500, 1000], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 20 }] };
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, table, tournament: { structure, atBreakAfter: 2 } }), { mode: 0o600 });
  atBreak = await startConsole(dataDir);
  await openConsole(page, atBreak.url);
  await page.getByTestId('nav-race').click();
  const counts = page.getByTestId('view-counts');
  // The counts screen at a break (the colour-up's banner above the seats) is taller than 600 px
  // already, its actions kept at the foot: the dialog opens over it and makes the page no taller.
  const pageHeight = () => page.evaluate(() => document.documentElement.scrollHeight);
  const before = await pageHeight();
  await expectInView(counts.getByTestId('colour-up-player'), "the counts screen's colour-up button");
  await counts.getByTestId('colour-up-player').click();
  const dialog = page.getByTestId('chip-exchange');
  await expect(dialog).toHaveAttribute('data-reason', 'discretionary');
  await expect(dialog.getByTestId('chip-exchange-chips')).toHaveText('25 chips for 100');
  await dialog.getByTestId('chip-exchange-count').fill('3');
  await expect(dialog.getByTestId('chip-exchange-reason-needed')).toBeVisible();
  await expect(dialog.getByTestId('chip-exchange-record')).toBeDisabled();
  await expectInView(dialog, 'the colour-up dialog');
  await expectNoScroll(page, 'the counts screen with the dialog');
  expect(await pageHeight()).toBe(before);
  await expectTouchTargets(page, 'the colour-up dialog');
  await dialog.getByTestId('chip-exchange-seat').selectOption('2');
  await dialog.getByTestId('chip-exchange-note').fill('Teppo moved from a broken table');
  await expect(dialog.getByTestId('chip-exchange-gives')).toHaveText('0 × 100 given, 3 × 25 taken off (-75)');
  await dialog.getByTestId('chip-exchange-record').click();
  await expect(dialog).toBeHidden();
  await expect(counts.getByTestId('colour-up-player-done')).toHaveText('Colour-up of a player recorded: 3 × 25, 0 × 100 given, 3 × 25 taken off (-75)');
  const { records } = await journalOf(dataDir);
  expect(records.filter((record) => record.kind === 'chip-exchange')).toEqual([
    { kind: 'chip-exchange', reason: 'discretionary', raceId: null, seat: 2, removed: 25, count: 3, next: 100, note: 'Teppo moved from a broken table' },
  ]);
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { journalPath } from '../journal/location';
import { ConsoleService } from '../station/service/service';
import { options, play, SETTINGS } from '../station/service/testing/evenings';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { CONSOLE_SIZES, expectNoScroll, expectUnclipped, sizeName } from './harness/fit';
import { openConsole } from './harness/flows';
import { chooseLanguage } from './harness/tour';

// Issue 44: a station started on a journal with damaged lines (race 2's confirmation lost: cut short
// when race 3 started; a card of race 3 lost, its confirmation kept): the history screen says so on
// both rows and on race 2's record slip, in every language, and still fits every dealer's screen.

let app: RunningConsole | undefined;

test.afterAll(async () => {
  await stopConsoles(app);
});

/** An evening of three races through the real service, then two of its lines damaged as a failing disk leaves them. */
async function damagedJournal(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-damaged-history-'));
  const live = await ConsoleService.start({ ...options(dir, []), checkpointEvery: Number.MAX_SAFE_INTEGER });
  await live.saveSettings(SETTINGS);
  await play(live, [{ t: 'start', chips: [7, 2, 2] }, { t: 'finish' }, { t: 'start', chips: [1, 1, 1] }, { t: 'finish' }, { t: 'start', chips: [2, 7, 1] }, { t: 'finish' }]);
  await live.close();
  const journal = readFileSync(journalPath(dir));
  const ends = [...journal.entries()].filter(([, byte]) => byte === 0x0a).map(([at]) => at);
  const lines = journal.toString('utf8').split('\n');
  const lost = [
    lines.findIndex((line) => line.includes('"kind":"race-confirm"') && line.includes('"raceId":"race-2"')),
    lines.findIndex((line) => line.includes('"kind":"race-event"') && line.includes('"raceId":"race-3"')),
  ];
  for (const index of lost) {
    const from = (ends[index - 1] as number) + 1;
    for (let at = from; at < from + 4; at += 1) journal[at] = (journal[at] as number) ^ 0xff;
  }
  writeFileSync(journalPath(dir), journal);
  return dir;
}

test('the history marks the races a damaged line belongs to, in every language, at every dealer screen size', async ({ page }) => {
  test.slow();
  app = await startConsole(await damagedJournal());
  await openConsole(page, app.url);
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('view-history')).toBeVisible();
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(3);
  await expect(page.locator('[data-testid="history-row"][data-id="race-2"] [data-testid="history-damaged"]')).toHaveText(/^Damaged at record \d+: not confirmed — its end could not be read$/);
  await expect(page.locator('[data-testid="history-row"][data-id="race-3"] [data-testid="history-damaged"]')).toHaveText(/^Confirmed; record \d+ of it damaged$/);
  await expect(page.locator('[data-testid="history-row"][data-id="race-1"] [data-testid="history-damaged"]')).toHaveCount(0);
  await expect(page.getByTestId('history-total')).toContainText('2 races confirmed');
  await expect(page.getByTestId('history-unconfirmed')).toHaveText('1 damaged race not confirmed, not counted');
  await page.locator('[data-testid="history-row"][data-id="race-2"] [data-testid="history-open-record"]').click();
  await expect(page.getByTestId('record-status')).toHaveText(/^Damaged at record \d+: not confirmed/);
  await expect(page.getByTestId('record-late-found')).toHaveCount(0);
  await page.getByTestId('record-close').click();

  for (const size of CONSOLE_SIZES) {
    await page.setViewportSize(size);
    for (const language of ['en', 'fi', 'ru'] as const) {
      await chooseLanguage(page, language);
      const where = `history with damaged races at ${sizeName(size)} in ${language}`;
      await expectNoScroll(page, where);
      await expectUnclipped(page.locator('[data-testid="history-table"] th, [data-testid="history-row"] td'), `${where}: every heading and cell`, { pageScrolls: true });
      await expectUnclipped(page.getByTestId('history-damaged'), `${where}: what the damage did`, { pageScrolls: true });
      await expectUnclipped(page.getByTestId('history-open-record'), `${where}: the record's button`, { pageScrolls: true });
      await page.locator('[data-testid="history-row"][data-id="race-2"] [data-testid="history-open-record"]').click();
      await expect(page.getByTestId('record-damaged')).toBeVisible();
      await expectNoScroll(page, `${where}: race 2's record`);
      await expectUnclipped(page.getByTestId('record-status'), `${where}: race 2's record status`, { pageScrolls: true });
      await page.getByTestId('record-close').click();
    }
    await chooseLanguage(page, 'en');
  }
});

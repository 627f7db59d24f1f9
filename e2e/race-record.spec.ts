import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { confirmFinnishRaceWithAVoid, FINNISH_CARDS, openConsole } from './harness/flows';

// The record settles a dispute: the Finnish example by keyboard with a misread voided, a history
// row opens the race's full record read back from the journal, and it prints as one page to sign.
// Then the journal is forged by hand (the winning card), and a restart shows it to the dealer and
// in the record, while the console goes on.

let app: RunningConsole | undefined;

test.afterAll(async () => {
  await stopConsoles(app);
});

test("a race's record: every card, the void with its reason, the confirmation; printed as one page; a forgery shown after a restart", async ({ page, browser }) => {
  app = await startConsole();
  const { dataDir } = app;
  await openConsole(page, app.url);
  await confirmFinnishRaceWithAVoid(page);

  await test.step('the history row opens the record read back from the journal', async () => {
    await page.getByTestId('history-open-record').first().click();
    const slip = page.getByTestId('race-record');
    await expect(slip).toBeVisible();
    await expect(slip).toHaveAttribute('data-chain', 'intact');
    await expect(slip.getByTestId('record-status')).toHaveText('Confirmed');
    const events = slip.getByTestId('record-event');
    await expect(events).toHaveCount(1 + 2 + 1 + FINNISH_CARDS.length - 1 + 1);
    await expect(events.nth(2)).toContainText('Q♥ to Seat 1 — Matti');
    await expect(events.nth(3)).toContainText('Voided: Q♥ of Seat 1 — Matti (manual correction)');
    await expect(events.last()).toContainText('Confirmed');
    await expect(slip.getByTestId('record-seal')).toHaveText(/[0-9a-f]{64}/);
  });

  await test.step("the history's exports download from the station's own address, streamed (no Blob of the whole history)", async () => {
    for (const format of ['csv', 'json'] as const) {
      const link = page.getByTestId(`export-${format}`);
      await expect(link).toHaveAttribute('href', `/export/history.${format}`);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^chip-races-\\d{4}-\\d{2}-\\d{2}\\.${format}$`));
      expect(download.url()).toBe(new URL(`/export/history.${format}`, app?.url).href);
      const text = readFileSync((await download.path()) as string, 'utf8');
      if (format === 'csv') {
        const rows = text.split('\r\n');
        // The byte-order mark Excel needs to read UTF-8 (the suits), and each time's local reading beside it.
        expect(rows[0]).toMatch(/^\uFEFFrace,table,level,station,started,started local,confirmed,confirmed local,/);
        expect(rows[1]).toMatch(/^race-1,/);
        expect(rows[1]).toContain('Q♥ (seat 1)');
        // The chain's verdict, then the floor's decisions on the race (none here).
        expect(rows[1]).toMatch(/,intact,$/);
      } else {
        const document = JSON.parse(text) as { journal: { chain: string }; races: Array<{ id: string; chain: string }>; totalValueDelta: number };
        expect(document.journal.chain).toBe('intact');
        expect(document.races.map((race) => [race.id, race.chain])).toEqual([['race-1', 'intact']]);
      }
    }
    // The page made no object URL for them: the browser's own download took the stream.
    expect(await page.evaluate(() => document.querySelectorAll('a[href^="blob:"]').length)).toBe(0);
  });

  await test.step('printed, the slip is the only thing on the page, on one page, with lines to sign', async () => {
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('race-record')).toBeVisible();
    await expect(page.locator('.record-slip__signatures')).toBeVisible();
    await expect(page.getByTestId('record-print')).toBeHidden();
    await expect(page.locator('.top-bar')).toBeHidden();
    const pdf = await page.pdf({ format: 'A4' });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
    expect(pages).toHaveLength(1);
    await page.emulateMedia({ media: 'screen' });
  });

  await test.step('a forged winning card is shown after a restart, and the console goes on', async () => {
    await app?.kill('SIGTERM');
    const path = join(dataDir, 'journal.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"card":"Ts"', '"card":"Js"'));
    app = await startConsole(dataDir);
    const fresh = await browser.newPage();
    await openConsole(fresh, app.url);
    const banner = fresh.getByTestId('journal-problems');
    await expect(banner).toHaveAttribute('data-chain', 'broken');
    await expect(banner.getByTestId('journal-chain')).toHaveText('The record was changed after it was written: see what was found. Tell the floor supervisor.');
    await expect(banner.locator('li[data-code="altered"]')).toHaveText(/^Record \d+ was changed after it was written: its seal does not match\.\s*$/);
    await fresh.getByTestId('nav-history').click();
    await fresh.getByTestId('history-open-record').first().click();
    await expect(fresh.getByTestId('race-record')).toHaveAttribute('data-chain', 'broken');
    await expect(fresh.getByTestId('record-findings')).toContainText('was changed after it was written');
    await fresh.getByTestId('nav-settings').click();
    await expect(fresh.getByTestId('journal-info')).toHaveAttribute('data-chain', 'broken');
    await fresh.close();
  });
});

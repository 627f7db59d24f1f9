import { expect, test } from '@playwright/test';
import { PtyPair } from '../hardware/testing/ptyPair';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { allDealt, confirmAndOpenRecord, expectSourceConnected, FINNISH_DEAL, FINNISH_TABLE, openConsole, setUpTable, Shoe, enterCounts, FINNISH_COUNTS, startRace } from './harness/flows';
import { chooseLanguage } from './harness/tour';

// Every read is seen and kept (issue 24): a line from the shoe that is no card (`Z77`) is said in
// the headline until the next card, and is on the race's record with the reason, in the
// dealer's language, after the race is confirmed; the race goes on as if it had not come.

let pair: PtyPair;
let app: RunningConsole;

test.beforeAll(async () => {
  pair = await PtyPair.create('unreadable');
  app = await startConsole();
});

test.afterAll(async () => {
  await stopConsoles(app);
  await pair?.dispose();
});

test("an unreadable shoe read: in the headline until the next card, then on the race's record in English, Finnish and Russian", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } });
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  await expectSourceConnected(page);
  const shoe = await Shoe.open(pair.a);
  const headline = page.getByTestId('next-step');
  try {
    await shoe.send('Ah');
    await expect.poll(() => allDealt(page)).toEqual(['Ah']);
    await shoe.sendLine('Z77');
    await expect(headline).toHaveAttribute('data-refused', 'shoe');
    await expect(headline).toContainText('Z77');
    const said = (await headline.textContent()) ?? '';
    // Nothing dealt; the next card settles it.
    expect(await allDealt(page)).toEqual(['Ah']);
    for (const [index, { card }] of FINNISH_DEAL.slice(1).entries()) {
      await shoe.send(card);
      await expect.poll(() => allDealt(page)).toHaveLength(index + 2);
      if (index === 0) await expect(headline).not.toHaveAttribute('data-refused');
    }
    console.log(`the headline said: ${said}`);
  } finally {
    await shoe.close();
  }
  const record = await confirmAndOpenRecord(page);
  const texts: string[] = [];
  for (const language of ['en', 'fi', 'ru'] as const) {
    await chooseLanguage(page, language);
    await expect(record).toContainText('Z77');
    texts.push((await record.getByText('Z77').first().textContent()) ?? '');
  }
  console.log(`the record says: ${texts.join(' | ')}`);
  // Said in each language its own way.
  expect(new Set(texts).size).toBe(3);
});

import { expect, test } from '@playwright/test';
import { PtyPair } from '../hardware/testing/ptyPair';
import type { Card } from '../engine/cards';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { CONSOLE_SIZES, expectInView, expectNoScroll, sizeName } from './harness/fit';
import { enterCounts, expectSourceConnected, FINNISH_COUNTS, FINNISH_TABLE, openConsole, setUpTable, Shoe, startRace } from './harness/flows';
import { chooseLanguage } from './harness/tour';

// Reader health at the station (issue 26): a shoe whose reads turn bad (a loose cable) is warned of
// under the card source, in the dealer's language, and the technician's table in the settings
// counts the hour's frames and unknown ones.

let pair: PtyPair;
let app: RunningConsole;

test.beforeAll(async () => {
  pair = await PtyPair.create('reader-health');
  app = await startConsole();
});

test.afterAll(async () => {
  await stopConsoles(app);
  await pair?.dispose();
});

const CARDS: readonly Card[] = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc', '3s', '5h', '6d', '7c', '8s', '9h', 'Jd', 'Qc', 'Ks', 'Ac'];

test('a shoe going bad: the warning under the card source in English, Finnish and Russian, and the hour counted in the settings', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } });
  await page.getByTestId('nav-settings').click();
  await expectSourceConnected(page);
  const warning = page.getByTestId('reader-health-warning');
  const shoe = await Shoe.open(pair.a);
  try {
    for (const card of CARDS) await shoe.send(card);
    // Clean reads: the verdict is given on whatever frames the last hour holds (a race's few cards).
    await expect(page.getByTestId('reader-health')).toHaveAttribute('data-verdict', 'ok');
    await expect(warning).toHaveCount(0);
    for (let i = 0; i < 4; i += 1) await shoe.sendLine(`Z7${i}`);
  } finally {
    await shoe.close();
  }
  await expect(warning).toHaveText('Card reader: 4 of the last 21 frames bad. Check the cable and the reader.');
  await expect(page.getByTestId('reader-health')).toHaveAttribute('data-verdict', 'warn');
  const hour = page.getByTestId('reader-health-hour');
  await expect(hour).toHaveCount(1);
  await expect(hour.locator('td')).toHaveText([/\d/, '21', '4', '0', '0', '0']);
  const said = [await warning.textContent()];
  for (const language of ['fi', 'ru'] as const) {
    await chooseLanguage(page, language);
    await expect(warning).not.toHaveText(said[0] ?? '');
    said.push(await warning.textContent());
  }
  console.log(`the warning said: ${said.join(' | ')}`);
  expect(new Set(said).size).toBe(3);
  // It fits the smallest screen: nothing wider than the window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  // On the dealing screen too, beside the card source, in the longest words (Russian), at every size:
  // the deal's own parts still in view, nothing scrolled.
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  for (const size of CONSOLE_SIZES) {
    await page.setViewportSize(size);
    const where = `dealing with the reader warning at ${sizeName(size)}`;
    await expect(warning).toBeVisible();
    await expectNoScroll(page, where, true);
    await expectInView(page.getByTestId('next-step'), `${where}: the headline`);
    await expectInView(page.getByTestId('manual-input'), `${where}: the card entry`);
    await expectInView(page.getByTestId('card-grid'), `${where}: the 52-card grid`);
    await expectInView(warning, `${where}: the warning`);
  }
});

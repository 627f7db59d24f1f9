import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
// The layer table lets e2e/ import everything, but the lint rule knows only the layers, not scripts/.
// eslint-disable-next-line layers/boundaries -- the one Chromium the tests, the benchmarks and `npm test`'s set-up look for
import { chromiumPath } from '../scripts/systemPackages.mjs';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { expectInView, expectNoScroll, expectUnclipped } from './harness/fit';
import { FINNISH_CARDS, FINNISH_TABLE, expectFinnishResult, openConsole, setUpTable, typeCard } from './harness/flows';
import { typeAsPerson } from './harness/scanner';
import { chooseLanguage, markTheBreak } from './harness/tour';

// Issue 41: counts safe to correct, at a 1024 × 600 touchscreen with the window's scrollbars shown
// (as a dealer's PC draws them; Playwright hides them unless told): a count tapped and typed over
// is replaced, and so is one keyed over on the keypad; a count far past a stack is asked about
// once; a refused Start race is disabled with its reason beside it, in view; a wrong result is
// abandoned with a reason and its counts come back for the re-race.

test.use({
  viewport: { width: 1024, height: 600 },
  launchOptions: {
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    ignoreDefaultArgs: ['--hide-scrollbars'],
  },
});

const apps: RunningConsole[] = [];
test.afterEach(async () => stopConsoles(...apps.splice(0)));

const TEN_SEATS = { ...FINNISH_TABLE, seats: ['Matti', 'Teppo', 'Johanna', 'Aino', 'Ville', 'Sanna', 'Olli', 'Kaisa', 'Pekka', 'Liisa'].map((name, index) => ({ seat: index + 1, name })) };

async function counts(page: Page): Promise<Locator> {
  await page.getByTestId('nav-race').click();
  const view = page.getByTestId('view-counts');
  await expect(view).toBeVisible();
  return view;
}

/** A finger's tap: at the control's centre, which must be the control itself (nothing drawn over it). */
async function tapAtCentre(page: Page, control: Locator, what: string): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  if (box === null) throw new Error(`${what}: not shown`);
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const hit = await control.evaluate((element, [px, py]) => {
    const shown = document.elementFromPoint(px as number, py as number);
    return shown === element || (shown !== null && element.contains(shown));
  }, [x, y]);
  expect(hit, `${what}: the control itself at its centre (${Math.round(x)}, ${Math.round(y)})`).toBe(true);
  await page.mouse.click(x, y);
}

/** The Finnish example's cards typed as a person types them, the last ending the deal: its result. */
async function dealTheFinnishCards(page: Page): Promise<void> {
  await expect(page.getByTestId('view-dealing')).toBeVisible();
  for (const card of FINNISH_CARDS.slice(0, -1)) await typeCard(page, card.toLowerCase());
  await typeAsPerson(page, (FINNISH_CARDS.at(-1) ?? '').toLowerCase());
  await page.keyboard.press('Enter');
  await expectFinnishResult(page);
}

/** The counts as the fields show them, seat by seat. */
async function shown(view: Locator, seats: number): Promise<string[]> {
  const values: string[] = [];
  for (let seat = 1; seat <= seats; seat += 1) values.push(await view.getByTestId(`counts-seat-${seat}-chips`).inputValue());
  return values;
}

test('a count holding 9, tapped and typed 8⏎, is 8; keyed over with the keypad, 7 over 9 is 7', async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  const view = await counts(page);
  for (const seat of [1, 2, 3]) await view.getByTestId(`counts-seat-${seat}-chips`).fill('9');
  // Typed over: the tap selects the 9, and 8 replaces it; Enter goes on to seat 2, whose 9 is selected in turn.
  const first = view.getByTestId('counts-seat-1-chips');
  await tapAtCentre(page, first, "seat 1's count");
  await expect(first).toBeFocused();
  await typeAsPerson(page, '8');
  await page.keyboard.press('Enter');
  await expect(first).toHaveValue('8');
  await expect(view.getByTestId('counts-seat-2-chips')).toBeFocused();
  await typeAsPerson(page, '2');
  await expect(view.getByTestId('counts-seat-2-chips')).toHaveValue('2');
  // Keyed over: the tap opened the keypad; on seat 3's 9 its first key replaces, the next adds on.
  const third = view.getByTestId('counts-seat-3-chips');
  await tapAtCentre(page, third, "seat 3's count");
  await expect(page.getByTestId('count-keypad')).toHaveAttribute('data-seat', '3');
  await tapAtCentre(page, page.getByTestId('keypad-digit-7'), 'the keypad’s 7');
  await expect(third).toHaveValue('7');
  await tapAtCentre(page, page.getByTestId('keypad-digit-1'), 'the keypad’s 1');
  await expect(third).toHaveValue('71');
  await tapAtCentre(page, page.getByTestId('keypad-close'), 'the keypad’s close');
  // The service keeps what is shown (once the typing pauses, in the data folder): a reload gets 8, 2, 71 back (never 98, 92, 971).
  const kept = () => {
    try {
      return (JSON.parse(readFileSync(join(app.dataDir, 'count-drafts.json'), 'utf8')) as { counts: { chips: number | null }[] }).counts.map((count) => count.chips);
    } catch {
      return null;
    }
  };
  await expect.poll(kept, { message: 'the counts kept by the service' }).toEqual([8, 2, 71]);
  await page.reload();
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
  expect(await shown(await counts(page), 3)).toEqual(['8', '2', '71']);
});

for (const language of ['en', 'fi', 'ru'] as const) {
  test(`a count far past a stack is asked about once, in view, naming the seat and count (${language}); the confirmed counts race`, async ({ page }) => {
    const app = await startConsole();
    apps.push(app);
    await openConsole(page, app.url);
    await setUpTable(page, TEN_SEATS);
    await markTheBreak(page);
    await chooseLanguage(page, language);
    const view = await counts(page);
    for (const [index, chips] of [7, 44, 2, 0, 0, 0, 0, 0, 0, 0].entries()) await view.getByTestId(`counts-seat-${index + 1}-chips`).fill(String(chips));
    const start = view.getByTestId('start-race');
    await expect(start).toBeEnabled();
    await tapAtCentre(page, start, 'Start race');
    const question = view.getByTestId('counts-unlikely');
    await expect(question).toBeVisible();
    await expect(view.getByTestId('counts-unlikely-question')).toContainText('Teppo: 44');
    await expectUnclipped(view.getByTestId('counts-unlikely-confirm'), `the question's confirm at 1024x600 in ${language}`);
    await expectUnclipped(view.getByTestId('counts-unlikely-correct'), `the question's correct at 1024x600 in ${language}`);
    await expectNoScroll(page, `the counts asking at 1024x600 in ${language}`, true);
    // axe-core on the question (an alertdialog with its name), as accessibility.spec.ts holds every screen: nothing moderate or worse.
    const findings = (await new AxeBuilder({ page }).include('[data-testid="counts-unlikely"]').analyze()).violations.filter((finding) => finding.impact !== 'minor');
    expect(findings.map((finding) => `${finding.id}: ${finding.help}`), `axe on the question in ${language}`).toEqual([]);
    // The question stands where Start race stood: every count stays in view to be corrected.
    for (const seat of [1, 5, 6, 10]) await expectUnclipped(view.getByTestId(`counts-seat-${seat}-chips`), `seat ${seat}'s count while asking, in ${language}`);
    await expect(page.getByTestId('view-dealing')).toHaveCount(0);
    // Corrected: back to seat 2's count, selected, 4 typed over 44; started, nothing asked.
    await tapAtCentre(page, view.getByTestId('counts-unlikely-correct'), 'Correct it');
    await expect(view.getByTestId('counts-seat-2-chips')).toBeFocused();
    await typeAsPerson(page, '45');
    await expect(view.getByTestId('counts-seat-2-chips')).toHaveValue('45');
    await expect(start).toBeEnabled();
    await tapAtCentre(page, start, 'Start race');
    await expect(question).toBeVisible();
    await expect(view.getByTestId('counts-unlikely-question')).toContainText('Teppo: 45');
    // Said right: the race starts with 45, asked once.
    await tapAtCentre(page, view.getByTestId('counts-unlikely-confirm'), 'Yes, start');
    await expect(page.getByTestId('view-dealing')).toBeVisible();
  });
}

test('a refused Start race is drawn disabled with its reason beside it, in view at 1024x600, in en, fi and ru', async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await openConsole(page, app.url);
  await setUpTable(page, TEN_SEATS);
  await markTheBreak(page);
  const view = page.getByTestId('view-counts');
  // Counts still missing: disabled, and why in view beside it.
  for (const language of ['en', 'fi', 'ru'] as const) {
    await chooseLanguage(page, language);
    await expect(view.getByTestId('start-race')).toBeDisabled();
    await expectInView(view.getByTestId('start-race'), `Start race in ${language}`);
    await expectInView(view.getByTestId('counts-incomplete'), `why Start race waits, in ${language}`);
    await expectNoScroll(page, `the counts at 1024x600 in ${language}`, true);
  }
  await chooseLanguage(page, 'en');
  // Drawn disabled: not the gold (--gold, #ffd54a) of a button to press.
  const gold = 'rgb(255, 213, 74)';
  expect(await view.getByTestId('start-race').evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe(gold);

  // Raced, confirmed: the break's 25s are off. Counted again (a recount after "Colour-up done"), the service refuses the start.
  for (const [index, chips] of [7, 2, 2, 0, 0, 0, 0, 0, 0, 0].entries()) await view.getByTestId(`counts-seat-${index + 1}-chips`).fill(String(chips));
  await expect(view.getByTestId('start-race')).toBeEnabled();
  expect(await view.getByTestId('start-race').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(gold);
  await view.getByTestId('start-race').click();
  await dealTheFinnishCards(page);
  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('view-history')).toBeVisible();
  await page.getByTestId('nav-race').click();
  for (const [index, chips] of [7, 2, 2, 0, 0, 0, 0, 0, 0, 0].entries()) await view.getByTestId(`counts-seat-${index + 1}-chips`).fill(String(chips));
  const start = view.getByTestId('start-race');
  // Enabled once the preview of these counts is back (it cannot know the chips were raced off): the service refuses the start.
  await expect(start).toBeEnabled();
  await start.click();
  for (const language of ['en', 'fi', 'ru'] as const) {
    await chooseLanguage(page, language);
    await expect(view.getByTestId('start-error')).toBeVisible();
    await expect(start).toBeDisabled();
    expect(await start.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe(gold);
    await expectInView(start, `the refused Start race in ${language}`);
    await expectInView(view.getByTestId('start-error'), `the refusal beside Start race in ${language}`);
    await expectNoScroll(page, `the refused counts at 1024x600 in ${language}`, true);
  }
});

test('the result abandoned with a reason, one tap away: the counts screen shows its counts for the re-race, after a restart too', async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  const view = await counts(page);
  for (const [index, chips] of [7, 2, 2].entries()) await view.getByTestId(`counts-seat-${index + 1}-chips`).fill(String(chips));
  await view.getByTestId('start-race').click();
  await dealTheFinnishCards(page);
  const result = page.getByTestId('view-result');
  await tapAtCentre(page, result.getByTestId('abandon-race'), 'Abandon');
  await tapAtCentre(page, result.getByTestId('abandon-reason-wrongCounts'), 'the reason "Wrong counts"');
  await tapAtCentre(page, result.getByTestId('abandon-confirm'), 'Yes, abandon');
  await expect(page.getByTestId('view-counts')).toBeVisible();
  expect(await shown(page.getByTestId('view-counts'), 3)).toEqual(['7', '2', '2']);
  await expect(page.getByTestId('notice')).toContainText('Its counts are back');
  // The counts screen opens at its top, wherever Abandon was scrolled to: Start race and the notice in view.
  await expectInView(page.getByTestId('start-race'), 'Start race after the abandon');
  await expectInView(page.getByTestId('notice'), 'the notice that the counts are back');
  // Kept by the service: a restart of the console (same data folder and port) shows them too, on a fresh page load.
  await app.kill('SIGTERM');
  const again = await startConsole(app.dataDir, Number(new URL(app.url).port));
  apps.push(again);
  await page.reload();
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
  expect(await shown(await counts(page), 3)).toEqual(['7', '2', '2']);
});

test('the protected players are a line of normal type, not the figures’ large type (it took 5 lines at 1280x800)', async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openConsole(page, app.url);
  // TDA protects after the race: the line is the rule's sentence, the longest it says.
  await setUpTable(page, { ...FINNISH_TABLE, rules: 'tda' });
  const view = await counts(page);
  for (const [index, chips] of [7, 2, 2].entries()) await view.getByTestId(`counts-seat-${index + 1}-chips`).fill(String(chips));
  const line = view.getByTestId('counts-protected');
  await expect(line).toContainText('anyone raced out gets one 100 after the race');
  const look = await line.evaluate((element) => {
    const style = getComputedStyle(element);
    const figure = getComputedStyle(document.querySelector('[data-testid="counts-pool"]') as Element);
    return { size: parseFloat(style.fontSize), body: parseFloat(getComputedStyle(document.body).fontSize), figure: parseFloat(figure.fontSize), lines: Math.round(element.getBoundingClientRect().height / parseFloat(style.lineHeight === 'normal' ? String(parseFloat(style.fontSize) * 1.2) : style.lineHeight)) };
  });
  expect(look.size, `the protected players' type: ${JSON.stringify(look)}`).toBe(look.body);
  expect(look.size).toBeLessThan(look.figure);
  expect(look.lines, `the protected players on one line: ${JSON.stringify(look)}`).toBe(1);
});

test("Setup's Saved is in view beside Save at 1024x600, where it was below the fold", async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await openConsole(page, app.url);
  await setUpTable(page, TEN_SEATS);
  const view = page.getByTestId('view-setup');
  const save = view.getByTestId('setup-save');
  const saved = view.getByTestId('setup-saved');
  await expectUnclipped(save, 'Save');
  await expectUnclipped(saved, 'Saved');
  // Beside it: in the same row, not under it.
  const [saveBox, savedBox] = [await save.boundingBox(), await saved.boundingBox()];
  if (saveBox === null || savedBox === null) throw new Error('Save or Saved not shown');
  expect(savedBox.y, 'Saved in the row of Save').toBeLessThan(saveBox.y + saveBox.height);
  expect(savedBox.y + savedBox.height).toBeGreaterThan(saveBox.y);
});

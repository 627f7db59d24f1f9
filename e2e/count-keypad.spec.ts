import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { CONSOLE_SIZES, expectNoScroll, expectTouchTargets, expectUnclipped, sizeName } from './harness/fit';
import { FINNISH_TABLE, openConsole, setUpTable } from './harness/flows';
import { HUMAN_KEY_DELAY_MS } from './harness/scanner';
import { chooseLanguage, markTheBreak } from './harness/tour';

// The counts on a touchscreen with no keyboard (issue 24): a tap on a count opens the keypad; its
// keys type into the seat whose count has the focus, Next goes on, 0 on an empty count is "none"
// and goes on in one tap, and no key of it starts the race. Ten seats under the break's banner,
// at the three sizes, in English, Finnish and Russian: while the keypad is up, the count it types
// into is whole and nothing covers it.

/** The keypad's picture for the README ("Screens"), in English, beside the other screens'. */
const SCREENSHOTS = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

const apps: RunningConsole[] = [];
test.afterEach(async () => stopConsoles(...apps.splice(0)));

const NAMES = ['Matti', 'Teppo', 'Johanna', 'Aino', 'Ville', 'Sanna', 'Olli', 'Kaisa', 'Pekka', 'Liisa'];
/** A count a seat, every kind: none, odd chips only, a trade with and without odd chips, two digits. */
const COUNTS = [0, 3, 7, 13, 22, 0, 4, 9, 14, 2];

/** The taps the keypad takes for a count: its digits and Next, or the one 0 for "none". */
function tapsFor(count: number): string[] {
  return count === 0 ? ['keypad-digit-0'] : [...String(count)].map((digit) => `keypad-digit-${digit}`).concat('keypad-next');
}

async function tap(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).click();
}

for (const size of CONSOLE_SIZES) {
  for (const language of ['en', 'fi', 'ru'] as const) {
    test(`ten seats counted with the keypad alone at ${sizeName(size)} in ${language}, the banner up: every count it types into in view, the race started by its own tap`, async ({ page }) => {
      const app = await startConsole();
      apps.push(app);
      await page.setViewportSize(size);
      await openConsole(page, app.url);
      await setUpTable(page, { ...FINNISH_TABLE, seats: NAMES.map((name, index) => ({ seat: index + 1, name })) });
      await markTheBreak(page);
      await chooseLanguage(page, language);
      await page.getByTestId('nav-race').click();
      const view = page.getByTestId('view-counts');
      await expect(view).toBeVisible();
      await expect(page.getByTestId('color-up-banner')).toBeVisible();
      const keypad = page.getByTestId('count-keypad');
      await expect(keypad).toHaveCount(0);

      // One tap on seat 1's count: the keypad, for seat 1.
      await view.getByTestId('counts-seat-1-chips').click();
      await expect(keypad).toHaveAttribute('data-seat', '1');
      await expectTouchTargets(page, `the keypad at ${sizeName(size)} in ${language}`);
      await expectUnclipped(keypad.getByRole('button'), `the keypad's keys at ${sizeName(size)} in ${language}`);

      let taps = 1;
      for (const [index, count] of COUNTS.entries()) {
        const seat = index + 1;
        const field = view.getByTestId(`counts-seat-${seat}-chips`);
        if (seat < COUNTS.length) {
          await expect(keypad).toHaveAttribute('data-seat', String(seat));
          await expect(field).toBeFocused();
          await expectUnclipped(field, `seat ${seat}'s count under the keypad at ${sizeName(size)} in ${language}`);
        }
        if (seat === 8 && language === 'en') {
          mkdirSync(`${SCREENSHOTS}${sizeName(size)}`, { recursive: true });
          await page.screenshot({ path: `${SCREENSHOTS}${sizeName(size)}/counts-keypad.png` });
        }
        for (const key of tapsFor(count)) {
          await tap(page, key);
          taps += 1;
        }
        await expect(field).toHaveValue(String(count));
      }
      // Past the last seat the keypad goes and Start race has the focus: it starts nothing itself.
      await expect(keypad).toHaveCount(0);
      await expect(view.getByTestId('start-race')).toBeFocused();
      await expect(page.getByTestId('view-dealing')).toHaveCount(0);
      await expectNoScroll(page, `the counts at ${sizeName(size)} in ${language}`, true);
      await tap(page, 'start-race');
      taps += 1;
      await expect(page.getByTestId('view-dealing')).toBeVisible();
      // 1 to open, each count's digits and Next (a 0 is one tap), 1 to start: the README's figure.
      expect(taps).toBe(1 + COUNTS.reduce((sum, count) => sum + tapsFor(count).length, 0) + 1);
    });
  }
}

test('the keypad: its first key after a tap replaces the count (issue 41), the next add on, ⌫ takes the last digit off, Close puts it away, and Tab or Enter never opens it', async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  await page.getByTestId('nav-race').click();
  const view = page.getByTestId('view-counts');
  const first = view.getByTestId('counts-seat-1-chips');
  // Typed: Enter goes on, no keypad.
  await first.focus();
  await page.keyboard.type('12', { delay: HUMAN_KEY_DELAY_MS });
  await page.waitForTimeout(HUMAN_KEY_DELAY_MS);
  await page.keyboard.press('Enter');
  await expect(view.getByTestId('counts-seat-2-chips')).toBeFocused();
  await expect(page.getByTestId('count-keypad')).toHaveCount(0);
  // Tapped: the keypad; its first key replaces what was typed (the tap selected it), the next
  // adds on, ⌫ takes one off.
  await first.click();
  await tap(page, 'keypad-digit-5');
  await expect(first).toHaveValue('5');
  await tap(page, 'keypad-digit-3');
  await expect(first).toHaveValue('53');
  await tap(page, 'keypad-erase');
  await expect(first).toHaveValue('5');
  await expect(first).toBeFocused();
  await tap(page, 'keypad-close');
  await expect(page.getByTestId('count-keypad')).toHaveCount(0);
  await expect(first).toHaveValue('5');
  // No stack key until the house counts in stacks.
  await first.click();
  await expect(page.getByTestId('keypad-stack')).toHaveCount(0);
});

test("where the house counts in stacks of 20 (Settings), the keypad adds a stack in one tap: +20 +20 7 is 47, in English, Finnish and Russian", async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('count-stack').selectOption('20');
  await expect(page.getByTestId('count-stack')).toHaveValue('20');
  await page.getByTestId('nav-race').click();
  const view = page.getByTestId('view-counts');
  for (const [seat, language] of [[1, 'en'], [2, 'fi'], [3, 'ru']] as const) {
    await chooseLanguage(page, language);
    const field = view.getByTestId(`counts-seat-${seat}-chips`);
    await field.click();
    const stack = page.getByTestId('keypad-stack');
    await expect(stack).toHaveText('+20');
    await expectTouchTargets(page, `the keypad with its stack key in ${language}`);
    await expectUnclipped(page.getByTestId('count-keypad').getByRole('button'), `the keypad's keys with the stack key in ${language}`);
    await tap(page, 'keypad-stack');
    await tap(page, 'keypad-stack');
    await tap(page, 'keypad-digit-7');
    await expect(field).toHaveValue('47');
    await tap(page, 'keypad-close');
  }
  // Kept by the station: a reload keeps the stack.
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('count-stack')).toHaveValue('20');
});

import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { DISPLAY_SIZES, expectInView, expectNoScroll, sizeName, type ScreenSize } from './harness/fit';
import { FINNISH_TABLE, openConsole, setUpTable } from './harness/flows';
import { chooseLanguage } from './harness/tour';

// Issue 23, the room's screen: with no race on, the player display is the room's tournament clock
// (level, blinds and ante now and next, time to the break, the chips leaving at it), in the room's
// language, filling a TV at 1920×1080 and 1280×720 with nothing cut off; a tone when a level or
// break begins, switched by the station's setting (the display counts the tones it asks for in
// `data-chimes`, the changes it saw in `data-periods`: read here, no one listens). Its pictures:
// docs/screenshots/<size>/display-clock.png, and display-clock-fi.png at 1920×1080.

const root = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

let app: RunningConsole;

test.beforeEach(async () => {
  app = await startConsole();
});

test.afterEach(async () => {
  await stopConsoles(app);
});

/** Level 1 of a minute, level 2 of three (the 25s leave at the 15-minute break after it), then levels with antes. */
const SHEET = ['chips,25,100,500,1000', 'level,25,50,,1', 'level,50,100,,3', 'break,15', 'level,100,200,200,20', 'level,200,400,400,20', ''].join('\r\n');

async function shoot(page: Page, size: ScreenSize, name: string): Promise<void> {
  const directory = `${root}${sizeName(size)}/`;
  mkdirSync(directory, { recursive: true });
  const path = `${directory}${name}.png`;
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  const png = readFileSync(path);
  expect([png.readUInt32BE(16), png.readUInt32BE(20)], `${name}.png is ${sizeName(size)}`).toEqual([size.width, size.height]);
}

const PARTS = ['room-clock-period', 'room-clock-left', 'room-clock-blinds', 'room-clock-next', 'room-clock-break', 'room-clock-leaving'] as const;

/** At each TV size: no scrolling, every part of the clock inside the screen and none of its text cut off. */
async function expectClockFits(display: Page, name: string): Promise<void> {
  for (const size of DISPLAY_SIZES) {
    await display.setViewportSize(size);
    const where = `the room's clock at ${sizeName(size)}`;
    await expectNoScroll(display, where, true);
    await expectInView(display.getByTestId('display-table'), `${where}: the table's name`);
    for (const part of PARTS) {
      await expectInView(display.getByTestId(part), `${where}: ${part}`);
      const clipped = await display.getByTestId(part).evaluate((element) => element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1);
      expect(clipped, `${where}: ${part}'s text is not cut off`).toBe(false);
    }
    await shoot(display, size, name);
  }
}

async function adjustForward(page: Page, presses: number): Promise<void> {
  const clock = page.getByTestId('tournament-clock');
  await clock.getByTestId('clock-toggle').click();
  for (let press = 0; press < presses; press += 1) await clock.getByTestId('clock-adjust-minus').click();
  await page.keyboard.press('Escape');
}

test("the player display is the room's clock while no race is on, in the room's language, its tone switched by the station", async ({ page, context }) => {
  test.slow(); // two TV sizes in two languages, pictures saved, on a busy two-core machine
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, name: 'Table 7', removed: 100, next: 500 });
  const display = await context.newPage();
  await display.setViewportSize({ width: 1920, height: 1080 });
  await openConsole(display, `${app.url}#/display`);
  await expect(display.getByTestId('player-display')).toHaveAttribute('data-showing', 'idle');

  await test.step('a structure with minutes saved and the clock started: the display shows the clock', async () => {
    await page.getByTestId('nav-structure').click();
    const view = page.getByTestId('view-structure');
    await view.getByTestId('structure-import').setInputFiles({ name: 'room.csv', mimeType: 'text/csv', buffer: Buffer.from(SHEET) });
    await expect(view.getByTestId('structure-row-1-minutes')).toHaveValue('3');
    await view.getByTestId('structure-save').click();
    await expect(view.getByTestId('structure-saved')).toBeVisible();
    const clock = page.getByTestId('tournament-clock');
    await clock.getByTestId('clock-toggle').click();
    await clock.getByTestId('clock-start').click();
    await expect(clock).toHaveAttribute('data-status', 'running');
    await expect(display.getByTestId('player-display')).toHaveAttribute('data-showing', 'clock');
    const room = display.getByTestId('room-clock');
    await expect(room).toHaveAttribute('data-status', 'running');
    await expect(room).toHaveAttribute('data-sound', 'on');
    await expect(display.getByTestId('room-clock-period')).toHaveText('Level 1');
    await expect(display.getByTestId('room-clock-blinds')).toHaveText('Blinds 25 / 50');
    await expect(display.getByTestId('room-clock-next')).toHaveText('Next: level 2 — Blinds 50 / 100');
    await expect(display.getByTestId('room-clock-leaving')).toHaveText('25s leave at the break after level 2');
    await expect(display.getByTestId('room-clock-leaving')).toHaveAttribute('data-chips', '25');
    await expect(room).toHaveAttribute('data-chimes', '0');
  });

  await test.step('level 2 begins: a tone is asked for; the 25s leave at this break; it fits both TVs', async () => {
    await adjustForward(page, 1);
    const room = display.getByTestId('room-clock');
    await expect(display.getByTestId('room-clock-period')).toHaveText('Level 2');
    await expect(room).toHaveAttribute('data-periods', '1');
    await expect(room).toHaveAttribute('data-chimes', '1');
    await expect(display.getByTestId('room-clock-blinds')).toHaveText('Blinds 50 / 100');
    await expect(display.getByTestId('room-clock-next')).toHaveText('Next: level 3 — Blinds 100 / 200, ante 200');
    await expect(display.getByTestId('room-clock-break')).toContainText('Break in ');
    await expect(display.getByTestId('room-clock-leaving')).toHaveText('25s leave at this break');
    await expect(display.getByTestId('room-clock-left')).toHaveAttribute('role', 'timer');
    await expectClockFits(display, 'display-clock');
    const axe = await new AxeBuilder({ page: display }).include('.player-display').analyze();
    expect(axe.passes.length, 'axe ran its rules on the room clock').toBeGreaterThan(0);
    expect(axe.violations.filter((violation) => violation.impact !== 'minor').map((violation) => `${violation.id}: ${violation.help}`), 'axe on the room clock').toEqual([]);
  });

  await test.step('in Finnish, as the station speaks', async () => {
    await chooseLanguage(page, 'fi');
    await expect(display.locator('html')).toHaveAttribute('lang', 'fi');
    await expect(display.getByTestId('room-clock-period')).toHaveText('Taso 2');
    await expect(display.getByTestId('room-clock-blinds')).toHaveText('Blindit 50 / 100');
    await expect(display.getByTestId('room-clock-next')).toHaveText('Seuraavaksi: taso 3 — Blindit 100 / 200, ante 200');
    await expect(display.getByTestId('room-clock-break')).toContainText('Tauko ');
    await expect(display.getByTestId('room-clock-leaving')).toHaveText('Tällä tauolla poistuvat: 25:t');
    await expectClockFits(display, 'display-clock-fi');
    await chooseLanguage(page, 'en');
  });

  await test.step('the sound switched off in Settings: the break begins without a tone, and shows its progress', async () => {
    await page.getByTestId('nav-settings').click();
    const box = page.getByTestId('clock-sound');
    await expect(box).toBeChecked();
    await box.uncheck();
    const room = display.getByTestId('room-clock');
    await expect(room).toHaveAttribute('data-sound', 'off');
    const periods = Number(await room.getAttribute('data-periods'));
    const chimes = Number(await room.getAttribute('data-chimes'));
    await adjustForward(page, 3);
    await expect(display.getByTestId('room-clock-period')).toHaveText('Break after level 2');
    await expect(room).toHaveAttribute('data-periods', String(periods + 1));
    await expect(room).toHaveAttribute('data-chimes', String(chimes));
    await expect(display.getByTestId('room-clock-progress')).toBeVisible();
    await expect(display.getByTestId('room-clock-next')).toHaveText('After the break: level 3 — Blinds 100 / 200, ante 200');
    await expect(display.getByTestId('room-clock-leaving')).toHaveText('25s leave at this break');
    await display.setViewportSize({ width: 1280, height: 720 });
    await expectNoScroll(display, "the room's clock on the break at 1280x720", true);
    for (const part of ['room-clock-period', 'room-clock-left', 'room-clock-progress', 'room-clock-next', 'room-clock-leaving']) {
      await expectInView(display.getByTestId(part), `the break at 1280x720: ${part}`);
    }
    // Switched on again, the next change is heard.
    await box.check();
    await expect(room).toHaveAttribute('data-sound', 'on');
  });

  await display.close();
});

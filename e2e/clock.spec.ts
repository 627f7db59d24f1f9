import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readClock, type ClockEvent, type ClockSchedule } from '../engine/clock/clock';
import { loadSettings } from '../station/service/settings';
import { scheduleOf } from '../protocol/clock';
import { countdownText } from '../renderer/composables/clockReading';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { expectInView, expectNoScroll, expectTouchTargets } from './harness/fit';
import { FINNISH_COUNTS, FINNISH_TABLE, openConsole, setUpTable, startRace } from './harness/flows';
// The layer table lets e2e/ import everything, but the lint rule knows only the layers, not scripts/.
// eslint-disable-next-line layers/boundaries -- the one Chromium the tests look for
import { chromiumPath } from '../scripts/systemPackages.mjs';

// Issue 15's clock on a station without a floor (a home game): the levels' minutes in the
// structure, the clock started in the top bar and moved on (−1 min) to the planned break, and the
// colour-up banner comes up by itself with the planned denominations, one tap to start. At the
// table touchscreen's 1024×600 the clock in the top bar leaves the dealing screen's headline in view.

let app: RunningConsole;

// The window draws its scrollbars, as a dealer's PC does: a screen that scrolls leaves the bar 15 px less.
test.use({ launchOptions: { executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'], ignoreDefaultArgs: ['--hide-scrollbars'] } });

test.beforeEach(async () => {
  app = await startConsole();
});

test.afterEach(async () => {
  await stopConsoles(app);
});

/** Two levels of a minute, a 15-minute break (25 leaves then), two levels of 20 minutes: level,SB,BB,ANTE,MINUTES. */
/** The top bar is one row: the clock and the language beside the screen buttons, not below them. */
async function expectOneRow(page: Page, what = 'the top bar'): Promise<void> {
  const bottoms = () => page.evaluate(() => ['.top-nav', '.tournament-clock__toggle', '.top-bar .language-select'].map((selector) => document.querySelector(selector)?.getBoundingClientRect().bottom ?? -1));
  // Polled: a language just chosen lays the bar out again.
  await expect.poll(async () => {
    const [nav, ...others] = await bottoms();
    return (nav as number) > 0 && others.every((bottom) => bottom > 0 && bottom <= (nav as number) + 12) ? 'one row' : JSON.stringify([nav, ...others]);
  }, { message: what }).toBe('one row');
}

/** The station clock's events as the journal holds them, in order. */
function clockEventsIn(dataDir: string): ClockEvent[] {
  return readFileSync(join(dataDir, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{"seq"'))
    .map((line) => (JSON.parse(line) as { record: { kind: string; event?: ClockEvent } }).record)
    .filter((record) => record.kind === 'clock')
    .map((record) => record.event as ClockEvent);
}

/** The clock's schedule from the structure the settings file holds, read as the service reads it. */
async function savedSchedule(dataDir: string): Promise<ClockSchedule> {
  const { schedule } = scheduleOf((await loadSettings(join(dataDir, 'settings.json'))).settings.tournament?.structure ?? null);
  if (schedule === null) throw new Error('the settings file holds no structure with minutes');
  return schedule;
}

const SHEET = ['chips,25,100,500,1000', 'level,25,50,,1', 'level,50,100,,1', 'break,15', 'level,100,200,,20', 'level,200,400,,20', ''].join('\r\n');

test('the station clock reaches the break: the colour-up banner comes up with the planned chips', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, removed: 100, next: 500 });
  const clock = page.getByTestId('tournament-clock');
  await expect(clock).toHaveCount(0);

  await test.step('a structure with minutes, imported and saved: the clock shows level 1, not started', async () => {
    await page.getByTestId('nav-structure').click();
    const view = page.getByTestId('view-structure');
    await view.getByTestId('structure-import').setInputFiles({ name: 'home.csv', mimeType: 'text/csv', buffer: Buffer.from(SHEET) });
    await expect(view.getByTestId('structure-row-0-minutes')).toHaveValue('1');
    await expect(view.getByTestId('structure-row-2-minutes')).toHaveValue('15');
    await expect(view.getByTestId('structure-row-3-minutes')).toHaveValue('20');
    await view.getByTestId('structure-save').click();
    await expect(view.getByTestId('structure-saved')).toBeVisible();
    await expect(clock).toHaveAttribute('data-status', 'idle');
    await expect(clock.getByTestId('clock-period')).toHaveText('Level 1: not started');
    await expect(clock.getByTestId('clock-left')).toHaveText('1:00');
    await expect(page.getByTestId('color-up-banner')).toHaveCount(0);
  });

  await test.step('started, then "−1 min" twice (a minute less left each): the break after level 2', async () => {
    // The controls are in the clock's panel: nothing in the bar itself moves the clock.
    await expect(clock.getByTestId('clock-start')).toHaveCount(0);
    await clock.getByTestId('clock-toggle').click();
    await clock.getByTestId('clock-start').click();
    await expect(clock).toHaveAttribute('data-status', 'running');
    await expect(clock.getByTestId('clock-panel')).toHaveCount(0);
    await clock.getByTestId('clock-toggle').click();
    await expect(clock.getByTestId('clock-next-break')).toContainText('break in');
    await clock.getByTestId('clock-adjust-minus').click();
    await expect(clock.getByTestId('clock-period')).toHaveText('Level 2');
    await clock.getByTestId('clock-adjust-minus').click();
    await expect(clock.getByTestId('clock-period')).toHaveText('Break after level 2');
    await page.keyboard.press('Escape');
    await expect(clock.getByTestId('clock-panel')).toHaveCount(0);
  });

  await test.step('the banner comes up by itself, pre-filled with the planned denominations', async () => {
    const banner = page.getByTestId('color-up-banner');
    await expect(banner).toHaveAttribute('data-state', 'offer');
    await expect(banner).toHaveAttribute('data-after-level', '2');
    await expect(banner.getByTestId('color-up-title')).toHaveText('Break after level 2: colour up — 25 → 100 Planned');
    await expect(banner.getByTestId('color-up-start')).toHaveAttribute('data-removed', '25');
    await expect(banner.getByTestId('color-up-start')).toHaveAttribute('data-next', '100');
    await expect(page.getByTestId('view-structure').getByTestId('structure-at')).toHaveValue('2');
  });

  await test.step('one tap: the race of 25 → 100; on the dealing screen at 1024×600 the headline stays in view', async () => {
    await page.getByTestId('color-up-start').click();
    const counts = page.getByTestId('view-counts');
    await expect(counts).toBeVisible();
    await expect(counts.getByTestId('counts-intro')).toContainText("Count each player's 25 chips: 4 × 25 = 1 × 100.");
    for (const count of FINNISH_COUNTS) {
      await counts.getByTestId(`counts-seat-${count.seat}-chips`).fill(String(count.chips));
      await counts.getByTestId(`counts-seat-${count.seat}-other`).setChecked(count.hasOther);
    }
    await startRace(page);
    await expect(clock).toBeVisible();
    await expectOneRow(page);
    // The bar is as tall as without the clock (60.8 px here), so the screen below keeps its place.
    // (With the colour-up banner over the dealing screen the grid's last row ends 0.8 px below 600
    // with or without the clock: not checked here.)
    expect(await page.locator('.top-bar').evaluate((bar) => bar.getBoundingClientRect().bottom)).toBeLessThanOrEqual(61);
    for (const [testid, what] of [['tournament-clock', 'the clock'], ['next-step', 'the headline'], ['manual-input', 'the card entry'], ['manual-submit', 'Enter card'], ['void-last', 'Void last card']] as const) {
      await expectInView(page.getByTestId(testid), `${what}, with the clock in the top bar at 1024×600`);
    }
    await expectNoScroll(page, 'the dealing screen with the clock');
    // Pausing needs no confirmation: one press in the panel, and the bar shows the clock standing.
    await clock.getByTestId('clock-toggle').click();
    await expectTouchTargets(page, 'the dealing screen with the clock panel open');
    const axe = await new AxeBuilder({ page }).include('.tournament-clock').analyze();
    expect(axe.passes.length, 'axe ran its rules on the clock').toBeGreaterThan(0);
    expect(axe.violations.filter((violation) => violation.impact !== 'minor').map((violation) => `${violation.id}: ${violation.help}`), 'axe on the clock and its panel').toEqual([]);
    await clock.getByTestId('clock-pause').click();
    await expect(clock).toHaveAttribute('data-status', 'paused');
    await clock.getByTestId('clock-toggle').click();
    await expect(clock.getByTestId('clock-paused')).toHaveText('Paused');
    await page.keyboard.press('Escape');
    await expectInView(page.getByTestId('next-step'), 'the headline, the clock paused');
  });

  await test.step('in Finnish and Russian the top bar with the clock (paused in the break, 15:00 or less left) is one row too', async () => {
    // The bar shows exactly the time the service's own clock events leave in the break: read from
    // the journal and folded by the engine, not guessed. CI twice read 15:00 here (Dec 4) where the
    // test expected 14:5x, never since (over 40 runs under two CPU hogs, issue 42); its cause is
    // not known. Which side was wrong is now said: the events (the service's stamps) or the page.
    const left = clock.getByTestId('clock-left');
    const events = clockEventsIn(app.dataDir);
    const start = events.find((event) => event.type === 'start')?.at ?? NaN;
    const pause = events.at(-1);
    expect(pause?.type, 'the last clock event is the pause').toBe('pause');
    const expected = countdownText(readClock(await savedSchedule(app.dataDir), events, Date.now()).msLeft);
    console.log(`the paused clock: paused ${(pause?.at ?? NaN) - start} ms after its start by the service's events, which leave ${expected} in the break; the bar reads ${await left.textContent()}`);
    await expect(left, 'the bar shows what the clock events leave in the break').toHaveText(expected);
    expect(expected).toMatch(/^(15:00|14:[0-5][0-9])$/);
    const paused = await left.textContent();
    await page.waitForTimeout(1500);
    await expect(left, 'the paused clock stands').toHaveText(paused ?? '');
    for (const language of ['fi', 'ru']) {
      await page.getByTestId('locale').selectOption(language);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expectOneRow(page);
      await expectInView(page.getByTestId('next-step'), `the headline in ${language}`);
    }
  });
});

test('the top bar names the level (compactly at 1024 and 1280) in three languages, and stays one row', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, removed: 100, next: 500 });
  await page.getByTestId('nav-structure').click();
  const view = page.getByTestId('view-structure');
  await view.getByTestId('structure-import').setInputFiles({ name: 'home.csv', mimeType: 'text/csv', buffer: Buffer.from(SHEET) });
  await view.getByTestId('structure-save').click();
  await expect(view.getByTestId('structure-saved')).toBeVisible();
  const clock = page.getByTestId('tournament-clock');
  await clock.getByTestId('clock-toggle').click();
  await clock.getByTestId('clock-start').click();
  await clock.getByTestId('clock-toggle').click();
  await clock.getByTestId('clock-adjust-minus').click();
  await expect(clock.getByTestId('clock-period')).toHaveText('Level 2');
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-race').click();
  await expect(page.getByTestId('view-counts')).toBeVisible();

  /** What the bar shows of the period: the short name where the full one gives way, else the full one; each at least a few pixels wide, inside the window. */
  const shown = async (): Promise<string> => {
    for (const testid of ['clock-period', 'clock-period-short']) {
      const part = clock.getByTestId(testid);
      if ((await part.count()) === 0) continue;
      const box = await part.boundingBox();
      if (box !== null && box.width > 8 && box.height > 8 && box.x + box.width <= (page.viewportSize()?.width ?? 0)) return (await part.textContent()) ?? '';
    }
    return '';
  };
  const sizes = [{ width: 1024, height: 600 }, { width: 1280, height: 800 }, { width: 1920, height: 1080 }];
  const words = { en: ['Lvl 2', 'Level 2', 'Break', 'Break after level 2'], fi: ['Taso 2', 'Taso 2', 'Tauko', 'Tauko tason 2 jälkeen'], ru: ['Ур. 2', 'Уровень 2', 'Перерыв', 'Перерыв после уровня 2'] } as const;
  for (const period of ['level', 'break'] as const) {
    if (period === 'break') {
      await clock.getByTestId('clock-toggle').click();
      await clock.getByTestId('clock-adjust-minus').click();
      await expect(clock.getByTestId('clock-period')).toHaveText(/Break after level 2|Tauko tason 2 jälkeen|Перерыв после уровня 2/);
      await page.keyboard.press('Escape');
    }
    for (const language of ['en', 'fi', 'ru'] as const) {
      await page.getByTestId('locale').selectOption(language);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      const [short, full, breakShort, breakFull] = words[language];
      for (const size of sizes) {
        await page.setViewportSize(size);
        const expected = period === 'level' ? (size.width <= 1400 ? short : full) : size.width <= 1400 ? breakShort : breakFull;
        await expect.poll(shown, { message: `the ${period} in the bar at ${size.width}×${size.height} in ${language}` }).toBe(expected);
        await expectOneRow(page, `the top bar with the ${period} at ${size.width}×${size.height} in ${language}`);
        // The structure screen scrolls: its scrollbar takes the bar's width.
        await page.getByTestId('nav-structure').click();
        await expect(page.getByTestId('view-structure')).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollHeight > innerHeight && document.documentElement.clientWidth < innerWidth), 'the structure screen scrolls with a scrollbar').toBe(true);
        await expectOneRow(page, `the top bar with the ${period} on the structure screen at ${size.width}×${size.height} in ${language}`);
        await page.getByTestId('nav-race').click();
      }
    }
    await page.getByTestId('locale').selectOption('en');
  }
});

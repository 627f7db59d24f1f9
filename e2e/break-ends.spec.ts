import { expect, test, type Page } from '@playwright/test';
import type pg from 'pg';
import { actOnFloorClock, setFloorStructure } from '../floor/clock';
import { recordDecision } from '../floor/decisions';
import { createStationLogin } from '../floor/db/stations';
import { startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { tournamentFromCsv } from '../engine/plan/tournament';
// The layer table lets e2e/ import everything, but the lint rule knows only the layers, not scripts/.
// eslint-disable-next-line layers/boundaries -- the one Chromium the tests look for
import { chromiumPath } from '../scripts/systemPackages.mjs';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { FINNISH_COUNTS, FINNISH_TABLE, openConsole, setUpTable, startRace } from './harness/flows';

// Issue 41, point 4: the break ends cleanly. An evening on the station's own clock (a home game)
// and one on a real floor's clock (a throwaway PostgreSQL): break 1's colour-up raced and
// confirmed; the clock leaves the break, and its banner (and the floor's decision about it) leave
// the counts and dealing screens; break 2 comes, and its 100 → 500 race is offered, runs and is
// confirmed. The clocks are moved by their own buttons or the director's adjusts; the test waits
// for what the screens show, never for time to pass.

test.use({ launchOptions: { executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'], ignoreDefaultArgs: ['--hide-scrollbars'] } });

const MIN = 60_000;
let app: RunningConsole | undefined;
let database: ThrowawayPostgres | undefined;
let admin: pg.Client | undefined;

test.afterEach(async () => {
  await stopConsoles(app);
  app = undefined;
  await admin?.end();
  await database?.remove();
  admin = undefined;
  database = undefined;
});

/** The colour-up the banner offers, run with counts that make the race complete at once (seat 1 holds one `next` chip's worth), and confirmed. */
async function colourUpConfirmed(page: Page, removed: number, next: number): Promise<void> {
  const start = page.getByTestId('color-up-start');
  await expect(start).toHaveAttribute('data-removed', String(removed));
  await expect(start).toHaveAttribute('data-next', String(next));
  await start.click();
  const counts = page.getByTestId('view-counts');
  await expect(counts).toBeVisible();
  await counts.getByTestId('counts-seat-1-chips').fill(String(next / removed));
  for (const seat of [2, 3]) await counts.getByTestId(`counts-seat-${seat}-chips`).fill('0');
  for (const seat of [1, 2, 3]) await counts.getByTestId(`counts-seat-${seat}-other`).setChecked(true);
  await expect(counts.getByTestId('start-race')).toBeEnabled();
  await counts.getByTestId('start-race').click();
  await expect(page.getByTestId('view-result')).toBeVisible();
  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('view-history')).toBeVisible();
}

/** No banner on the counts screen, nor on the dealing screen of a race run while playing (abandoned again). */
async function noBannerOnCountsAndDealing(page: Page): Promise<void> {
  await page.getByTestId('nav-race').click();
  const counts = page.getByTestId('view-counts');
  await expect(counts).toBeVisible();
  await expect(page.getByTestId('color-up-banner')).toHaveCount(0);
  for (const count of FINNISH_COUNTS) {
    await counts.getByTestId(`counts-seat-${count.seat}-chips`).fill(String(count.chips));
    await counts.getByTestId(`counts-seat-${count.seat}-other`).setChecked(count.hasOther);
  }
  // A race of the 25s while playing is no second race of break 1's: it starts.
  await startRace(page);
  await expect(page.getByTestId('color-up-banner')).toHaveCount(0);
  await page.getByTestId('abandon-race').click();
  await page.getByTestId('abandon-reason-misdeal').click();
  await page.getByTestId('abandon-confirm').click();
  await expect(page.getByTestId('view-counts')).toBeVisible();
}

test("the station's own clock: break 1 ends on every screen, break 2's 100 → 500 race runs", async ({ page }) => {
  app = await startConsole();
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  // Levels of a minute and breaks of two: a press of "−1 min" a minute less left.
  const sheet = ['chips,25,100,500,1000', 'level,25,50,,1', 'level,50,100,,1', 'break,2', 'level,100,200,,1', 'level,200,400,,1', 'break,2', 'level,500,1000,,20', ''].join('\r\n');
  await page.getByTestId('nav-structure').click();
  const structure = page.getByTestId('view-structure');
  await structure.getByTestId('structure-import').setInputFiles({ name: 'home.csv', mimeType: 'text/csv', buffer: Buffer.from(sheet) });
  await structure.getByTestId('structure-save').click();
  await expect(structure.getByTestId('structure-saved')).toBeVisible();
  const clock = page.getByTestId('tournament-clock');
  await clock.getByTestId('clock-toggle').click();
  await clock.getByTestId('clock-start').click();
  await expect(clock).toHaveAttribute('data-status', 'running');
  /** "−1 min" pressed until the clock shows `period`. */
  const onTo = async (period: string) => {
    if ((await clock.getByTestId('clock-panel').count()) === 0) await clock.getByTestId('clock-toggle').click();
    for (let press = 0; press < 6 && (await clock.getByTestId('clock-period').textContent()) !== period; press += 1) {
      const before = await clock.getByTestId('clock-period').textContent();
      await clock.getByTestId('clock-adjust-minus').click();
      await expect.poll(async () => ((await clock.getByTestId('clock-left').textContent()) ?? '') + (await clock.getByTestId('clock-period').textContent()), { message: 'the press taken' }).not.toBe(before);
    }
    await expect(clock.getByTestId('clock-period')).toHaveText(period);
    await page.keyboard.press('Escape');
  };

  await onTo('Break after level 2');
  const banner = page.getByTestId('color-up-banner');
  await expect(banner).toHaveAttribute('data-after-level', '2');
  await colourUpConfirmed(page, 25, 100);
  await expect(banner).toHaveAttribute('data-state', 'done');
  await expect(banner.getByTestId('color-up-done')).toHaveText('Colour-up done: the smallest chip is now 100.');

  // The break's end: "Colour-up done" leaves every screen.
  await onTo('Level 3');
  await expect(banner).toHaveCount(0);
  await noBannerOnCountsAndDealing(page);

  // Break 2: the 100 → 500 race offered, run and confirmed (it was refused as raced off before).
  await onTo('Break after level 4');
  await expect(banner).toHaveAttribute('data-after-level', '4');
  await expect(banner).toHaveAttribute('data-state', 'offer');
  await colourUpConfirmed(page, 100, 500);
  await expect(banner).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('color-up-error')).toHaveCount(0);
  await expect(page.getByTestId('history-row')).toHaveCount(2);
});

test("a station on a real floor's clock: break 1's banner and the floor's decision on it leave the screens with the break", async ({ page }) => {
  test.setTimeout(180_000);
  ({ server: database, admin } = await startFloorDatabase());
  const sheet = ['chips,25,100,500,1000', 'level,25,50,,20', 'level,50,100,,20', 'break,10', 'level,100,200,,30', 'level,200,400,,30', 'break,15', 'level,500,1000,,30'].join('\n');
  const { structure, house } = tournamentFromCsv(sheet);
  await setFloorStructure(admin, structure, house);
  const login = await createStationLogin(admin, '1');
  process.env.CHIP_RACE_DATABASE_URL = database.urlFor(login.role, login.password);
  process.env.CHIP_RACE_TABLE = '1';
  try {
    app = await startConsole();
  } finally {
    delete process.env.CHIP_RACE_DATABASE_URL;
    delete process.env.CHIP_RACE_TABLE;
  }
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  // The Finnish example's seats (the floor's tournament gives the chips and the rules).
  await page.getByTestId('nav-setup').click();
  const setup = page.getByTestId('view-setup');
  for (const { seat, name } of FINNISH_TABLE.seats) {
    await setup.getByTestId(`seat-${seat}-name`).fill(name);
    await setup.getByTestId(`seat-${seat}-in-play`).check();
  }
  await setup.getByTestId('setup-button').selectOption(String(FINNISH_TABLE.button));
  await setup.getByTestId('setup-save').click();
  await expect(setup.getByTestId('setup-saved')).toBeVisible();

  // The director's clock, a minute into the break after level 2.
  await actOnFloorClock(admin, { type: 'start' }, Date.now() - 41 * MIN);
  const banner = page.getByTestId('color-up-banner');
  await expect(banner).toHaveAttribute('data-after-level', '2', { timeout: 20_000 });
  await colourUpConfirmed(page, 25, 100);
  await recordDecision(admin, { table: '1', decision: 'race-stands', note: 'the race stands', by: 'Anna', raceId: 'race-1' });
  await page.getByTestId('nav-race').click();
  await expect(page.getByTestId('floor-decision')).toContainText('the race stands', { timeout: 20_000 });
  await expect(banner).toHaveAttribute('data-state', 'done');

  // The director moves the clock past the break's end: the banner and the decision leave.
  await actOnFloorClock(admin, { type: 'adjust', by: 10 * MIN }, Date.now());
  await expect(banner).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('floor-decision')).toHaveCount(0);
  await noBannerOnCountsAndDealing(page);
  await expect(page.getByTestId('floor-decision')).toHaveCount(0);

  // On to the break after level 4: its 100 → 500 race runs.
  await actOnFloorClock(admin, { type: 'adjust', by: 60 * MIN }, Date.now());
  await expect(banner).toHaveAttribute('data-after-level', '4', { timeout: 20_000 });
  await colourUpConfirmed(page, 100, 500);
  await expect(banner).toHaveAttribute('data-state', 'done');
});

import { rmSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type pg from 'pg';
import { actOnFloorClock, setFloorStructure } from '../floor/clock';
import { createStationLogin } from '../floor/db/stations';
import { setHoldBreaks } from '../floor/hold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { tournamentFromCsv } from '../engine/plan/tournament';
// The layer table lets e2e/ import everything, but the lint rule knows only the layers, not scripts/.
// eslint-disable-next-line layers/boundaries -- the one Chromium the tests look for
import { chromiumPath } from '../scripts/systemPackages.mjs';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { FINNISH_CARDS, FINNISH_COUNTS, FINNISH_TABLE, enterCounts, openConsole, startRace, typeCard } from './harness/flows';
import { typeAsPerson } from './harness/scanner';

// Issue 41, point 5: the held break's banner over the result screen at the table's 1024×600, the
// window drawing scrollbars as a dealer's PC does: one line in English, Finnish and Russian, and
// "Confirm and save" wholly in the window, a tap at its centre landing on it. The hold is a real
// floor's (a throwaway PostgreSQL): its clock passes the break's end with this table not done.

test.use({ launchOptions: { executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'], ignoreDefaultArgs: ['--hide-scrollbars'] } });

const MIN = 60_000;
const SHEET = ['chips,25,100,500', 'level,25,50,,20', 'level,50,100,,20', 'break,10', 'level,100,200,,20', 'break,10', 'level,500,1000,,20'].join('\n');

let database: ThrowawayPostgres;
let admin: pg.Client;
let floor: FloorServer;
let app: RunningConsole | undefined;
const folders: string[] = [];

test.afterAll(async () => {
  if (app !== undefined) await stopConsoles(app);
  await floor?.close();
  await admin?.end();
  await database?.remove();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The banner is one line: every part of it on one row, none wrapped, the banner's content as tall as its tallest line. */
async function expectOneLine(banner: Locator, what: string): Promise<void> {
  const measured = await banner.evaluate((element) => {
    const style = getComputedStyle(element);
    const content = element.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    const parts = [...element.children].filter((child) => child.getBoundingClientRect().height > 0);
    const lines = parts.map((child) => {
      const own = getComputedStyle(child);
      const lineHeight = own.lineHeight === 'normal' ? parseFloat(own.fontSize) * 1.2 : parseFloat(own.lineHeight);
      const box = child.getBoundingClientRect();
      return { testid: child.getAttribute('data-testid') ?? child.className, width: Math.round(box.width), height: box.height, lineHeight, top: box.top, bottom: box.bottom };
    });
    return { content, width: Math.round(element.getBoundingClientRect().width), lines };
  });
  const tallest = Math.max(...measured.lines.map((line) => Math.max(line.height, line.lineHeight)));
  for (const line of measured.lines) expect(line.height, `${what}: ${line.testid} is one line (${JSON.stringify(measured)})`).toBeLessThanOrEqual(Math.max(line.lineHeight * 1.3, 44.5));
  const first = measured.lines[0];
  for (const line of measured.lines) expect(first !== undefined && line.top < first.bottom && line.bottom > first.top, `${what}: ${line.testid} on the first's row (${JSON.stringify(measured)})`).toBe(true);
  expect(measured.content, `${what}: the banner is one line box tall (${JSON.stringify(measured)})`).toBeLessThanOrEqual(tallest + 1);
}

/** Wholly in the window, and a finger at its centre lands on it. */
async function expectTappable(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  const { x, y, width, height } = box as { x: number; y: number; width: number; height: number };
  const viewport = page.viewportSize() as { width: number; height: number };
  expect(x >= 0 && y >= 0 && x + width <= viewport.width && y + height <= viewport.height, `${what} wholly in the ${viewport.width}×${viewport.height} window: ${JSON.stringify(box)}`).toBe(true);
  const hit = await locator.evaluate((element, point) => {
    const found = document.elementFromPoint(point.x, point.y);
    return found !== null && (found === element || element.contains(found)) ? 'the control' : (found?.outerHTML.slice(0, 120) ?? 'nothing');
  }, { x: x + width / 2, y: y + height / 2 });
  expect(hit, `${what}: elementFromPoint at its centre`).toBe('the control');
}

test('the held banner is one line over the result at 1024×600 in en, fi and ru; Confirm and save in view', async ({ page }) => {
  test.setTimeout(180_000);
  ({ server: database, admin } = await startFloorDatabase());
  const { structure, house } = tournamentFromCsv(SHEET);
  await setFloorStructure(admin, structure, house);
  await setHoldBreaks(admin, true, Date.now());
  floor = await startFloorServer({ databaseUrl: database.url, log: () => undefined, foldEveryMs: 100, holdEveryMs: 200 });
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
  // 6 s before the break's end: the banner up; the race started and dealt but for its last card.
  await actOnFloorClock(admin, { type: 'start' }, Date.now() - 50 * MIN + 6_000);
  await expect(page.getByTestId('color-up-banner')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('color-up-start').click();
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  for (const card of FINNISH_CARDS.slice(0, -1)) await typeCard(page, card);
  await expect(page.getByTestId('color-up-held')).toBeVisible({ timeout: 30_000 });
  await typeAsPerson(page, FINNISH_CARDS.at(-1) as string);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('view-result')).toBeVisible();

  for (const language of ['en', 'fi', 'ru']) {
    await page.getByTestId('locale').selectOption(language);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    const banner = page.getByTestId('color-up-banner');
    await expect(banner.getByTestId('color-up-held')).toBeVisible();
    await expectOneLine(banner, `the held banner in ${language}`);
    await expectTappable(page, page.getByTestId('confirm-race'), `Confirm and save in ${language}`);
  }
  // The dealer confirms: the floor lets the break go, and the banner leaves with it.
  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('color-up-banner')).toHaveCount(0, { timeout: 30_000 });
});

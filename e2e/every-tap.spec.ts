import { expect, test, type Page } from '@playwright/test';
import type pg from 'pg';
import type { Card } from '../engine/cards';
import { actOnFloorClock, setFloorStructure } from '../floor/clock';
import { createStationLogin } from '../floor/db/stations';
import { setHoldBreaks } from '../floor/hold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { tournamentFromCsv } from '../engine/plan/tournament';
import type { Language } from '../protocol/contract';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { CONSOLE_SIZES, sizeName, untappableControls } from './harness/fit';
import { allDealt, FINNISH_COUNTS, FINNISH_DEAL, FINNISH_TABLE, manualInput, openConsole, setUpTable } from './harness/flows';
import { chooseLanguage } from './harness/tour';

// Issue 41, acceptance 1: nothing lies over a control. On every screen, a station linked to a real
// floor (a throwaway PostgreSQL, the station started from the environment as the README says) and
// one without, with the colour-up banner in each of its states (offer, running, held, done) and
// without, at the three screen sizes and in the three languages: a tap at the centre of every
// enabled control, scrolled to where a finger reaches it, hits that control and no other, and the
// control is wholly inside the window and every box that clips it; what a race needs (Start race,
// every count, the entry, every grid card, Void, Confirm) is there without scrolling. Chromium
// draws its scrollbars (playwright.config.ts). Each screen state is reached once and looked at in
// every size and language (one evaluate each, untappableControls); every finding of the run is
// listed at the end, so one run shows them all.

test.skip(!POSTGRES_AVAILABLE && process.env.CI !== 'true', 'PostgreSQL is not installed');

const LANGUAGES: readonly Language[] = ['en', 'fi', 'ru'];
type Screen = 'setup' | 'structure' | 'race' | 'points' | 'history' | 'settings';
const EVERY_SCREEN: readonly Screen[] = ['setup', 'structure', 'race', 'points', 'history', 'settings'];
/** The screens the colour-up banner is shown on (App.vue). */
const BANNER_SCREENS: readonly Screen[] = ['setup', 'structure', 'race', 'history'];

/** What a race needs on each of its screens, there without scrolling. */
const ESSENTIALS: Readonly<Record<string, readonly string[]>> = {
  'view-counts': ['[data-testid="start-race"]', '[data-testid^="counts-seat-"][data-testid$="-chips"]'],
  'view-dealing': ['[data-testid="manual-input"]', '[data-testid="void-last"]', '[data-testid^="grid-card-"]'],
  'view-result': ['[data-testid="confirm-race"]', '[data-testid="void-last"]'],
};

let database: ThrowawayPostgres | undefined;
let admin: pg.Client | undefined;
let floor: FloorServer | undefined;
const apps: RunningConsole[] = [];

test.afterAll(async () => {
  await stopConsoles(...apps);
  await floor?.close();
  await admin?.end();
  await database?.remove();
});

async function floorDatabase(): Promise<{ server: ThrowawayPostgres; admin: pg.Client }> {
  if (database === undefined || admin === undefined) ({ server: database, admin } = await startFloorDatabase());
  return { server: database, admin };
}

/** A console of its own; `table`: linked to the floor as that table, from the environment as the README starts one. */
async function station(table?: string): Promise<RunningConsole> {
  if (table !== undefined) {
    const { server, admin: client } = await floorDatabase();
    const login = await createStationLogin(client, table);
    process.env.CHIP_RACE_DATABASE_URL = server.urlFor(login.role, login.password);
    process.env.CHIP_RACE_TABLE = table;
  }
  try {
    const app = await startConsole();
    apps.push(app);
    return app;
  } finally {
    delete process.env.CHIP_RACE_DATABASE_URL;
    delete process.env.CHIP_RACE_TABLE;
  }
}

/** Walks a station's screens, collecting what keeps a finger from a control. */
class Walk {
  readonly problems: string[] = [];
  looks = 0;

  constructor(
    private readonly page: Page,
    private readonly display: Page,
    readonly label: string,
  ) {}

  /** The screen `screen` shown (from the top bar), and which of the race's screens it is. */
  private async open(screen: Screen): Promise<string> {
    const button = this.page.getByTestId(`nav-${screen}`);
    if ((await button.getAttribute('aria-current')) !== 'page') await button.click();
    const view = this.page.locator('section[data-testid^="view-"]').first();
    await expect(view).toBeVisible();
    return (await view.getAttribute('data-testid')) ?? '';
  }

  /**
   * Looks at each of `screens` (and the player display, with `display`) in every language and
   * size, the banner as `state` says, then goes back to the first screen in English.
   */
  async stop(state: string, screens: readonly Screen[], { display = false }: { readonly display?: boolean } = {}): Promise<void> {
    const banner = this.page.getByTestId('color-up-banner');
    for (const language of LANGUAGES) {
      await chooseLanguage(this.page, language);
      // The page looked at in front: Chromium runs a page behind another at one frame a second.
      await this.page.bringToFront();
      for (const screen of screens) {
        const view = await this.open(screen);
        if (state === 'none') await expect(banner).toHaveCount(0);
        else if (BANNER_SCREENS.includes(screen)) await expect(banner).toHaveAttribute('data-state', state.split(' ')[0] as string);
        for (const size of CONSOLE_SIZES) {
          await this.page.setViewportSize(size);
          const where = `${this.label}, banner ${state}, ${view} at ${sizeName(size)} in ${language}`;
          for (const found of await untappableControls(this.page, { essentials: ESSENTIALS[view] ?? [] })) this.problems.push(`${where}: ${found}`);
          this.looks += 1;
        }
      }
      if (display) {
        await this.display.bringToFront();
        await expect(this.display.locator('html')).toHaveAttribute('lang', language);
        for (const size of CONSOLE_SIZES) {
          await this.display.setViewportSize(size);
          const where = `${this.label}, banner ${state}, the player display at ${sizeName(size)} in ${language}`;
          for (const found of await untappableControls(this.display)) this.problems.push(`${where}: ${found}`);
          this.looks += 1;
        }
      }
    }
    await chooseLanguage(this.page, 'en');
    await this.open(screens[0] ?? 'race');
  }
}

/** Deals a card by the entry (language-neutral: waits for the card count). */
async function deal(page: Page, card: Card): Promise<void> {
  const before = (await allDealt(page)).length;
  await manualInput(page).fill(card);
  await manualInput(page).press('Enter');
  await expect.poll(async () => (await allDealt(page)).length, { message: `card ${card} appears` }).toBe(before + 1);
}

/** The Finnish example's counts typed on the counts screen (any language). */
async function counts(page: Page): Promise<void> {
  await page.getByTestId('nav-race').click();
  for (const count of FINNISH_COUNTS) {
    await page.getByTestId(`counts-seat-${count.seat}-chips`).fill(String(count.chips));
    await page.getByTestId(`counts-seat-${count.seat}-other`).setChecked(count.hasOther);
  }
  await expect(page.getByTestId('start-race')).toBeEnabled();
}

/**
 * The Finnish example's race from its counts: stops at the counts (unless `countsSeen`), at the
 * deal (3 cards in) and at the result, there and on the `after` screens.
 */
async function race(page: Page, walk: Walk, state: string, after: readonly Screen[], countsSeen = false): Promise<void> {
  await counts(page);
  // Before the race starts the banner still offers it.
  if (!countsSeen) await walk.stop(state.replace('running', 'offer'), ['race', ...after.filter((screen) => screen !== 'race')], { display: true });
  await page.getByTestId('start-race').click();
  await expect(page.getByTestId('view-dealing')).toBeVisible();
  for (const { card } of FINNISH_DEAL.slice(0, 3)) await deal(page, card);
  await walk.stop(state, ['race'], { display: true });
  for (const { card } of FINNISH_DEAL.slice(3)) await deal(page, card);
  await expect(page.getByTestId('view-result')).toBeVisible();
  await walk.stop(state, ['race', ...after.filter((screen) => screen !== 'race')], { display: true });
  await page.getByTestId('nav-race').click();
  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('view-history')).toBeVisible();
}

/** A structure whose break after level 2 colours up 25 → 100 (the station's own clock). */
const BREAK_SHEET = ['chips,25,100,500,1000', 'level,25,50,,20', 'level,50,100,,20', 'break,15', 'level,100,200,,20', 'level,200,400,,20', ''].join('\r\n');

/** The station's tournament marked at its break: the banner offers the colour-up. */
async function atTheBreak(page: Page): Promise<void> {
  await page.getByTestId('nav-structure').click();
  const view = page.getByTestId('view-structure');
  await view.getByTestId('structure-import').setInputFiles({ name: 'break.csv', mimeType: 'text/csv', buffer: Buffer.from(BREAK_SHEET) });
  await view.getByTestId('structure-save').click();
  await expect(view.getByTestId('structure-saved')).toBeVisible();
  await view.getByTestId('structure-at').selectOption('2');
  await expect(page.getByTestId('color-up-banner')).toHaveAttribute('data-state', 'offer');
}

/** The points game's start and its deal (the grid shown), three players. */
async function pointsGame(page: Page, walk: Walk, state: string): Promise<void> {
  await page.getByTestId('nav-points').click();
  const start = page.getByTestId('view-points-start');
  for (const [index, player] of ['Anna', 'Ville', 'Sanna'].entries()) await start.getByTestId(`player-${index + 1}-name`).fill(player);
  await start.getByTestId('start-game').click();
  await expect(page.getByTestId('view-game')).toHaveAttribute('data-phase', 'dealing');
  await walk.stop(state, ['points'], { display: true });
  await page.getByTestId('close-game').click();
  await page.getByTestId('close-confirm').click();
  await expect(page.getByTestId('view-points-start')).toBeVisible();
}

function report(walk: Walk, started: number): void {
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`every tap, ${walk.label}: ${walk.looks} screen looks in ${seconds} s, ${walk.problems.length} findings`);
  expect(walk.problems, `${walk.label}: every control tappable`).toEqual([]);
}

/** One station from a fresh table to its break's colour-up done, every screen looked at on the way. */
async function walkStation(page: Page, app: RunningConsole, label: string, table: string): Promise<Walk> {
  const display = await page.context().newPage();
  await display.goto(app.displayUrl);
  await expect(display.getByTestId('player-display')).toBeVisible({ timeout: 20_000 });
  const walk = new Walk(page, display, label);
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, name: table });
  // No banner: every screen, a race through, the points game.
  await counts(page);
  await walk.stop('none', EVERY_SCREEN, { display: true });
  await race(page, walk, 'none', ['race'], true);
  await pointsGame(page, walk, 'none');
  // The break: offered, its race running (counts, deal, result), done.
  await atTheBreak(page);
  await walk.stop('offer', EVERY_SCREEN);
  await page.getByTestId('color-up-start').click();
  await expect(page.getByTestId('view-counts')).toBeVisible();
  await race(page, walk, 'running', BANNER_SCREENS);
  await walk.stop('done', EVERY_SCREEN);
  await display.close();
  return walk;
}

test('every control of a station without a floor is tappable: every screen, banner state, size and language', async ({ page }) => {
  test.setTimeout(900_000);
  const started = Date.now();
  const walk = await walkStation(page, await station(), 'a station without a floor', 'Table 7');
  report(walk, started);
});

test('every control of a station linked to a real floor is tappable: every screen, banner state, size and language', async ({ page }) => {
  test.setTimeout(900_000);
  const started = Date.now();
  const app = await station('7');
  const walk = await walkStation(page, app, 'a linked station', '7');
  report(walk, started);
});

/** The floor's tournament: its break after level 3 colours up 25 → 100; held until every table is done. */
const FLOOR_SHEET = ['chips,25,100,500', 'level,25,50,,20', 'level,50,100,,20', 'level,50,100,,20', 'break,10', 'level,100,200,,20', 'level,200,400,,20'].join('\n');
const MIN = 60_000;

test('every control of a linked station is tappable while the floor holds the break: offered and running, every size and language', async ({ page }) => {
  test.setTimeout(600_000);
  const started = Date.now();
  const { server, admin: client } = await floorDatabase();
  const { structure, house } = tournamentFromCsv(FLOOR_SHEET);
  await setFloorStructure(client, structure, house);
  await setHoldBreaks(client, true, Date.now());
  floor = await startFloorServer({ databaseUrl: server.url, log: () => undefined, foldEveryMs: 100, holdEveryMs: 200 });
  const app = await station('held');
  const display = await page.context().newPage();
  await display.goto(app.displayUrl);
  const walk = new Walk(page, display, 'a linked station, the break held');
  await openConsole(page, app.url);
  await page.getByTestId('nav-setup').click();
  for (const { seat, name } of FINNISH_TABLE.seats) {
    await page.getByTestId(`seat-${seat}-in-play`).check();
    await page.getByTestId(`seat-${seat}-name`).fill(name);
  }
  await page.getByTestId('setup-save').click();
  await expect(page.getByTestId('setup-saved')).toBeVisible();
  // The floor's clock 5 s before the break's end: the banner offers; then the end passes and the floor holds it.
  await actOnFloorClock(client, { type: 'start' }, Date.now() - 70 * MIN + 5_000);
  await expect(page.getByTestId('color-up-held')).toBeVisible({ timeout: 30_000 });
  await walk.stop('offer held', EVERY_SCREEN, { display: true });
  await page.getByTestId('color-up-start').click();
  await expect(page.getByTestId('view-counts')).toBeVisible();
  await race(page, walk, 'running held', BANNER_SCREENS);
  await display.close();
  report(walk, started);
});

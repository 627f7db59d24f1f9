import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import type pg from 'pg';
import { actOnFloorClock, setFloorStructure } from '../floor/clock';
import { createStationLogin } from '../floor/db/stations';
import { setHoldBreaks } from '../floor/hold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { tournamentFromCsv } from '../engine/plan/tournament';
import { ConsoleService } from '../station/service/service';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { openConsole } from './harness/flows';

// The held break in Chromium: the floor holds its clock at the end of the break after level 2
// while table 1 (a browser-mode console, its dealer at the screen) has not confirmed its
// colour-up; the floor page and the station's banner say so, for one table; the dealer runs the
// colour-up and confirms, and the next level starts by itself on the floor.

const shots = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const MIN = 60_000;
const SHEET = ['chips,25,100,500', 'level,25,50,,20', 'level,50,100,,20', 'break,10', 'level,100,200,,20', 'break,10', 'level,500,1000,,20'].join('\n');
const SEATS = [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }];

let database: ThrowawayPostgres;
let admin: pg.Client;
let floor: FloorServer;
let app: RunningConsole | undefined;
let other: ConsoleService | undefined;
const folders: string[] = [];

test.afterAll(async () => {
  if (app !== undefined) await stopConsoles(app);
  await other?.close();
  await floor?.close();
  await admin?.end();
  await database?.remove();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

test('the break held until the last table confirms: said on the floor and the station, released by its confirmation', async ({ browser }) => {
  test.setTimeout(180_000);
  ({ server: database, admin } = await startFloorDatabase());
  const { structure, house } = tournamentFromCsv(SHEET);
  await setFloorStructure(admin, structure, house);
  await setHoldBreaks(admin, true, Date.now());
  floor = await startFloorServer({ databaseUrl: database.url, log: () => undefined, foldEveryMs: 100, holdEveryMs: 200 });

  // Table 1: the dealer's browser console, linked from the environment as the README starts it.
  const one = await createStationLogin(admin, '1');
  process.env.CHIP_RACE_DATABASE_URL = database.urlFor(one.role, one.password);
  process.env.CHIP_RACE_TABLE = '1';
  try {
    app = await startConsole();
  } finally {
    delete process.env.CHIP_RACE_DATABASE_URL;
    delete process.env.CHIP_RACE_TABLE;
  }
  // Table 2: a console done with its colour-up early.
  const two = await createStationLogin(admin, '2');
  const dir = mkdtempSync(join(tmpdir(), 'floor-hold-2-'));
  folders.push(dir);
  other = await ConsoleService.start({ dataDir: dir, floor: { url: database.urlFor(two.role, two.password), table: '2' } });
  const { tournament: _none, ...settings } = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: SEATS, button: 1 } };
  expect(await other.saveSettings(settings)).toMatchObject({ ok: true });

  const station = await browser.newPage({ viewport: { width: 1024, height: 600 } });
  await openConsole(station, app.url);
  // The dealer ticks the two seats (the floor gave the rest).
  await station.getByTestId('nav-setup').click();
  for (const seat of [1, 2]) await station.getByTestId(`seat-${seat}-in-play`).check();
  await station.getByTestId('setup-save').click();

  // 8 s before the break's end: both banners up; table 2 runs its colour-up at once.
  await actOnFloorClock(admin, { type: 'start' }, Date.now() - 50 * MIN + 8_000);
  await expect(station.getByTestId('color-up-banner')).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => other?.getState().colorUp?.afterLevel ?? null, { timeout: 20_000 }).toBe(2);
  expect(await other.startColorUp(2, 25)).toMatchObject({ ok: true });
  expect(await other.startRace([{ seat: 1, chips: 4, hasOther: true }, { seat: 2, chips: 0, hasOther: true }])).toMatchObject({ ok: true });
  expect(await other.confirmRace(other.getState().race?.id as string)).toMatchObject({ ok: true });

  // The break's end passes with table 1 not done: held, and said so at the station and on the floor.
  await expect(station.getByTestId('color-up-held')).toHaveText(/Break held by the floor: 1 table still colouring up/, { timeout: 30_000 });
  const floorPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await floorPage.goto(`${floor.url}?lang=en`);
  await expect(floorPage.getByTestId('clock-held')).toContainText('1 table not done yet');
  await expect(floorPage.getByTestId('floor-clock')).toHaveAttribute('data-status', 'paused');
  mkdirSync(join(shots, '1280x800'), { recursive: true });
  await floorPage.screenshot({ path: join(shots, '1280x800', 'floor-held-break.png') });
  await station.getByTestId('nav-race').click();
  await expect(station.getByTestId('color-up-held')).toBeInViewport();
  await station.screenshot({ path: join(shots, '1024x600', 'station-held-break.png') });

  // The dealer runs table 1's colour-up and confirms: the next level starts by itself.
  await station.getByTestId('color-up-start').click();
  await expect(station.getByTestId('view-counts')).toBeVisible();
  await expect(station.getByTestId('color-up-start')).toBeEnabled();
  await station.getByTestId('counts-seat-1-chips').fill('4');
  await station.getByTestId('counts-seat-1-other').setChecked(true);
  await station.getByTestId('counts-seat-2-chips').fill('0');
  await station.getByTestId('counts-seat-2-other').setChecked(true);
  await expect(station.getByTestId('counts-seat-1-chips')).toHaveValue('4');
  await station.getByTestId('start-race').click();
  await station.getByTestId('confirm-race').click();
  await expect(async () => {
    await floorPage.goto(`${floor.url}?lang=en`);
    await expect(floorPage.getByTestId('floor-clock')).toHaveAttribute('data-status', 'running', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(floorPage.getByTestId('clock-held')).toHaveCount(0);
  await expect(floorPage.getByTestId('clock-period')).toHaveText('Level 3');
  await expect(station.getByTestId('color-up-held')).toHaveCount(0, { timeout: 15_000 });
  // The break let go ends on the station at once (issue 41): its banner leaves with it.
  await expect(station.getByTestId('color-up-banner')).toHaveCount(0, { timeout: 15_000 });
});

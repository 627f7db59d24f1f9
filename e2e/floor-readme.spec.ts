import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { asPostgresEnvironment, onServer, PROJECT_ROOT, readmeBlock, runReadmeLines, startReadmeLine, type RunningLine } from '../floor/testing/readme';
import { openConsole } from './harness/flows';

// The README's floor section followed exactly, as a director sets up a tournament: the cardroom
// set up (its psql line), the tournament sheet loaded and two tables' logins made (its
// floor-tournament block), two stations started by its station line (`npm start`, which starts
// browser mode where Electron cannot run) and never given a structure, the clock started by its
// line. At the floor's break both stations raise the colour-up banner with the floor's plan, and
// say the tournament is the floor's. The test only moves time on (the README's own `clock adjust`)
// and points the lines at the throwaway server's port.

test.skip(!POSTGRES_AVAILABLE && process.env.CI !== 'true', 'PostgreSQL is not installed');

const MADE = ['tournament.csv', 'table-7.url', 'table-8.url'].map((name) => join(PROJECT_ROOT, name));
let server: ThrowawayPostgres | undefined;
const stations: RunningLine[] = [];
const folders: string[] = [];

test.afterAll(async () => {
  await Promise.all(stations.map((station) => station.stop()));
  await server?.remove();
  for (const path of [...MADE, ...folders]) rmSync(path, { recursive: true, force: true });
});

test('the README’s floor set-up raises the banner at the break on two stations never given a structure', async ({ browser }) => {
  test.setTimeout(480_000);
  for (const path of MADE) expect(existsSync(path), `${path} is left from another run`).toBe(false);
  server = await startThrowawayPostgres();

  // "Set up a cardroom": the psql line as written (the floor's role and database).
  const setUp = readmeBlock('cardroom-setup').split('\n').find((line) => line.startsWith('sudo -u postgres psql')) as string;
  expect((await runReadmeLines(setUp, asPostgresEnvironment(server))).code).toBe(0);

  // "Set up the tournament": the sheet, loaded on the floor, and the two tables' logins, each in a file only its owner reads.
  const tournament = await runReadmeLines(onServer(readmeBlock('floor-tournament'), server));
  expect(tournament, tournament.stderr).toMatchObject({ code: 0 });
  for (const table of ['7', '8']) expect(statSync(join(PROJECT_ROOT, `table-${table}.url`)).mode & 0o077).toBe(0);

  // Each table's console started by the README's line (its own data folder and port: two tables on one test machine).
  const stationLine = readmeBlock('floor-station').trim();
  const pages: Page[] = [];
  for (const table of ['7', '8']) {
    const dataDir = mkdtempSync(join(tmpdir(), `floor-readme-${table}-`));
    folders.push(dataDir);
    const station = startReadmeLine(stationLine.replaceAll('7', table), { CHIP_RACE_DATA_DIR: dataDir, CHIP_RACE_PORT: '0', CHIP_RACE_DATABASE_URL: '', CHIP_RACE_TABLE: '' });
    stations.push(station);
    const address = (await station.waitFor(/browser mode\): (http:\/\/\S+)/, 240_000))[1] as string;
    const page = await browser.newPage({ viewport: { width: 1024, height: 600 } });
    await openConsole(page, address);
    pages.push(page);
  }

  // The floor's tournament reached both: Setup says so, and shows the floor's rules and decks, not editable.
  for (const page of pages) {
    await page.getByTestId('nav-setup').click();
    await expect(page.getByTestId('setup-from-floor')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('setup-rules')).toHaveValue('tda');
    await expect(page.getByTestId('setup-rules')).toBeDisabled();
    await expect(page.getByTestId('setup-decks')).toHaveValue('2');
    await expect(page.getByTestId('setup-decks')).toBeDisabled();
  }
  await expect((pages[0] as Page).getByTestId('setup-table-name')).toHaveValue('7');

  // "The clock": started by the README's line; then time moved on to the break after level 2 (40 minutes) by its adjust.
  const clockLine = readmeBlock('floor-clock-start').replace(/#.*$/gm, '').trim();
  const floorUrl = /export CHIP_RACE_DATABASE_URL=(\S+)/.exec(readmeBlock('floor-tournament'))?.[1] as string;
  const asFloor = { CHIP_RACE_DATABASE_URL: onServer(floorUrl, server) };
  expect((await runReadmeLines(clockLine, asFloor)).code).toBe(0);
  expect((await runReadmeLines(clockLine.replace('clock start', 'clock adjust --minutes -40'), asFloor)).code).toBe(0);

  for (const page of pages) {
    const banner = page.getByTestId('color-up-banner');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner.getByTestId('color-up-title')).toContainText('Break after level 2: colour up — 25 → 100');
    await expect(banner.getByTestId('color-up-start')).toHaveAttribute('data-removed', '25');
  }
  await pages[0]?.screenshot({ path: join(PROJECT_ROOT, 'docs', 'screenshots', 'floor-readme-banner.png') });
});

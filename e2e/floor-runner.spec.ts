import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ensureTable } from '../floor/db/stations';
import { startFloorServer, type FloorServer } from '../floor/server';
import { connectedClient, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { syncStation } from '../replication/sync';
import { dealUntilComplete, playStation } from '../system/testing/stations';
import type { ConsoleService } from '../station/service/service';
import { pdfPageCount } from './harness/pdf';

// The chip runner's sheet in Chromium: two tables at the break after level 6 (each its 500s raced
// into 1000s, its 100s' race still taking cards), the runner ticks table 7 collected and delivered
// on the page, the table is then as its races gave; a race confirmed after the tick puts a
// difference on the sheet, flagged before play resumes. Printed (Chromium's PDF), one A4 page.

const shots = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
let database: ThrowawayPostgres;
let floor: FloorServer;
const folders: string[] = [];
const services = new Map<string, { service: ConsoleService; dir: string }>();

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const { server, admin } = await startFloorDatabase();
  database = server;
  try {
    for (const table of ['7', '8']) {
      const dir = mkdtempSync(join(tmpdir(), 'floor-runner-'));
      folders.push(dir);
      services.set(table, { service: await playStation(dir, table, 'colour-up-racing'), dir });
      await ensureTable(admin, table);
      await syncStation(admin, table, dir);
    }
  } finally {
    await admin.end();
  }
  floor = await startFloorServer({ databaseUrl: database.url, log: () => undefined, foldEveryMs: 100 });
});

test.afterAll(async () => {
  await floor?.close();
  await Promise.all([...services.values()].map(({ service }) => service.close()));
  await database?.remove();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

test("the runner's sheet: ticked on the floor page, reconciled against the races, printed on one page", async ({ page }) => {
  await page.goto(`${floor.url}?lang=en`);
  await page.getByTestId('runner-link').click();
  await expect(page.locator('h1')).toHaveText("Chip runner's sheet: break after level 6");
  const seven = page.locator('tr[data-table="7"]');
  await expect(seven.getByTestId('runner-collect')).toHaveText('500 × 2');
  await expect(seven.getByTestId('runner-bring')).toHaveText('1,000 × 1');
  await expect(seven).toHaveAttribute('data-flagged', 'true');
  await expect(page.getByTestId('runner-summary')).toContainText('Tables to settle before play resumes: 2');

  // The runner ticks table 7: collected, then delivered.
  await seven.getByTestId('tick-by-collected').fill('Anna');
  await seven.getByTestId('tick-collected-button').click();
  await page.locator('tr[data-table="7"]').getByTestId('tick-by-delivered').fill('Anna');
  await page.locator('tr[data-table="7"]').getByTestId('tick-delivered-button').click();
  await expect(page.locator('tr[data-table="7"]')).toHaveAttribute('data-flagged', 'false');
  await expect(page.locator('tr[data-table="7"]').getByTestId('tick-delivered')).toContainText('✓ Anna');
  await expect(page.locator('tr[data-table="7"]').getByTestId('runner-check')).toHaveText('✓ as the races gave');
  await expect(page.getByTestId('runner-summary')).toContainText('Tables to settle before play resumes: 1');
  // A tick without the runner's name is refused, in the page's language, and changes nothing.
  await page.goto(`${floor.url}runner?lang=fi`);
  await page.locator('tr[data-table="8"]').getByTestId('tick-by-delivered').fill('   ');
  await page.locator('tr[data-table="8"]').getByTestId('tick-delivered-button').click();
  await expect(page.getByTestId('runner-problem')).toContainText('Kuittaukseen tarvitaan kuljettajan nimi');

  // Printed: one page of A4, the forms left off.
  await page.goto(`${floor.url}runner?lang=en`);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.tick-form').first()).toBeHidden();
  expect(pdfPageCount(await page.pdf({ format: 'A4' }))).toBe(1);
  mkdirSync(join(shots, '1280x800'), { recursive: true });
  await page.screenshot({ path: join(shots, '1280x800', 'runner-sheet.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen' });

  // Table 7's open race goes on to its result after the tick: the sheet now gives more than was delivered, flagged.
  const { service, dir } = services.get('7') as { service: ConsoleService; dir: string };
  await dealUntilComplete(service, 'race-3');
  const admin = await connectedClient(database.url);
  try {
    await syncStation(admin, '7', dir);
  } finally {
    await admin.end();
  }
  await expect(async () => {
    await page.goto(`${floor.url}runner?lang=en`);
    await expect(page.locator('tr[data-table="7"]')).toHaveAttribute('data-flagged', 'true', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.locator('tr[data-table="7"]').getByTestId('runner-check')).toContainText('still to bring');
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { readFloorClock, setFloorStructure } from '../floor/clock';
import { ensureTable } from '../floor/db/stations';
import { startFloorServer, type FloorServer } from '../floor/server';
import { syncStation } from '../replication/sync';
import { makeCardroomCa } from '../floor/testing/ca';
import { connectedClient, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { playStation, TIMED_STRUCTURE } from '../system/testing/stations';
import type { ConsoleService } from '../station/service/service';
import { CONSOLE_SIZES, expectInView, expectNoScroll, sizeName } from './harness/fit';

// The floor page in Chromium: two stations' journals made by real consoles, replicated into a
// throwaway PostgreSQL, the floor serving them. Both tables and the totals are shown, a race's
// record opens, and at the three screen sizes nothing scrolls sideways and the totals are in view
// (docs/screenshots/<size>/floor.png for the README).

const root = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

let database: ThrowawayPostgres;
let floor: FloorServer;
const folders: string[] = [];
const services: ConsoleService[] = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const { server, admin } = await startFloorDatabase();
  database = server;
  try {
    for (const [table, script] of [['7', 'colour-up-racing'], ['Pöytä 12', 'abandoned']] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'floor-e2e-'));
      folders.push(dir);
      services.push(await playStation(dir, table, script));
      await ensureTable(admin, table);
      await syncStation(admin, table, dir);
    }
    // The director's structure, its levels timed: the floor's clock can run.
    await setFloorStructure(admin, TIMED_STRUCTURE);
  } finally {
    await admin.end();
  }
  floor = await startFloorServer({ databaseUrl: database.url, log: () => undefined });
});

test.afterAll(async () => {
  await floor?.close();
  await Promise.all(services.map((service) => service.close()));
  await database?.remove();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

test('the floor shows both tables and the totals, and opens a race\'s record', async ({ page }) => {
  await page.goto(`${floor.url}?lang=en`);
  await expect(page.locator('tr[data-table="7"]')).toContainText('racing');
  await expect(page.locator('tr[data-table="Pöytä 12"]')).toContainText('not started');
  await expect(page.getByTestId('total-races')).toHaveText('4');
  await page.locator('tr[data-table="7"] th a').click();
  await page.getByRole('link', { name: 'race-1' }).click();
  await expect(page.getByTestId('race-title')).toHaveText('Chip race record: race-1');
  await expect(page.getByTestId('race-place')).toContainText('Table: 7');
  await expect(page.getByTestId('race-record')).toContainText('A♥');
  await expect(page.getByTestId('race-record')).toContainText('exposed');
  await expect(page.getByTestId('race-chain')).toHaveText('intact');
  await page.goto(`${floor.url}?lang=fi`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fi');
  await expect(page.locator('tr[data-table="7"]')).toContainText('arvonta käynnissä');
});

test("the floor's clock runs from its buttons in the browser: started, paused, refused nothing", async ({ page }) => {
  await page.goto(`${floor.url}?lang=en`);
  const clock = page.getByTestId('floor-clock');
  await expect(clock).toHaveAttribute('data-status', 'idle');
  await expect(page.getByTestId('clock-period')).toHaveText('Level 1');
  await clock.locator('button[data-action="start"]').click();
  await expect(clock).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('clock-left')).toContainText('left');
  await clock.locator('button[data-action="more"]').click();
  await clock.locator('button[data-action="pause"]').click();
  await expect(clock).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('clock-problem')).toHaveCount(0);
  const admin = await connectedClient(database.url);
  try {
    expect((await readFloorClock(admin))?.events.map((event) => event.type)).toEqual(['start', 'adjust', 'pause']);
  } finally {
    await admin.end();
  }
});

test('a floor with a password: its sign-in form in the browser lets the director in, and the clock then answers', async ({ page }) => {
  const guarded = await startFloorServer({ databaseUrl: database.url, token: 'cardroom-floor-password', log: () => undefined });
  try {
    await page.goto(`${guarded.url}?lang=en`);
    await expect(page.getByRole('heading', { name: 'Floor: sign in' })).toBeVisible();
    await expect(page.getByTestId('tables')).toHaveCount(0);
    await page.getByLabel('Floor password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong password.');
    await page.getByLabel('Floor password').fill('cardroom-floor-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('tables')).toBeVisible();
    const clock = page.getByTestId('floor-clock');
    await clock.locator('button[data-action="resume"]').click();
    await expect(clock).toHaveAttribute('data-status', 'running');
    await clock.locator('button[data-action="pause"]').click();
    await expect(clock).toHaveAttribute('data-status', 'paused');
  } finally {
    await guarded.close();
  }
});

test('a token as openssl rand -base64 gives it (+ / =, and one with % and a space) signs in in the browser, and stays signed in', async ({ page }) => {
  for (const token of [execFileSync('openssl', ['rand', '-base64', '18'], { encoding: 'utf8' }).trim(), 'Ab+/cd==%41 ef+gh/ij==']) {
    const guarded = await startFloorServer({ databaseUrl: database.url, token, log: () => undefined });
    try {
      await page.goto(`${guarded.url}?lang=en`);
      await page.getByLabel('Floor password').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByTestId('tables'), token).toBeVisible();
      await page.reload();
      await expect(page.getByTestId('tables'), token).toBeVisible();
    } finally {
      await guarded.close();
    }
  }
});

test('the floor on the LAN bind over HTTPS in Chromium: refused as untrusted without the cardroom CA; signed in over HTTPS with its Secure cookie', async ({ browser }) => {
  const ca = await makeCardroomCa('floor.local', '127.0.0.1');
  const token = 'Ab+/cd==%41 ef+gh/ij==';
  const lan = await startFloorServer({ databaseUrl: database.url, host: '0.0.0.0', token, tls: { cert: readFileSync(ca.cert), key: readFileSync(ca.key) }, log: () => undefined });
  const address = `https://127.0.0.1:${new URL(lan.url).port}/`;
  const untrusting = await browser.newContext();
  // Chromium here cannot be given the test CA as a root (no NSS tools): the trusting side is
  // proven with Node's TLS client in system/tls.test.ts; here the page's HTTPS flow itself.
  const accepting = await browser.newContext({ ignoreHTTPSErrors: true });
  try {
    await expect((await untrusting.newPage()).goto(`${address}?lang=en`)).rejects.toThrow(/ERR_CERT_AUTHORITY_INVALID/);
    const page = await accepting.newPage();
    await page.goto(`${address}?lang=en`);
    await page.getByLabel('Floor password').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('tables')).toBeVisible();
    const cookies = await accepting.cookies(address);
    expect(cookies.map((cookie) => [cookie.secure, cookie.httpOnly, cookie.sameSite])).toEqual([[true, true, 'Strict']]);
  } finally {
    await untrusting.close();
    await accepting.close();
    await lan.close();
    rmSync(ca.dir, { recursive: true, force: true });
  }
});

for (const size of CONSOLE_SIZES) {
  test(`the floor fits ${sizeName(size)}: no sideways scroll, the totals in view`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto(`${floor.url}?lang=en`);
    const where = `floor at ${sizeName(size)}`;
    await expectNoScroll(page, where);
    await expectInView(page.locator('h1'), `${where}: the headline`);
    await expectInView(page.getByTestId('totals'), `${where}: the totals`);
    await expectInView(page.getByTestId('floor-clock'), `${where}: the clock`);
    const directory = `${root}${sizeName(size)}/`;
    mkdirSync(directory, { recursive: true });
    const path = `${directory}floor.png`;
    await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
    const png = readFileSync(path);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size.width, size.height]);
    // Finnish and Russian words are longer: they fit as well.
    for (const language of ['fi', 'ru']) {
      await page.goto(`${floor.url}?lang=${language}`);
      await expectNoScroll(page, `${where} in ${language}`);
      await expectInView(page.getByTestId('totals'), `${where} in ${language}: the totals`);
    }
    // The race record at the same size.
    await page.goto(`${floor.url}race?table=7&race=race-1&lang=en`);
    await expectNoScroll(page, `${where}: the race record`);
    await expectInView(page.getByTestId('race-title'), `${where}: the race record's title`);
  });
}

test('the seat list uploaded on the floor page, a player busted and moved, a table broken mid-colour-up flagged on the overview (docs/screenshots/floor-seating.png)', async ({ page }) => {
  await page.goto(`${floor.url}?lang=en`);
  await page.getByTestId('seating-link').click();
  await expect(page).toHaveURL(/\/seating\?lang=en$/);
  // A malformed list: refused naming the line, in the page's language, nothing loaded.
  await page.goto(`${floor.url}seating?lang=fi`);
  await page.getByTestId('seating-file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('Table;Seat;Player\n7;1;Anna\n7;12;Matti\n') });
  await page.getByTestId('seating-load').click();
  await expect(page.getByTestId('seating-problem')).toHaveText('rivi 3: paikka "12" ei ole paikan numero 1–10');
  await expect(page.getByTestId('seating-tables')).toHaveCount(0);
  // The list as the tournament clock exported it: a byte-order mark, a header, quoted names, CR LF.
  await page.goto(`${floor.url}seating?lang=en`);
  const list = '\uFEFF"Table","Seat","Player"\r\n7,1,"Virtanen, Anna"\r\n7,2,Korhonen Matti\r\n7,3,Ольга Петрова\r\nPöytä 12,1,Liisa\r\n';
  await page.getByTestId('seating-file').setInputFiles({ name: 'seats.csv', mimeType: 'text/csv', buffer: Buffer.from(list) });
  await page.getByTestId('seating-load').click();
  // The page it returns to says what was loaded (issue 43).
  await expect(page).toHaveURL(/\/seating\?lang=en&loaded=1$/);
  await expect(page.getByTestId('seating-loaded')).toHaveText('Loaded: players 4, tables 2');
  await expect(page.getByTestId('seating-players')).toHaveText('4 players');
  await expect(page.locator('tr[data-table="7"]')).toContainText('Virtanen, Anna');

  // Table 7's page: seat 2 busted, seat 3 moved to Pöytä 12 seat 5; a taken seat refused.
  await page.locator('tr[data-table="7"] th a').click();
  await expect(page.getByTestId('seat-2-player')).toHaveText('Korhonen Matti');
  // Each asks once (issue 43): the tap shows the question, the change waits for a name and a yes.
  const sayYes = async (question: string) => {
    await expect(page.getByTestId('seat-confirm')).toContainText(question);
    await page.getByTestId('seat-confirm-by').fill('Anna K');
    await page.getByTestId('seat-confirm-yes').click();
    await expect(page.getByTestId('seat-confirm')).toHaveCount(0);
  };
  await page.getByTestId('seat-2-out').click();
  await expect(page.getByTestId('seat-2-player')).toHaveText('Korhonen Matti');
  // Cancelled: nothing changed.
  await page.getByTestId('seat-confirm-cancel').click();
  await expect(page.getByTestId('seat-confirm')).toHaveCount(0);
  await expect(page.getByTestId('seat-2-player')).toHaveText('Korhonen Matti');
  await page.getByTestId('seat-2-out').click();
  // The question fits every size, its name field and yes in view, nothing sideways.
  for (const size of CONSOLE_SIZES) {
    await page.setViewportSize(size);
    await expectNoScroll(page, `the seat's question at ${sizeName(size)}`);
    await expectInView(page.getByTestId('seat-confirm-yes'), `the seat's question at ${sizeName(size)}: yes`);
    await expectInView(page.getByTestId('seat-confirm-by'), `the seat's question at ${sizeName(size)}: the name`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await sayYes('Take Korhonen Matti (seat 2) out of table 7?');
  await expect(page.getByTestId('seat-2-player')).toHaveCount(0);
  await expect(page.getByTestId('seat-1-player')).toHaveText('Virtanen, Anna');
  // Undone from the page: Matti back in seat 2, the change and its undo kept with who and when.
  await page.locator('[data-testid="seat-change"][data-kind="out"]').getByTestId('seat-change-undo').click();
  await sayYes('Undo change');
  await expect(page.getByTestId('seat-2-player')).toHaveText('Korhonen Matti');
  await expect(page.locator('[data-testid="seat-change"][data-kind="out"]')).toContainText('Anna K: Korhonen Matti out of seat 2 — undone by Anna K at');
  // The changes with their Undo fit every size, in every language.
  for (const size of CONSOLE_SIZES) {
    await page.setViewportSize(size);
    for (const language of ['en', 'fi', 'ru']) {
      await page.goto(`${floor.url}table?table=7&lang=${language}`);
      await expectNoScroll(page, `table 7's changes at ${sizeName(size)} in ${language}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${floor.url}table?table=7&lang=en`);
  await page.getByTestId('seat-3-to-table').fill('Pöytä 12');
  await page.getByTestId('seat-3-to-seat').fill('1');
  await page.getByTestId('seat-3-move').click();
  await expect(page.getByTestId('seats-problem')).toHaveText('table Pöytä 12 seat 1 is taken by Liisa');
  await page.getByTestId('seat-3-to-table').fill('Pöytä 12');
  await page.getByTestId('seat-3-to-seat').fill('5');
  await page.getByTestId('seat-3-move').click();
  await sayYes('Move Ольга Петрова from table 7, seat 3 to table Pöytä 12, seat 5?');
  await expect(page.getByTestId('seat-3-player')).toHaveCount(0);
  await page.goto(`${floor.url}table?table=${encodeURIComponent('Pöytä 12')}&lang=en`);
  await expect(page.getByTestId('seat-5-player')).toHaveText('Ольга Петрова');

  // Table 7 broken while its colour-up race is open: the overview flags it.
  await page.goto(`${floor.url}table?table=7&lang=en`);
  await page.getByTestId('break-table').click();
  await expect(page.getByTestId('table-broken')).toHaveCount(0);
  await sayYes('Break table 7? Every player leaves it: 1 Virtanen, Anna, 2 Korhonen Matti.');
  await expect(page.getByTestId('table-broken')).toHaveText('Broken');
  await page.goto(`${floor.url}?lang=en`);
  await expect(page.getByTestId('broken-mid-colour-up')).toContainText(/Table 7 broken mid-colour-up: race-\d+ open/);
  await page.goto(`${floor.url}?lang=ru`);
  await expect(page.getByTestId('broken-mid-colour-up')).toContainText('Стол 7 расформирован во время смены номиналов');
  await page.goto(`${floor.url}table?table=${encodeURIComponent('Pöytä 12')}&lang=en`);
  mkdirSync(root, { recursive: true });
  await page.screenshot({ path: `${root}floor-seating.png`, animations: 'disabled', caret: 'hide', fullPage: true });
});

test('the tournament sheet uploaded on the floor page: refused while a table races, a bad line refused in Finnish, then loaded and shown, the clock reading it', async ({ page }) => {
  test.setTimeout(120_000);
  const sheet = ['rules,tda', 'decks,2', 'chips,100,500,1000', 'level,100,200,,20', 'level,200,400,,20', 'break,10', 'level,500,1000,,30'].join('\r\n');
  const file = (text: string) => ({ name: 'tournament.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  // This floor's table 7 is mid-colour-up (its race open): the sheet is refused, naming it, the structure kept.
  await page.goto(`${floor.url}?lang=en`);
  await page.getByTestId('tournament-link').click();
  await expect(page).toHaveURL(/\/tournament\?lang=en$/);
  await expect(page.getByTestId('tournament-levels').locator('tr[data-level]')).toHaveCount(TIMED_STRUCTURE.levels.filter((level) => !('break' in level)).length);
  await page.getByTestId('tournament-file').setInputFiles(file(sheet));
  await page.getByTestId('tournament-load').click();
  await expect(page.getByTestId('tournament-problem')).toContainText('a race is open at table 7');
  await expect(page.getByTestId('tournament-chips')).toHaveText(TIMED_STRUCTURE.chips.map((chip) => chip.toLocaleString('en')).join(' · '));
  await expect(page.getByTestId('tournament-rules')).toHaveText("each table's own");

  // A floor of its own, no table racing and no structure yet: the clock's note leads to the upload.
  const fresh = await startFloorDatabase();
  await fresh.admin.end();
  const empty = await startFloorServer({ databaseUrl: fresh.server.url, log: () => undefined });
  try {
    await page.goto(`${empty.url}?lang=fi`);
    await expect(page.getByTestId('floor-clock')).toHaveAttribute('data-status', 'none');
    await page.getByTestId('tournament-link').click();
    await expect(page.getByTestId('tournament-none')).toBeVisible();
    await page.getByTestId('tournament-file').setInputFiles(file(sheet.replace('level,200,400,,20', 'level,200,400,,kaksikymmentä')));
    await page.getByTestId('tournament-load').click();
    await expect(page.getByTestId('tournament-problem')).toHaveText('rivi 5, minuutit: "kaksikymmentä" ei ole kokonaisluku');
    await expect(page.getByTestId('tournament-none')).toBeVisible();
    await page.getByTestId('tournament-file').setInputFiles(file(sheet));
    await page.getByTestId('tournament-load').click();
    await expect(page).toHaveURL(/\/tournament\?lang=fi&loaded=1$/);
    await expect(page.getByTestId('tournament-loaded')).toHaveText('Ladattu: tasoja 3, taukoja 1');
    await expect(page.getByTestId('tournament-problem')).toHaveCount(0);
    await expect(page.getByTestId('tournament-chips')).toHaveText(/^100 · 500 · 1\s000$/u);
    await expect(page.getByTestId('tournament-decks')).toHaveText('2');
    await expect(page.getByTestId('tournament-levels').locator('tr[data-level="3"]')).toContainText('30');
    await expect(page.getByTestId('tournament-levels').locator('tr[data-break-after="2"]')).toContainText('Tauko');
    // The smallest console screen: the page fits without sideways scrolling, in Russian's longer words too.
    await page.setViewportSize(CONSOLE_SIZES[0] as (typeof CONSOLE_SIZES)[number]);
    await expectNoScroll(page, 'the tournament page at the smallest size');
    await page.goto(`${empty.url}tournament?lang=ru`);
    await expectNoScroll(page, 'the tournament page in Russian at the smallest size');
    await page.goto(`${empty.url}tournament?lang=fi`);
    await page.getByRole('link', { name: 'Takaisin saliin' }).click();
    await expect(page.getByTestId('floor-clock')).toHaveAttribute('data-status', 'idle');
    await expect(page.getByTestId('clock-period')).toHaveText('Taso 1');
    await expect(page.getByTestId('clock-left')).toContainText('20:00');
  } finally {
    await empty.close();
    await fresh.server.remove();
  }
});

// Last: it stops the database the other tests read.
test('the floor page outlives its database: with PostgreSQL stopped it keeps the tables and says since when, in its language, and comes back by itself', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${floor.url}?lang=fi`);
  await expect(page.locator('tr[data-table="7"]')).toBeVisible();
  await database.stop();
  try {
    // No reload by the test: the page's own refresh finds the database gone.
    await expect(page.getByTestId('database-unreachable')).toContainText('Sali ei tavoita tietokantaansa', { timeout: 20_000 });
    await expect(page.locator('tr[data-table="7"]')).toContainText('arvonta käynnissä');
    await expect(page.getByTestId('floor-clock')).toBeVisible();
  } finally {
    await database.start();
  }
  await expect(page.getByTestId('database-unreachable')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator('tr[data-table="7"]')).toContainText('arvonta käynnissä');
});

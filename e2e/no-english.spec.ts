import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test, type Page } from '@playwright/test';
import { setFloorStructure } from '../floor/clock';
import { ensureTable } from '../floor/db/stations';
import { STRUCTURE_COMMAND } from '../floor/page/render';
import { FLOOR_CATALOGS } from '../floor/page/words';
import { startFloorServer, type FloorServer } from '../floor/server';
import { startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { PtyPair, PtyWriter } from '../hardware/testing/ptyPair';
import type { ConsoleService } from '../station/service/service';
import type { Language } from '../protocol/contract';
import { syncStation } from '../replication/sync';
import { playStation, TIMED_STRUCTURE } from '../system/testing/stations';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { enterCard, enterCounts, expectDealt, expectSourceConnected, FINNISH_COUNTS, FINNISH_TABLE, finishFinnishRaceWithAVoid, openConsole, setUpTable, startRace, typeCard } from './harness/flows';
import { scan, typeAsPerson } from './harness/scanner';
import { chooseLanguage } from './harness/tour';

// In Finnish and in Russian, the console is made to refuse things — a card already dealt, an
// illegal play in Pistepokeri, a race the shoe cannot deal (a setup field at fault), a structure
// sheet that cannot be read, a scan and a shoe's frames that are no card — and made to say what
// its serial port is doing, and to print a race's record slip with refusals on it; the floor page
// shows every table, a race's record and its refusals. The page after each holds no English word
// of the engine's catalog, of the floor's own words or of the screens' English locale (text
// marked as English counts too: it is English on a Finnish screen all the same). Words the other
// languages share with English (numbers, card codes, names such as TDA or Pistepokeri) are not
// counted as English, nor are the names a test gives (a port's path, a device profile's name),
// which are no language's.

type Tree = { readonly [key: string]: string | Tree };

function leaves(tree: Tree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : leaves(value)));
}

function locale(language: Language): Tree {
  return JSON.parse(readFileSync(new URL(`../renderer/locales/${language}.json`, import.meta.url), 'utf8')) as Tree;
}

/** The words of some texts, lower case, placeholders left out: `Deal {n} cards to {seat}` → deal, cards, to. */
function words(texts: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts) for (const word of text.replace(/\{\w+\}/g, ' ').match(/[A-Za-z][A-Za-z'’]+/g) ?? []) found.add(word.toLowerCase());
  return found;
}

/** The engine's catalogs with the floor's own words (floor/words): every text but the screens' own. */
const { en, fi, ru } = FLOOR_CATALOGS;
const shared = words([...leaves(fi), ...leaves(ru), ...leaves(locale('fi')), ...leaves(locale('ru'))]);
const ENGLISH = new Set([...words([...leaves(en), ...leaves(locale('en'))])].filter((word) => !shared.has(word)));

/**
 * The English words among what the page shows (its visible text). The language menu is left out:
 * each language is named there in itself ("English", "Suomi", "Русский") so a dealer can find theirs.
 */
async function englishOn(page: Page, names: readonly string[] = [], except: readonly string[] = []): Promise<string[]> {
  const shown = await page.evaluate((hidden) => {
    const parts = [...document.querySelectorAll<HTMLElement>(['[data-testid="locale"]', ...hidden].join(', '))];
    const displays = parts.map((part) => part.style.display);
    for (const part of parts) part.style.display = 'none';
    const shown = document.body.innerText;
    parts.forEach((part, index) => (part.style.display = displays[index] ?? ''));
    return shown;
  }, except);
  return englishIn(shown, names);
}

/** The English words of a text, the given names left out, and seals and keys (hex: no language's). */
function englishIn(shown: string, names: readonly string[] = []): string[] {
  const text = names.reduce((rest, name) => rest.split(name).join(' '), shown).replace(/\b[0-9a-f]{16,}\b/g, ' ');
  return [...words([text])].filter((word) => ENGLISH.has(word)).sort();
}

async function expectNoEnglish(page: Page, where: string, names: readonly string[] = []): Promise<void> {
  expect(ENGLISH.size, 'the English words to look for').toBeGreaterThan(300);
  expect(await englishOn(page, names), `English words on the page after ${where}`).toEqual([]);
}

/** The same, `except` the parts of the page (selectors) another test judges. */
async function expectNoEnglishBut(page: Page, where: string, names: readonly string[], except: readonly string[]): Promise<void> {
  expect(await englishOn(page, names, except), `English words on the page after ${where}`).toEqual([]);
}

/** Pistepokeri's seed hands: Ville must follow Anna's 9♥ with his A♥, so his K♠ is an illegal play. */
const HANDS = [
  ['5h', '6h', '7h', '8h', '9h'],
  ['Ks', 'Kc', 'Kd', 'Ah', 'Qd'],
  ['2c', '2s', '3c', '3s', '4c'],
] as const;

for (const language of ['fi', 'ru'] as const) {
  test.describe(`no English in ${language === 'fi' ? 'Finnish' : 'Russian'}`, () => {
    let app: RunningConsole;
    test.beforeEach(async ({ page }) => {
      app = await startConsole();
      await openConsole(page, app.url);
      await chooseLanguage(page, language);
    });
    test.afterEach(async () => {
      await stopConsoles(app);
    });

    test('a card already dealt', async ({ page }) => {
      await setUpTable(page, FINNISH_TABLE);
      await enterCounts(page, FINNISH_COUNTS);
      await startRace(page);
      await enterCard(page, 'ah');
      await typeAsPerson(page, 'ah');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('deal-error')).toBeVisible();
      await expect(page.getByTestId('deal-error')).toContainText('A♥');
      await expectNoEnglish(page, 'a card already dealt');
    });

    test('a race the shoe cannot deal (a setup field at fault)', async ({ page }) => {
      // 25s leave, 500 is the next chip (20 to a chip): 19 + 19 + 19 + 1 + 1 odd chips race for 3 chips,
      // 59 cards, and a one-deck shoe holds 52.
      const seats = [...FINNISH_TABLE.seats, { seat: 4, name: 'Anna' }, { seat: 5, name: 'Ville' }];
      await setUpTable(page, { ...FINNISH_TABLE, seats, next: 500 });
      await page.getByTestId('nav-race').click();
      const view = page.getByTestId('view-counts');
      for (const [seat, chips] of [[1, 19], [2, 19], [3, 19], [4, 1], [5, 1]] as const) {
        await view.getByTestId(`counts-seat-${seat}-chips`).fill(String(chips));
        await view.getByTestId(`counts-seat-${seat}-other`).setChecked(true);
      }
      await expect(view.getByTestId('counts-error')).toBeVisible();
      await expect(view.getByTestId('counts-error')).toContainText('59');
      await expectNoEnglish(page, 'a race the shoe cannot deal');
    });

    test('an illegal play in Pistepokeri', async ({ page }) => {
      await page.getByTestId('nav-points').click();
      const start = page.getByTestId('view-points-start');
      for (const [index, player] of ['Anna', 'Ville', 'Sanna'].entries()) await start.getByTestId(`player-${index + 1}-name`).fill(player);
      await start.getByTestId('start-game').click();
      const game = page.getByTestId('view-game');
      await expect(game).toHaveAttribute('data-phase', 'dealing');
      for (let index = 0; index < 5; index += 1) for (const hand of HANDS) await enterCard(page, hand[index] as string);
      await expect(game).toHaveAttribute('data-phase', 'exchanging');
      for (let player = 0; player < 3; player += 1) await page.getByTestId('stand-pat').click();
      await expect(game).toHaveAttribute('data-phase', 'playing');
      await enterCard(page, '9h');
      await typeAsPerson(page, 'ks');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('deal-error')).toBeVisible();
      await expectNoEnglish(page, 'an illegal play');
    });

    test('a structure sheet that cannot be read', async ({ page }) => {
      await page.getByTestId('nav-structure').click();
      const view = page.getByTestId('view-structure');
      await expect(view).toBeVisible();
      // The file's name is the director's, shown as given: a name of no language, so only the console's words are judged.
      await view.getByTestId('structure-import').setInputFiles({ name: 'k7.csv', mimeType: 'text/csv', buffer: Buffer.from('chips,25,100\r\nlevel,25,fifty\r\n') });
      await expect(view.getByTestId('structure-import-error')).toBeVisible();
      await expectNoEnglish(page, 'a structure refused');
    });

    test('the port status line: connected, then the shoe unplugged', async ({ page }) => {
      const pair = await PtyPair.create('words');
      try {
        await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } });
        await enterCounts(page, FINNISH_COUNTS);
        await startRace(page);
        await expectSourceConnected(page);
        await expect(page.getByTestId('source-message')).toContainText(pair.b);
        await expectNoEnglish(page, 'the port connected', [pair.b]);
        await pair.unplug();
        await expect(page.getByTestId('source-status')).toHaveAttribute('data-state', /disconnected|reconnecting/, { timeout: 10_000 });
        await expect(page.getByTestId('source-message')).toContainText(pair.b);
        await expectNoEnglish(page, 'the shoe unplugged', [pair.b]);
      } finally {
        await pair.dispose();
      }
    });

    test("a shoe's refusals: a frame that is no card, a card already dealt", async ({ page }) => {
      const pair = await PtyPair.create('words');
      let shoe: PtyWriter | undefined;
      try {
        await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } });
        await enterCounts(page, FINNISH_COUNTS);
        await startRace(page);
        await expectSourceConnected(page);
        shoe = await PtyWriter.open(pair.a);
        await shoe.write(Buffer.from('X9\r\n'));
        await expect(page.getByTestId('last-input')).toHaveAttribute('data-type', 'unknown');
        await expect(page.getByTestId('last-input')).toContainText('X9');
        // The port's own status line is judged by the test above.
        await expectNoEnglishBut(page, "a shoe's frame that is no card", [pair.b], ['[data-testid="source-message"]']);
        await shoe.write(Buffer.from('Ah\r\n'));
        await expectDealt(page, 1, ['Ah']);
        // Past the shoe's repeat window: the same card again is a second read, refused as dealt.
        await sleep(1500);
        await shoe.write(Buffer.from('Ah\r\n'));
        await expect(page.getByTestId('deal-error')).toContainText('A♥');
        await expectNoEnglishBut(page, 'a card the shoe read twice', [pair.b], ['[data-testid="source-message"]']);
      } finally {
        await shoe?.close().catch(() => undefined);
        await pair.dispose();
      }
    });

    test('a scan that is no card', async ({ page }) => {
      await setUpTable(page, FINNISH_TABLE);
      await enterCounts(page, FINNISH_COUNTS);
      await startRace(page);
      await scan(page, 'X9');
      await expect(page.getByTestId('deal-error')).toContainText('X9');
      // `text`: the name of the device profile the scan was decoded with, shown as the settings list it.
      await expectNoEnglish(page, 'a scan refused', ['text']);
    });

    test('the printed record slip: a card typed twice, a scan refused, a card voided with the void key', async ({ page }) => {
      await setUpTable(page, FINNISH_TABLE);
      await enterCounts(page, FINNISH_COUNTS);
      await startRace(page);
      await typeCard(page, 'ah');
      await typeAsPerson(page, 'ah');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('deal-error')).toContainText('A♥');
      await page.getByTestId('manual-input').fill('');
      await scan(page, 'X9');
      await expect(page.getByTestId('deal-error')).toContainText('X9');
      await finishFinnishRaceWithAVoid(page);
      await page.getByTestId('history-open-record').first().click();
      const slip = page.getByTestId('race-record');
      await expect(slip.locator('[data-testid="record-event"][data-type="refused"]')).toHaveCount(2);
      await page.emulateMedia({ media: 'print' });
      await expect(page.getByTestId('record-print')).toBeHidden();
      await expectNoEnglish(page, 'the record slip printed', ['text']);
      await page.emulateMedia({ media: 'screen' });
    });
  });
}

// The floor page, in Finnish and in Russian: a station's evening (a race with a void, a misread
// refused and the race confirmed; then the colour-up racing) replicated into a throwaway
// PostgreSQL, and a table whose chain failed on arrival; the floor serving them. Its pages, and the
// plain-text answers it gives a request it will not serve, hold no English word.
test.describe('no English on the floor page', () => {
  let database: ThrowawayPostgres;
  let floor: FloorServer;
  let station: ConsoleService | undefined;
  let dir: string | undefined;
  /** Names the floor shows as they were given: the race ids, the station's host name, the dealer's reason for the void. */
  const NAMES = ['race-1', 'race-2', 'race-3', 'pc-7', 'exposed'];

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const { server, admin } = await startFloorDatabase();
    database = server;
    try {
      dir = mkdtempSync(join(tmpdir(), 'no-english-floor-'));
      station = await playStation(dir, '7', 'colour-up-racing');
      await ensureTable(admin, '7');
      await syncStation(admin, '7', dir);
      // The director's structure, its levels timed: the floor's clock runs, with its buttons.
      await setFloorStructure(admin, TIMED_STRUCTURE);
      await ensureTable(admin, '9');
      await admin.query("INSERT INTO chain_failures (table_name, seq, reason, line) VALUES ('9', 4, 'bad-seal', '{}')");
    } finally {
      await admin.end();
    }
    floor = await startFloorServer({ databaseUrl: database.url, log: () => undefined });
  });

  test.afterAll(async () => {
    await floor?.close();
    await station?.close();
    await database?.remove();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  for (const language of ['fi', 'ru'] as const) {
    const name = language === 'fi' ? 'Finnish' : 'Russian';

    test(`${name}: every table with a chain failure, a table's races, a race's record, the tournament page and its refusals, the sign-in, a page not found, and the floor's plain-text refusals`, async ({ page }) => {
      await page.setExtraHTTPHeaders({ 'Accept-Language': language });
      await page.goto(`${floor.url}?lang=${language}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator('tr[data-table="7"]')).toBeVisible();
      await expect(page.getByTestId('chain-failures')).toBeVisible();
      await expect(page.getByTestId('floor-clock')).toBeVisible();
      await expectNoEnglish(page, 'the floor overview', NAMES);
      await page.goto(`${floor.url}table?table=7&lang=${language}`);
      await expectNoEnglish(page, "a table's page", NAMES);
      await page.goto(`${floor.url}race?table=7&race=race-2&lang=${language}`);
      await expect(page.getByTestId('race-title')).toContainText('race-2');
      await expectNoEnglish(page, "a race's record", NAMES);
      // The tournament page, and its upload refused while table 7 races (the command it names is no language's).
      await page.goto(`${floor.url}tournament?lang=${language}`);
      await expect(page.getByTestId('tournament-levels')).toBeVisible();
      await expectNoEnglish(page, 'the tournament page', [...NAMES, STRUCTURE_COMMAND]);
      await page.getByTestId('tournament-file').setInputFiles({ name: 'tournament.csv', mimeType: 'text/csv', buffer: Buffer.from(`chips,25,100\nlevel,25,50,,20\n`) });
      await page.getByTestId('tournament-load').click();
      await expect(page.getByTestId('tournament-problem')).toContainText('7');
      await expectNoEnglish(page, 'the tournament sheet refused', [...NAMES, STRUCTURE_COMMAND]);
      await page.getByTestId('tournament-file').setInputFiles({ name: 'tournament.csv', mimeType: 'text/csv', buffer: Buffer.from(`chips,25,100\nlevel,25,50,,20\ndecks,9\n`) });
      await page.getByTestId('tournament-load').click();
      await expect(page.getByTestId('tournament-problem')).toContainText('9');
      await expectNoEnglish(page, 'a line of the tournament sheet refused', [...NAMES, STRUCTURE_COMMAND]);
      await page.goto(`${floor.url}login?lang=${language}`);
      await expectNoEnglish(page, 'the sign-in page', NAMES);
      await page.goto(`${floor.url}table?table=nobody&lang=${language}`);
      await expectNoEnglish(page, 'a page not found', NAMES);
      const answers = [
        await page.request.get(`${floor.url}?debug=1`, { headers: { 'accept-language': language } }),
        await page.request.get(`${floor.url}?lang=${language}&lang=en`),
        await page.request.delete(floor.url, { headers: { 'accept-language': language } }),
        await page.request.get(`${floor.url}clock`, { headers: { 'accept-language': language } }),
        await page.request.get(floor.url, { headers: { 'accept-language': language, origin: 'http://evil.example' } }),
        await page.request.get(`${floor.url}export/summary.csv?sep=tab`, { headers: { 'accept-language': language } }),
      ];
      expect(answers.map((answer) => answer.status())).toEqual([400, 400, 405, 405, 403, 400]);
      for (const answer of answers) expect(englishIn(await answer.text()), `English in the floor's answer ${answer.status()}`).toEqual([]);
    });

    test(`${name}: a race's record with its void and the misread refused`, async ({ page }) => {
      await page.goto(`${floor.url}race?table=7&race=race-1&lang=${language}`);
      await expect(page.getByTestId('race-record').locator('tr[data-type="refused"]')).toHaveCount(1);
      await expect(page.getByTestId('race-record').locator('tr[data-type="void"]')).toHaveCount(1);
      await expectNoEnglish(page, "a race's record with a refusal", NAMES);
    });
  }
});

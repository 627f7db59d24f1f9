import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PtyPair, PtyWriter } from '../hardware/testing/ptyPair';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { expectUnclipped } from './harness/fit';
import { allDealt, enterCounts, confirmAndOpenRecord, expectSourceConnected, FINNISH_COUNTS, FINNISH_DEAL, FINNISH_TABLE, openConsole, setUpTable, startRace } from './harness/flows';
import { chooseLanguage } from './harness/tour';

// A reader per seat (issue 26): an RFID table with four antennas, one under each seat (`3|04A2…`:
// antenna 3 read it), its profile mapping antennas 0–3 to seats 1–4. A card read at another
// seat's antenna than the one the deal is at is held: the dealer is told both seats at 1024×600,
// and takes it for the seat dealt to or discards it; both are on the race's record.

const CARDS = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc', 'Qs'] as const;
const tagOf = (card: (typeof CARDS)[number]) => `04A2B3${(CARDS.indexOf(card) + 16).toString(16).toUpperCase()}`;
// A registered deck, as "Register deck" stores it from the `rfid` profile: its 1.5 s repeat window too.
const PROFILE = {
  name: 'table-4',
  repeatMs: 1500,
  framing: { kind: 'lines' },
  decoder: { kind: 'uid', pattern: '^(?<reader>\\d+)\\|(?<uid>[0-9A-F]+)$', cards: Object.fromEntries(CARDS.map((card) => [tagOf(card), card])) },
  readers: { '0': 1, '1': 2, '2': 3, '3': 4 },
};

let pair: PtyPair;
let app: RunningConsole;

test.beforeAll(async () => {
  pair = await PtyPair.create('seatmap');
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-seatmap-'));
  mkdirSync(join(dataDir, 'profiles'));
  writeFileSync(join(dataDir, 'profiles', 'table-4.json'), JSON.stringify(PROFILE));
  app = await startConsole(dataDir);
});

test.afterAll(async () => {
  await stopConsoles(app);
  await pair?.dispose();
});

/** The held card's panel fits the small screen whole, its two answers too. */
async function expectHeldFits(page: Page): Promise<void> {
  for (const id of ['held-card', 'held-take', 'held-discard']) await expectUnclipped(page.getByTestId(id), id, { pageScrolls: true });
  await expect(page.getByTestId('held-card')).toBeInViewport();
}

test("a card at another seat's antenna held: discarded, then one taken for the seat dealt to; the rest dealt as read, and both on the record", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'table-4' } });
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  await expectSourceConnected(page);
  const table = await PtyWriter.open(pair.a);
  const read = (antenna: number, card: (typeof CARDS)[number]) => table.write(`${antenna}|${tagOf(card)}\r\n`);
  const held = page.getByTestId('held-card');
  try {
    // Seat 4's antenna while the deal is at seat 1 (the issue's words): held, nothing dealt.
    await read(3, 'Qs');
    await expect(held).toHaveAttribute('data-why', 'seat');
    await expect(held).toHaveAttribute('data-read-at', '4');
    await expect(held).toContainText('Read Q♠ at seat 4’s antenna; the deal is at seat 1.');
    await expect(page.getByTestId('held-take')).toHaveText('Take Q♠ for seat 1');
    await expectHeldFits(page);
    expect(await allDealt(page)).toEqual([]);
    await page.getByTestId('held-discard').click();
    await expect(held).toHaveCount(0);
    expect(await allDealt(page)).toEqual([]);

    // Seat 2's antenna: held; taken, it is dealt to seat 1.
    await read(1, 'Ah');
    await expect(held).toContainText('Read A♥ at seat 2’s antenna; the deal is at seat 1.');
    for (const language of ['fi', 'ru'] as const) {
      await chooseLanguage(page, language);
      await expectHeldFits(page);
    }
    await chooseLanguage(page, 'en');
    await page.getByTestId('held-take').click();
    await expect(held).toHaveCount(0);
    await expect.poll(() => allDealt(page)).toEqual(['Ah']);

    // The rest, each at the antenna of the seat it is dealt to: dealt as read.
    for (const [index, { card, seat }] of FINNISH_DEAL.slice(1).entries()) {
      await read(seat - 1, card as (typeof CARDS)[number]);
      await expect.poll(() => allDealt(page)).toHaveLength(index + 2);
    }
    await expect(held).toHaveCount(0);
  } finally {
    await table.close();
  }
  const record = await confirmAndOpenRecord(page);
  const refused = record.locator('[data-testid="record-event"][data-type="refused"]');
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText("discarded by the dealer: read at seat 4's antenna while the deal was at seat 1");
  const taken = record.locator('[data-testid="record-event"][data-type="card"]').first();
  await expect(taken).toContainText("shoe, read at seat 2's antenna, taken by the dealer");
  await chooseLanguage(page, 'fi');
  await expect(taken).toContainText('kenkä, luettu paikan 2 antennilla, jakajan hyväksymä');
});

test('the antennas mapped to seats from the settings screen: one card dealt onto each seat in order, an antenna read twice said (the next card dealt onto the antenna just mapped, cards resting and read again as readers do), the map saved in the profile', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await chooseLanguage(page, 'en');
  await page.getByTestId('nav-settings').click();
  const panel = page.getByTestId('seat-map');
  await expect(panel).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('seat-map-saved')).toContainText('Saved in table-4: 0 → 1, 1 → 2, 2 → 3, 3 → 4');
  await expectSourceConnected(page);
  await panel.getByRole('button', { name: 'Map the antennas to seats' }).click();
  await expect(panel).toHaveAttribute('data-state', 'mapping');
  const progress = page.getByTestId('seat-map-progress');
  await expect(progress).toHaveAttribute('data-next', '1');
  const table = await PtyWriter.open(pair.a);
  /** A round of the reader polling its antennas: every card lying on one read again (the profile's repeat window makes each one read). */
  const poll = async (lying: readonly [number, (typeof CARDS)[number]][]) => {
    for (let round = 0; round < 3; round += 1) {
      for (const [antenna, card] of lying) await table.write(`${antenna}|${tagOf(card)}\r\n`);
      await page.waitForTimeout(100);
    }
  };
  try {
    // The antennas lie under seats 1–3 in the order 2, 0, 1 (a reader wired another way round).
    await poll([[2, 'Ah']]);
    await expect(progress).toHaveAttribute('data-next', '2');
    await expect(progress).toContainText('1 of 3, next: seat 2');
    // Seat 2's card dealt onto antenna 2 too, where Ah still lies: the antenna read twice, said.
    await poll([[2, 'Ah'], [2, 'Kc']]);
    await expect(page.getByTestId('seat-map-problem')).toContainText('antenna 2 is already seat 1');
    await expect(progress).toHaveAttribute('data-next', '2');
    // Moved onto its own antenna: mapped, and Ah lying on antenna 2 says nothing.
    await poll([[2, 'Ah'], [0, 'Kc']]);
    await expect(progress).toHaveAttribute('data-next', '3');
    await expect(page.getByTestId('seat-map-problem')).toHaveCount(0);
    await poll([[2, 'Ah'], [0, 'Kc'], [0, '2d']]);
    await expect(page.getByTestId('seat-map-problem')).toContainText('antenna 0 is already seat 2');
    await expectUnclipped(panel, 'the seat map panel', { pageScrolls: true });
    const results = await new AxeBuilder({ page }).include('[data-testid="seat-map"]').analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    await poll([[2, 'Ah'], [0, 'Kc'], [1, 'Ts']]);
    await expect(panel).toHaveAttribute('data-state', 'done');
    await expect(page.getByTestId('seat-map-saved')).toContainText('Saved in table-4: 2 → 1, 0 → 2, 1 → 3');
  } finally {
    await table.close();
  }
});

import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import type { Card } from '../engine/cards';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { confirmFinnishRaceWithAVoid, enterCounts, FINNISH_TABLE, openConsole, setUpTable, startRace, typeCard, type CountEntry, type TableSetup } from './harness/flows';
import { pdfPageCount } from './harness/pdf';
import { typeAsPerson } from './harness/scanner';

// The record slip printed (issue 23): a full table's race (10 seats, 20 cards, a void and a
// refusal) and the ordinary 3-seat one each print on ONE page of A4 and of Letter, the lines to
// sign on it, the seal in black monospace large enough to read; "Confirmed by" names the dealer
// the station was set up with.

const screenshot = fileURLToPath(new URL('../docs/screenshots/record-slip-print.png', import.meta.url));

const DEALER = 'Anna-Kaisa Virtanen';

const FULL_TABLE: TableSetup = {
  seats: [
    { seat: 1, name: 'Matti Nieminen' },
    { seat: 2, name: 'Teppo Korhonen' },
    { seat: 3, name: 'Johanna Mäkinen' },
    { seat: 4, name: 'Aleksandra Ivanova' },
    { seat: 5, name: 'Pekka Laine' },
    { seat: 6, name: 'Liisa Heikkinen' },
    { seat: 7, name: 'Dmitri Sokolov' },
    { seat: 8, name: 'Sanna Koskinen' },
    { seat: 9, name: 'Jari Järvinen' },
    { seat: 10, name: 'Elina Lehtonen' },
  ],
  button: 10,
  removed: 25,
  next: 100,
  rules: 'classic',
  decks: 1,
  source: { kind: 'manual' },
  dealer: DEALER,
};

/** 20 odd 25s over 10 seats: 20 cards, 5 chips of 100 raced. */
const FULL_COUNTS: readonly CountEntry[] = [3, 2, 1, 2, 3, 1, 2, 1, 2, 3].map((chips, index) => ({ seat: index + 1, chips, hasOther: true }));

/** The 20 cards dealt, in order (Q♥ is the misread voided; A♥ again is the refused repeat). */
const FULL_CARDS: readonly Card[] = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc', '9s', '8h', '7c', '6d', '5s', 'Jh', '3c', 'Kd', '2s', '9h', '8c', '7d', 'As'];

/** The most cards a 10-seat race at 25 → 100 can need: 3 odd 25s at every seat. */
const MOST_COUNTS: readonly CountEntry[] = FULL_COUNTS.map((count) => ({ ...count, chips: 3 }));
const MOST_CARDS: readonly Card[] = [...FULL_CARDS, '2h', '3h', '5h', '6h', '7h', '3d', '4d', '5d', '8d', '9d'];

/** The print CSS's page margin (record.css, `@page`), in millimetres. */
const MARGIN_MM = 10;

/** The printable area of each paper within those margins, in CSS pixels (96 per inch). */
const PAPERS = [
  { format: 'A4', width: ((210 - 2 * MARGIN_MM) / 25.4) * 96, height: ((297 - 2 * MARGIN_MM) / 25.4) * 96 },
  { format: 'Letter', width: (8.5 - (2 * MARGIN_MM) / 25.4) * 96, height: (11 - (2 * MARGIN_MM) / 25.4) * 96 },
] as const;

let app: RunningConsole | undefined;

test.afterAll(async () => {
  await stopConsoles(app);
});

/** Opens the newest race's record from the history. */
async function openNewestRecord(page: Page): Promise<void> {
  await page.getByTestId('history-open-record').first().click();
  await expect(page.getByTestId('race-record')).toBeVisible();
}

/**
 * The open record printed: one page on A4 and on Letter (page.pdf), and laid out at each paper's
 * printable width (print media emulated), the lines to sign and the seal within the first page's
 * height, the seal black monospace of at least 8 pt. Returns the pages counted per paper. Soft
 * assertions: every paper is measured and reported even when one fails.
 */
async function expectOnePrintedPage(page: Page, label: string, shot?: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const viewport = page.viewportSize();
  await page.emulateMedia({ media: 'print' });
  try {
    for (const paper of PAPERS) {
      const pages = pdfPageCount(await page.pdf({ format: paper.format }));
      counts[paper.format] = pages;
      test.info().annotations.push({ type: 'pages', description: `${label}, ${paper.format}: ${pages}` });
      console.log(`record slip printed, ${label}, ${paper.format}: ${pages} page(s)`);
    }
    for (const paper of PAPERS) {
      await page.setViewportSize({ width: Math.floor(paper.width), height: Math.floor(paper.height) });
      const slip = page.getByTestId('race-record');
      const signatures = page.locator('.record-slip__signatures');
      const seal = page.getByTestId('record-seal');
      await expect(signatures).toBeVisible();
      await expect(signatures).toContainText('Dealer');
      await expect(signatures).toContainText('Floor supervisor');
      await expect(seal).toBeVisible();
      const box = await page.evaluate(() => {
        const bottom = (selector: string) => {
          const element = document.querySelector(selector);
          return element === null ? Number.NaN : element.getBoundingClientRect().bottom + window.scrollY;
        };
        const slipTop = (document.querySelector('[data-testid="race-record"]')?.getBoundingClientRect().top ?? Number.NaN) + window.scrollY;
        return { slipTop, signatures: bottom('.record-slip__signatures'), seal: bottom('[data-testid="record-seal"]'), document: document.documentElement.scrollHeight };
      });
      console.log(`record slip laid out, ${label}, ${paper.format}: the lines to sign end at ${Math.round(box.signatures)} px of ${Math.floor(paper.height)}`);
      expect.soft(box.document, `${label}, ${paper.format}: nothing but the slip takes room (no blank pages after it)`).toBeLessThanOrEqual(Math.ceil(paper.height));
      expect.soft(box.slipTop, `${label}, ${paper.format}: the slip starts at the top of the page`).toBeLessThanOrEqual(1);
      expect.soft(box.seal, `${label}, ${paper.format}: the seal on page 1`).toBeLessThanOrEqual(paper.height);
      expect.soft(box.signatures, `${label}, ${paper.format}: the lines to sign on page 1`).toBeLessThanOrEqual(paper.height);
      const style = await seal.evaluate((element) => {
        const computed = getComputedStyle(element);
        return { color: computed.color, fontSize: Number.parseFloat(computed.fontSize), fontFamily: computed.fontFamily, overflowWrap: computed.overflowWrap, wordBreak: computed.wordBreak };
      });
      const rgb = (/rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(style.color) ?? []).slice(1).map(Number);
      expect.soft(rgb, `the seal's colour (${style.color}) is black or nearly`).toHaveLength(3);
      for (const channel of rgb) expect.soft(channel, `the seal's colour (${style.color}) is black or nearly`).toBeLessThanOrEqual(0x33);
      // 8 pt = 8 × 96 / 72 CSS pixels.
      expect.soft(style.fontSize, 'the seal at least 8 pt').toBeGreaterThanOrEqual((8 * 96) / 72);
      expect.soft(style.fontFamily).toMatch(/monospace/);
      expect.soft(style.overflowWrap === 'anywhere' || style.wordBreak === 'break-all', 'the seal wraps within the page').toBe(true);
      const sealBox = await seal.boundingBox();
      const slipBox = await slip.boundingBox();
      expect.soft(sealBox && slipBox && sealBox.x + sealBox.width <= slipBox.x + slipBox.width + 1, 'the seal within the slip').toBe(true);
      if (shot !== undefined && paper.format === 'A4') await slip.screenshot({ path: shot, animations: 'disabled', caret: 'hide' });
    }
  } finally {
    await page.emulateMedia({ media: 'screen' });
    if (viewport !== null) await page.setViewportSize(viewport);
  }
  return counts;
}

/**
 * A race at the full table dealt by keyboard: the first card, a misread (Q♥) voided with
 * Backspace, four more, the first card again refused (one deck) and its text corrected away, the
 * rest; confirmed, and its record opened from the history and checked.
 */
async function dealFullTable(page: Page, counts: readonly CountEntry[], cards: readonly Card[]): Promise<void> {
  await setUpTable(page, FULL_TABLE);
  await enterCounts(page, counts);
  await startRace(page);
  await typeCard(page, cards[0] as string);
  // A misread voided with Backspace in the empty field.
  await typeCard(page, 'qh');
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('corrections')).toBeVisible();
  for (const card of cards.slice(1, 5)) await typeCard(page, card);
  // The first card again: refused (one deck), the text corrected away.
  await typeAsPerson(page, cards[0] as string);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('deal-error')).toBeVisible();
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('manual-input')).toHaveValue('');
  for (const card of cards.slice(5, -1)) await typeCard(page, card);
  await typeAsPerson(page, cards.at(-1) as string);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('view-result')).toBeVisible();
  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('view-history')).toBeVisible();

  await openNewestRecord(page);
  const events = page.getByTestId('record-event');
  // Start, every card (the voided one too), the void, the refusal, the confirmation.
  await expect(events).toHaveCount(1 + cards.length + 1 + 1 + 1 + 1);
  await expect(page.locator('[data-testid="record-event"][data-type="void"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="record-event"][data-type="refused"]')).toHaveCount(1);
  await expect(events.last()).toHaveText(new RegExp(`Confirmed by ${DEALER}`));
  await expect(page.getByTestId('record-seal')).toHaveText(/[0-9a-f]{64}/);
}

test('the record slip prints on one A4 or Letter page: a 3-seat race, and a 10-seat race with a void and a refusal, and one of 30 cards', async ({ page }) => {
  app = await startConsole();
  await openConsole(page, app.url);

  await test.step('an ordinary 3-seat race, confirmed by the station’s dealer', async () => {
    await confirmFinnishRaceWithAVoid(page, { ...FINNISH_TABLE, dealer: DEALER });
    await openNewestRecord(page);
    await expect(page.getByTestId('record-event').last()).toHaveText(new RegExp(`Confirmed by ${DEALER}`));
    const pages = await expectOnePrintedPage(page, '3 seats');
    expect.soft(pages).toEqual({ A4: 1, Letter: 1 });
    await page.getByTestId('record-close').click();
  });

  await test.step('a full table: 10 seats, 20 cards, a void and a refusal', async () => {
    await dealFullTable(page, FULL_COUNTS, FULL_CARDS);
    const pages = await expectOnePrintedPage(page, '10 seats, a void and a refusal', screenshot);
    expect.soft(pages).toEqual({ A4: 1, Letter: 1 });
    await page.getByTestId('record-close').click();
  });

  await test.step('the most cards ten seats can need (30, every seat 3 odd chips), a void and a refusal', async () => {
    await dealFullTable(page, MOST_COUNTS, MOST_CARDS);
    const pages = await expectOnePrintedPage(page, '10 seats, 30 cards, a void and a refusal');
    expect.soft(pages).toEqual({ A4: 1, Letter: 1 });
  });
});

import { expect, test, type Page } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { typeAsPerson } from './harness/scanner';
import { enterCounts, FINNISH_CARDS, FINNISH_COUNTS, FINNISH_TABLE, openConsole, setUpTable, startRace, typeCard } from './harness/flows';

// A "10" is the widest corner index a card face has (issue 41: its suit touched the card's edge).
// At 1024×600, in every place a card face is drawn at its own size (the seats while dealing, the
// winners and seats of the result, the player display's seats and winners), the suit of each 10
// is inside its card with room to spare. The Finnish example deals three: 10♠, 10♦, 10♣.

/** The room to spare between a corner index and the card's edge: a tenth of the index's type, at least 2 px. */
const MARGIN_EM = 0.1;

interface Measured {
  readonly card: string;
  readonly where: string;
  /** Room between the suit glyph and the card's inner edge, left, right, top, bottom (px). */
  readonly room: readonly [number, number, number, number];
  readonly wanted: number;
}

/** The corner index's suit glyph (the text's last character) against its card's box, for every 10 on the page. */
function measureTens(page: Page, selector = '.playing-card[data-card^="T"]'): Promise<Measured[]> {
  return page.locator(selector).evaluateAll((cards, marginEm) =>
    cards.filter((card) => (card as HTMLElement).offsetParent !== null).map((card) => {
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      const texts: Text[] = [];
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) if ((node.textContent ?? '').trim() !== '') texts.push(node as Text);
      const last = texts.at(-1) as Text;
      const range = document.createRange();
      range.setStart(last, (last.textContent ?? '').trimEnd().length - 1);
      range.setEnd(last, (last.textContent ?? '').trimEnd().length);
      const glyph = range.getBoundingClientRect();
      const box = card.getBoundingClientRect();
      const style = getComputedStyle(card);
      const border = (side: string) => Number.parseFloat(style.getPropertyValue(`border-${side}-width`));
      const fontSize = Number.parseFloat(getComputedStyle(last.parentElement as Element).fontSize);
      const place = card.closest('[data-testid]')?.getAttribute('data-testid') ?? '?';
      return {
        card: card.getAttribute('data-card') ?? '?',
        where: `${place} (${Math.round(box.width)}×${Math.round(box.height)} px, index ${fontSize} px)`,
        room: [glyph.left - box.left - border('left'), box.right - border('right') - glyph.right, glyph.top - box.top - border('top'), box.bottom - border('bottom') - glyph.bottom].map((px) => Math.round(px * 10) / 10) as [number, number, number, number],
        wanted: Math.max(2, Math.round(fontSize * marginEm * 10) / 10),
      };
    }), MARGIN_EM);
}

function expectRoom(measured: readonly Measured[], count: number): void {
  expect(measured.length, 'the 10s drawn').toBeGreaterThanOrEqual(count);
  const cramped = measured.filter((each) => each.room.some((px) => px < each.wanted));
  expect(cramped, 'a 10 whose suit has less room than wanted to its card\'s edge (left, right, top, bottom)').toEqual([]);
}

let app: RunningConsole;

test.beforeAll(async () => {
  app = await startConsole();
});

test.afterAll(async () => {
  await stopConsoles(app);
});

test('a 10\'s suit is inside its card face with room to spare, at 1024×600, dealing, result and the player display', async ({ page, browser }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  const display = await browser.newPage({ viewport: { width: 1024, height: 600 } });
  await openConsole(display, app.displayUrl);

  for (const card of FINNISH_CARDS.slice(0, -1)) await typeCard(page, card);
  await test.step('dealing: the seats\' cards, the 52-card grid\'s four 10s, and the player display\'s', async () => {
    expectRoom(await measureTens(page), 2);
    expectRoom(await measureTens(page, '[data-testid^="grid-card-T"]'), 4);
    await expect(display.getByTestId('player-display')).toHaveAttribute('data-showing', 'dealing');
    expectRoom(await measureTens(display), 2);
  });

  // The last card ends the deal: the entry goes with it.
  await typeAsPerson(page, FINNISH_CARDS.at(-1) as string);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('view-result')).toBeVisible();
  await test.step('result: the winner 10♠ and the seats\' cards, and the player display\'s winners', async () => {
    expectRoom(await measureTens(page), 4);
    await expect(display.getByTestId('player-display')).toHaveAttribute('data-showing', 'result');
    expectRoom(await measureTens(display), 1);
  });
  await display.close();
});

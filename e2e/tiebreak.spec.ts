import { expect, test } from '@playwright/test';
import type { Card } from '../engine/cards';
import { PtyPair } from '../hardware/testing/ptyPair';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { allDealt, confirmAndExpectHistory, enterCounts, expectDealt, expectSourceConnected, openConsole, setUpTable, Shoe, startRace } from './harness/flows';

// A two-deck shoe deals the same best card twice: the chip is decided by tie-break cards, dealt
// one more to each tied seat per round until they differ (here it takes two rounds).

let app: RunningConsole;
let pair: PtyPair;
let shoe: Shoe | undefined;

test.beforeAll(async () => {
  pair = await PtyPair.create('tiebreak');
  app = await startConsole();
});

test.afterAll(async () => {
  await shoe?.close();
  await stopConsoles(app);
  await pair?.dispose();
});

test('a two-deck tie is resolved by tie-break cards from the shoe', async ({ page }) => {
  await openConsole(page, app.url);
  await setUpTable(page, {
    seats: [
      { seat: 1, name: '' },
      { seat: 2, name: '' },
      { seat: 3, name: '' },
    ],
    button: 1,
    removed: 25,
    next: 100,
    rules: 'tda',
    decks: 2,
    source: { kind: 'serial', path: pair.b, decoder: 'text' },
  });
  await enterCounts(page, [
    { seat: 1, chips: 1, hasOther: true },
    { seat: 2, chips: 1, hasOther: true },
    { seat: 3, chips: 1, hasOther: true },
  ]);
  await expect(page.getByTestId('counts-race-chips')).toHaveText('1');
  await expect(page.getByTestId('counts-cards')).toHaveText('3 (the shoe holds 104)');
  await startRace(page);
  await expectSourceConnected(page);
  shoe = await Shoe.open(pair.a);

  const view = page.getByTestId('view-dealing');
  const step = page.getByTestId('next-step');
  const deal = async (card: Card, seat: number, expected: readonly string[]) => {
    await shoe?.send(card);
    await expectDealt(page, seat, expected);
  };

  await test.step('main deal As, 2c, As: seats 1 and 3 tie with A♠', async () => {
    await expect(view).toHaveAttribute('data-status', 'dealing');
    await expect(page.getByTestId('tiebreak-round')).toHaveCount(0);
    await expect(step).toHaveText('Deal 1 card to seat 1');
    await deal('As', 1, ['As']);
    await expect(page.getByTestId('grid-card-As')).toBeEnabled(); // two decks: a second A♠ may come
    await deal('2c', 2, ['2c']);
    await deal('As', 3, ['As']);
    await expect(page.getByTestId('grid-card-As')).toBeDisabled();
  });

  await test.step('tie-break round 1 is shown; Kd and Kd tie again', async () => {
    await expect(view).toHaveAttribute('data-status', 'tiebreak');
    await expect(page.getByTestId('tiebreak-round')).toHaveText('Tie-break round 1');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Tie-break');
    await expect(step).toHaveText('Tie-break: deal 1 card to seat 1');
    await expect(page.getByTestId('seat-cards-1')).toHaveAttribute('aria-current', 'step');
    await expect(page.getByTestId('deal-progress')).toContainText('Cards dealt: 3 of 3');
    await deal('Kd', 1, ['As', 'Kd']);
    await expect(page.getByTestId('tiebreak-round')).toHaveText('Tie-break round 1');
    await expect(step).toHaveText('Tie-break: deal 1 card to seat 3');
    await deal('Kd', 3, ['As', 'Kd']);
  });

  await test.step('tie-break round 2: 9c for seat 1, Qh for seat 3 → seat 3 wins', async () => {
    await expect(view).toHaveAttribute('data-status', 'tiebreak');
    await expect(page.getByTestId('tiebreak-round')).toHaveText('Tie-break round 2');
    await expect(step).toHaveText('Tie-break: deal 1 card to seat 1');
    await deal('9c', 1, ['As', 'Kd', '9c']);
    await expect(page.getByTestId('tiebreak-round')).toHaveText('Tie-break round 2');
    await expect(step).toHaveText('Tie-break: deal 1 card to seat 3');
    await deal('Qh', 3, ['As', 'Kd', 'Qh']);
  });

  await test.step('result: seat 3 wins the one chip with A♠; value +25', async () => {
    const result = page.getByTestId('view-result');
    await expect(result).toBeVisible();
    await expect(result.getByTestId('winners').locator('[data-testid^="winner-"]')).toHaveCount(1);
    await expect(result.getByTestId('winner-3')).toHaveAttribute('data-card', 'As');
    await expect(result.getByTestId('value-delta')).toHaveText('+25');
    expect(await allDealt(page)).toEqual(['As', 'Kd', '9c', '2c', 'As', 'Kd', 'Qh']);
    const rounds = await page.getByTestId('dealt-card').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-round')));
    expect(rounds).toEqual(['0', '1', '2', '0', '0', '1', '2']);
    await confirmAndExpectHistory(page, 1, 'Seat 3 (A♠)', '+25');
  });
});

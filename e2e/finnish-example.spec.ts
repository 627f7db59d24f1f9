import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { PtyPair } from '../hardware/testing/ptyPair';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import {
  allDealt, confirmAndExpectHistory, enterCounts, expectDealt, expectFinnishResult, expectSourceConnected, FINNISH_CARDS, FINNISH_COUNTS,
  FINNISH_DEAL, FINNISH_HISTORY_WINNERS, FINNISH_TABLE, openConsole, setUpTable, Shoe, startRace,
} from './harness/flows';

// The seed's Finnish worked example from setup to history, the cards coming from a shoe over a
// real serial port (a socat pseudo-terminal pair): the console reads pair.b, the shoe writes pair.a.

let app: RunningConsole;
let pair: PtyPair;
let shoe: Shoe | undefined;

test.beforeAll(async () => {
  pair = await PtyPair.create('finnish');
  app = await startConsole();
});

test.afterAll(async () => {
  await shoe?.close();
  await stopConsoles(app);
  await pair?.dispose();
});

test('the Finnish example: cards from a serial shoe, Matti and Teppo win, value +25', async ({ page }) => {
  await openConsole(page, app.url);

  await test.step('table setup: three seats, button on 3, 25 → 100, classic, one deck, serial shoe', async () => {
    await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } });
  });

  await test.step('counts: Matti 7, Teppo 2, Johanna 2 → pool 7 × 25, 2 chips to race, 7 cards', async () => {
    await enterCounts(page, FINNISH_COUNTS);
    const view = page.getByTestId('view-counts');
    await expect(view.getByTestId('counts-seat-1-guidance')).toContainText('Trade 4 × 25 for 1 × 100, keep 3 odd');
    await expect(view.getByTestId('counts-seat-2-guidance')).toContainText('Keep 2 odd × 25');
    await expect(view.getByTestId('counts-seat-3-guidance')).toContainText('Keep 2 odd × 25');
    await expect(view.getByTestId('counts-pool')).toHaveText('7 × 25 = 175');
    await expect(view.getByTestId('counts-race-chips')).toHaveText('2');
    await expect(view.getByTestId('counts-protected')).toHaveText('Nobody');
    await expect(view.getByTestId('counts-cards')).toHaveText('7 (the shoe holds 52)');
    await expect(view.getByTestId('counts-order')).toHaveText('Seat 1 — Matti, Seat 2 — Teppo, Seat 3 — Johanna');
  });

  await test.step('start: the deal begins at seat 1 and the shoe port is open', async () => {
    await startRace(page);
    await expect(page.getByTestId('next-step')).toHaveText(FINNISH_DEAL[0]?.stepBefore ?? '');
    await expect(page.getByTestId('seat-cards-1')).toHaveAttribute('aria-current', 'step');
    await expect(page.getByTestId('source-status')).toHaveAttribute('data-kind', 'serial');
    await expectSourceConnected(page);
  });

  await test.step('the shoe deals Ah Kc 2d Ts 4h Td Tc: each card appears as it is read', async () => {
    shoe = await Shoe.open(pair.a);
    const shown = new Map<number, string[]>();
    for (const [index, { card, seat, stepBefore }] of FINNISH_DEAL.entries()) {
      // After the misread below, the headline first says what the shoe read and was refused.
      const refusedBefore = index === 1 ? 'A♥ from the shoe not accepted: A♥ was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card. ' : '';
      await expect(page.getByTestId('next-step')).toHaveText(refusedBefore + stepBefore);
      await sleep(150); // a shoe deals at a human pace
      await shoe.send(card);
      shown.set(seat, [...(shown.get(seat) ?? []), card]);
      await expectDealt(page, seat, shown.get(seat) ?? []);
      if (index < FINNISH_DEAL.length - 1) {
        await expect(page.getByTestId('last-input')).toHaveAttribute('data-type', 'card');
        await expect(page.getByTestId('deal-progress')).toContainText(`Cards dealt: ${index + 1} of 7`);
      }
      if (index === 0) {
        // The shoe reads the same card again (one deck: a misread): refused, said why, nothing dealt.
        await sleep(150);
        await shoe.send(card);
        await expect(page.getByTestId('deal-error')).toHaveText(
          'Card not accepted: A♥ was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card',
        );
        await expect(page.getByTestId('deal-progress')).toContainText('Cards dealt: 1 of 7');
        await expect(page.getByTestId('next-step')).toHaveAttribute('data-refused', 'shoe');
      }
      // The next card taken settles the refusal.
      if (index === 1) {
        await expect(page.getByTestId('deal-error')).toHaveCount(0);
        await expect(page.getByTestId('next-step')).not.toHaveAttribute('data-refused');
      }
    }
  });

  await test.step('result: Matti (A♥) and Teppo (10♠) win a 100 each, value +25', async () => {
    await expectFinnishResult(page);
    expect(await allDealt(page)).toEqual([...FINNISH_CARDS]);
    await expect(page.getByTestId('view-result').getByTestId('next-step')).toHaveText(
      'Give one 100 chip each — race: seat 1 — Matti (A♥), seat 2 — Teppo (10♠); remove all odd 25 chips',
    );
    await expect(page.getByTestId('remove-chips')).toHaveText('Remove all odd 25 chips: 7 × 25 = 175.');
  });

  await test.step('confirm: the race is in the history', async () => {
    await confirmAndExpectHistory(page, 1, FINNISH_HISTORY_WINNERS, '+25');
    await expect(page.getByTestId('history-row').first().getByTestId('history-corrections')).toHaveText('0');
  });
});

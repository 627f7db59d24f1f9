import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';
import { PtyPair } from '../hardware/testing/ptyPair';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { journalOf } from './harness/journal';
import {
  allDealt, enterCounts, expectDealt, expectFinnishResult, expectSourceConnected, FINNISH_COUNTS, FINNISH_DEAL, FINNISH_TABLE, manualInput,
  openConsole, setUpTable, Shoe, startRace, typeCard,
} from './harness/flows';

// The shoe's cable is pulled in the middle of the deal: the screen says so, the dealer can go on
// by hand, and once the shoe is back its cards arrive again. Nothing is lost, nothing doubled.

let app: RunningConsole;
let pair: PtyPair;
let shoe: Shoe | undefined;

test.beforeAll(async () => {
  pair = await PtyPair.create('unplug');
  app = await startConsole();
});

test.afterAll(async () => {
  await shoe?.close().catch(() => undefined);
  await stopConsoles(app);
  await pair?.dispose();
});

test('unplugging the shoe mid-deal: shown as disconnected, manual entry still works, cards arrive after the replug', async ({ page }) => {
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } });
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  await expectSourceConnected(page);
  const deal = FINNISH_DEAL.map((entry) => entry.card);

  await test.step('the shoe deals three cards', async () => {
    shoe = await Shoe.open(pair.a);
    for (const card of deal.slice(0, 3)) {
      await shoe.send(card);
      await sleep(100);
    }
    await expectDealt(page, 1, deal.slice(0, 3));
  });

  await test.step('unplug: the screen shows the shoe disconnected', async () => {
    await shoe?.close().catch(() => undefined);
    shoe = undefined;
    await pair.unplug();
    await expect(page.getByTestId('source-status')).toHaveAttribute('data-state', /disconnected|reconnecting/, { timeout: 10_000 });
  });

  await test.step('manual entry stays available: the dealer types the next card', async () => {
    await manualInput(page).focus();
    await typeCard(page, deal[3] as string);
    await expectDealt(page, 2, [deal[3] as string]);
  });

  await test.step('replug: the console reconnects and the following cards arrive', async () => {
    await pair.replug();
    await expectSourceConnected(page, 10_000);
    shoe = await Shoe.open(pair.a);
    for (const card of deal.slice(4)) {
      await shoe.send(card);
      await sleep(100);
    }
    await expectFinnishResult(page);
  });

  await test.step('nothing lost, nothing doubled: the screen and the journal hold each card once, in order', async () => {
    expect(await allDealt(page)).toEqual(deal);
    const journal = await journalOf(app.dataDir);
    expect(journal.chain).toBe('intact');
    const cards = journal.records.flatMap((record) => (record.kind === 'race-event' && record.event.type === 'card' ? [record] : []));
    expect(cards.map((record) => (record.event as { card: string }).card)).toEqual(deal);
    expect(cards.map((record) => record.source)).toEqual(['shoe', 'shoe', 'shoe', 'manual', 'shoe', 'shoe', 'shoe']);
    expect(journal.records.filter((record) => record.kind === 'refused')).toEqual([]);
  });
});

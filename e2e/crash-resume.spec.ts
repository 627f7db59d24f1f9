import { expect, test, type Page } from '@playwright/test';
import { PtyPair } from '../hardware/testing/ptyPair';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { journalOf } from './harness/journal';
import {
  allDealt, confirmAndExpectHistory, enterCounts, expectDealt, expectFinnishResult, expectSourceConnected, FINNISH_CARDS, FINNISH_COUNTS,
  FINNISH_HISTORY_WINNERS, FINNISH_TABLE, openConsole, setUpTable, Shoe, startRace,
} from './harness/flows';

// The service process dies mid-deal (SIGKILL: no shutdown code runs, as in a crash or power cut)
// and is started again on the same data folder and port: the race goes on from its journal.

const apps: RunningConsole[] = [];
let pair: PtyPair;
let shoe: Shoe | undefined;

test.beforeAll(async () => {
  pair = await PtyPair.create('crash');
  apps.push(await startConsole());
});

test.afterAll(async () => {
  await shoe?.close();
  await stopConsoles(...apps);
  await pair?.dispose();
});

/** The dealing screen as it stood when the service died: 4 of 7 cards, Teppo's second card next. */
async function expectMidDeal(page: Page): Promise<void> {
  await expect(page.getByTestId('view-dealing')).toBeVisible();
  await expectDealt(page, 1, ['Ah', 'Kc', '2d']);
  await expectDealt(page, 2, ['Ts']);
  await expectDealt(page, 3, []);
  expect(await allDealt(page)).toEqual(['Ah', 'Kc', '2d', 'Ts']);
  await expect(page.getByTestId('next-step')).toHaveText('Deal 1 card to seat 2 — Teppo');
  await expect(page.getByTestId('deal-progress')).toContainText('Cards dealt: 4 of 7');
  await expect(page.getByTestId('seat-cards-2')).toHaveAttribute('aria-current', 'step');
}

test('the service is killed mid-deal and restarted: the race resumes with the same cards', async ({ page }) => {
  const first = apps[0] as RunningConsole;
  const port = Number(new URL(first.url).port);

  await openConsole(page, first.url);
  await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, decoder: 'text' } });
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  await expectSourceConnected(page);
  shoe = await Shoe.open(pair.a);

  await test.step('the shoe deals Ah Kc 2d Ts', async () => {
    for (const card of FINNISH_CARDS.slice(0, 4)) {
      const before = (await allDealt(page)).length;
      await shoe?.send(card);
      await expect.poll(async () => (await allDealt(page)).length).toBe(before + 1);
    }
    await expectMidDeal(page);
  });

  await test.step('SIGKILL: the screen says the service is gone', async () => {
    await first.kill('SIGKILL');
    await expect(page.getByTestId('connection-banner')).toBeVisible();
    await expect(page.getByTestId('connection-banner')).toHaveAttribute('data-state', 'lost');
  });

  await test.step('restarted on the same data folder and port: the open page reconnects to the same race', async () => {
    const second = await startConsole(first.dataDir, port);
    apps.push(second);
    expect(second.url).toBe(first.url);
    await expect(page.getByTestId('connection-banner')).toHaveCount(0, { timeout: 20_000 });
    await expectMidDeal(page);
    await expect(page.getByTestId('journal-problems')).toHaveCount(0);
  });

  await test.step('a fresh page load shows the same race', async () => {
    await page.reload();
    await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
    await expectMidDeal(page);
  });

  await test.step('the shoe port is reopened and the rest of the cards complete the race', async () => {
    await expectSourceConnected(page);
    await shoe?.send('4h');
    await expectDealt(page, 2, ['Ts', '4h']);
    await expect(page.getByTestId('next-step')).toHaveText('Deal 2 cards to seat 3 — Johanna');
    await shoe?.send('Td');
    await shoe?.send('Tc');
    await expectFinnishResult(page);
    expect(await allDealt(page)).toEqual([...FINNISH_CARDS]);
    await confirmAndExpectHistory(page, 1, FINNISH_HISTORY_WINNERS, '+25');
  });

  await test.step('the journal holds each card exactly once, in order, and one race', async () => {
    const journal = await journalOf(first.dataDir);
    // Sealed and chained across the kill: nothing found, every record in order.
    expect(journal.chain).toBe('intact');
    expect(journal.findings).toEqual([]);
    const records = journal.records;
    const cards = records.flatMap((record) => (record.kind === 'race-event' && record.event.type === 'card' ? [record] : []));
    expect(cards.map((record) => (record.event as { card: string }).card)).toEqual([...FINNISH_CARDS]);
    expect(cards.every((record) => record.source === 'shoe')).toBe(true);
    expect(records.filter((record) => record.kind === 'race-start')).toHaveLength(1);
    expect(records.filter((record) => record.kind === 'refused')).toHaveLength(0);
    expect(records.filter((record) => record.kind === 'race-confirm')).toHaveLength(1);
  });
});

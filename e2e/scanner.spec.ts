import { expect, test, type Page } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import {
  allDealt, enterCounts, expectDealt, expectFinnishResult, expectHistory, FINNISH_CARDS, FINNISH_COUNTS, FINNISH_HISTORY_WINNERS,
  FINNISH_TABLE, manualInput, openConsole, setUpTable, startRace,
} from './harness/flows';
import { journalOf } from './harness/journal';
import { scan, typeAsPerson } from './harness/scanner';

// A keyboard-wedge barcode scanner (it types like a keyboard: each key within a few ms of the
// last, then Enter or Tab; here real key presses 5 ms apart, see harness/scanner.ts) works wherever the focus is: on the Void button, on a grid card, on the
// page, in the entry field, with a Russian layout active. Its Enter presses nothing: nothing voided,
// nothing confirmed, no race started from the counts; a refused scan is said in the headline; a
// scan on the counts screen is not lost, the dealer is told to scan it again. The Finnish example,
// Ah Kc 2d Ts 4h Td Tc, from the scanner (and a person at the keyboard for one card).

let app: RunningConsole;

test.beforeAll(async () => {
  app = await startConsole();
});

test.afterAll(async () => {
  await stopConsoles(app);
});

/** Nothing moves the focus or the screen on after a key press; give a stray Enter time to act, if it would. */
const quiet = (page: Page) => page.waitForTimeout(300);

test('a keyboard-wedge scanner anywhere on the screen: dealt wherever the focus is, never pressing a button', async ({ page }) => {
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  const step = page.getByTestId('next-step');
  const away = page.getByTestId('scan-away');

  await test.step('counts: a scan in the last count field does not start the race; the dealer is told to scan it again', async () => {
    await enterCounts(page, FINNISH_COUNTS);
    const last = page.getByTestId('counts-seat-3-chips');
    await last.focus();
    await scan(page, 'AH');
    await expect(away).toHaveText(/A♥ was scanned before the race started: it was not dealt\. Start the race, then scan it again\./);
    await expect(away).toHaveAttribute('data-place', 'counts');
    await quiet(page);
    await expect(page.getByTestId('view-counts')).toBeVisible();
    await expect(last).toHaveValue('2');
    await expect(last).toBeFocused();
    // The person's own Enter still works (here the start button, clicked).
    await startRace(page);
    await expect(away).toContainText('Scan it again now.');
  });

  await test.step('the page has the focus: the scan is dealt (and the card scanned on the counts screen is settled)', async () => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await scan(page, 'AH');
    await expectDealt(page, 1, ['Ah']);
    await expect(away).toHaveCount(0);
    await expect(manualInput(page)).toHaveValue('');
    await expect(page.getByTestId('dealt-card').first()).toHaveAttribute('data-flash', 'true');
  });

  await test.step('the Void button has the focus: the scan is dealt, nothing voided', async () => {
    await page.getByTestId('void-last').focus();
    await scan(page, 'KC');
    await expectDealt(page, 1, ['Ah', 'Kc']);
    await quiet(page);
    expect(await allDealt(page)).toEqual(['Ah', 'Kc']);
    await expect(page.getByTestId('corrections')).toHaveCount(0);
  });

  await test.step('a grid card (Q♠) has the focus: the scanned 2♦ is dealt, not Q♠', async () => {
    await page.getByTestId('grid-card-Qs').focus();
    await scan(page, '2d');
    await expectDealt(page, 1, ['Ah', 'Kc', '2d']);
    await quiet(page);
    expect(await allDealt(page)).toEqual(['Ah', 'Kc', '2d']);
    await expect(step).toHaveText('Deal 2 cards to seat 2 — Teppo');
  });

  await test.step('a tap on the grid gives the focus back to the entry field', async () => {
    await page.getByTestId('grid-card-Ts').click();
    await expectDealt(page, 2, ['Ts']);
    await expect(manualInput(page)).toBeFocused();
  });

  await test.step('a Russian layout is active (KeyH types "р"): the scan is read by key position, and nothing lands in the field', async () => {
    await scan(page, '4H', { layout: 'ru' });
    await expectDealt(page, 2, ['Ts', '4h']);
    await expect(manualInput(page)).toHaveValue('');
    await expect(manualInput(page)).toBeFocused();
  });

  await test.step('a refused scan is said in the headline itself, with what to do', async () => {
    await scan(page, 'KC');
    await expect(step).toHaveText('Scanned K♣ not accepted: K♣ was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card. Deal 2 cards to seat 3 — Johanna');
    await expect(step).toHaveAttribute('data-refused', 'scan');
    await expect(page.getByTestId('deal-error')).toContainText('K♣ was already dealt');
    await scan(page, 'X9');
    await expect(step).toHaveText('Scanned “X9”: not a card. Scan it again. Deal 2 cards to seat 3 — Johanna');
    expect(await allDealt(page)).toEqual(['Ah', 'Kc', '2d', 'Ts', '4h']);
  });

  await test.step('a scan ended by Tab is dealt and moves no focus; the next card taken clears the headline', async () => {
    await scan(page, 'Td', { end: 'Tab' });
    await expectDealt(page, 3, ['Td']);
    await expect(step).toHaveText('Deal 1 card to seat 3 — Johanna');
    await expect(manualInput(page)).toBeFocused();
  });

  await test.step('Void (a click) gives the focus back to the entry field; a person typing there is a person', async () => {
    await page.getByTestId('void-last').click();
    await expectDealt(page, 3, []);
    await expect(manualInput(page)).toBeFocused();
    await typeAsPerson(page, 'td');
    await expect(manualInput(page)).toHaveValue('td');
    await page.keyboard.press('Enter');
    await expectDealt(page, 3, ['Td']);
  });

  await test.step('the last card by scanner: the result, its Confirm button not focused', async () => {
    await scan(page, 'TC');
    await expectFinnishResult(page);
    await expect(page.getByTestId('confirm-race')).not.toBeFocused();
  });

  await test.step('the result screen, Confirm focused: a scan confirms nothing, voids nothing, and is said', async () => {
    await page.getByTestId('confirm-race').focus();
    await scan(page, '5S');
    await expect(page.getByTestId('view-result').getByTestId('next-step')).toContainText('Scanned 5♠ not accepted: 5♠ is one card more than the race needs');
    await expect(page.getByTestId('view-result').getByTestId('deal-error')).toContainText('the race is complete');
    await quiet(page);
    await expect(page.getByTestId('view-result')).toBeVisible();
    expect(await allDealt(page)).toEqual([...FINNISH_CARDS]);
  });

  await test.step('a deliberate Enter on Confirm confirms', async () => {
    await page.getByTestId('confirm-race').focus();
    await page.keyboard.press('Enter');
    await expectHistory(page, 1, FINNISH_HISTORY_WINNERS, '+25');
  });

  await test.step('the journal: every scanned card from the scanner, the tapped and typed ones by hand, the refused scans on record', async () => {
    const { records, chain } = await journalOf(app.dataDir);
    expect(chain).toBe('intact');
    const cards = records.flatMap((record) => (record.kind === 'race-event' && record.event.type === 'card' ? [`${record.event.card}:${record.source}`] : []));
    expect(cards).toEqual(['Ah:scanner', 'Kc:scanner', '2d:scanner', 'Ts:manual', '4h:scanner', 'Td:scanner', 'td:manual', 'Tc:scanner']);
    const refused = records.flatMap((record) => (record.kind === 'refused' ? [`${record.input}:${record.source}`] : []));
    expect(refused).toEqual(['Kc:scanner', 'X9:scanner', '5s:scanner']);
    // One void (the click) and one confirmation (the deliberate Enter): none from a scanner's Enter.
    expect(records.filter((record) => record.kind === 'race-event' && record.event.type === 'void')).toHaveLength(1);
    expect(records.filter((record) => record.kind === 'race-confirm')).toHaveLength(1);
  });
});

import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import {
  allDealt, expectDealt, expectFinnishResult, FINNISH_CARDS, FINNISH_HISTORY_WINNERS, FINNISH_TABLE, manualInput,
  expectHistory, openConsole, setUpTable, typeCard,
} from './harness/flows';
import { typeAsPerson } from './harness/scanner';

// The Finnish example again, without a shoe: the counts and the cards by keyboard (one card from
// the card grid), with a misread card voided by Backspace and a repeated card refused.

let app: RunningConsole;

test.beforeAll(async () => {
  app = await startConsole();
});

test.afterAll(async () => {
  await stopConsoles(app);
});

test('manual entry by keyboard: a voided card, a refused duplicate, one card from the grid', async ({ page }) => {
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  const step = page.getByTestId('next-step');

  await test.step('counts by keyboard: Enter moves to the next seat and starts the race from the last', async () => {
    await page.getByTestId('setup-next-step').click();
    const first = page.getByTestId('counts-seat-1-chips');
    await first.focus();
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('counts-seat-2-chips')).toBeFocused();
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('counts-seat-3-chips')).toBeFocused();
    await page.keyboard.type('2');
    // The dealer may press Enter before the live preview has come back from the service.
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('view-dealing')).toBeVisible();
    await expect(step).toHaveText('Deal 3 cards to seat 1 — Matti');
    await expect(page.getByTestId('source-status')).toHaveAttribute('data-kind', 'manual');
  });

  await test.step('the first card by keyboard: "ah" + Enter', async () => {
    await expect(manualInput(page)).toBeFocused();
    await typeCard(page, 'ah');
    await expectDealt(page, 1, ['Ah']);
    await expect(page.getByTestId('grid-card-Ah')).toBeDisabled();
    await expect(step).toHaveText('Deal 2 cards to seat 1 — Matti');
  });

  await test.step('a misread card is voided with Backspace in the empty field', async () => {
    await typeCard(page, 'qc');
    await expectDealt(page, 1, ['Ah', 'Qc']);
    await expect(step).toHaveText('Deal 1 card to seat 1 — Matti');
    await expect(manualInput(page)).toHaveValue('');
    await page.keyboard.press('Backspace');
    await expectDealt(page, 1, ['Ah']);
    await expect(step).toHaveText('Deal 2 cards to seat 1 — Matti');
    await expect(page.getByTestId('corrections')).toHaveText('1 card voided in this race');
    await expect(page.getByTestId('grid-card-Qc')).toBeEnabled();
    await expect(page.getByTestId('deal-progress')).toContainText('Cards dealt: 1 of 7');
  });

  await test.step('the right cards: "kc", "2d" (any notation: "10s" for Ts)', async () => {
    await typeCard(page, 'kc');
    await typeCard(page, '2d');
    await typeCard(page, '10s');
    await expectDealt(page, 1, ['Ah', 'Kc', '2d']);
    await expectDealt(page, 2, ['Ts']);
    await expect(step).toHaveText('Deal 1 card to seat 2 — Teppo');
  });

  await test.step('text that is not a card is refused on the screen and stays for correction', async () => {
    await typeAsPerson(page, 'xx');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('deal-error')).toHaveText('“xx” is not a card. Type rank then suit, for example as, 10h, td.');
    await expect(manualInput(page)).toHaveValue('xx');
    await expect(manualInput(page)).toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await expect(manualInput(page)).toHaveValue('');
    expect(await allDealt(page)).toEqual(['Ah', 'Kc', '2d', 'Ts']);
  });

  await test.step('a repeated card (one deck) is refused with its message, and nothing is dealt', async () => {
    await typeAsPerson(page, 'AH');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('deal-error')).toHaveText(
      'Card not accepted: A♥ was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card',
    );
    await expect(page.getByTestId('deal-error')).toHaveAttribute('role', 'alert');
    await expect(manualInput(page)).toHaveValue('AH');
    expect(await allDealt(page)).toEqual(['Ah', 'Kc', '2d', 'Ts']);
    // The headline says what was refused, above the step, until the next card (issue 24).
    await expect(step).toHaveText('Typed A♥ not accepted: A♥ was already dealt (to seat 1) and the shoe holds one deck: a misread or misdeal; check the card. Deal 1 card to seat 2 — Teppo');
    // The refused text stays, selected: Backspace erases it all, and the Backspace after that
    // (once more than the text needed) voids nothing.
    expect(await manualInput(page).evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([0, 2]);
    await page.keyboard.press('Backspace');
    await expect(manualInput(page)).toHaveValue('');
    await page.keyboard.press('Backspace');
    expect(await allDealt(page)).toEqual(['Ah', 'Kc', '2d', 'Ts']);
    // Refused again, the next keys replace it: nothing typed is appended to the refused text.
    await typeAsPerson(page, 'ah');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('deal-error')).toContainText('A♥ was already dealt');
    await typeCard(page, '4h');
    await expect(page.getByTestId('deal-error')).toHaveCount(0);
    // The next card taken: the headline is the step alone again.
    await expect(step).toHaveText('Deal 2 cards to seat 3 — Johanna');
    await typeCard(page, 'td');
    await expect(step).toHaveText('Deal 1 card to seat 3 — Johanna');
  });

  await test.step('the last card from the card grid', async () => {
    const ten = page.getByTestId('grid-card-Tc');
    await expect(ten).toHaveAccessibleName('10♣');
    await ten.click();
    await expectFinnishResult(page);
    expect(await allDealt(page)).toEqual([...FINNISH_CARDS]);
  });

  await test.step('confirm by keyboard (Enter on the focused confirm button; it does not take the focus itself): the history shows the voided card', async () => {
    await expect(page.getByTestId('corrections')).toHaveCount(0); // the dealing screen is gone
    await expect(page.getByTestId('confirm-race')).not.toBeFocused();
    await page.getByTestId('confirm-race').focus();
    await page.keyboard.press('Enter');
    await expectHistory(page, 1, FINNISH_HISTORY_WINNERS, '+25');
    await expect(page.getByTestId('history-row').first().getByTestId('history-corrections')).toHaveText('1');
  });
});

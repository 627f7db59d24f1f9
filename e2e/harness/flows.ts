import { expect, type Locator, type Page } from '@playwright/test';
import type { Card } from '../../engine/cards';
import type { RuleSetName } from '../../engine/race/rules';
import { encodeCard } from '../../hardware/encoding';
import { BUILT_IN_PROFILES, type DeviceProfile } from '../../hardware/profile';
import { PtyWriter } from '../../hardware/testing/ptyPair';
import type { SourceSettings } from '../../protocol/contract';
import { typeAsPerson } from './scanner';

/** The common flows of the specs: set up the table, enter the counts, start and deal a race. */

export interface TableSetup {
  /** Seats in play with their names; every other seat of 1–10 is set out of play. */
  readonly seats: readonly { readonly seat: number; readonly name: string }[];
  readonly button: number;
  readonly removed: number;
  readonly next: number;
  readonly rules: RuleSetName;
  readonly decks: number;
  readonly source: Pick<SourceSettings, 'kind'> & Partial<SourceSettings>;
  /** The table's name or number, when the spec names it (left as it is otherwise). */
  readonly name?: string;
  /** The dealer at the station, who confirms the table's races (left as it is otherwise). */
  readonly dealer?: string;
}

export interface CountEntry {
  readonly seat: number;
  readonly chips: number;
  readonly hasOther: boolean;
}

/**
 * The seed's Finnish worked example: 25s leave, 100 is the next chip; Matti 7, Teppo 2, Johanna 2
 * (all with other chips) → a pool of 7 odd 25s, 2 chips to race, 7 cards. The button on seat 3 makes
 * the classic deal start at seat 1.
 */
export const FINNISH_TABLE: TableSetup = {
  seats: [
    { seat: 1, name: 'Matti' },
    { seat: 2, name: 'Teppo' },
    { seat: 3, name: 'Johanna' },
  ],
  button: 3,
  removed: 25,
  next: 100,
  rules: 'classic',
  decks: 1,
  source: { kind: 'manual' },
};

export const FINNISH_COUNTS: readonly CountEntry[] = [
  { seat: 1, chips: 7, hasOther: true },
  { seat: 2, chips: 2, hasOther: true },
  { seat: 3, chips: 2, hasOther: true },
];

/** The example's cards in the order dealt, the seat each goes to, and the next step shown before it. */
export const FINNISH_DEAL: readonly { readonly card: Card; readonly seat: number; readonly stepBefore: string }[] = [
  { card: 'Ah', seat: 1, stepBefore: 'Deal 3 cards to seat 1 — Matti' },
  { card: 'Kc', seat: 1, stepBefore: 'Deal 2 cards to seat 1 — Matti' },
  { card: '2d', seat: 1, stepBefore: 'Deal 1 card to seat 1 — Matti' },
  { card: 'Ts', seat: 2, stepBefore: 'Deal 2 cards to seat 2 — Teppo' },
  { card: '4h', seat: 2, stepBefore: 'Deal 1 card to seat 2 — Teppo' },
  { card: 'Td', seat: 3, stepBefore: 'Deal 2 cards to seat 3 — Johanna' },
  { card: 'Tc', seat: 3, stepBefore: 'Deal 1 card to seat 3 — Johanna' },
];

export const FINNISH_CARDS: readonly Card[] = FINNISH_DEAL.map((entry) => entry.card);

/** How the history lists the example's winners. */
export const FINNISH_HISTORY_WINNERS = 'Seat 1 — Matti (A♥), Seat 2 — Teppo (10♠)';

/** Opens the console (or its player display with `#/display`) and waits until it shows the service's state. */
export async function openConsole(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
}

/** Fills the table setup form and saves it; the form then says it is saved. */
export async function setUpTable(page: Page, table: TableSetup): Promise<void> {
  const navSetup = page.getByTestId('nav-setup');
  if ((await navSetup.getAttribute('aria-current')) !== 'page') await navSetup.click();
  const view = page.getByTestId('view-setup');
  await expect(view).toBeVisible();
  for (let seat = 1; seat <= 10; seat += 1) {
    const entry = table.seats.find((candidate) => candidate.seat === seat);
    await view.getByTestId(`seat-${seat}-name`).fill(entry?.name ?? '');
    await view.getByTestId(`seat-${seat}-in-play`).setChecked(entry !== undefined);
  }
  await view.getByTestId('setup-button').selectOption(String(table.button));
  await view.getByTestId('setup-removed').selectOption(String(table.removed));
  await view.getByTestId('setup-next').selectOption(String(table.next));
  await view.getByTestId('setup-rules').selectOption(table.rules);
  await view.getByTestId('setup-decks').fill(String(table.decks));
  if (table.name !== undefined) await view.getByTestId('setup-table-name').fill(table.name);
  if (table.dealer !== undefined) await view.getByTestId('setup-dealer').fill(table.dealer);
  await view.getByTestId(`source-kind-${table.source.kind}`).check();
  if (table.source.kind !== 'manual') {
    await view.getByTestId('source-path').fill(table.source.path ?? '');
    // The profile first: choosing one takes its own baud rate, which the table's then overrides.
    await view.getByTestId('source-decoder').selectOption(table.source.decoder ?? 'text');
    await view.getByTestId('source-baud').selectOption(String(table.source.baud ?? 9600));
  }
  await view.getByTestId('setup-save').click();
  await expect(view.getByTestId('setup-saved')).toBeVisible();
  await expect(view.getByTestId('setup-problem')).toHaveCount(0);
  await expect(view.getByTestId('setup-error')).toHaveCount(0);
}

/** Opens the counts screen (from the saved setup) and enters every seat's count. */
export async function enterCounts(page: Page, counts: readonly CountEntry[]): Promise<void> {
  await page.getByTestId('nav-race').click();
  const view = page.getByTestId('view-counts');
  await expect(view).toBeVisible();
  for (const count of counts) {
    await view.getByTestId(`counts-seat-${count.seat}-chips`).fill(String(count.chips));
    await view.getByTestId(`counts-seat-${count.seat}-other`).setChecked(count.hasOther);
  }
  await expect(view.getByTestId('counts-summary')).toBeVisible();
  await expect(view.getByTestId('start-race')).toBeEnabled();
}

/** Starts the race from the counts screen; the dealing screen follows. */
export async function startRace(page: Page): Promise<void> {
  await page.getByTestId('start-race').click();
  await expect(page.getByTestId('view-dealing')).toBeVisible();
}

/** The cards shown for a seat, in the order dealt (`data-card` codes such as `Ah`). */
export function dealtCards(page: Page, seat: number): Promise<string[]> {
  return page
    .getByTestId(`seat-cards-${seat}`)
    .getByTestId('dealt-card')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-card') ?? '?'));
}

/** Waits until exactly these cards are shown for the seat. */
export async function expectDealt(page: Page, seat: number, cards: readonly string[]): Promise<void> {
  await expect.poll(() => dealtCards(page, seat), { message: `cards shown for seat ${seat}` }).toEqual(cards);
}

/** All cards on the screen, seat by seat in the order of the deal. */
export async function allDealt(page: Page): Promise<string[]> {
  return page.getByTestId('dealt-card').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-card') ?? '?'));
}

/** The manual entry field of the dealing screen. */
export function manualInput(page: Page): Locator {
  return page.getByTestId('manual-input');
}

/**
 * The Finnish race on from its first card: a card dealt wrongly and voided with the void key
 * (Backspace), the rest dealt, the last typed as a person does and entered; then confirmed, and
 * the history shown.
 */
export async function finishFinnishRaceWithAVoid(page: Page): Promise<void> {
  await typeCard(page, 'qh');
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('corrections')).toBeVisible();
  for (const card of FINNISH_CARDS.slice(1, -1)) await typeCard(page, card);
  // The last card ends the deal: the result screen follows.
  await typeAsPerson(page, FINNISH_CARDS.at(-1) as string);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('view-result')).toBeVisible();
  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('view-history')).toBeVisible();
}

/** The Finnish example played from a fresh table to its confirmation (a misread voided on the way): the history shown. */
export async function confirmFinnishRaceWithAVoid(page: Page, table: TableSetup = FINNISH_TABLE): Promise<void> {
  await setUpTable(page, table);
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  await typeCard(page, 'ah');
  await finishFinnishRaceWithAVoid(page);
}

/**
 * Types a card into the manual entry field at a person's pace (a burst of keys would be a
 * scanner's) and presses Enter (keyboard only), then waits for the count to grow.
 */
export async function typeCard(page: Page, text: string): Promise<void> {
  const before = (await allDealt(page)).length;
  const input = manualInput(page);
  await expect(input).toBeFocused();
  await typeAsPerson(page, text);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await allDealt(page)).length, { message: `card ${text} appears` }).toBe(before + 1);
  await expect(input).toHaveValue('');
}

/**
 * Types a card into the focused entry field at a person's pace and presses Enter, then waits until
 * the service has taken it or refused it: the field empties, or goes away with the last card of a
 * deal or of the tricks. For screens where no count grows (the points game) or a refusal is wanted.
 */
export async function enterCard(page: Page, text: string): Promise<void> {
  await expect(manualInput(page)).toBeFocused();
  await typeAsPerson(page, text);
  await page.keyboard.press('Enter');
  const taken = () =>
    page.evaluate(() => {
      const field = document.querySelector<HTMLInputElement>('[data-testid="manual-input"]');
      return field === null || field.value === '';
    });
  await expect.poll(taken, { message: `card ${text} taken` }).toBe(true);
}

/** A card shoe on one end of a pseudo-terminal pair: sends cards as a real shoe of that profile would. */
export class Shoe {
  private constructor(
    private readonly writer: PtyWriter,
    private readonly profile: DeviceProfile,
  ) {}

  static async open(path: string, profile: DeviceProfile = BUILT_IN_PROFILES.text as DeviceProfile): Promise<Shoe> {
    return new Shoe(await PtyWriter.open(path), profile);
  }

  /** Sends one card and waits until it has left the port. */
  async send(card: Card): Promise<void> {
    await this.writer.write(encodeCard(card, this.profile));
  }

  /** Sends a line as it is, card or not (a misread: `Z77`), and waits until it has left the port. */
  async sendLine(text: string): Promise<void> {
    await this.writer.write(`${text}\r\n`);
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}

/** Waits until the card source says it is connected (a port opened after bytes were sent would lose them). */
export async function expectSourceConnected(page: Page, timeout = 15_000): Promise<void> {
  await expect(page.getByTestId('source-status')).toHaveAttribute('data-state', 'connected', { timeout });
}

/** The result screen of the Finnish example: Matti (A♥) and Teppo (10♠) win a 100 each; 200 given for 175 removed. */
export async function expectFinnishResult(page: Page): Promise<void> {
  const view = page.getByTestId('view-result');
  await expect(view).toBeVisible();
  await expect(view.getByTestId('winner-1')).toHaveAttribute('data-card', 'Ah');
  await expect(view.getByTestId('winner-1')).toContainText('Matti');
  await expect(view.getByTestId('winner-2')).toHaveAttribute('data-card', 'Ts');
  await expect(view.getByTestId('winner-2')).toContainText('Teppo');
  await expect(view.getByTestId('winners').locator('[data-testid^="winner-"]')).toHaveCount(2);
  await expect(view.getByTestId('value-delta')).toHaveText('+25');
  await expect(view.getByTestId('protected').locator('[data-testid^="protected-"]')).toHaveCount(0);
}

/** Confirms the Finnish example's race, opens its record from the history and sees its chain intact: the record, to read on. */
export async function confirmAndOpenRecord(page: Page): Promise<Locator> {
  await expectFinnishResult(page);
  await page.getByTestId('confirm-race').click();
  await expect(page.getByTestId('view-history')).toBeVisible();
  await page.getByTestId('history-open-record').click();
  const record = page.getByTestId('race-record');
  await expect(record).toHaveAttribute('data-chain', 'intact');
  return record;
}

/** Confirms the race on the result screen; the history then shows it as its newest row. */
export async function confirmAndExpectHistory(page: Page, rows: number, winners: string, value: string): Promise<void> {
  await page.getByTestId('confirm-race').click();
  await expectHistory(page, rows, winners, value);
}

/** The history screen after a confirmation: `rows` races, the newest with these winners and value change. */
export async function expectHistory(page: Page, rows: number, winners: string, value: string): Promise<void> {
  const history = page.getByTestId('view-history');
  await expect(history).toBeVisible();
  await expect(history.getByTestId('notice')).toBeVisible();
  await expect(history.getByTestId('history-row')).toHaveCount(rows);
  const newest = history.getByTestId('history-row').first();
  await expect(newest.getByTestId('history-winners')).toHaveText(winners);
  await expect(newest.getByTestId('history-value')).toHaveText(value);
}

import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { allDealt, enterCard, enterCounts, FINNISH_COUNTS, FINNISH_TABLE, openConsole, setUpTable, startRace } from './harness/flows';
import { chooseLanguage } from './harness/tour';

// Every house's chip race (issue 25): the setup screen offers each race setting on its own over
// the rule set's (the rules page's house variants among them) and names the seat the deal starts
// at; the counts screen reads every setting out in one line, in the screen's language; and a
// race runs by them: the Finnish example under "high card takes all" deals one card a player and
// the best card takes both 100s.

let app: RunningConsole | undefined;
test.afterEach(async () => {
  await stopConsoles(app);
  app = undefined;
});

const LINES = {
  en: 'House rules: the pool rounded up only past half; deal from the button\'s seat; a broke player gets a chip without racing; high card takes all the chips (more than one a player).',
  fi: 'Talon säännöt: yhteiset ylijäämät pyöristetään ylöspäin vasta yli puolen; jako alkaa jakajanapin paikasta; pelimerkitön pelaaja saa pelimerkin ilman arvontaa; korkein kortti vie kaikki pelimerkit (useampi pelaajalle).',
  ru: 'Правила стола: остаток округляется вверх, только если он больше половины; раздача с места баттона; игрок без других фишек получает фишку без чип-рейса; старшая карта забирает все фишки (больше одной на игрока).',
} as const;

for (const language of ['en', 'fi', 'ru'] as const) {
  test(`the house's settings in ${language}: chosen on the setup screen, read out on the counts screen, and the race run by them`, async ({ page }) => {
    app = await startConsole();
    await page.setViewportSize({ width: 1024, height: 600 });
    await openConsole(page, app.url);
    await chooseLanguage(page, language);
    await setUpTable(page, FINNISH_TABLE);
    const setup = page.getByTestId('view-setup');
    // The classic rule set deals from the left of the button (on seat 3): seat 1 first.
    await expect(setup.getByTestId('setup-first-seat')).toContainText('1');
    await setup.getByTestId('setup-rounding').selectOption('pooled-more-than-half');
    await setup.getByTestId('setup-dealStart').selectOption('button');
    await expect(setup.getByTestId('setup-first-seat')).toContainText('3');
    await expect(setup.getByTestId('setup-first-seat')).toContainText('Johanna');
    await setup.getByTestId('setup-award').selectOption('high-card-takes-all');
    // Protection stays the rule set's, and says which.
    await expect(setup.getByTestId('setup-protection')).toHaveValue('');
    await setup.getByTestId('setup-save').click();
    await expect(setup.getByTestId('setup-saved')).toBeVisible();

    await enterCounts(page, FINNISH_COUNTS);
    const counts = page.getByTestId('view-counts');
    await expect(counts.getByTestId('counts-house-rules')).toHaveText(LINES[language]);
    // One card a player, from the button's seat: Johanna, Matti, Teppo.
    await expect(counts.getByTestId('counts-cards')).toContainText('3');
    await startRace(page);
    for (const card of ['Td', 'Ah', 'Ts']) await enterCard(page, card);
    expect(await allDealt(page)).toEqual(['Td', 'Ah', 'Ts']);
    const result = page.getByTestId('view-result');
    await expect(result).toBeVisible();
    await expect(result.getByTestId('winners').locator('[data-testid^="winner-"]')).toHaveCount(1);
    await expect(result.getByTestId('winner-1')).toHaveAttribute('data-card', 'Ah');
    await expect(result.getByTestId('winner-1')).toContainText('2');
    await expect(result.getByTestId('value-delta')).toHaveText('+25');
    // The history says it once, with how many.
    await page.getByTestId('confirm-race').click();
    await expect(page.getByTestId('history-row').first()).toContainText('(A♥) × 2');
  });
}

test('a setting given back to the rule set is saved so: the rule set again, after a reload', async ({ page }) => {
  app = await startConsole();
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  const setup = page.getByTestId('view-setup');
  await setup.getByTestId('setup-award').selectOption('high-card-takes-all');
  await setup.getByTestId('setup-save').click();
  await expect(setup.getByTestId('setup-saved')).toBeVisible();
  await page.reload();
  await page.getByTestId('nav-setup').click();
  await expect(page.getByTestId('setup-award')).toHaveValue('high-card-takes-all');
  await page.getByTestId('setup-award').selectOption('');
  await page.getByTestId('setup-save').click();
  await expect(page.getByTestId('setup-saved')).toBeVisible();
  await page.reload();
  await page.getByTestId('nav-setup').click();
  await expect(page.getByTestId('setup-award')).toHaveValue('');
  await page.getByTestId('nav-race').click();
  await expect(page.getByTestId('counts-house-rules')).toContainText('one chip a player at most');
});

test('what would the other rules say: one tap on the result, each rule set on the same counts and cards, those that differ marked, in English, Finnish and Russian', async ({ page }) => {
  app = await startConsole();
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  for (const card of ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc']) await enterCard(page, card);
  const result = page.getByTestId('view-result');
  await expect(result).toBeVisible();
  const whatIf = result.getByTestId('what-if');
  await expect(whatIf).not.toHaveAttribute('open');
  await whatIf.locator('summary').click();
  await expect(whatIf).toHaveAttribute('open');
  await expect(whatIf.locator('li')).toHaveCount(5);
  // The house plays classic unchanged: its line and classic's say the same, neither differs.
  await expect(whatIf.getByTestId('what-if-house')).toHaveAttribute('data-differs', 'false');
  await expect(whatIf.getByTestId('what-if-classic')).toHaveAttribute('data-differs', 'false');
  // With no race, every player's own odd chips round up: three chips, +125.
  await expect(whatIf.getByTestId('what-if-round')).toHaveAttribute('data-differs', 'true');
  await expect(whatIf.getByTestId('what-if-round')).toContainText('+125');
  const said = new Set<string>();
  for (const language of ['en', 'fi', 'ru'] as const) {
    await chooseLanguage(page, language);
    said.add((await whatIf.getByTestId('what-if-round').textContent()) ?? '');
  }
  expect(said.size).toBe(3);
  // On the race's record too, the slip a floor supervisor signs.
  await chooseLanguage(page, 'en');
  await page.getByTestId('confirm-race').click();
  await page.getByTestId('history-open-record').click();
  // The slip keeps to one page: the house's result is its outcome; a rule set that differs is its
  // chips and value change, those that agree are named in one line.
  const lines = page.getByTestId('record-what-if').locator('li');
  await expect(lines).toHaveCount(2);
  // Each rule set by its own name; the one with no race by what its rounding gives (issue 41).
  await expect(lines.nth(0)).toHaveText('Round (no race): 3 chips rounded up (+125) — differs');
  await expect(lines.nth(1)).toHaveText("The same result: Classic (home game, Wikipedia), TDA rule, Robert's Rules (DD Poker)");
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { BUILT_IN_PROFILES, type DeviceProfile } from '../hardware/profile';
import { PtyPair } from '../hardware/testing/ptyPair';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { enterCounts, expectDealt, expectSourceConnected, FINNISH_COUNTS, FINNISH_TABLE, openConsole, setUpTable, Shoe, startRace } from './harness/flows';
import { journalOf } from './harness/journal';
import { scan } from './harness/scanner';

// The keyboard-wedge scanner decodes by its own profile, chosen in Settings apart from the shoe's
// (issue 22). Seen before: with a suit-number shoe a scanned `Tc` was refused as "10♣ … not a suit
// letter and rank number", and a valid `S11` scan was headlined "not a card" while the box below
// called it J♠. The shoe is a real serial port (a socat pseudo-terminal pair).

let pair: PtyPair;
let shoe: Shoe | undefined;
const apps: RunningConsole[] = [];

test.beforeAll(async () => {
  pair = await PtyPair.create('scanner-profile');
});

test.afterAll(async () => {
  await shoe?.close();
  await stopConsoles(...apps);
  await pair?.dispose();
});

test('a suit-number shoe and the scanner on its default profile: the shoe deals S-codes, a scanned Tc is 10♣', async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'suit-number' } });
  await enterCounts(page, FINNISH_COUNTS);
  await startRace(page);
  await expectSourceConnected(page);

  await test.step('the shoe, in its suit-number codes: A♥', async () => {
    shoe = await Shoe.open(pair.a, BUILT_IN_PROFILES['suit-number'] as DeviceProfile);
    await shoe.send('Ah');
    await expectDealt(page, 1, ['Ah']);
  });

  await test.step('the scanner types Tc: read as card codes (its own profile), dealt as 10♣, no refusal', async () => {
    await scan(page, 'Tc');
    await expectDealt(page, 1, ['Ah', 'Tc']);
    await expect(page.getByTestId('next-step')).not.toHaveAttribute('data-refused', 'scan');
    await expect(page.getByTestId('deal-error')).toHaveCount(0);
  });

  const { records } = await journalOf(app.dataDir);
  const cards = records.flatMap((record) => (record.kind === 'race-event' && record.event.type === 'card' ? [`${record.event.card}:${record.source}`] : []));
  expect(cards).toEqual(['Ah:shoe', 'Tc:scanner']);
  expect(records.filter((record) => record.kind === 'refused')).toEqual([]);
});

test('the scanner on the suit-number profile (the shoe typed by hand): S11 is J♠ in the headline and the box alike', async ({ page }) => {
  const app = await startConsole();
  apps.push(app);
  await openConsole(page, app.url);
  await setUpTable(page, FINNISH_TABLE);

  await test.step('Settings: the scanner gets the suit-number profile, the shoe keeps its own', async () => {
    await page.getByTestId('nav-settings').click();
    const view = page.getByTestId('view-settings');
    await expect(view.getByTestId('scanner-decoder')).toHaveValue('text');
    await view.getByTestId('scanner-decoder').selectOption('suit-number');
    await view.getByTestId('settings-save').click();
    await expect(view.getByTestId('settings-saved')).toBeVisible();
    const settings = JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8'));
    expect(settings.source).toMatchObject({ kind: 'manual', decoder: 'text', scanner: 'suit-number' });
  });

  await enterCounts(page, FINNISH_COUNTS);

  await test.step('S11 scanned on the counts screen: not dealt, and named J♠ by the scanner’s profile, as the deal will name it', async () => {
    await scan(page, 'S11');
    await expect(page.getByTestId('scan-away')).toContainText('J♠ was scanned before the race started');
    await page.getByTestId('scan-away-dismiss').click();
    await expect(page.getByTestId('scan-away')).toHaveCount(0);
  });

  await startRace(page);
  const step = page.getByTestId('next-step');

  await test.step('S11 scanned: J♠ dealt', async () => {
    await scan(page, 'S11');
    await expectDealt(page, 1, ['Js']);
  });

  await test.step('S11 scanned again: refused, and the headline calls it J♠ as the box does', async () => {
    await scan(page, 'S11');
    await expect(step).toHaveAttribute('data-refused', 'scan');
    await expect(step).toContainText('Scanned J♠ not accepted: J♠ was already dealt');
    await expect(step).not.toContainText('not a card');
    await expect(page.getByTestId('deal-error')).toContainText('J♠ was already dealt');
  });

  await test.step('Tc scanned: no card for this profile, said so in both, with the text quoted as typed', async () => {
    await scan(page, 'Tc');
    await expect(step).toContainText('Scanned “Tc”: not a card. Scan it again.');
    await expect(page.getByTestId('deal-error')).toContainText('not a suit letter and rank number');
    await expect(page.getByTestId('deal-error')).toContainText('suit-number');
    await expectDealt(page, 1, ['Js']);
  });
});

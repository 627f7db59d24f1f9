import { expect, test, type Page } from '@playwright/test';
import { framed } from '../hardware/encoding';
import { ALL_BUILT_IN_PROFILES, type DeviceProfile } from '../hardware/profile';
import { PtyPair, PtyWriter } from '../hardware/testing/ptyPair';
import { uartReceive, uartSetting } from '../hardware/testing/uart';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { expectSourceConnected, FINNISH_TABLE, openConsole, setUpTable } from './harness/flows';

// "Find the settings for this reader" (issue 26) on the settings screen, through a real serial
// line (a socat pseudo-terminal pair): a Zebra SSI scanner at 9600 8N1 is listened to at each
// setting with a progress bar, found, used (stored and chosen), and then reads. A pty carries no
// line settings, so the scanner writes what its line would deliver at the setting the screen says
// it is listening at (hardware/testing/uart.ts): at 7E1 and 7O1 its bytes arrive cut to 7 bits.

const SSI = ALL_BUILT_IN_PROFILES['zebra-ssi'] as DeviceProfile;
const SCANNER = uartSetting(9600, '8N1');

let app: RunningConsole | undefined;
let pair: PtyPair | undefined;
let scanner: PtyWriter | undefined;

test.beforeEach(async () => {
  pair = await PtyPair.create('detect-e2e');
  app = await startConsole();
});

test.afterEach(async () => {
  await scanner?.close().catch(() => undefined);
  scanner = undefined;
  await stopConsoles(app);
  await pair?.dispose();
});

/** The scanner: each time the screen shows a new setting being listened to, five barcodes as that setting receives them. */
async function scanWhileListening(page: Page, writer: PtyWriter): Promise<string[]> {
  const section = page.getByTestId('detect-reader');
  const seen: string[] = [];
  for (;;) {
    const state = await section.getAttribute('data-state');
    if (state === 'done' || state === 'failed') return seen;
    const text = (await page.getByTestId('detect-progress').textContent({ timeout: 1000 }).catch(() => '')) ?? '';
    const setting = /at (\d+ [78][NEO]1) \(/.exec(text)?.[1];
    if (setting === undefined || seen.at(-1) === setting) {
      await page.waitForTimeout(20);
      continue;
    }
    seen.push(setting);
    const [baud, format] = setting.split(' ') as [string, string];
    for (const code of ['As', 'Kd', 'Qh', 'Tc', '2s']) await writer.write(uartReceive(framed(code, SSI.framing), SCANNER, uartSetting(Number(baud), format)));
  }
}

test('a Zebra SSI scanner at 9600: found with a progress bar, used, and it reads', async ({ page }) => {
  if (app === undefined || pair === undefined) throw new Error('no console');
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } });
  await page.getByTestId('nav-settings').click();
  const view = page.getByTestId('view-settings');
  await expect(view).toBeVisible();
  await expectSourceConnected(page);
  scanner = await PtyWriter.open(pair.a);

  const section = view.getByTestId('detect-reader');
  await expect(section).toHaveAttribute('data-state', 'ready');
  await section.getByTestId('detect-start').click();
  await expect(section).toHaveAttribute('data-state', 'listening');
  await expect(section.getByTestId('detect-bar')).toBeVisible();
  const tried = await scanWhileListening(page, scanner);
  // 9600 first, and no other baud once it read cleanly.
  expect(tried).toEqual(['9600 8N1', '9600 7E1', '9600 7O1']);
  await expect(section).toHaveAttribute('data-state', 'done');
  const best = section.getByTestId('detect-found').locator('li').first();
  await expect(best).toHaveAttribute('data-setting', '9600 8N1');
  await expect(best).toContainText('zebra-ssi-9600-8n1');
  await expect(best).toContainText('A♠ K♦');
  // The screen still fits the small station's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

  await section.getByTestId('detect-use-0').click();
  await expect(view.getByTestId('source-decoder')).toHaveValue('zebra-ssi-9600-8n1');
  await expect(section).toHaveAttribute('data-state', 'ready');
  await expectSourceConnected(page);
  await scanner.write(framed('Jh', SSI.framing));
  await expect(view.getByTestId('input-log-entry').first()).toHaveAttribute('data-type', 'card');
  await expect(view.getByTestId('input-log')).toContainText('J♥');
});

// Issue 41: an RDM6300 whose tag rests on the antenna sends its frame again every ~100 ms, while
// the screen listens too. The checksummed built-in is found first and used with its repeat window,
// so the resting tag is then read once, not ten times.
const RDM6300 = ALL_BUILT_IN_PROFILES.rdm6300 as DeviceProfile;

test('an RDM6300 with a tag resting on it: rdm6300 found first and used with its repeat window; the resting tag then read once', async ({ page }) => {
  if (app === undefined || pair === undefined) throw new Error('no console');
  await page.setViewportSize({ width: 1024, height: 600 });
  await openConsole(page, app.url);
  await setUpTable(page, { ...FINNISH_TABLE, source: { kind: 'serial', path: pair.b, baud: 9600, decoder: 'text' } });
  await page.getByTestId('nav-settings').click();
  const view = page.getByTestId('view-settings');
  await expectSourceConnected(page);
  const writer = await PtyWriter.open(pair.a);
  scanner = writer;
  const section = view.getByTestId('detect-reader');
  await section.getByTestId('detect-start').click();
  await expect(section).toHaveAttribute('data-state', 'listening');
  // The tag lies on the reader: its frame every 100 ms, as the setting listened at receives it.
  for (;;) {
    const state = await section.getAttribute('data-state');
    if (state === 'done' || state === 'failed') break;
    const text = (await page.getByTestId('detect-progress').textContent({ timeout: 1000 }).catch(() => '')) ?? '';
    const setting = /at (\d+) ([78][NEO]1) \(/.exec(text);
    if (setting !== null) await writer.write(uartReceive(framed('1A00A1B2C3', RDM6300.framing), uartSetting(9600, '8N1'), uartSetting(Number(setting[1]), setting[2] as string)));
    await page.waitForTimeout(100);
  }
  await expect(section).toHaveAttribute('data-state', 'done');
  const found = section.getByTestId('detect-found').locator('li');
  await expect(found.first()).toHaveAttribute('data-setting', '9600 8N1');
  await expect(found.first()).toContainText('rdm6300-9600-8n1');
  await expect(found.first()).toContainText('1A00A1B2C3');
  await expect(found.first()).toContainText('the same read within 1500 ms counted once');
  // Plain STX…ETX reads the checksum digits into the tag: offered below it.
  await expect(found.filter({ hasText: '1A00A1B2C3CA' })).not.toHaveCount(0);

  await section.getByTestId('detect-use-0').click();
  await expect(view.getByTestId('source-decoder')).toHaveValue('rdm6300-9600-8n1');
  await expect(view.getByTestId('source-repeat-ms')).toHaveValue('1500');
  await expectSourceConnected(page);
  for (let frame = 0; frame < 10; frame += 1) {
    await writer.write(framed('1A00A1B2C3', RDM6300.framing));
    await page.waitForTimeout(100);
  }
  await writer.write(framed('0F0011AA55', RDM6300.framing));
  // Tags no deck has registered yet: each read is said as such. (A frame the text profile was
  // reading when the search ended may be said too, cut off when the profile changed.)
  const tagRead = (tag: string) => view.locator('[data-testid="input-log-entry"][data-type="unknown"]').filter({ hasText: `tag ${tag} is not registered` });
  // The second tag's read comes after every frame of the first: the resting tag was one read.
  await expect(tagRead('0F0011AA55')).toHaveCount(1);
  await expect(tagRead('1A00A1B2C3')).toHaveCount(1);
});

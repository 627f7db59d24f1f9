import { chromium, expect, test } from '@playwright/test';
// The layer table lets e2e/ import everything, but the lint rule knows only the layers, not scripts/.
// eslint-disable-next-line layers/boundaries -- the one Chromium the tests, the benchmarks and `npm test`'s set-up look for
import { chromiumPath } from '../scripts/systemPackages.mjs';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { openConsole } from './harness/flows';

// Browser mode in Chromium: only the printed address (with its key) opens the console, the key
// leaves the address bar, the players' display connects read-only, and a page reached through a
// DNS name pointed at 127.0.0.1 (DNS rebinding) is refused.

let app: RunningConsole;
test.beforeAll(async () => {
  app = await startConsole();
});
test.afterAll(async () => {
  await stopConsoles(app);
});

const origin = () => new URL(app.url).origin;

test('the address without the key shows, in three languages, to open the printed address', async ({ page }) => {
  const response = await page.goto(`${origin()}/`);
  expect(response?.status()).toBe(403);
  await expect(page.locator('p[lang="en"]')).toContainText('Open the address the console printed');
  await expect(page.locator('p[lang="fi"]')).toContainText('Avaa osoite, jonka konsoli tulosti');
  await expect(page.locator('p[lang="ru"]')).toContainText('Откройте адрес, который консоль вывела');
  await expect(page.getByTestId('loading')).toHaveCount(0);
});

test('the printed address opens the console, takes the key out of the address bar, and a reload keeps working', async ({ page }) => {
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));
  await openConsole(page, app.url);
  expect(page.url()).toBe(`${origin()}/`);
  await expect(page.getByTestId('view-setup')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('view-setup')).toBeVisible();
  expect(page.url()).toBe(`${origin()}/`);
  // The page's socket shows the key as its cookie, never in its address.
  expect(sockets.length).toBeGreaterThan(0);
  for (const url of sockets) expect(url).toBe(`ws://${new URL(app.url).host}/bridge`);
  const cookies = await page.context().cookies();
  expect(cookies.map(({ name, value, httpOnly, sameSite, path }) => ({ name, value, httpOnly, sameSite, path }))).toEqual([
    { name: `chip-race-key-${new URL(app.url).port}`, value: app.key, httpOnly: true, sameSite: 'Strict', path: '/' },
  ]);
  expect(await page.evaluate(() => document.cookie)).toBe('');
});

test('the players’ display opened with the console’s own key keeps its #/display and connects read-only', async ({ page }) => {
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));
  await page.goto(`${app.url}#/display`);
  expect(page.url()).toBe(`${origin()}/#/display`);
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('button')).toHaveCount(0);
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  expect(sockets).toEqual([`ws://${new URL(app.url).host}/bridge?role=display`]);
});

test('the display’s printed address opens the display in a browser of its own; that browser going to / gets the refusal page', async ({ browser }) => {
  // The room's TV: a browser that never had the console's key.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    expect(app.displayUrl).toMatch(new RegExp(`^${origin()}/display\\?key=[A-Za-z0-9_-]{43}#/display$`));
    expect(new URL(app.displayUrl).searchParams.get('key')).not.toBe(app.key);
    await page.goto(app.displayUrl);
    expect(page.url()).toBe(`${origin()}/display#/display`);
    await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByRole('button')).toHaveCount(0);
    await expect(page.getByTestId('connection-banner')).toHaveCount(0);
    expect(sockets).toEqual([`ws://${new URL(app.url).host}/bridge?role=display`]);
    // The same browser, its display cookie and all, at the console's own address: refused.
    const response = await page.goto(`${origin()}/`);
    expect(response?.status()).toBe(403);
    await expect(page.locator('p[lang="en"]')).toContainText('Open the address the console printed');
    await expect(page.getByTestId('view-setup')).toHaveCount(0);
    // Nor can its script open the console's command socket.
    const opened = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(url);
          socket.onopen = () => resolve('open');
          socket.onerror = () => resolve('refused');
        }),
      `ws://${new URL(app.url).host}/bridge`,
    );
    expect(opened).toBe('refused');
  } finally {
    await context.close();
  }
});

test('a page reached through another name pointed at 127.0.0.1 (DNS rebinding) is refused, key or not', async () => {
  const port = new URL(app.url).port;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    // What a rebinding DNS answer does: the attacker's name resolves to this machine.
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--host-resolver-rules=MAP rebound.example 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    for (const address of [`http://rebound.example:${port}/`, `http://rebound.example:${port}/?key=${app.key}`]) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(421);
      await expect(page.locator('body')).toContainText('misdirected request');
    }
    // Its script cannot open the bridge either: the upgrade names the wrong host.
    const opened = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(url);
          socket.onopen = () => resolve('open');
          socket.onerror = () => resolve('refused');
        }),
      `ws://rebound.example:${port}/bridge?key=${app.key}`,
    );
    expect(opened).toBe('refused');
  } finally {
    await browser.close();
  }
});

import { expect, test } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';

let app: RunningConsole;
test.beforeAll(async () => {
  app = await startConsole();
});
test.afterAll(async () => {
  await stopConsoles(app);
});

test('browser mode serves the console from loopback in Debian Chromium', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(app.url);
  await expect(page).toHaveTitle(/Chip Race Console/);
  expect(new URL(app.url).hostname).toBe('127.0.0.1');
  expect(errors).toEqual([]);
});

test('the content security policy blocks an injected inline script', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(app.url);
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    document.body.append(script);
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});

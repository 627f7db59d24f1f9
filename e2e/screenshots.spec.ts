import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { startConsole, stopConsoles, type RunningConsole } from './harness/console';
import { chooseLanguage, SCREENS, tourScreens, type ScreenName } from './harness/tour';

// Screenshots of every screen for the README ("Screens"): docs/screenshots/<screen>.png at
// 1280×800, in English, plus the dealing screen in Finnish (dealing-fi.png).

const directory = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));

let app: RunningConsole;

test.beforeAll(async () => {
  mkdirSync(directory, { recursive: true });
  app = await startConsole();
});

test.afterAll(async () => {
  await stopConsoles(app);
});

async function shoot(page: Page, name: string): Promise<void> {
  expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });
  // No blinking caret or running transition in the picture; the page scrolled to its top.
  await page.evaluate(() => window.scrollTo(0, 0));
  const path = `${directory}${name}.png`;
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  const png = readFileSync(path);
  expect(png.subarray(1, 4).toString('latin1'), `${name}.png is a PNG`).toBe('PNG');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)], `${name}.png is 1280×800`).toEqual([1280, 800]);
}

test('screenshots of every screen, in English and one in Finnish', async ({ page }) => {
  const saved: string[] = [];
  const visited = await tourScreens(page, app, async (screen: ScreenName, on) => {
    await shoot(on, screen);
    saved.push(screen);
    if (screen === 'dealing') {
      await chooseLanguage(on, 'fi');
      await shoot(on, 'dealing-fi');
      saved.push('dealing-fi');
      await chooseLanguage(on, 'en');
    }
  });
  expect(visited).toEqual([...SCREENS]);
  expect(saved).toEqual(['setup', 'counts', 'dealing', 'dealing-fi', 'tiebreak', 'result', 'display', 'history', 'record', 'settings']);
});

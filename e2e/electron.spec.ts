import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
// The layer table lets e2e/ import everything, but the lint rule knows only the layers, not scripts/.
// eslint-disable-next-line layers/boundaries -- the one way to find Electron without downloading it
import { electronExecutable } from '../scripts/electron-runtime.mjs';
import {
  confirmAndExpectHistory, enterCounts, expectFinnishResult, FINNISH_COUNTS, FINNISH_DEAL, FINNISH_HISTORY_WINNERS, FINNISH_TABLE, setUpTable,
  startRace, typeCard,
} from './harness/flows';

// The Finnish example in the real desktop app (Electron main, preload, sandboxed window), by
// manual entry. Runs where the Electron runtime is installed; skipped, saying why, where it is not
// (found without require('electron'), which would try to download it).

const root = fileURLToPath(new URL('..', import.meta.url));

const NO_ELECTRON =
  'Electron runtime not installed here (node_modules/electron has no binary; scripts/electron-runtime.mjs found none): ' +
  'the _electron spec is skipped. Browser mode covers the same screens and service in the other specs.';

test('the Finnish example in the Electron app, by manual entry', async () => {
  const executable = electronExecutable();
  if (executable === null) console.log(`electron.spec.ts: ${NO_ELECTRON}`);
  test.skip(executable === null, NO_ELECTRON);
  if (executable === null) return;

  // Its own data folder: a fresh journal and settings, and no single-instance clash with a running console.
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-electron-'));
  const args = [root, `--user-data-dir=${dataDir}`];
  // Chromium refuses to run as root on Linux unless its own process sandbox is off.
  if (process.platform === 'linux' && process.getuid?.() === 0) args.push('--no-sandbox');
  const app = await electron.launch({ executablePath: executable, args, cwd: root, env: { ...process.env, XDG_CONFIG_HOME: dataDir } });
  try {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle(/Chip Race Console/);
    // The console talks to the service through the preload's narrow API, not the browser-mode bridge.
    expect(await page.evaluate(() => typeof (window as unknown as { chipRace?: unknown }).chipRace)).toBe('object');
    await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 20_000 });

    await setUpTable(page, FINNISH_TABLE);
    await enterCounts(page, FINNISH_COUNTS);
    await startRace(page);
    for (const { card, stepBefore } of FINNISH_DEAL) {
      await expect(page.getByTestId('next-step')).toHaveText(stepBefore);
      await typeCard(page, card.toLowerCase());
    }
    await expectFinnishResult(page);
    await confirmAndExpectHistory(page, 1, FINNISH_HISTORY_WINNERS, '+25');
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

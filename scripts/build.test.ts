// Proves `npm run build` (electron-vite build) produces the three bundles Electron loads:
// out/main/index.js, out/preload/index.cjs and out/renderer/index.html. It builds into a
// temporary folder (`electron-vite build --outDir DIR`) so it never touches out/.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../engine/messages/en';
import { fi } from '../engine/messages/fi';
import { ru } from '../engine/messages/ru';
import { enFloorWords } from '../floor/words/en';
import { fiFloorWords } from '../floor/words/fi';
import { ruFloorWords } from '../floor/words/ru';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
const outDir = mkdtempSync(join(tmpdir(), 'chip-race-build-'));

/** What the build printed (warnings only, as `--logLevel warn` asks). */
let printed = '';

beforeAll(async () => {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, 'build', '--outDir', outDir, '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    timeout: 90_000,
  });
  printed = `${stdout}\n${stderr}`;
}, 100_000);

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

const read = (...parts: string[]) => readFileSync(join(outDir, ...parts), 'utf8');

describe('electron-vite build', () => {
  it("prints no warning: a first `npm start` says nothing alarming (issue 24: a chunk past 500 kB)", () => {
    expect(printed).not.toMatch(/larger than \d+ kB/);
    const scripts = readdirSync(join(outDir, 'renderer', 'assets')).filter((file) => file.endsWith('.js'));
    for (const script of scripts) expect(readFileSync(join(outDir, 'renderer', 'assets', script)).length, script).toBeLessThanOrEqual(500 * 1000);
  });

  it('writes the main process as an ES module that keeps electron external', () => {
    const main = read('main', 'index.js');
    expect(main).toMatch(/^import .* from "electron";/m);
    expect(main).not.toMatch(/\brequire\(/);
    expect(main).toContain('../preload/index.cjs');
    expect(main).toContain('../preload/display.cjs');
    expect(main).toContain('../renderer/index.html');
  });

  it("writes each preload (the dealer's, the player display's) as one whole CommonJS file: sandboxed preloads cannot be ES modules nor require a chunk", () => {
    expect(readdirSync(join(outDir, 'preload')).sort()).toEqual(['display.cjs', 'index.cjs']);
    for (const file of ['index.cjs', 'display.cjs']) {
      const preload = read('preload', file);
      expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]), file).toEqual(['electron']);
      expect(preload).toContain('exposeInMainWorld');
      expect(preload).not.toMatch(/^import /m);
    }
    // The display's has no command channel to invoke.
    expect(read('preload', 'display.cjs')).not.toContain('invoke');
  });

  it('writes the renderer with its Content-Security-Policy and relative asset paths', () => {
    const html = read('renderer', 'index.html');
    expect(html).toContain('http-equiv="Content-Security-Policy"');
    expect(html).toMatch(/<script type="module" crossorigin src="\.\/assets\/index-[\w-]+\.js"><\/script>/);
    const scripts = readdirSync(join(outDir, 'renderer', 'assets')).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      // Nothing that the CSP (script-src 'self', no 'unsafe-eval') would block.
      expect(read('renderer', 'assets', script)).not.toMatch(/\bnew Function\(|\beval\(/);
    }
    expect(existsSync(join(outDir, 'renderer', 'index.html'))).toBe(true);
  });

  it("ships the station's words in every language and none of the floor's own (floor/words: only the floor says those)", () => {
    const shipped = readdirSync(join(outDir, 'renderer', 'assets'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => read('renderer', 'assets', file))
      .join('\n');
    const leaves = (tree: object): string[] => Object.values(tree).flatMap((value: unknown) => (typeof value === 'string' ? [value] : leaves(value as object)));
    // Words long enough to be no one else's, quoted as the bundle quotes them.
    const telling = (tree: object) => leaves(tree).filter((words) => words.length > 30 && !/["'`\\]/.test(words));
    for (const floor of [enFloorWords, fiFloorWords, ruFloorWords]) {
      const words = telling(floor);
      expect(words.length).toBeGreaterThan(20);
      for (const text of words) expect(shipped.includes(text), text).toBe(false);
    }
    for (const station of [en.floorLink, fi.floorLink, ru.floorLink, en.floor.decision, fi.floor.decision, ru.floor.decision]) {
      for (const text of telling(station)) expect(shipped.includes(text), text).toBe(true);
    }
  });
});

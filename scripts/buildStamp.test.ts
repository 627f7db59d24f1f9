// `npm start` builds only when the sources changed (issue 41: it rebuilt everything, 8–10 s, at
// every start). Here on a little tree of its own, a build that writes one file and counts itself.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIfStale, isBuildCurrent, sourcesFingerprint, STAMP_FILE } from './buildStamp.mjs';

let root = '';
let builds = 0;
let buildStatus = 0;
const inputs = () => ({ root, folders: ['engine', 'renderer'], files: ['package-lock.json', 'electron.vite.config.ts'] });

/** What the build makes of the sources: one file in out/, and a second run counted. */
function build(): number {
  builds += 1;
  if (buildStatus !== 0) return buildStatus;
  mkdirSync(join(root, 'out', 'renderer'), { recursive: true });
  writeFileSync(join(root, 'out', 'renderer', 'index.js'), readFileSync(join(root, 'engine', 'race.ts')));
  return 0;
}

function write(file: string, text: string): void {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  builds = 0;
  buildStatus = 0;
  write('engine/race.ts', 'export const race = 1;\n');
  write('renderer/views/CountsView.vue', '<template><p>counts</p></template>\n');
  write('package-lock.json', '{"lockfileVersion":3}\n');
  write('electron.vite.config.ts', 'export default {};\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('npm start builds only when the built app is not what the sources make', () => {
  it('builds the first time, and not again while nothing changed', () => {
    expect(buildIfStale(inputs(), build)).toBe('built');
    expect(JSON.parse(readFileSync(join(root, 'out', STAMP_FILE), 'utf8'))).toMatchObject({ sources: sourcesFingerprint(inputs()) });
    expect(buildIfStale(inputs(), build)).toBe('current');
    expect(buildIfStale(inputs(), build)).toBe('current');
    expect(builds).toBe(1);
  });

  it.each([
    ['a source edited', () => write('engine/race.ts', 'export const race = 2;\n')],
    ['a screen edited, its size unchanged', () => write('renderer/views/CountsView.vue', '<template><p>COUNTS</p></template>\n')],
    ['a source added', () => write('engine/plan/new.ts', 'export {};\n')],
    ['a source deleted', () => rmSync(join(root, 'renderer', 'views', 'CountsView.vue'))],
    ['a package installed (the lock file)', () => write('package-lock.json', '{"lockfileVersion":3,"packages":{}}\n')],
    ['the build configuration changed', () => write('electron.vite.config.ts', 'export default { minify: true };\n')],
    ['out/ built by another command since (npm run build)', () => utimesSync(join(root, 'out', 'renderer', 'index.js'), new Date(), new Date(Date.now() + 5_000))],
    ['a built file deleted', () => rmSync(join(root, 'out', 'renderer', 'index.js'))],
    ['the stamp deleted', () => rmSync(join(root, 'out', STAMP_FILE))],
    ['the stamp damaged', () => writeFileSync(join(root, 'out', STAMP_FILE), '{"sources":')],
  ])('builds again when %s', (_what, change) => {
    expect(buildIfStale(inputs(), build)).toBe('built');
    change();
    expect(isBuildCurrent(inputs())).toBe(false);
    expect(buildIfStale(inputs(), build)).toBe('built');
    expect(buildIfStale(inputs(), build)).toBe('current');
    expect(builds).toBe(2);
  });

  it('a test edited is no reason to build (the build never reads tests)', () => {
    write('engine/race.test.ts', 'it("a", () => {});\n');
    expect(buildIfStale(inputs(), build)).toBe('built');
    write('engine/race.test.ts', 'it("b", () => {});\n');
    expect(buildIfStale(inputs(), build)).toBe('current');
  });

  it('a failed build is said by its status and leaves no stamp: the next start builds again', () => {
    buildStatus = 3;
    expect(buildIfStale(inputs(), build)).toBe(3);
    buildStatus = 0;
    expect(buildIfStale(inputs(), build)).toBe('built');
    expect(builds).toBe(2);
  });

  it('the stamp of an earlier build is no use once a failed build left out/ half made', () => {
    expect(buildIfStale(inputs(), build)).toBe('built');
    write('engine/race.ts', 'export const race = 3;\n');
    buildStatus = 1;
    writeFileSync(join(root, 'out', 'renderer', 'index.js'), 'half');
    expect(buildIfStale(inputs(), build)).toBe(1);
    write('engine/race.ts', 'export const race = 1;\n');
    expect(isBuildCurrent(inputs())).toBe(false);
  });
});

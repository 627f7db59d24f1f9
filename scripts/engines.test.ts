// Every package the lock file installs accepts the lowest Node version package.json's `engines.node`
// promises (">=20.19.0": 20.19.0). The README tells a newcomer that Node 20.19 is enough and CI runs
// Node 20, so a dependency wanting Node 22 shows up as a screen of EBADENGINE warnings on their first
// `npm install`, and may break at run time. The check is npm's own (npm-install-checks: semver with
// prereleases included; a range it cannot read refuses), made against the stated floor rather than
// the Node this machine happens to run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

interface LockEntry {
  readonly name?: string;
  readonly version?: string;
  readonly engines?: Record<string, string> | readonly string[];
  readonly link?: boolean;
}

interface LockFile {
  readonly packages: Record<string, LockEntry>;
}

/**
 * The packages whose npm package wants a newer Node than the floor, and why each is kept anyway.
 * No supported Electron major (43, 44, 45: the latest three) has an npm package that accepts Node
 * 20: from 40.10.3 and 41.7.2 on, electron and its downloader (@electron/get 4 and 5,
 * @electron-internal/extract-zip, no version of either accepting Node 20) want Node >= 22.12. Only
 * that downloader runs under the project's Node, and not here: the Electron binary brings its own
 * Node, and nothing requires the electron package (scripts/electron-runtime.mjs finds the binary
 * without it). Each entry must still be needed (see the last test), so the list shrinks when
 * Electron or the floor moves.
 */
const KEPT: Readonly<Record<string, string>> = {
  electron: 'no supported Electron major accepts Node 20',
  '@electron/get': "electron's downloader: no version accepts Node 20",
  '@electron-internal/extract-zip': "electron's downloader: no version accepts Node 20",
  // vue-i18n runs in the page (Chromium), not in Node: Node only bundles it and runs its tests,
  // which pass on Node 20. 11.4.2, the last to accept Node 20, ships 16 KB more (gzip: the
  // libraries' chunk 62 KB against 46 KB), over the renderer's gate of 200 KB (bench/renderer.ts).
  'vue-i18n': 'runs in the page; 11.4.2 (the last for Node 20) is 16 KB gzip over the renderer gate',
  '@intlify/core-base': "vue-i18n's, pinned by it",
  '@intlify/devtools-types': "vue-i18n's, pinned by it",
  '@intlify/message-compiler': "vue-i18n's, pinned by it",
  '@intlify/shared': "vue-i18n's, pinned by it",
};

/** The lowest Node version `range` accepts ('>=20.19.0' → '20.19.0'). */
function lowestNode(range: string): string {
  const lowest = semver.minVersion(range);
  if (lowest === null) throw new Error(`engines.node '${range}' accepts no version`);
  return lowest.version;
}

/** The package a lock file key installs ('node_modules/a/node_modules/@s/b' → '@s/b'). */
function packageName(key: string, entry: LockEntry): string {
  return entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

/** Each installed package whose `engines.node` refuses Node `node`, as `name@version wants node RANGE`, sorted and once each. */
function refusals(lock: LockFile, node: string): string[] {
  const found = new Set<string>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    // '' is the project itself; a link points at a folder listed under its own key.
    if (key === '' || entry.link === true) continue;
    const range = Array.isArray(entry.engines) ? undefined : (entry.engines as Record<string, string> | undefined)?.['node'];
    if (range === undefined) continue;
    if (!semver.satisfies(node, range, { includePrerelease: true })) {
      found.add(`${packageName(key, entry)}@${entry.version ?? '?'} wants node ${range}`);
    }
  }
  return [...found].sort();
}

/** The package named by a refusal ('@s/b@1.0.0 wants node >=22' → '@s/b'). */
const nameOf = (refusal: string): string => refusal.slice(0, refusal.indexOf('@', 1));

describe('the engines check', () => {
  const lock: LockFile = {
    packages: {
      '': { name: 'project', engines: { node: '>=99' } },
      'node_modules/old': { version: '1.0.0', engines: { node: '>= 16' } },
      'node_modules/none': { version: '1.0.0' },
      'node_modules/npm-only': { version: '1.0.0', engines: { npm: '>=99' } },
      'node_modules/legacy': { version: '1.0.0', engines: ['node >= 0.8'] },
      'node_modules/new': { version: '2.0.0', engines: { node: '>= 22' } },
      'node_modules/a/node_modules/@s/nested': { version: '3.0.0', engines: { node: '^22.22.2 || ^24.15.0 || >=26.0.0' } },
      'node_modules/glob': { version: '10.4.4', engines: { node: '14 >=14.21 || 16 >=16.20 || 18 || 20 || >=22' } },
      'node_modules/garbled': { version: '1.0.0', engines: { node: 'not a range' } },
    },
  };

  it("takes the floor as the range's lowest version", () => {
    expect(lowestNode('>=20.19.0')).toBe('20.19.0');
    expect(lowestNode('^20.19.0 || >=22.12.0')).toBe('20.19.0');
  });

  it('names each package that refuses the floor, nested ones by their own name, and an unreadable range as a refusal (as npm does)', () => {
    expect(refusals(lock, '20.19.0')).toEqual([
      '@s/nested@3.0.0 wants node ^22.22.2 || ^24.15.0 || >=26.0.0',
      'garbled@1.0.0 wants node not a range',
      'new@2.0.0 wants node >= 22',
    ]);
    expect(refusals(lock, '26.0.0')).toEqual(['garbled@1.0.0 wants node not a range']);
  });
});

describe('package-lock.json', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as LockFile;
  const floor = lowestNode(manifest.engines?.node ?? '');
  const refused = refusals(lock, floor);

  it("is the Node version the README names ('Requires Node.js 20.19 or later')", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const named = /Requires Node\.js (\d+\.\d+(?:\.\d+)?) or later/.exec(readme)?.[1];
    expect(named, 'the README names no Node version').toBeDefined();
    expect(semver.coerce(named)?.version).toBe(floor);
  });

  it(`installs nothing that refuses Node ${floor}, the electron packages aside`, () => {
    expect(refused.filter((refusal) => !(nameOf(refusal) in KEPT)), `packages wanting a newer Node than ${floor}`).toEqual([]);
  });

  it('keeps no electron exception that is no longer needed', () => {
    const stillRefusing = new Set(refused.map(nameOf));
    expect(Object.keys(KEPT).filter((name) => !stillRefusing.has(name)), `exceptions to drop from KEPT: they accept Node ${floor} now`).toEqual([]);
  });
});

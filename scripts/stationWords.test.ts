// The floor's own words (floor/words) are the floor's catalogs only: the station never imports
// floor/ (eslint.config.js), so its screens ship none of them, and no code whose messages reach
// the station's screens may name one of their keys. Only floor/ says them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { enFloorWords } from '../floor/words/en';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the station's code lives: what its screens are sent is said from here. */
const STATION_FOLDERS = ['engine', 'protocol', 'hardware', 'journal', 'replay', 'replication', 'net', 'station', 'renderer'];

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|vue)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the floor's own words", () => {
  it('are named by no station code (the screens have no catalog with them)', () => {
    const namespaces = Object.keys(enFloorWords);
    expect(namespaces).toEqual(['seating', 'tables', 'tournament', 'page', 'capacity', 'http']);
    const named = new RegExp(`floor\\.(${namespaces.join('|')})\\b`);
    const files = STATION_FOLDERS.flatMap(sources);
    expect(files.length).toBeGreaterThan(300);
    expect(files.filter((file) => named.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file))).toEqual([]);
  });
});

// Issue 45: rooms that grew past what one reader holds were cut along their seams. This keeps
// them so: no source file of the floor (floor/) or of the station's core (station/) over 400 lines,
// and the service's wiring (station/service/service.ts) at most 300. Tests are not counted.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const FILE_MAX_LINES = 400;
const SERVICE_MAX_LINES = 300;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|vue)$/.test(file) && !/\.(test|spec)\.ts$/.test(file))
    .map((file) => join(folder, file));
}

const linesOf = (file: string): number => readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;

describe("the floor's and the station's source files", () => {
  it(`are each at most ${FILE_MAX_LINES} lines`, () => {
    const files = [...sourceFiles('floor'), ...sourceFiles('station')];
    expect(files.length).toBeGreaterThan(50);
    const over = files.map((file) => ({ file, lines: linesOf(file) })).filter(({ lines }) => lines > FILE_MAX_LINES);
    expect(over).toEqual([]);
  });

  it(`wire the service in at most ${SERVICE_MAX_LINES} lines (station/service/service.ts)`, () => {
    expect(linesOf('station/service/service.ts')).toBeLessThanOrEqual(SERVICE_MAX_LINES);
  });
});

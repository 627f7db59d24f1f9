// No import cycle among the source files (every layer of scripts/importGraph.ts SOURCE_FOLDERS; tests
// aside): each file can be read, and changed, knowing only what it imports. The walker
// (scripts/importGraph.ts) counts type-only imports too.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, importGraph, type ImportGraph } from './importGraph';

const root = fileURLToPath(new URL('..', import.meta.url));

const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe('the cycle finder', () => {
  it('finds each cycle once, as a path back to its first file', () => {
    const graph = graphOf({ a: ['b'], b: ['c', 'd'], c: ['a', 'f'], d: [], e: ['e'], f: ['g'], g: ['f', 'a'] });
    const cycles = findCycles(graph).sort((x, y) => (x.path[0] as string).localeCompare(y.path[0] as string));
    expect(cycles).toEqual([
      { path: ['a', 'b', 'c', 'a'], files: ['a', 'b', 'c', 'f', 'g'] },
      { path: ['e', 'e'], files: ['e'] },
    ]);
  });

  it('finds none in a tree, however deep', () => {
    const chain = graphOf(Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`f${index}`, index < 4999 ? [`f${index + 1}`] : []])));
    expect(findCycles(chain)).toEqual([]);
  });
});

describe('the source tree', () => {
  const graph = importGraph(root);

  it('is read whole: .ts and .vue files, type-only imports included, tests left out', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get('renderer/App.vue')).toContain('renderer/stores/console.ts');
    // A type-only import (protocol/contract.ts imports only types from engine/messages).
    expect(graph.get('protocol/contract.ts')).toContain('engine/messages/index.ts');
    expect([...graph.keys()].filter((file) => /\.test\.ts$/.test(file))).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles = findCycles(graph).map(({ path, files }) => `${path.join(' → ')}${files.length > path.length - 1 ? ` (the knot: ${files.join(', ')})` : ''}`);
    expect(cycles, 'import cycles (each file on it imports the next)').toEqual([]);
  });
});

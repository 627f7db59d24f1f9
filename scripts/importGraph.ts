// The import graph of the source tree, and the cycles in it: every file of the layers (SOURCE_FOLDERS:
// the programs' and the shared ones; tests aside), every relative import of it — type-only
// ones too, since a cycle of types is still two files that cannot be read one without the other.
// Imports are read by TypeScript's own pre-processor (no resolver, no type checking): `import`,
// `export … from`, `import()` and `require()`, and the <script> blocks of .vue files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SOURCE_FOLDERS = ['engine', 'protocol', 'hardware', 'journal', 'replay', 'net', 'replication', 'station', 'floor', 'renderer'] as const;

const SOURCE_FILE = /\.(?:ts|vue)$/;
const TEST_FILE = /\.(?:test|spec)\.ts$|\.d\.ts$/;

/** Repo-relative file → the repo-relative source files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

function walk(root: string, dir: string, found: string[]): void {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(root, rel, found);
    } else if (SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name)) {
      found.push(rel);
    }
  }
}

/** The code of a file as TypeScript reads it: a .vue file's <script> blocks. */
function scriptOf(file: string, text: string): string {
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n');
}

/** The repo-relative source file a relative specifier names, or null (a package, JSON, CSS, a missing file). */
function resolve(root: string, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier.replace(/[?#].*$/, '')));
  const stem = base.replace(/\.(?:js|mjs)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${base}.ts`, `${base}.vue`, `${base}/index.ts`]) {
    if (SOURCE_FILE.test(candidate) && existsSync(path.join(root, candidate)) && statSync(path.join(root, candidate)).isFile()) return candidate;
  }
  return null;
}

/** The import graph of the source folders under `root`. */
export function importGraph(root: string, folders: readonly string[] = SOURCE_FOLDERS): ImportGraph {
  const files: string[] = [];
  for (const folder of folders) if (existsSync(path.join(root, folder))) walk(root, folder, files);
  const graph = new Map<string, string[]>();
  for (const file of files.sort()) {
    const info = ts.preProcessFile(scriptOf(file, readFileSync(path.join(root, file), 'utf8')), true, true);
    const targets = info.importedFiles.map(({ fileName }) => resolve(root, file, fileName)).filter((target): target is string => target !== null && !TEST_FILE.test(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** A knot of files that import each other: one way round it, and every file caught in it. */
export interface ImportCycle {
  /** A path of imports back to its first file, e.g. [a, b, a]. */
  readonly path: readonly string[];
  /** Every file of the knot (its strongly connected component), sorted. */
  readonly files: readonly string[];
}

/** The cycles of a graph: one per strongly connected component of more than one file (or a file importing itself). */
export function findCycles(graph: ImportGraph): ImportCycle[] {
  // Tarjan's algorithm, iterative (a deep import chain must not overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: number };
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next] as string;
        frame.next += 1;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter);
          counter += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((component) => ({ path: cycleWithin(graph, new Set(component)), files: [...component].sort() }));
}

/** One cycle through a component, from its first file in sorted order: the shortest way back to it. */
function cycleWithin(graph: ImportGraph, members: ReadonlySet<string>): string[] {
  const first = [...members].sort()[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [first];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === first) {
        const cycle = [node];
        while (cycle[0] !== first) cycle.unshift(cameFrom.get(cycle[0] as string) as string);
        return [...cycle, first];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [first, first];
}

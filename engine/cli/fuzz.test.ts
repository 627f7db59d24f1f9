// Fuzzing the JSON input of the command-line entries (race, points, plan). Whatever the file holds
// — any JSON value, a valid input with parts broken, text that is not JSON at all — each entry
// keeps its contract: exit 0 with exactly one JSON document on stdout and nothing on stderr, or
// exit 2 with exactly one line on stderr and nothing on stdout. Never a stack trace, never a hang.
//
// Most cases run in-process through runJsonCommand with the very compute functions the entry
// files pass it; a few run through the real entries as processes, and must agree with in-process.
import fc from 'fast-check';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import { colorUpSummary, planColorUps } from '../plan';
import { dealFromInput } from '../poker/input';
import { pointsOutput } from '../poker/summary';
import { raceFromInput } from '../race/input';
import { raceReport } from '../race/summary';
import { runJsonCommand } from './run';
import { commandLine } from './testing';

type Script = 'race' | 'points' | 'plan';

/** Each entry's compute function, exactly as engine/cli/NAME.ts hands it to runJsonCommand. */
const ENTRIES: Record<Script, { compute: (input: unknown) => unknown; valid: unknown }> = {
  race: {
    compute: (input) => raceReport(raceFromInput(input)),
    valid: {
      rules: 'classic', removed: 25, next: 100, button: 10, decks: 1,
      seats: [{ seat: 1, name: 'Matti', chips: 7, other: 5000 }, { seat: 2, name: 'Teppo', chips: 2, other: 3000 }, { seat: 3, name: 'Johanna', chips: 2, other: 4000 }],
      cards: ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'],
    },
  },
  points: {
    compute: (input) => pointsOutput(dealFromInput(input).state),
    valid: {
      game: 'chicago',
      players: ['Anna', 'Ville', 'Sanna'],
      scores: { Anna: 0, Ville: 0, Sanna: 0 },
      hands: { Anna: ['5h', '6h', '7h', '8h', '9h'], Ville: ['Ks', 'Kc', 'Kd', 'Ah', 'Qd'], Sanna: ['2c', '2s', '3c', '3s', '4c'] },
      exchanges: [{ Anna: { discard: ['5h'], draw: ['Tc'] } }],
      tricks: [['9h', 'Ah', '2c'], ['Ks', '2s', 'Tc']],
    },
  },
  plan: {
    compute: (input) => colorUpSummary(planColorUps(input)),
    valid: {
      chips: [25, 100, 500, 1000, 5000],
      levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100, ante: 0 }, { break: 15 }, { sb: 100, bb: 200 }],
      startingStack: 10000,
      rebuys: { amount: 10000, untilLevel: 4 },
    },
  },
};
const SCRIPTS = Object.keys(ENTRIES) as Script[];

interface Outcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs an entry in-process on a file holding `text`, capturing what it prints and its exit code. */
function runInProcess(script: Script, text: string, file = `${script}.json`): Outcome {
  const out: string[] = [];
  const err: string[] = [];
  const { write: writeOut } = process.stdout;
  const { write: writeErr } = process.stderr;
  const previousExitCode = process.exitCode;
  process.exitCode = undefined;
  process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => err.push(String(chunk)) > 0) as typeof process.stderr.write;
  let exitCode: number;
  try {
    runJsonCommand([file], script, ENTRIES[script].compute, () => text);
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    exitCode = Number(process.exitCode ?? 0);
    process.exitCode = previousExitCode;
  }
  expect(out.length + err.length, 'one write in all').toBe(1);
  return { exitCode, stdout: out.join(''), stderr: err.join('') };
}

/** The contract of every entry: one JSON document and exit 0, or one line on stderr and exit 2. */
function expectContract(script: Script, outcome: Outcome): void {
  if (outcome.exitCode === 0) {
    expect(outcome.stderr).toBe('');
    expect(outcome.stdout.endsWith('\n')).toBe(true);
    expect(() => JSON.parse(outcome.stdout)).not.toThrow();
  } else {
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(new RegExp(`^${script}: [^\\n]+\\n$`));
  }
}

// ---- Inputs -------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values that tend to break validation: wrong types, edges of numbers, card-like text, big things. */
const awkward: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(0, -1, 1, 0.5, -0, 2 ** 31, 2 ** 53 + 2, 1e21, -1e21, 1e308, '', ' ', '0', '1e3', 'As', '10h', 'Kc', 'X', 'classic', 'pistepokeri', 'chicago', null, true, false, [], {}, ['As'], [[]], [{}]),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -20, max: 200 }),
  fc.array(fc.constantFrom<Json>('As', 'Kd', 'Ah', '2c', 'Ah', 7, null), { maxLength: 60 }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

/** Every path to a node of `value` (the root is []). */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const here = [prefix];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => pathsOf(item, [...prefix, index]))];
  if (value !== null && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
  return here;
}

type Mutation = { readonly at: number; readonly kind: 'replace' | 'remove' | 'duplicate' | 'wrap'; readonly value: Json };

/** Applies one mutation at the `at`-th node (mod the number of nodes) of a deep copy. */
function mutate(root: Json, { at, kind, value }: Mutation): Json {
  const copy = structuredClone(root);
  const paths = pathsOf(copy);
  const path = paths[at % paths.length] as (string | number)[];
  if (path.length === 0) return kind === 'wrap' ? [copy] : kind === 'replace' ? value : copy;
  const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string | number, Json>)[key] as Json, copy) as Record<string | number, Json> & Json[];
  const key = path.at(-1) as string | number;
  if (kind === 'replace') parent[key] = value;
  else if (kind === 'wrap') parent[key] = [parent[key] as Json];
  else if (Array.isArray(parent) && typeof key === 'number') {
    if (kind === 'remove') parent.splice(key, 1);
    else parent.splice(key, 0, structuredClone(parent[key] as Json));
  } else if (kind === 'remove') delete parent[key];
  else parent[`${key}_copy`] = structuredClone(parent[key] as Json);
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({ at: fc.nat(), kind: fc.constantFrom('replace', 'replace', 'remove', 'duplicate', 'wrap'), value: awkward });

/** The valid input of `script`, with one to four things broken in it. */
const mutatedInput = (script: Script): fc.Arbitrary<string> =>
  fc.array(mutation, { minLength: 1, maxLength: 4 }).map((mutations) => JSON.stringify(mutations.reduce(mutate, ENTRIES[script].valid as Json)));

/** Text the JSON grammar allows but JSON.stringify never writes: numbers too big for a double become Infinity. */
const overflowingNumber = (script: Script): fc.Arbitrary<string> =>
  fc.nat().map((pick) => {
    const text = JSON.stringify(ENTRIES[script].valid);
    const numbers = [...text.matchAll(/(?<=[:[,])-?\d+(?=[,\]}])/g)];
    const match = numbers[pick % numbers.length] as RegExpMatchArray;
    return `${text.slice(0, match.index)}${pick % 2 === 0 ? '1e999' : '-1e999'}${text.slice((match.index as number) + match[0].length)}`;
  });

const anyJson = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value));
/** Not JSON, or barely: truncations of a valid file, random text, a byte-order mark. */
const brokenText = (script: Script): fc.Arbitrary<string> =>
  fc.oneof(
    fc.nat().map((cut) => {
      const text = JSON.stringify(ENTRIES[script].valid);
      return text.slice(0, cut % text.length);
    }),
    fc.string({ maxLength: 40 }),
    fc.constant(`\uFEFF${JSON.stringify(ENTRIES[script].valid)}`),
  );

const anyInput = (script: Script): fc.Arbitrary<string> => fc.oneof(mutatedInput(script), mutatedInput(script), anyJson, overflowingNumber(script), brokenText(script));

// ---- Properties ---------------------------------------------------------------------------------

describe('fuzzing the command-line entries’ JSON input', () => {
  it.each(SCRIPTS)('%s: the valid example exits 0 with one JSON document', (script) => {
    const outcome = runInProcess(script, JSON.stringify(ENTRIES[script].valid));
    expect(outcome.stderr).toBe('');
    expectContract(script, outcome);
  });

  it.each(SCRIPTS)('%s: any JSON value, or the valid input broken in up to four places, never crashes', (script) => {
    fc.assert(
      fc.property(anyInput(script), (text) => {
        expectContract(script, runInProcess(script, text));
      }),
      { numRuns: 2500, seed: 6 },
    );
  });

  it('through the real entries (a few per command): the same outcome as in-process, byte for byte', () => {
    for (const script of SCRIPTS) {
      const { fileWith, runDirect } = commandLine(script);
      const samples = fc.sample(fc.oneof(mutatedInput(script), anyJson, brokenText(script)), { numRuns: 2, seed: 6 });
      samples.forEach((text, index) => {
        const file = fileWith(`fuzz-${index}.json`, text);
        const run = runDirect(file);
        const outcome = { exitCode: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
        expectContract(script, outcome);
        expect(outcome, `${script} ${text}`).toEqual(runInProcess(script, text, file));
      });
    }
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { commandLine } from './testing';

const { fileWith, fileRefusals, runNpm, runDirect, refusedRun } = commandLine('plan');

// The contract example, input exactly as written there.
const contractExample = `{ "chips": [25, 100, 500, 1000, 5000],
  "levels": [ { "sb": 25, "bb": 50 }, { "sb": 50, "bb": 100, "ante": 0 }, { "break": 15 }, { "sb": 100, "bb": 200 } ],
  "startingStack": 10000,
  "rebuys": { "amount": 10000, "untilLevel": 4 } }`;

const tenLevels = [
  { sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 15 }, { sb: 75, bb: 150 }, { sb: 100, bb: 200 }, { sb: 150, bb: 300 }, { break: 15 },
  { sb: 200, bb: 400 }, { sb: 300, bb: 600 }, { sb: 400, bb: 800 }, { break: 20 }, { sb: 500, bb: 1000 }, { sb: 1000, bb: 2000 },
];

describe('npm run --silent plan -- FILE', () => {
  it('prints exactly the contract’s JSON document and exits 0 for the contract example', () => {
    const run = runNpm(fileWith('example.json', contractExample));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toStrictEqual({ colorUps: [{ afterLevel: 2, remove: [25], next: 100 }] });
  });

  it('lists several colour-ups in order, chips leaving together ascending, and keeps the contract with overrides', () => {
    const structure = { chips: [25, 100, 500, 1000, 5000], levels: tenLevels };
    const run = runDirect(fileWith('ten.json', JSON.stringify(structure)));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toStrictEqual({
      colorUps: [
        { afterLevel: 5, remove: [25], next: 100 },
        { afterLevel: 8, remove: [100], next: 500 },
      ],
    });
    const overridden = runDirect(fileWith('override.json', JSON.stringify({ ...structure, overrides: { 5: [] } })));
    expect(overridden.status).toBe(0);
    expect(JSON.parse(overridden.stdout)).toStrictEqual({ colorUps: [{ afterLevel: 8, remove: [25, 100], next: 500 }] });
  });

  it('prints an empty list when no chip ever leaves', () => {
    const run = runDirect(fileWith('none.json', JSON.stringify({ chips: [25, 100], levels: [{ sb: 25, bb: 50 }] })));
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toStrictEqual({ colorUps: [] });
  });

  it('exits 2 with one line on stderr and nothing on stdout for an amount no chip divides, naming the level and the amount', () => {
    const bad = { chips: [25, 100, 500], levels: [{ sb: 25, bb: 50 }, { break: 10 }, { sb: 60, bb: 120 }] };
    const run = runNpm(fileWith('bad.json', JSON.stringify(bad)));
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('plan: levels[2].sb: level 2\'s small blind 60 is not a multiple of any chip (25, 100, 500), so it cannot be paid\n');
  });

  it.each([
    ['a break before the first level', () => [fileWith('break.json', JSON.stringify({ chips: [25], levels: [{ break: 10 }, { sb: 25, bb: 50 }] }))], /^plan: levels\[0\]: a break cannot come before the first level/],
    ['a level without blinds', () => [fileWith('blinds.json', JSON.stringify({ chips: [25], levels: [{ sb: 25, bb: 50 }, { ante: 25 }] }))], /^plan: levels\[1\]: level 2 has no blinds/],
    ['chips out of order', () => [fileWith('chips.json', JSON.stringify({ chips: [100, 25], levels: [{ sb: 25, bb: 50 }] }))], /^plan: chips\[1\]: 25 comes after 100/],
    ['a bad override', () => [fileWith('override.json', JSON.stringify({ chips: [25, 100], levels: [{ sb: 25, bb: 50 }, { sb: 100, bb: 200 }], overrides: { 1: [100] } }))], /^plan: overrides\.1\[0\]: 100 is the largest chip/],
    ['not an object', () => [fileWith('list.json', '[]')], /^plan: structure: a structure must be a JSON object/],
    ...fileRefusals('{"chips": '),
  ])('exits 2 for %s', (_, args, message) => {
    expect(refusedRun(...args())).toMatchObject({ status: 2, stdout: '', lines: 2, stderr: expect.stringMatching(message) });
  });
});

describe('npm run --silent plan -- FILE, a structure nested 60,000 deep', () => {
  it('is one line on standard error saying so, exit 2, never a RangeError', () => {
    const run = runDirect(fileWith('deep.json', `{"chips":[25,100],"levels":${'['.repeat(60_000)}1${']'.repeat(60_000)}}`));
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('plan: structure: nested more than 64 levels deep (lists or objects inside each other); nothing the console reads goes that deep\n');
  });
});

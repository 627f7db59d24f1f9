// The data-folder lock under a real race: ten console processes started on one folder at the
// same instant (each waits at a barrier, then all are released together), twenty times over;
// exactly one gets the folder each time, also when a lock left by a killed console is there.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataFolder } from './dataLock';
import { scratchScript, type ScratchScript } from './testing/scratchChild';

const CONSOLES = 10;
const TRIALS = 20;

let child: ScratchScript;
beforeAll(() => {
  // The lock's own code, as plain JavaScript (it uses only Node's modules), so each process starts at once.
  child = scratchScript(
    [join(import.meta.dirname, 'dataLock.ts')],
    `import { lockDataFolder } from './dataLock.mjs';
import { createInterface } from 'node:readline';
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\\n');
let started = false;
lines.on('line', async () => {
  if (started) return;
  started = true;
  try {
    await lockDataFolder(process.argv[2]);
    process.stdout.write('won\\n');
  } catch (error) {
    process.stdout.write(error.name === 'DataFolderInUseError' ? 'refused\\n' : 'error ' + error.message + '\\n');
  }
});
lines.on('close', () => process.exit(0));
`,
  );
});
afterAll(() => child.dispose());

/** Starts `count` consoles on `dataDir`, releases them together, and returns what each said. */
async function race(dataDir: string, count: number): Promise<string[]> {
  const children: ChildProcess[] = [];
  const said: Array<Promise<string>> = [];
  const ready: Array<Promise<void>> = [];
  for (let index = 0; index < count; index += 1) {
    const running = spawn(process.execPath, [child.path, dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(running);
    const lines = createInterface({ input: running.stdout as NodeJS.ReadableStream });
    const iterator = lines[Symbol.asyncIterator]();
    ready.push(iterator.next().then(() => undefined));
    said.push(ready[index]!.then(async () => String((await iterator.next()).value)));
  }
  await Promise.all(ready);
  for (const running of children) running.stdin?.write('go\n');
  const outcome = await Promise.all(said);
  // Every console stays up until all have answered: a winner that exited would leave its lock to the others.
  for (const running of children) running.stdin?.end();
  await Promise.all(children.map((running) => new Promise((done) => (running.exitCode === null ? running.once('exit', done) : done(null)))));
  return outcome;
}

describe('the data-folder lock', () => {
  it('ten starts at once in one process: exactly one gets the folder, and it is given back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'data-lock-here-'));
    const outcome = await Promise.allSettled(Array.from({ length: CONSOLES }, () => lockDataFolder(dataDir)));
    const won = outcome.filter((entry) => entry.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(outcome.filter((entry) => entry.status === 'rejected').map((entry) => (entry.reason as Error).name)).toEqual(Array.from({ length: CONSOLES - 1 }, () => 'DataFolderInUseError'));
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    await (won[0] as PromiseFulfilledResult<() => Promise<void>>).value();
    const again = await lockDataFolder(dataDir);
    await again();
  });

  it(`${CONSOLES} consoles started at once on one folder, ${TRIALS} times: exactly one gets it each time`, async () => {
    const winners: number[] = [];
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const outcome = await race(mkdtempSync(join(tmpdir(), 'data-lock-')), CONSOLES);
      expect(outcome.filter((said) => said !== 'won' && said !== 'refused')).toEqual([]);
      winners.push(outcome.filter((said) => said === 'won').length);
    }
    expect(winners).toEqual(Array.from({ length: TRIALS }, () => 1));
  }, 180_000);

  it(`a lock left by a killed console is taken over: by exactly one of ${CONSOLES} started at once, ${TRIALS} times`, async () => {
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    const winners: number[] = [];
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const dataDir = mkdtempSync(join(tmpdir(), 'data-lock-stale-'));
      writeFileSync(join(dataDir, LOCK_FILE), `${JSON.stringify({ pid: dead })}\n`);
      const outcome = await race(dataDir, CONSOLES);
      expect(outcome.filter((said) => said !== 'won' && said !== 'refused')).toEqual([]);
      winners.push(outcome.filter((said) => said === 'won').length);
    }
    expect(winners).toEqual(Array.from({ length: TRIALS }, () => 1));
  }, 180_000);
});

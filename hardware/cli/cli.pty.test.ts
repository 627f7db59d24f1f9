import { spawn, type ChildProcess } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REGISTRATION_ORDER } from '../decoding/uid';
import { encodeCard } from '../encoding';
import { DEFAULT_PROFILE } from '../profile';
import { shuffledShoe } from '../simulator/shoe';
import { PtyPair, PtyWriter, requireSocat, waitFor } from '../testing/ptyPair';

/** The simulated shoe and the diagnostics CLI, run as a dealer runs them, over a socat port pair. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly lines: () => Record<string, unknown>[];
  readonly exit: Promise<number | null>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function run(command: string, args: readonly string[]): Run {
  // Its own process group, so cleanup reaches npm's children (sh, tsx, node) too.
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await exit;
    }
  });
  const lines = (): Record<string, unknown>[] =>
    stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, stdout: () => stdout, stderr: () => stderr, lines, exit };
}

/** As documented: `npm run --silent NAME -- ARGS`. */
function npmRun(script: string, args: readonly string[]): Run {
  return run('npm', ['run', '--silent', script, '--', ...args]);
}

async function pair(label: string): Promise<PtyPair> {
  const created = await PtyPair.create(label);
  cleanups.push(() => created.dispose());
  return created;
}

function connectedCount(cards: Run): number {
  return cards.lines().filter((line) => line.type === 'status' && line.state === 'connected').length;
}

describe('shoe simulator and cards CLI over a real port pair (socat)', () => {
  beforeAll(() => requireSocat());

  it('the cards the simulator deals are the cards the CLI prints', { timeout: 30_000 }, async () => {
    const ports = await pair('cli');
    const cards = npmRun('cards', ['--port', ports.b, '--count', '10']);
    // Opening a port discards what was sent before: start the reader first, as a dealer would.
    await waitFor(() => connectedCount(cards) === 1, 'the cards CLI to connect', 15_000);
    const shoe = npmRun('shoe', ['--port', ports.a, '--seed', '7', '--rate', '50', '--count', '10']);
    const [cardsExit, shoeExit] = await Promise.all([cards.exit, shoe.exit]);
    expect(shoe.stderr()).toBe('');
    expect(cards.stderr()).toBe('');
    expect({ cardsExit, shoeExit }).toEqual({ cardsExit: 0, shoeExit: 0 });
    const expected = shuffledShoe(7).slice(0, 10);
    const lines = cards.lines();
    expect(lines.map((line) => line.type)).toEqual(['status', 'status', ...expected.map(() => 'card')]);
    expect(lines.slice(0, 2).map((line) => line.state)).toEqual(['connecting', 'connected']);
    expect(lines.slice(2)).toEqual(expected.map((card) => ({ type: 'card', card, raw: card })));
    // The simulator printed the same cards, one line each.
    const dealt = shoe
      .stdout()
      .split('\n')
      .flatMap((line) => /^\d+ (\S+)$/.exec(line)?.slice(1) ?? []);
    expect(dealt).toEqual(expected);
    expect(shoe.stdout().trim().split('\n').at(-1)).toBe('EMPTY');
  });

  it('the CLI keeps going across an unplug and replug of its port', { timeout: 30_000 }, async () => {
    const ports = await pair('cli-replug');
    const shoe = shuffledShoe(3);
    const cards = npmRun('cards', ['--port', ports.b, '--count', '4']);
    await waitFor(() => connectedCount(cards) === 1, 'the cards CLI to connect', 15_000);
    const first = await PtyWriter.open(ports.a);
    await first.write(Buffer.concat(shoe.slice(0, 2).map((card) => encodeCard(card, DEFAULT_PROFILE))));
    await waitFor(() => cards.lines().filter((line) => line.type === 'card').length === 2, 'two cards');
    await first.close();

    await ports.unplug();
    await waitFor(() => cards.lines().some((line) => line.state === 'disconnected'), 'disconnected');
    const replugAt = Date.now();
    await ports.replug();
    await waitFor(() => connectedCount(cards) === 2, 'the CLI to reconnect', 6000);
    console.info(`hardware: cards CLI reconnected ${Date.now() - replugAt} ms after the replug (measured at its output)`);
    expect(Date.now() - replugAt).toBeLessThan(3000);
    const second = await PtyWriter.open(ports.a);
    cleanups.push(() => second.close());
    await second.write(Buffer.concat(shoe.slice(2, 4).map((card) => encodeCard(card, DEFAULT_PROFILE))));

    expect(await cards.exit).toBe(0);
    expect(cards.stderr()).toBe('');
    const lines = cards.lines();
    expect(lines.map((line) => (line.type === 'status' ? line.state : line.card))).toEqual([
      'connecting',
      'connected',
      shoe[0],
      shoe[1],
      'disconnected',
      'reconnecting',
      'connected',
      shoe[2],
      shoe[3],
    ]);
    expect(lines[4]).toMatchObject({ type: 'status', state: 'disconnected', code: 'unplugged' });
  });

  it('without --count the CLI runs until SIGTERM or SIGINT, then closes the port and exits 0', { timeout: 30_000 }, async () => {
    const ports = await pair('cli-signal');
    // The second run connecting proves the first gave the port back.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      // Signalled directly (npm itself dies of a signal rather than pass it on).
      const cards = run(process.execPath, ['--import', 'tsx', 'hardware/cli/cards.ts', '--port', ports.b]);
      await waitFor(() => connectedCount(cards) === 1, 'the cards CLI to connect', 15_000);
      cards.child.kill(signal);
      expect(await cards.exit).toBe(0);
      expect(cards.stderr()).toBe('');
    }
  });

  it('bad arguments: one line on stderr, nothing on stdout, exit 2', { timeout: 30_000 }, async () => {
    const runs = [
      npmRun('cards', ['--count', '3']),
      npmRun('cards', ['--port', '/tmp/x', '--decoder', 'morse']),
      npmRun('shoe', ['--port', '/tmp/x', '--format', 'rfid']),
      npmRun('shoe', ['--port', '/tmp/x', '--rate', 'fast']),
    ];
    const exits = await Promise.all(runs.map((result) => result.exit));
    expect(exits).toEqual([2, 2, 2, 2]);
    expect(runs.map((result) => result.stdout())).toEqual(['', '', '', '']);
    expect(runs.map((result) => result.stderr())).toEqual([
      'cards: --port: is required\n',
      expect.stringMatching(/^cards: --decoder: unknown decoder "morse"; choose text, .*\n$/),
      expect.stringMatching(/^shoe: --format: "rfid" cannot be simulated .*\n$/),
      'shoe: --rate: must be a number from 0.1 to 1000 (got "fast")\n',
    ]);
  });

  it('a port that does not exist: the error status line, its message on stderr, exit 1', { timeout: 30_000 }, async () => {
    const ports = await pair('cli-missing');
    const missing = `${ports.dir}/nothing-here`;
    const cards = npmRun('cards', ['--port', missing]);
    expect(await cards.exit).toBe(1);
    expect(cards.lines().at(-1)).toMatchObject({ type: 'status', state: 'error', code: 'no-such-port' });
    expect(cards.stderr()).toBe(`cards: No serial port at ${missing}: check the path and that the device is plugged in and switched on\n`);
  });

  it('"register deck": 52 RFID tags read in order become a table the CLI then reads cards with', { timeout: 60_000 }, async () => {
    const ports = await pair('cli-register');
    const table = join(ports.dir, 'deck.json');
    const tags = REGISTRATION_ORDER.map((_, index) => `04:A1:${index.toString(16).padStart(2, '0').toUpperCase()}:7F`);
    const register = npmRun('cards', ['--port', ports.b, '--register', table]);
    await waitFor(() => connectedCount(register) === 1, 'the cards CLI to connect', 15_000);
    const writer = await PtyWriter.open(ports.a);
    cleanups.push(() => writer.close());
    await writer.write(`${tags.join('\r\n')}\r\n`);
    expect(await register.exit).toBe(0);
    expect(register.lines().filter((line) => line.type === 'card').map((line) => line.card)).toEqual([...REGISTRATION_ORDER]);
    expect(register.stderr()).toBe(`cards: all 52 tags registered; use --decoder ${table}\n`);
    const saved = JSON.parse(readFileSync(table, 'utf8')) as { decoder: { kind: string; cards: Record<string, string> } };
    expect(saved.decoder.kind).toBe('uid');
    expect(Object.keys(saved.decoder.cards)).toHaveLength(52);

    const read = npmRun('cards', ['--port', ports.b, '--decoder', table, '--count', '2']);
    await waitFor(() => connectedCount(read) === 1, 'the cards CLI to connect', 15_000);
    await writer.write(`${tags[12]}\r\n0000DEAD\r\n${tags[13]}\r\n`);
    expect(await read.exit).toBe(0);
    expect(read.lines().filter((line) => line.type !== 'status')).toEqual([
      { type: 'card', card: 'Ks', raw: tags[12] },
      { type: 'unknown', raw: '0000DEAD', reason: 'tag 0000DEAD is not registered; register the deck first' },
      { type: 'card', card: 'Ah', raw: tags[13] },
    ]);
  });
});

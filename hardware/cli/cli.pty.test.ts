import process from 'node:process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPort } from 'serialport';
import { REGISTRATION_ORDER } from '../decoding/uid';
import { encodeCard } from '../encoding';
import { BINARY_PROFILES, DEFAULT_PROFILE, readProfile } from '../profile';
import { shuffledShoe } from '../simulator/shoe';
import { npmRun as runCommandNpm, runCommand, type CommandRun } from '../testing/commandRun';
import { PtyPair, PtyWriter, requireSocat, waitFor } from '../testing/ptyPair';
import type { PortFactory } from '../transport/serialSource';
import { cardsMain, type CardsIo } from './cardsMain';

/** The simulated shoe and the diagnostics CLI, run as a dealer runs them, over a socat port pair. */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Run = CommandRun;
const run = (command: string, args: readonly string[]): Run => runCommand(command, args, cleanups);
/** As documented: `npm run --silent NAME -- ARGS`. */
const npmRun = (script: string, args: readonly string[]): Run => runCommandNpm(script, args, cleanups);

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

  /** A profile file in a fresh folder, removed after the test. */
  function profileFile(json: unknown): string {
    const dir = mkdtempSync(join(tmpdir(), 'chiprace-profile-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'profile.json');
    writeFileSync(path, JSON.stringify(json));
    return path;
  }

  it('line settings from a profile file and from options reach the port, and what the reader sends decodes', { timeout: 30_000 }, async () => {
    const ports = await pair('cli-7e1');
    const file = profileFile({ name: 'rs232-7e1', baud: 2400, dataBits: 7, parity: 'even', framing: { kind: 'lines' }, decoder: { kind: 'suit-number' } });
    // The file's 7E1, with the stop bits from the command line.
    const fromFile = npmRun('cards', ['--port', ports.b, '--decoder', file, '--stop-bits', '2', '--count', '2']);
    await waitFor(() => connectedCount(fromFile) === 1, 'the cards CLI to connect', 15_000);
    const device = await PtyWriter.open(ports.a);
    cleanups.push(() => device.close());
    await device.write('S01\r\nD12\r\n');
    expect(await fromFile.exit).toBe(0);
    expect(fromFile.stderr()).toBe('');
    expect(fromFile.lines()).toEqual([
      { type: 'status', state: 'connecting', message: `Opening ${ports.b} at 2400 baud (decoder rs232-7e1)` },
      { type: 'status', state: 'connected', message: `Connected to ${ports.b} at 2400 baud, 7 data bits, even parity, 2 stop bits` },
      { type: 'card', card: 'As', raw: 'S01' },
      { type: 'card', card: 'Qd', raw: 'D12' },
    ]);

    // The default decoder with every line option given on the command line.
    const fromOptions = npmRun('cards', ['--port', ports.b, '--data-bits', '7', '--parity=odd', '--stop-bits', '1.5', '--rtscts', '--count', '1']);
    // 1.5 stop bits only open on Windows: the port refuses them here, by name.
    expect(await fromOptions.exit).toBe(1);
    expect(fromOptions.stderr()).toBe(`cards: Cannot open ${ports.b}: this system's serial driver refuses the stop bits setting (1.5 stop bits work on Windows only)\n`);
    const withFlow = npmRun('cards', ['--port', ports.b, '--data-bits', '7', '--parity=odd', '--rtscts', '--count', '1']);
    await waitFor(() => connectedCount(withFlow) === 1, 'the cards CLI to connect', 15_000);
    await device.write('Kd\r\n');
    expect(await withFlow.exit).toBe(0);
    expect(withFlow.lines().slice(1)).toEqual([
      { type: 'status', state: 'connected', message: `Connected to ${ports.b} at 9600 baud, 7 data bits, odd parity, 1 stop bit, RTS/CTS flow control` },
      { type: 'card', card: 'Kd', raw: 'Kd' },
    ]);
  });

  it('bad line settings: one line on stderr naming the option or the profile field, nothing on stdout, exit 2', { timeout: 30_000 }, async () => {
    const file = profileFile({ framing: { kind: 'lines' }, decoder: { kind: 'text' }, dataBits: 9 });
    const runs = [
      npmRun('cards', ['--port', '/tmp/x', '--parity', 'evn']),
      npmRun('cards', ['--port', '/tmp/x', '--data-bits', '9']),
      npmRun('cards', ['--port', '/tmp/x', '--stop-bits', 'two']),
      npmRun('cards', ['--port', '/tmp/x', '--rtscts=maybe']),
      npmRun('cards', ['--port', '/tmp/x', '--decoder', file]),
    ];
    expect(await Promise.all(runs.map((result) => result.exit))).toEqual([2, 2, 2, 2, 2]);
    expect(runs.map((result) => result.stdout())).toEqual(['', '', '', '', '']);
    expect(runs.map((result) => result.stderr())).toEqual([
      'cards: --parity: choose one of none, even, odd, mark, space (got "evn")\n',
      'cards: --data-bits: must be 5, 6, 7 or 8 (got 9)\n',
      'cards: --stop-bits: must be 1, 1.5 or 2 (got "two")\n',
      'cards: --rtscts: is a switch: give --rtscts alone, or --rtscts=true or --rtscts=false (got "maybe")\n',
      `cards: --decoder: ${file}: dataBits: must be 5, 6, 7 or 8 (got 9)\n`,
    ]);
  });

  it('the simulator sends stx-plain and a profile file\'s format (hex checksum, Code ID, ace as 1, 7E1); cards reads the same cards', { timeout: 60_000 }, async () => {
    const file = profileFile({
      name: 'hex-scanner',
      dataBits: 7,
      parity: 'even',
      codeId: true,
      framing: { kind: 'stx-etx', checksum: 'xor-hex', checksumIncludesStx: true },
      decoder: { kind: 'text', aceAsOne: true },
    });
    for (const format of ['stx-plain', file]) {
      const ports = await pair('cli-formats');
      const cards = npmRun('cards', ['--port', ports.b, '--decoder', format, '--count', '52']);
      await waitFor(() => connectedCount(cards) === 1, 'the cards CLI to connect', 15_000);
      const shoe = npmRun('shoe', ['--port', ports.a, '--seed', '12', '--rate', '400', '--format', format]);
      expect(await shoe.exit).toBe(0);
      expect(await cards.exit).toBe(0);
      expect(shoe.stderr()).toBe('');
      const read = cards.lines().filter((line) => line.type !== 'status');
      expect(read.map((line) => line.card)).toEqual(shuffledShoe(12));
      if (format === file) {
        // What went over the wire: STX, the Code ID `j`, the ace as `1`, ETX, the checksum in hex.
        expect(read.find((line) => line.card === 'As')).toEqual({ type: 'card', card: 'As', raw: 'j1s' });
        expect(cards.lines()[1]).toMatchObject({ message: expect.stringContaining('7 data bits, even parity, 1 stop bit') });
      }
    }
  });

  it('on SIGTERM the command resolves with exit code 0 only once the port is closed (its lock released)', { timeout: 30_000 }, async () => {
    const ports = await pair('cli-close');
    const signals = new (await import('node:events')).EventEmitter();
    const out: string[] = [];
    // The real port, with its close callback watched: when the command resolves, it must have run.
    let closed = 0;
    const createPort: PortFactory = (options) => {
      const port = new SerialPort({ ...options, autoOpen: false });
      const close = port.close.bind(port);
      port.close = ((callback?: (error: Error | null) => void) =>
        close((error) => {
          closed += 1;
          callback?.(error);
        })) as SerialPort['close'];
      return port;
    };
    const io: CardsIo = { out: (text) => out.push(text), err: (text) => out.push(`stderr: ${text}`), signals, onOutputGone: () => {}, exit: () => {}, source: { createPort } };
    const running = cardsMain(['--port', ports.b], io);
    await waitFor(() => out.some((line) => line.includes('"connected"')), 'the command to connect');
    // While it runs, the port is locked: another program cannot open it.
    const tryOpen = () =>
      new Promise<string>((resolve) => {
        const other = new SerialPort({ path: ports.b, baudRate: 9600, autoOpen: false });
        other.on('error', () => {});
        other.open((error) => (error ? resolve(error.message) : other.close(() => resolve('opened'))));
      });
    expect(await tryOpen()).toMatch(/Cannot lock port/);
    const signalledAt = Date.now();
    signals.emit('SIGTERM');
    const code = await running;
    // Checked before anything else can run: the port's close had completed when the command returned.
    expect({ code, closed }).toEqual({ code: 0, closed: 1 });
    const closeMs = Date.now() - signalledAt;
    // And so the port opens for someone else at once.
    expect(await tryOpen()).toBe('opened');
    expect(out.filter((line) => line.startsWith('stderr:'))).toEqual([]);
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
    console.info(`hardware: cards closed its port ${closeMs} ms after SIGTERM`);
  });

  it('a second signal while the port hangs on closing gives up on it: one line on stderr, exit 1', { timeout: 30_000 }, async () => {
    const ports = await pair('cli-hang');
    const signals = new (await import('node:events')).EventEmitter();
    const err: string[] = [];
    const exits: number[] = [];
    // A driver that never finishes closing (some USB adapters do while output is stuck).
    const createPort: PortFactory = (options) => {
      const port = new SerialPort({ ...options, autoOpen: false });
      port.close = (() => undefined) as SerialPort['close'];
      cleanups.push(() => new Promise((resolve) => SerialPort.prototype.close.call(port, () => resolve())));
      return port;
    };
    const out: string[] = [];
    const io: CardsIo = { out: (text) => out.push(text), err: (text) => err.push(text), signals, onOutputGone: () => {}, exit: (code) => exits.push(code), source: { createPort } };
    void cardsMain(['--port', ports.b], io);
    await waitFor(() => out.some((line) => line.includes('"connected"')), 'the command to connect');
    signals.emit('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect({ err, exits }).toEqual({ err: [], exits: [] });
    signals.emit('SIGINT');
    expect({ err, exits }).toEqual({ err: ['cards: interrupted while closing the port\n'], exits: [1] });
  });

  it('a registered deck keeps the reader\'s pattern and byte notation', { timeout: 60_000 }, async () => {
    const ports = await pair('cli-register-pattern');
    const reader = profileFile({ name: 'uno', framing: { kind: 'lines' }, decoder: { kind: 'uid', pattern: '^(?<reader>\\d)\\|(?<uid>[0-9 ]+)$', uidBytes: 'decimal' } });
    const table = join(ports.dir, 'deck.json');
    const register = npmRun('cards', ['--port', ports.b, '--decoder', reader, '--register', table]);
    await waitFor(() => connectedCount(register) === 1, 'the cards CLI to connect', 15_000);
    const writer = await PtyWriter.open(ports.a);
    cleanups.push(() => writer.close());
    await writer.write(REGISTRATION_ORDER.map((_, index) => `0|4 161 ${index} 127\r\n`).join(''));
    expect(await register.exit).toBe(0);
    const saved = readProfile(JSON.parse(readFileSync(table, 'utf8')));
    expect(saved.decoder).toMatchObject({ kind: 'uid', pattern: '^(?<reader>\\d)\\|(?<uid>[0-9 ]+)$', uidBytes: 'decimal' });
    expect(Object.keys((saved.decoder as { cards: Record<string, string> }).cards).slice(0, 2)).toEqual(['04A1007F', '04A1017F']);
    const read = npmRun('cards', ['--port', ports.b, '--decoder', table, '--count', '1']);
    await waitFor(() => connectedCount(read) === 1, 'the cards CLI to connect', 15_000);
    await writer.write('1|4 161 13 127\r\n');
    expect(await read.exit).toBe(0);
    expect(read.lines().at(-1)).toEqual({ type: 'card', card: 'Ah', raw: '1|4 161 13 127', reader: '1' });
  });
  it('a reader per seat: a card line names the seat its antenna lies under (the profile\'s readers)', { timeout: 30_000 }, async () => {
    const ports = await pair('cli-readers');
    const table = profileFile({ name: 'table-4', framing: { kind: 'lines' }, decoder: { kind: 'uid', pattern: '^(?<reader>\\d)\\|(?<uid>[0-9A-F]+)$', cards: { '04A2B3C4': 'As', '04A2B3C5': 'Kd' } }, readers: { '0': 1, '2': 3 } });
    const read = npmRun('cards', ['--port', ports.b, '--decoder', table, '--count', '2']);
    await waitFor(() => connectedCount(read) === 1, 'the cards CLI to connect', 15_000);
    const writer = await PtyWriter.open(ports.a);
    cleanups.push(() => writer.close());
    await writer.write('2|04A2B3C4\r\n7|04A2B3C5\r\n');
    expect(await read.exit).toBe(0);
    expect(read.lines().filter((line) => line.type === 'card')).toEqual([
      { type: 'card', card: 'As', raw: '2|04A2B3C4', reader: '2', seat: 3 },
      // An antenna the map does not name: no seat.
      { type: 'card', card: 'Kd', raw: '7|04A2B3C5', reader: '7' },
    ]);
  });

  it('binary frames (issue 26): a Zebra SSI scanner and a PN532 send through `shoe`, `cards` reads the same cards; a damaged frame is refused with its bytes in hex', { timeout: 90_000 }, async () => {
    // The PN532's deck: a tag per card, as "register deck" would have filled it.
    const tags = Object.fromEntries(REGISTRATION_ORDER.map((card, index) => [`04A2${index.toString(16).toUpperCase().padStart(2, '0')}C4`, card]));
    const pn532 = profileFile({ ...BINARY_PROFILES['pn532-uart'], decoder: { kind: 'uid', cards: tags } });
    for (const format of ['zebra-ssi', pn532]) {
      const ports = await pair('cli-binary');
      const cards = npmRun('cards', ['--port', ports.b, '--decoder', format, '--count', '52']);
      await waitFor(() => connectedCount(cards) === 1, 'the cards CLI to connect', 15_000);
      const shoe = npmRun('shoe', ['--port', ports.a, '--seed', '7', '--rate', '400', '--format', format]);
      expect(await shoe.exit).toBe(0);
      expect(await cards.exit).toBe(0);
      expect(shoe.stderr()).toBe('');
      const read = cards.lines().filter((line) => line.type !== 'status');
      expect(read.map((line) => line.card)).toEqual(shuffledShoe(7));
      // Each read shown whole, in hex, as it came over the wire.
      for (const line of read) expect(line.raw).toMatch(/^(?:[0-9A-F]{2} )+[0-9A-F]{2}$/);
    }
    const ports = await pair('cli-binary-damaged');
    const cards = npmRun('cards', ['--port', ports.b, '--decoder', 'zebra-ssi', '--count', '1']);
    await waitFor(() => connectedCount(cards) === 1, 'the cards CLI to connect', 15_000);
    const scanner = await PtyWriter.open(ports.a);
    cleanups.push(() => scanner.close());
    // `AS` with its checksum's last byte damaged, then sent again whole.
    await scanner.write(Buffer.from('07F30000034153FE6E07F30000034153FE6F', 'hex'));
    expect(await cards.exit).toBe(0);
    expect(cards.lines().filter((line) => line.type !== 'status')).toEqual([
      { type: 'unknown', raw: '07 F3 00 00 03 41 53 FE 6E', reason: 'bad negated-sum checksum at byte 7: got FE 6E, expected FE 6F' },
      { type: 'card', card: 'As', raw: '07 F3 00 00 03 41 53 FE 6F' },
    ]);
  });
});

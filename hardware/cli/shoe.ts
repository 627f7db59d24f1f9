import { randomInt } from 'node:crypto';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { SerialPort } from 'serialport';
import { InputError } from '../../engine/errors';
import { encodeCard, encodeText } from '../encoding';
import { cardInterval, shuffledShoe } from '../simulator/shoe';
import { describePortError } from '../transport/portErrors';
import { parseOptions, profileArgument, runCommand } from './args';

/**
 * Simulated card shoe: `npm run shoe -- --port PATH [--seed N] [--decks N] [--rate CARDS_PER_S]
 * [--format NAME|FILE] [--count N]`. Deals a shuffled shoe to the port in a built-in device format
 * or that of a JSON profile file (its framing, checksum, Code ID and line settings: what
 * `cards --decoder FILE` reads), then sends the device message EMPTY. Prints one line per card on
 * stdout; errors on stderr. Exit 0 when dealt, 1 when the port fails, 2 for bad arguments.
 */
const OPTIONS = {
  port: { kind: 'text', required: true },
  seed: { kind: 'whole', min: 0, max: 4294967295 },
  decks: { kind: 'whole', min: 1, max: 8 },
  rate: { kind: 'number', min: 0.1, max: 1000 },
  format: { kind: 'text' },
  count: { kind: 'whole', min: 1, max: 1_000_000 },
} as const;

function openPort(port: SerialPort): Promise<void> {
  return new Promise((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
}

function send(port: SerialPort, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    port.write(bytes, (error) => {
      if (error) reject(error);
    });
    port.drain((error) => (error ? reject(error) : resolve()));
  });
}

async function main(args: readonly string[]): Promise<number> {
  const options = parseOptions(args, OPTIONS);
  const path = options.port as string;
  const format = options.format ?? 'text';
  const profile = profileArgument(format, '--format');
  try {
    encodeCard('As', profile);
  } catch (error) {
    if (error instanceof InputError) throw new InputError('--format', `"${format}" cannot be simulated (${error.reason}); choose another format`);
    throw error;
  }
  const seed = options.seed ?? randomInt(0, 4294967296);
  const decks = options.decks ?? 1;
  const rate = options.rate ?? 2;
  const shoe = shuffledShoe(seed, decks);
  const cards = shoe.slice(0, options.count ?? shoe.length);
  const interval = cardInterval(rate, profile);

  const { dataBits, parity, stopBits, rtscts } = profile;
  const port = new SerialPort({ path, baudRate: profile.baud, dataBits, parity, stopBits, rtscts, autoOpen: false });
  port.on('error', () => {}); // failures surface through the open and write callbacks
  try {
    await openPort(port);
  } catch (error) {
    process.stderr.write(`shoe: ${describePortError(error, path, 'open').message}\n`);
    return 1;
  }
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  out(`shoe: seed ${seed}, ${decks} deck${decks === 1 ? '' : 's'} (${shoe.length} cards); dealing ${cards.length} as "${format}" at ${rate} cards/s to ${path}`);
  try {
    for (const [index, card] of cards.entries()) {
      await send(port, encodeCard(card, profile));
      out(`${index + 1} ${card}`);
      await sleep(interval);
    }
    // A tag reader whose frames carry tag IDs in hex has no way to say "empty": it sends none.
    const empty = (() => {
      try {
        return encodeText('EMPTY', profile);
      } catch (error) {
        if (error instanceof InputError) return null;
        throw error;
      }
    })();
    if (empty !== null) {
      await send(port, empty);
      out('EMPTY');
    }
  } catch (error) {
    process.stderr.write(`shoe: ${describePortError(error, path, 'connected').message}\n`);
    return 1;
  } finally {
    if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  }
  return 0;
}

runCommand('shoe', main);

import process from 'node:process';
import { writeFileSync } from 'node:fs';
import { InputError } from '../../engine/errors';
import { REGISTRATION_ORDER, UidDecoder } from '../decoding/uid';
import { BUILT_IN_PROFILES, DEFAULT_PROFILE, type DeviceProfile } from '../profile';
import { SerialSource } from '../transport/serialSource';
import { parseOptions, profileArgument, runCommand } from './args';
import { eventLine } from './eventLine';

/**
 * Field diagnostics: `npm run --silent cards -- --port PATH [--baud N] [--decoder NAME|FILE]
 * [--count N] [--register FILE]`. Prints one JSON object per line per event and keeps the port across unplug and
 * replug. Exits 0 after --count cards, or on SIGINT/SIGTERM; 1 when the port cannot be opened
 * at all (the error status line is printed, and its message on stderr); 2 for bad arguments
 * (one line on stderr, nothing on stdout). With --register, the deck's RFID tags are read in
 * REGISTRATION_ORDER and the table is saved to FILE as a profile for --decoder.
 */
const OPTIONS = {
  port: { kind: 'text', required: true },
  baud: { kind: 'whole', min: 50, max: 4_000_000 },
  decoder: { kind: 'text' },
  count: { kind: 'whole', min: 1, max: 1_000_000_000 },
  register: { kind: 'text' },
} as const;

async function main(args: readonly string[]): Promise<number> {
  const options = parseOptions(args, OPTIONS);
  const path = options.port as string;
  let profile = options.decoder === undefined ? DEFAULT_PROFILE : profileArgument(options.decoder, '--decoder');
  if (options.baud !== undefined) profile = { ...profile, baud: options.baud };

  // "Register deck": every new tag read gets the next card of REGISTRATION_ORDER; the table is saved as a profile.
  const registering = options.register !== undefined ? new UidDecoder(profile.decoder.kind === 'uid' ? profile.decoder.cards : {}) : undefined;
  if (registering) {
    if (options.decoder === undefined) profile = { ...(BUILT_IN_PROFILES.rfid as DeviceProfile), baud: profile.baud };
    else if (profile.decoder.kind !== 'uid') throw new InputError('--register', `needs a tag-ID decoder (rfid), not ${profile.name}`);
    registering.startRegistration(REGISTRATION_ORDER);
  }
  const source = new SerialSource(registering ? { decoder: registering } : {});
  let finished = false;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = (code) => {
      if (finished) return;
      finished = true;
      resolve(code);
    };
  });
  let cards = 0;
  source.on((event) => {
    if (finished) return;
    process.stdout.write(`${eventLine(event)}\n`);
    if (event.type === 'card' && options.count !== undefined && ++cards >= options.count) finish(0);
    if (event.type === 'card' && registering && !registering.registering) {
      const saved: DeviceProfile = { ...profile, name: 'rfid-deck', decoder: { kind: 'uid', cards: registering.entries() } };
      writeFileSync(options.register as string, `${JSON.stringify(saved, null, 2)}\n`);
      process.stderr.write(`cards: all 52 tags registered; use --decoder ${options.register}\n`);
      finish(0);
    }
  });
  process.stdout.on('error', () => finish(0)); // the reader went away (e.g. `| head`)
  const stop = (): void => finish(0);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const first = await source.open(path, profile.baud, profile);
  if (first.state === 'error') {
    process.stderr.write(`cards: ${first.message ?? first.code ?? 'cannot open the port'}\n`);
    finish(1);
  }
  const code = await done;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  await source.close();
  return code;
}

runCommand('cards', main);

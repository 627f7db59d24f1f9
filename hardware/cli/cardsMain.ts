import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { InputError } from '../../engine/errors';
import { REGISTRATION_ORDER, UidDecoder } from '../decoding/uid';
import { BUILT_IN_PROFILES, DEFAULT_PROFILE, type DeviceProfile } from '../profile';
import { SerialSource, type SerialSourceOptions } from '../transport/serialSource';
import { LINE_OPTION_SPECS, parseOptions, profileArgument, withLineOptions } from './args';
import { detectMain, refuseWithDetect } from './detect';
import { eventLine } from './eventLine';

/**
 * Field diagnostics: `npm run --silent cards -- --port PATH [--baud N] [--decoder NAME|FILE]
 * [--data-bits 5|6|7|8] [--parity none|even|odd|mark|space] [--stop-bits 1|1.5|2] [--rtscts]
 * [--count N] [--register FILE]`. Prints one JSON object per line per event and keeps the port
 * across unplug and replug. The line options override the profile's. Exits 0 after --count
 * cards, or on SIGINT/SIGTERM once the port is closed; 1 when the port cannot be opened at all
 * (the error status line is printed, and its message on stderr); 2 for bad arguments (one line
 * on stderr, nothing on stdout). With --register, the deck's RFID tags are read in
 * REGISTRATION_ORDER and the table is saved to FILE as a profile for --decoder. With --detect
 * [--listen-ms N] [--save FILE] it finds the reader's settings instead (see detectMain).
 */
export const CARDS_OPTIONS = {
  port: { kind: 'text', required: true },
  baud: { kind: 'whole', min: 50, max: 4_000_000 },
  decoder: { kind: 'text' },
  ...LINE_OPTION_SPECS,
  count: { kind: 'whole', min: 1, max: 1_000_000_000 },
  register: { kind: 'text' },
  detect: { kind: 'flag' },
  'listen-ms': { kind: 'whole', min: 200, max: 60_000 },
  save: { kind: 'text' },
} as const;

/** Where the command writes and where its signals come from: the process, or a test's stand-ins. */
export interface CardsIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Emits SIGINT and SIGTERM. */
  readonly signals: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
  /** Calls back when standard output is gone (`| head` exited): the command stops as if signalled. */
  readonly onOutputGone: (listener: () => void) => void;
  /** Ends the process at once: a second signal while the port is still closing. */
  readonly exit: (code: number) => void;
  readonly source?: SerialSourceOptions;
}

const PROCESS_IO: CardsIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  signals: process,
  onOutputGone: (listener) => process.stdout.on('error', listener),
  exit: (code) => process.exit(code),
};

/** Resolves with the exit code, and only once the port is closed. */
export async function cardsMain(args: readonly string[], io: CardsIo = PROCESS_IO): Promise<number> {
  const options = parseOptions(args, CARDS_OPTIONS);
  const path = options.port as string;
  if (options.detect === true) {
    refuseWithDetect(options);
    return detectMain({ port: path, listenMs: options['listen-ms'], save: options.save, baud: options.baud }, io);
  }
  for (const name of ['listen-ms', 'save'] as const) if (options[name] !== undefined) throw new InputError(`--${name}`, 'only goes with --detect');
  let profile: DeviceProfile;
  if (options.decoder !== undefined) profile = profileArgument(options.decoder, '--decoder');
  // "Register deck" without a decoder reads tags with the built-in RFID profile.
  else profile = options.register !== undefined ? (BUILT_IN_PROFILES.rfid as DeviceProfile) : DEFAULT_PROFILE;
  if (options.baud !== undefined) profile = { ...profile, baud: options.baud };
  profile = withLineOptions(profile, options);

  // "Register deck": every new tag read gets the next card of REGISTRATION_ORDER; the table is saved as a profile.
  let registering: UidDecoder | undefined;
  if (options.register !== undefined) {
    if (profile.decoder.kind !== 'uid') throw new InputError('--register', `needs a tag-ID decoder (rfid), not ${profile.name}`);
    registering = new UidDecoder(profile.decoder.cards, profile.decoder);
    registering.startRegistration(REGISTRATION_ORDER);
  }
  const source = new SerialSource({ ...io.source, ...(registering ? { decoder: registering } : {}) });
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
    io.out(`${eventLine(event, profile.readers)}\n`);
    if (event.type === 'card' && options.count !== undefined && ++cards >= options.count) finish(0);
    if (event.type === 'card' && registering && !registering.registering && profile.decoder.kind === 'uid') {
      // The reader's pattern and byte notation are kept: the table is read back the same way.
      const saved: DeviceProfile = { ...profile, name: 'rfid-deck', decoder: { ...profile.decoder, cards: registering.entries() } };
      writeFileSync(options.register as string, `${JSON.stringify(saved, null, 2)}\n`);
      io.err(`cards: all 52 tags registered; use --decoder ${options.register}\n`);
      finish(0);
    }
  });
  io.onOutputGone(() => finish(0));
  // The first signal closes the port and exits 0; one more while the port is still closing (a
  // driver that hangs on close) gives up on it.
  const stop = (): void => {
    if (!finished) return finish(0);
    io.err('cards: interrupted while closing the port\n');
    io.exit(1);
  };
  io.signals.on('SIGINT', stop);
  io.signals.on('SIGTERM', stop);
  try {
    const first = await source.open(path, profile.baud, profile);
    if (first.state === 'error') {
      io.err(`cards: ${first.message ?? first.code ?? 'cannot open the port'}\n`);
      finish(1);
    }
    const code = await done;
    await source.close();
    return code;
  } finally {
    io.signals.off('SIGINT', stop);
    io.signals.off('SIGTERM', stop);
  }
}

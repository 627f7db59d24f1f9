import { InputError } from '../engine/errors';
import { booleanOf, isRecord, oneOf, orSaid, wholeIn } from './deviceKind';
import { DEVICE_MESSAGES, type DeviceMessage } from './events';
import { DEFAULT_INDEX_OPTIONS } from './decoding/indexed';
import { DATA_BITS, DEFAULT_LINE_SETTINGS, describeLine, PARITIES, STOP_BITS, type LineSettings } from './lineSettings';
import { describeDecoder, describeFraming, readDecoder, readFraming, type DecoderConfig, type FramingConfig } from './registry';

// The framers and decoders are listed, read and built by the registry; these stay importable from here.
export { createDecoder, createFramer, type DecoderConfig, type FramingConfig } from './registry';

export { DATA_BITS, DEFAULT_LINE_SETTINGS, describeLine, isDefaultLine, PARITIES, STOP_BITS, type DataBits, type LineSettings, type Parity, type StopBits } from './lineSettings';

/** The largest `repeatMs` and `graceMs`: a minute. */
export const MAX_WINDOW_MS = 60_000;

/** How one kind of device talks: everything needed to read it, as data, so a new shoe needs no code. */
export interface DeviceProfile extends LineSettings {
  readonly name: string;
  readonly baud: number;
  readonly framing: FramingConfig;
  readonly decoder: DecoderConfig;
  /** Frame texts (compared case-insensitively) that are device messages, not cards. */
  readonly messages: Readonly<Record<string, DeviceMessage>>;
  /**
   * The same card, tag or device message read again within this many milliseconds of the
   * previous identical read is the same read and gives no event (an RFID tag lying on the
   * antenna, a scanner's double beep). Measured from the previous identical read, repeats
   * included, so a tag left on the antenna for 10 s is still one read. 0: off.
   */
  readonly repeatMs: number;
  /**
   * Frames received in the first `graceMs` milliseconds after the port opens are skipped (the
   * banner of a reader that resets when the port opens), then reported once as one `unknown`
   * event saying how many. 0: off.
   */
  readonly graceMs: number;
  /** Set DTR to this right after the port opens (port.set); absent: left as the system sets it. */
  readonly dtr?: boolean;
  /** The scanner puts a one-letter Code ID before everything it sends: strip it (see stripCodeId). */
  readonly codeId: boolean;
}

export const DEFAULT_MESSAGES: Readonly<Record<string, DeviceMessage>> = {
  EMPTY: 'shoe-empty',
  'SHOE EMPTY': 'shoe-empty',
  NEW: 'new-shoe',
  'NEW SHOE': 'new-shoe',
};

const lines: FramingConfig = { kind: 'lines' };
function builtIn(name: string, framing: FramingConfig, decoder: DecoderConfig, extra: Partial<DeviceProfile> = {}): DeviceProfile {
  return { name, baud: 9600, ...DEFAULT_LINE_SETTINGS, framing, decoder, messages: DEFAULT_MESSAGES, repeatMs: 0, graceMs: 0, codeId: false, ...extra };
}

/**
 * The built-in profiles the console offers (its settings' `source.decoder`): each has a label in
 * the console's languages. ALL_BUILT_IN_PROFILES adds those it does not offer yet.
 */
export const BUILT_IN_PROFILES: Readonly<Record<string, DeviceProfile>> = {
  text: builtIn('text', lines, { kind: 'text' }),
  'suit-number': builtIn('suit-number', lines, { kind: 'suit-number' }),
  index1: builtIn('index1', lines, { kind: 'index', ...DEFAULT_INDEX_OPTIONS }),
  index0: builtIn('index0', lines, { kind: 'index', ...DEFAULT_INDEX_OPTIONS, base: 0 }),
  'stx-text': builtIn('stx-text', { kind: 'stx-etx', checksum: 'xor' }, { kind: 'text' }),
  'stx-sum': builtIn('stx-sum', { kind: 'stx-etx', checksum: 'sum' }, { kind: 'text' }),
  barcode: builtIn('barcode', { kind: 'silence', idleMs: 50 }, { kind: 'text' }),
  // A reader reports a tag for as long as it lies on the antenna; 1.5 s covers the usual
  // re-report intervals (100–1000 ms) while a card dealt onto the reader takes longer to replace.
  rfid: builtIn('rfid', lines, { kind: 'uid' }, { repeatMs: 1500 }),
};

/**
 * Every built-in profile, by the name `cards --decoder` and `shoe --format` take. `stx-plain`
 * (STX…ETX without a checksum) is not in the console's list yet: it has no label there.
 */
export const ALL_BUILT_IN_PROFILES: Readonly<Record<string, DeviceProfile>> = {
  ...BUILT_IN_PROFILES,
  'stx-plain': builtIn('stx-plain', { kind: 'stx-etx', checksum: 'none' }, { kind: 'text' }),
};

export const DEFAULT_PROFILE = BUILT_IN_PROFILES.text as DeviceProfile;

/**
 * The line settings of a profile (or of command-line options, by the same field names), each
 * missing one taken from `base`. Refuses a bad value naming its field (`dataBits` …).
 */
export function readLineSettings(value: Readonly<Record<string, unknown>>, base: LineSettings = DEFAULT_LINE_SETTINGS): LineSettings {
  return {
    dataBits: oneOf(value.dataBits, 'dataBits', DATA_BITS, base.dataBits),
    parity: oneOf(value.parity, 'parity', PARITIES, base.parity),
    stopBits: oneOf(value.stopBits, 'stopBits', STOP_BITS, base.stopBits),
    rtscts: booleanOf(value.rtscts, 'rtscts') ?? base.rtscts,
  };
}

/**
 * Validates a device profile given as JSON (a saved setting or a file), naming the bad field.
 * The one validator of profiles: what it returns is complete (every default filled in) and
 * reads back to itself.
 */
export function readProfile(value: unknown): DeviceProfile {
  if (!isRecord(value)) throw new InputError('profile', { key: 'hardware.profile.notObject' });
  const messages = value.messages ?? DEFAULT_MESSAGES;
  if (!isRecord(messages) || Object.values(messages).some((message) => !DEVICE_MESSAGES.includes(message as DeviceMessage))) {
    throw new InputError('messages', { key: 'hardware.profile.messages', params: { options: orSaid(DEVICE_MESSAGES) } });
  }
  const dtr = booleanOf(value.dtr, 'dtr');
  return {
    name: typeof value.name === 'string' && value.name.trim() !== '' ? value.name.trim() : 'custom',
    baud: wholeIn(value.baud, 'baud', 50, 4_000_000, 9600),
    ...readLineSettings(value),
    framing: readFraming(value.framing),
    decoder: readDecoder(value.decoder),
    messages: messages as Record<string, DeviceMessage>,
    repeatMs: wholeIn(value.repeatMs, 'repeatMs', 0, MAX_WINDOW_MS, 0),
    graceMs: wholeIn(value.graceMs, 'graceMs', 0, MAX_WINDOW_MS, 0),
    ...(dtr === undefined ? {} : { dtr }),
    codeId: booleanOf(value.codeId, 'codeId') ?? false,
  };
}

/**
 * The profile in one English sentence, for a person checking a setting (the console translates
 * its own summary from the same fields).
 */
export function profileSummary(profile: DeviceProfile): string {
  const extras = [
    profile.codeId ? 'a one-letter Code ID stripped' : '',
    profile.repeatMs > 0 ? `the same read within ${profile.repeatMs} ms counted once` : '',
    profile.graceMs > 0 ? `the first ${profile.graceMs} ms after opening skipped` : '',
    profile.dtr === undefined ? '' : `DTR set ${profile.dtr ? 'on' : 'off'} after opening`,
  ].filter((extra) => extra !== '');
  return `${profile.name}: ${profile.baud} baud, ${describeLine(profile)}; ${describeFraming(profile.framing)}; ${describeDecoder(profile.decoder)}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
}

import { isCard, type Card } from '../engine/cards';
import { InputError } from '../engine/errors';
import { DEVICE_MESSAGES, type DeviceMessage } from './events';
import type { Decoder } from './decoding/decoder';
import { DEFAULT_INDEX_OPTIONS, indexDecoder, type IndexOptions } from './decoding/indexed';
import { patternDecoder, type PatternOptions } from './decoding/pattern';
import { suitNumberDecoder } from './decoding/suitNumber';
import { textDecoder, type TextOptions } from './decoding/text';
import { UID_BYTES, UidDecoder, type UidOptions } from './decoding/uid';
import { DEFAULT_MAX_FRAME, type Framer } from './framing/frame';
import { DATA_BITS, DEFAULT_LINE_SETTINGS, PARITIES, STOP_BITS, type LineSettings } from './lineSettings';
import { lineFramer } from './framing/lines';
import { silenceFramer } from './framing/silence';
import { CHECKSUMS, stxEtxFramer, type Checksum } from './framing/stxEtx';

export type FramingConfig =
  | { readonly kind: 'lines'; readonly maxLength?: number }
  | {
      readonly kind: 'stx-etx';
      readonly checksum: Checksum;
      /** The checksum counts the STX as well as the data and the ETX. Only with a checksum. */
      readonly checksumIncludesStx?: boolean;
      readonly maxLength?: number;
    }
  | { readonly kind: 'silence'; readonly idleMs: number; readonly maxLength?: number };

export type DecoderConfig =
  | ({ readonly kind: 'text' } & TextOptions)
  | { readonly kind: 'suit-number' }
  | ({ readonly kind: 'index' } & IndexOptions)
  | ({ readonly kind: 'pattern' } & PatternOptions)
  | ({ readonly kind: 'uid'; readonly cards?: Readonly<Record<string, Card>> } & UidOptions);

export { DATA_BITS, DEFAULT_LINE_SETTINGS, PARITIES, STOP_BITS, type DataBits, type LineSettings, type Parity, type StopBits } from './lineSettings';

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

export function createFramer(framing: FramingConfig): Framer {
  const maxLength = framing.maxLength ?? DEFAULT_MAX_FRAME;
  if (framing.kind === 'lines') return lineFramer(maxLength);
  if (framing.kind === 'stx-etx') return stxEtxFramer(framing.checksum, maxLength, { includesStx: framing.checksumIncludesStx === true });
  return silenceFramer(framing.idleMs, maxLength);
}

export function createDecoder(decoder: DecoderConfig): Decoder {
  switch (decoder.kind) {
    case 'text':
      return textDecoder(decoder);
    case 'suit-number':
      return suitNumberDecoder();
    case 'index':
      return indexDecoder(decoder);
    case 'pattern':
      return patternDecoder(decoder);
    case 'uid':
      return new UidDecoder(decoder.cards, decoder);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeIn(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InputError(field, `must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return value;
}

function booleanOf(value: unknown, field: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new InputError(field, `must be true or false (got ${JSON.stringify(value)})`);
}

function oneOf<T extends string | number>(value: unknown, field: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (choices.includes(value as T)) return value as T;
  const listed = choices.map(String);
  const words = typeof choices[0] === 'number' ? `must be ${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}` : `choose one of ${listed.join(', ')}`;
  throw new InputError(field, `${words} (got ${JSON.stringify(value)})`);
}

function stringTable(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || Object.values(value).some((entry) => typeof entry !== 'string')) {
    throw new InputError(field, 'must be an object of texts, e.g. {"01": "A"}');
  }
  return value as Record<string, string>;
}

/** A regular expression given as text, with the named groups it must have (one of `needs`). */
function regexOf(value: unknown, field: string, needs: readonly (readonly string[])[], help: string): string {
  if (typeof value !== 'string') throw new InputError(field, 'must be a regular expression as text');
  try {
    new RegExp(value, 'u');
  } catch (error) {
    throw new InputError(field, `not a valid regular expression: ${(error as Error).message}`);
  }
  const groups = [...value.matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map((match) => match[1] as string);
  if (!needs.some((names) => names.every((name) => groups.includes(name)))) throw new InputError(field, help);
  return value;
}

function readFraming(value: unknown): FramingConfig {
  if (!isRecord(value)) throw new InputError('framing', 'must be an object with a "kind": lines, stx-etx or silence');
  const maxLength = wholeIn(value.maxLength, 'framing.maxLength', 1, 65536, DEFAULT_MAX_FRAME);
  if (value.kind === 'lines') return { kind: 'lines', maxLength };
  if (value.kind === 'stx-etx') {
    const checksum = value.checksum ?? 'none';
    if (!CHECKSUMS.includes(checksum as Checksum)) throw new InputError('framing.checksum', `choose one of ${CHECKSUMS.join(', ')}`);
    const includesStx = booleanOf(value.checksumIncludesStx, 'framing.checksumIncludesStx');
    if (includesStx === true && checksum === 'none') {
      throw new InputError('framing.checksumIncludesStx', `only goes with a checksum (${CHECKSUMS.slice(1).join(', ')})`);
    }
    return { kind: 'stx-etx', checksum: checksum as Checksum, ...(includesStx === undefined ? {} : { checksumIncludesStx: includesStx }), maxLength };
  }
  if (value.kind === 'silence') return { kind: 'silence', idleMs: wholeIn(value.idleMs, 'framing.idleMs', 5, 5000, 50), maxLength };
  throw new InputError('framing.kind', `unknown framing ${JSON.stringify(value.kind)}; choose lines, stx-etx or silence`);
}

function readIndexOptions(value: Record<string, unknown>): IndexOptions {
  const base = value.base ?? DEFAULT_INDEX_OPTIONS.base;
  if (base !== 0 && base !== 1) throw new InputError('decoder.base', 'must be 0 (cards 0–51) or 1 (cards 1–52)');
  const suitOrder = value.suitOrder ?? DEFAULT_INDEX_OPTIONS.suitOrder;
  if (typeof suitOrder !== 'string' || [...suitOrder].sort().join('') !== 'cdhs') {
    throw new InputError('decoder.suitOrder', 'must name each suit once, e.g. "shdc"');
  }
  const rankOrder = value.rankOrder ?? DEFAULT_INDEX_OPTIONS.rankOrder;
  if (typeof rankOrder !== 'string' || [...rankOrder].sort().join('') !== [...'23456789AJKQT'].sort().join('')) {
    throw new InputError('decoder.rankOrder', 'must name each rank once, e.g. "A23456789TJQK"');
  }
  return { base, suitOrder, rankOrder };
}

function readDecoder(value: unknown): DecoderConfig {
  if (!isRecord(value)) throw new InputError('decoder', 'must be an object with a "kind": text, suit-number, index, pattern or uid');
  switch (value.kind) {
    case 'text': {
      const aceAsOne = booleanOf(value.aceAsOne, 'decoder.aceAsOne');
      return { kind: 'text', ...(aceAsOne === undefined ? {} : { aceAsOne }) };
    }
    case 'suit-number':
      return { kind: value.kind };
    case 'index':
      return { kind: 'index', ...readIndexOptions(value) };
    case 'pattern': {
      const pattern = regexOf(value.pattern, 'decoder.pattern', [['card'], ['rank', 'suit']], 'needs named groups (?<rank>…) and (?<suit>…), or (?<card>…)');
      const ranks = stringTable(value.ranks, 'decoder.ranks');
      const suits = stringTable(value.suits, 'decoder.suits');
      return { kind: 'pattern', pattern, ...(ranks ? { ranks } : {}), ...(suits ? { suits } : {}) };
    }
    case 'uid': {
      const cards = value.cards ?? {};
      if (!isRecord(cards) || Object.values(cards).some((card) => !isCard(card))) {
        throw new InputError('decoder.cards', 'must map tag IDs to canonical cards, e.g. {"04A2B3C4": "As"}');
      }
      const pattern =
        value.pattern === undefined ? undefined : regexOf(value.pattern, 'decoder.pattern', [['uid']], 'needs a named group (?<uid>…) for the tag ID (and may have (?<reader>…))');
      const uidBytes = value.uidBytes === undefined ? undefined : oneOf(value.uidBytes, 'decoder.uidBytes', UID_BYTES, 'hex');
      return { kind: 'uid', cards: cards as Record<string, Card>, ...(pattern === undefined ? {} : { pattern }), ...(uidBytes === undefined ? {} : { uidBytes }) };
    }
    default:
      throw new InputError('decoder.kind', `unknown decoder ${JSON.stringify(value.kind)}; choose text, suit-number, index, pattern or uid`);
  }
}

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
  if (!isRecord(value)) throw new InputError('profile', 'must be a JSON object with "framing" and "decoder"');
  const messages = value.messages ?? DEFAULT_MESSAGES;
  if (!isRecord(messages) || Object.values(messages).some((message) => !DEVICE_MESSAGES.includes(message as DeviceMessage))) {
    throw new InputError('messages', `must map device texts to ${DEVICE_MESSAGES.join(' or ')}`);
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

/** `7 data bits, even parity, 1 stop bit` (and `, RTS/CTS flow control`). */
export function describeLine(settings: LineSettings): string {
  const parity = settings.parity === 'none' ? 'no parity' : `${settings.parity} parity`;
  const flow = settings.rtscts ? ', RTS/CTS flow control' : '';
  return `${settings.dataBits} data bits, ${parity}, ${settings.stopBits} stop bit${settings.stopBits === 1 ? '' : 's'}${flow}`;
}

/** The usual 8 data bits, no parity, 1 stop bit, no flow control. */
export function isDefaultLine(settings: LineSettings): boolean {
  return (Object.keys(DEFAULT_LINE_SETTINGS) as (keyof LineSettings)[]).every((key) => settings[key] === DEFAULT_LINE_SETTINGS[key]);
}

function describeFraming(framing: FramingConfig): string {
  if (framing.kind === 'lines') return 'one message per line (CR, LF or CRLF)';
  if (framing.kind === 'silence') return `one message per burst, ended by ${framing.idleMs} ms of silence`;
  if (framing.checksum === 'none') return 'STX…ETX frames without a checksum';
  const what = framing.checksum.startsWith('xor') ? 'an XOR' : 'a sum';
  const sent = framing.checksum.endsWith('-hex') ? 'two hex digits' : 'one byte';
  return `STX…ETX frames with ${what} checksum sent as ${sent}${framing.checksumIncludesStx === true ? ', counting the STX' : ''}`;
}

function describeDecoder(decoder: DecoderConfig): string {
  switch (decoder.kind) {
    case 'text':
      return `card codes such as As or 10h${decoder.aceAsOne === true ? ' (1 for the ace)' : ''}`;
    case 'suit-number':
      return 'a suit letter and a rank number such as S01 or D12';
    case 'index':
      return `card numbers ${decoder.base}–${decoder.base + 51} (suits ${decoder.suitOrder}, ranks ${decoder.rankOrder})`;
    case 'pattern':
      return `text matching ${decoder.pattern}`;
    case 'uid': {
      const tags = Object.keys(decoder.cards ?? {}).length;
      const bytes = decoder.uidBytes === undefined ? '' : `, bytes written in ${decoder.uidBytes}`;
      return `RFID tag IDs${decoder.pattern === undefined ? '' : ` taken out by ${decoder.pattern}`}${bytes}, ${tags} tag${tags === 1 ? '' : 's'} registered`;
    }
  }
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

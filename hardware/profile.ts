import { custom, is, isRecord, isWhole, object, parse, refuseAt, whenGiven, withDefault, type Infer, type Schema } from '../engine/schema';
import { BOOLEAN, choiceOf, flag, orSaid, wholeIn } from './deviceKind';
import { DEVICE_MESSAGES, type DeviceMessage } from './events';
import { DEFAULT_INDEX_OPTIONS } from './decoding/indexed';
import { DATA_BITS, DEFAULT_LINE_SETTINGS, describeLine, PARITIES, STOP_BITS, type LineSettings } from './lineSettings';
import { DECODER, describeDecoder, describeFraming, FRAMING, readFraming, type DecoderConfig, type FramingConfig } from './registry';

// The framers and decoders are listed, read and built by the registry; these stay importable from here.
export { createDecoder, createFramer, type DecoderConfig, type FramingConfig } from './registry';

export { DATA_BITS, DEFAULT_LINE_SETTINGS, describeLine, isDefaultLine, PARITIES, STOP_BITS, type DataBits, type LineSettings, type Parity, type StopBits } from './lineSettings';

/** The largest `repeatMs` and `graceMs`: a minute. */
export const MAX_WINDOW_MS = 60_000;

export const DEFAULT_MESSAGES: Readonly<Record<string, DeviceMessage>> = {
  EMPTY: 'shoe-empty',
  'SHOE EMPTY': 'shoe-empty',
  NEW: 'new-shoe',
  'NEW SHOE': 'new-shoe',
};

/** The line settings' fields (of a profile, or of command-line options by the same names), each left out taken from `base`. */
const lineFields = (base: LineSettings) => ({
  dataBits: choiceOf(DATA_BITS, base.dataBits),
  parity: choiceOf(PARITIES, base.parity),
  stopBits: choiceOf(STOP_BITS, base.stopBits),
  rtscts: whenGiven(BOOLEAN, base.rtscts),
});

/** The highest seat a profile's `readers` may name: a table's seats are 1 … 10 (the console's MAX_SEATS). */
export const MAX_READER_SEAT = 10;

/** A table's reader or antenna names, each with the seat it lies under (`{"0": 1, "1": 2}`). */
export type ReaderSeats = Readonly<Record<string, number>>;

/**
 * A profile's `readers`: which seat each reader or antenna lies under, by the name the device gives
 * it (the uid decoder's `reader` group). Left out: no seat map. Two readers may share a seat (a
 * seat with two antennas, or a reader replaced and both names kept): each read still names one
 * seat. A reader cannot lie under two seats (an object has each name once). Refused at `readers`
 * when not an object (or a name is blank), at `readers.<name>` for a seat out of range.
 */
const READERS: Schema<ReaderSeats | undefined> = whenGiven(
  custom((value): ReaderSeats => {
    const notObject = { key: 'hardware.readers.notObject', params: { example: '{"0": 1, "1": 2}' } } as const;
    if (!isRecord(value) || Array.isArray(value)) return refuseAt(null, notObject);
    const seats: Record<string, number> = {};
    for (const [reader, seat] of Object.entries(value)) {
      if (reader.trim() === '') refuseAt(null, notObject);
      if (!isWhole(seat, 1, MAX_READER_SEAT)) refuseAt(reader, { key: 'hardware.readers.seat', params: { max: MAX_READER_SEAT, got: String(JSON.stringify(seat)) } });
      seats[reader] = seat as number;
    }
    return seats;
  }),
  undefined,
);

/** The seat a reader lies under by a profile's `readers`, or null: no reader named, no map, or a reader the map does not name. */
export function seatOfReader(readers: ReaderSeats | undefined, reader: string | undefined): number | null {
  if (readers === undefined || reader === undefined || !Object.hasOwn(readers, reader)) return null;
  return readers[reader] ?? null;
}

/** How one kind of device talks: everything needed to read it, as data, so a new shoe needs no code. */
const PROFILE_FIELDS = object(
  {
    /** The profile's name, trimmed; `custom` when it has none. */
    name: custom((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : 'custom')),
    baud: wholeIn(50, 4_000_000, 9600),
    ...lineFields(DEFAULT_LINE_SETTINGS),
    framing: FRAMING,
    decoder: DECODER,
    /** Frame texts (compared case-insensitively) that are device messages, not cards. */
    messages: withDefault(
      is(
        (value): value is Readonly<Record<string, DeviceMessage>> => isRecord(value) && Object.values(value).every((message) => DEVICE_MESSAGES.includes(message as DeviceMessage)),
        { key: 'hardware.profile.messages', params: { options: orSaid(DEVICE_MESSAGES) } },
      ),
      DEFAULT_MESSAGES,
    ),
    /**
     * The same card, tag or device message read again within this many milliseconds of the
     * previous identical read is the same read and gives no event (an RFID tag lying on the
     * antenna, a scanner's double beep). Measured from the previous identical read, repeats
     * included, so a tag left on the antenna for 10 s is still one read. 0: off.
     */
    repeatMs: wholeIn(0, MAX_WINDOW_MS, 0),
    /**
     * Frames received in the first `graceMs` milliseconds after the port opens are skipped (the
     * banner of a reader that resets when the port opens), then reported once as one `unknown`
     * event saying how many. 0: off.
     */
    graceMs: wholeIn(0, MAX_WINDOW_MS, 0),
    /** Set DTR to this right after the port opens (port.set); absent: left as the system sets it. */
    dtr: flag,
    /** The scanner puts a one-letter Code ID before everything it sends: strip it (see stripCodeId). */
    codeId: whenGiven(BOOLEAN, false),
    /** RFID tables with an antenna per seat: each reader's seat (READERS). Absent: no seat map. */
    readers: READERS,
  },
  { key: 'hardware.profile.notObject' },
  // The messages and DTR were read first by the hand-written reader this replaces: the first refusal of a file stays the one it named.
  { readFirst: ['messages', 'dtr'] },
);

/** A device profile file: a JSON object (refused as a whole at `profile`), its fields as PROFILE_FIELDS reads them. */
export const PROFILE = custom((value, parent) => (isRecord(value) ? PROFILE_FIELDS.read(value, parent) : refuseAt('profile', { key: 'hardware.profile.notObject' })));

/** A device profile: its schema's type, every default filled in. */
export type DeviceProfile = Infer<typeof PROFILE>;

const lines: FramingConfig = { kind: 'lines' };

/**
 * The repeat window of the built-in tag readers. A reader reports a tag for as long as it lies on
 * the antenna; 1.5 s covers the usual re-report intervals (100–1000 ms) while a card dealt onto
 * the reader takes longer to replace.
 */
export const TAG_REPEAT_MS = 1500;

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
  rfid: builtIn('rfid', lines, { kind: 'uid' }, { repeatMs: TAG_REPEAT_MS }),
};

/**
 * Readers that send binary or checksummed frames (issue 26), each described by the `binary`
 * framing alone: the README shows each as a file with a sample of what the device sends. RFID
 * readers re-report a tag lying on the antenna, hence their repeat window (as the `rfid` profile's).
 */
export const BINARY_PROFILES: Readonly<Record<string, DeviceProfile>> = (() => {
  const tagReader = { repeatMs: TAG_REPEAT_MS };
  const uid: DecoderConfig = { kind: 'uid', cards: {} };
  const emTag = (length: number, end: string): FramingConfig => readFraming({
    kind: 'binary', start: '02', length, end,
    checksums: [{ kind: 'xor', over: { from: 1, to: 11 }, overHex: true, at: 11, sent: 'hex' }],
    message: { from: 1, to: 11, as: 'text' },
  });
  const profiles: DeviceProfile[] = [
    builtIn('rdm6300', emTag(14, '03'), uid, tagReader),
    builtIn('id12la', emTag(16, '0D0A03'), uid, tagReader),
    builtIn('zebra-ssi', readFraming({
      kind: 'binary', length: { at: 0, size: 1, counts: { from: 0, to: -2 } },
      checksums: [{ kind: 'negated-sum', size: 2, order: 'big', over: { from: 0, to: -2 }, at: -2 }],
      match: [{ at: 1, bytes: 'F3' }],
      message: { from: 5, to: -2, as: 'text' },
      // A length byte of 255 and the two checksum bytes.
      maxLength: 257,
    }), { kind: 'text' }, {
      // A scanner left in its ACK/NAK handshake resends a decode nobody acknowledged (status bit 0
      // set) within its timeout: the resend of a decode read is the same read; that of one lost is read.
      repeatMs: 1000,
    }),
    builtIn('pn532-uart', readFraming({
      kind: 'binary', start: '0000FF', length: { at: 3, size: 1, counts: { from: 5, to: -2 } }, end: '00',
      checksums: [{ kind: 'negated-sum', over: { from: 3, to: 4 }, at: 4 }, { kind: 'negated-sum', over: { from: 5, to: -2 }, at: -2 }],
      match: [{ at: 5, bytes: 'D54B' }],
      skip: ['0000FF00FF00', '0000FFFF0000'],
      message: { from: 13, to: -2, lengthAt: 12, as: 'hex' },
    }), uid, { ...tagReader, baud: 115200 }),
    builtIn('uhf-r200', readFraming({
      kind: 'binary', start: 'BB', length: { at: 3, size: 2, order: 'big', counts: { from: 5, to: -2 } }, end: '7E',
      checksums: [{ kind: 'sum', over: { from: 1, to: -2 }, at: -2 }],
      match: [{ at: 1, bytes: '0222' }],
      message: { from: 8, to: -4, as: 'hex' },
    }), uid, { ...tagReader, baud: 115200 }),
    builtIn('uhf-a0', readFraming({
      kind: 'binary', start: 'A0', length: { at: 1, size: 1, counts: { from: 0 } }, end: 'C0',
      checksums: [{ kind: 'sum', over: { from: 1, to: -2 }, at: -2 }],
      // STATUS 00: an error answer carries no tag (it must never be registered as one).
      match: [{ at: 4, bytes: '00' }],
      message: { from: 5, to: -2, as: 'hex' },
    }), uid, { ...tagReader, baud: 115200 }),
  ];
  return Object.fromEntries(profiles.map((profile) => [profile.name, profile]));
})();

/**
 * Every built-in profile, by the name `cards --decoder` and `shoe --format` take. `stx-plain`
 * (STX…ETX without a checksum) is not in the console's list yet: it has no label there.
 */
export const ALL_BUILT_IN_PROFILES: Readonly<Record<string, DeviceProfile>> = {
  ...BUILT_IN_PROFILES,
  'stx-plain': builtIn('stx-plain', { kind: 'stx-etx', checksum: 'none' }, { kind: 'text' }),
  ...BINARY_PROFILES,
};

export const DEFAULT_PROFILE = BUILT_IN_PROFILES.text as DeviceProfile;

/**
 * The line settings of a profile (or of command-line options, by the same field names), each
 * missing one taken from `base`. Refuses a bad value naming its field (`dataBits` …).
 */
export function readLineSettings(value: Readonly<Record<string, unknown>>, base: LineSettings = DEFAULT_LINE_SETTINGS): LineSettings {
  return parse(object(lineFields(base), { key: 'hardware.profile.notObject' }), value);
}

/**
 * Validates a device profile given as JSON (a saved setting or a file), naming the bad field
 * (PROFILE). The one validator of profiles: what it returns is complete (every default filled in)
 * and reads back to itself.
 */
export const readProfile = (value: unknown): DeviceProfile => parse(PROFILE, value);

/** A seat map in words, by seat: `reader 0 at seat 1, reader 1 at seat 2`. */
function describeReaders(readers: ReaderSeats): string {
  // By seat (an object's integer-like names come in number order, not the order they were mapped in).
  const entries = Object.entries(readers).sort(([readerA, seatA], [readerB, seatB]) => seatA - seatB || readerA.localeCompare(readerB));
  if (entries.length === 0) return 'no reader mapped to a seat';
  return entries.map(([reader, seat]) => `reader ${reader} at seat ${seat}`).join(', ');
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
    profile.readers === undefined ? '' : describeReaders(profile.readers),
  ].filter((extra) => extra !== '');
  return `${profile.name}: ${profile.baud} baud, ${describeLine(profile)}; ${describeFraming(profile.framing)}; ${describeDecoder(profile.decoder)}${extras.length > 0 ? `; ${extras.join('; ')}` : ''}`;
}

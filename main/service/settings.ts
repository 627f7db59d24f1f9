import { copyFile, constants, link, open, readFile, rm, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { isMultipleOf } from '../../engine/chips';
import { InputError } from '../../engine/errors';
import { refuseTooDeep } from '../../engine/validate';
import { englishText, type Message, type MessageParam } from '../../engine/messages';
import type { StructureInput } from '../../engine/plan/csv';
import { planColorUps, type ColorUpPlan } from '../../engine/plan/planner';
import { RULE_SET_NAMES, type RuleSetName } from '../../engine/race/rules';
import { BUILT_IN_PROFILES, MAX_WINDOW_MS, readLineSettings } from '../../hardware/profile';
import { DATA_BITS, PARITIES, STOP_BITS } from '../../hardware/lineSettings';
import { LANGUAGES, MAX_DECKS, MAX_SEATS, NAME_MAX, SOURCE_KINDS, TABLE_NAME_MAX, type ConsoleSettings, type FloorSettings, type Language, type SeatSettings, type SourceKind, type SourceSettings, type TournamentSettings } from '../../protocol/contract';
import { writeFileAtomically } from './atomicWrite';
import { floorTargetOf } from '../floorLink/target';

/**
 * A console never set up: no seat in play until the dealer ticks the table's (a 9-handed table
 * needs no unticking); once saved, the settings file remembers the last table's seats.
 */
export const DEFAULT_SETTINGS: ConsoleSettings = {
  table: {
    seats: [],
    button: 1,
    chipSet: [25, 100, 500, 1000, 5000],
    removed: 25,
    next: 100,
    rules: 'classic',
    decks: 1,
  },
  source: { kind: 'manual', path: '', baud: 9600, decoder: 'text' },
  language: 'en',
  tournament: { structure: null, atBreakAfter: null },
};

/**
 * A structure is kept as entered; the planner checks it and the plan must come out of it. Its
 * chips are the table's (`chips`): the settings file stores them once, in the table, so a
 * structure without `chips` takes the table's, and one that lists others is refused.
 */
function readTournament(value: unknown, chips: readonly number[]): TournamentSettings {
  if (value === undefined || value === null) return { structure: null, atBreakAfter: null };
  const tournament = record(value, 'tournament');
  if (tournament.structure === undefined || tournament.structure === null) return { structure: null, atBreakAfter: null };
  const given = record(tournament.structure, 'tournament.structure');
  const structure = { ...given, chips: given.chips ?? chips };
  let plan: ColorUpPlan;
  try {
    plan = planColorUps(structure);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(`tournament.structure.${error.field}`, error.said ?? error.reason);
    throw error;
  }
  if (!sameChips(plan.structure.chips, chips)) {
    throw new InputError('tournament.structure.chips', { key: 'settings.structureChips', params: { chips: chips.join(', '), given: plan.structure.chips.join(', ') } });
  }
  const at = tournament.atBreakAfter ?? null;
  if (at !== null && !plan.moments.includes(at as number)) {
    throw new InputError('tournament.atBreakAfter', { key: 'settings.noBreak', params: { level: got(at) } });
  }
  return { structure: structure as unknown as StructureInput, atBreakAfter: at as number | null };
}

const sameChips = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((chip, index) => chip === b[index]);

const MAX_NAME = NAME_MAX;

/** A value as a refusal quotes it: its JSON (`"100"`, `11`). */
const got = (value: unknown): string => String(JSON.stringify(value));

function record(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(field, { key: 'command.notObject' });
  return value as Record<string, unknown>;
}

function whole(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InputError(field, { key: 'settings.wholeRange', params: { min, max, got: got(value) } });
  }
  return value;
}

function oneOf<T extends string>(value: unknown, options: readonly T[], field: string): T {
  if (typeof value === 'string' && (options as readonly string[]).includes(value)) return value as T;
  throw new InputError(field, { key: 'settings.oneOf', params: { options: options.join(', '), got: got(value) } });
}

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw new InputError(field, { key: 'command.notText' });
  if (value.length > max) throw new InputError(field, { key: 'command.tooLong', params: { n: max } });
  return value.trim();
}

/** The seats in play: none only before the table is set up (the defaults); a table saved has 1 to MAX_SEATS (see `requireSeats`). */
function readSeats(value: unknown): SeatSettings[] {
  if (!Array.isArray(value) || value.length > MAX_SEATS) throw new InputError('table.seats', { key: 'command.seatCount', params: { n: MAX_SEATS } });
  const seats = value.map((entry, index) => {
    const seat = record(entry, `table.seats[${index}]`);
    return { seat: whole(seat.seat, `table.seats[${index}].seat`, 1, MAX_SEATS), name: text(seat.name ?? '', `table.seats[${index}].name`, MAX_NAME) };
  });
  const numbers = seats.map((seat) => seat.seat);
  const repeated = numbers.find((seat, index) => numbers.indexOf(seat) !== index);
  if (repeated !== undefined) throw new InputError('table.seats', { key: 'settings.seatTwice', params: { seat: repeated } });
  return seats.sort((a, b) => a.seat - b.seat);
}

/**
 * A table once set up keeps a seat in play: settings saved with none are refused (naming the field),
 * unless the table held has none either (a console never set up saving its language or source).
 */
export function requireSeats(settings: ConsoleSettings, held: ConsoleSettings): ConsoleSettings {
  if (settings.table.seats.length === 0 && held.table.seats.length > 0) throw new InputError('table.seats', { key: 'command.seatCount', params: { n: MAX_SEATS } });
  return settings;
}

/** Windows' name for a port in its device namespace, a parameter: the screens' message syntax would read its backslashes as escapes. */
const WINDOWS_DEVICE_EXAMPLE = '\\\\.\\COM3';

/** A serial port named from the root: `/dev/ttyUSB0`, `/dev/serial/by-id/…`; on Windows `COM3` or `\\.\COM3`. */
export function isAbsoluteSerialPath(path: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return /^(?:\\\\\.\\)?COM[1-9][0-9]*$/i.test(path);
  return path.startsWith('/');
}

/**
 * A serial port's path, checked: a relative one would be opened from wherever the console was
 * started. Empty is allowed (a serial source chosen, its port not yet: nothing is opened).
 */
function serialPath(path: string, platform: NodeJS.Platform): string {
  if (path === '' || isAbsoluteSerialPath(path, platform)) return path;
  throw new InputError('source.path', { key: platform === 'win32' ? 'settings.serialPathWindows' : 'settings.serialPathPosix', params: { got: got(path), device: WINDOWS_DEVICE_EXAMPLE } });
}

/** A device profile's name, in the shape profile names have (the service checks it names one). */
function profileName(value: unknown, field = 'source.decoder'): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(value)) {
    throw new InputError(field, { key: 'settings.profileName', params: { options: Object.keys(BUILT_IN_PROFILES).join(', '), got: got(value) } });
  }
  return value;
}

/** The choices of each line setting, as the hardware's reader of them has them. */
const LINE_CHOICES: Readonly<Record<string, readonly (string | number)[]>> = { dataBits: DATA_BITS, parity: PARITIES, stopBits: STOP_BITS };

/**
 * A line setting's refusal as a key, where the hardware's reader (readLineSettings) words it in
 * English only: its choices, or true or false. Said only when its English is the reader's very
 * words, so the message stays the reader's whatever it comes to say.
 */
function lineRefusal(error: InputError, value: unknown): Message | string {
  const choices = LINE_CHOICES[error.field];
  const params = { got: got(value) };
  const said: Message | null =
    error.field === 'rtscts' ? { key: 'settings.notBoolean', params }
    : choices === undefined ? null
    : typeof choices[0] === 'number'
      ? { key: 'settings.mustBe', params: { ...params, choices: { message: { key: 'poker.or', params: { list: choices.slice(0, -1).join(', '), last: String(choices.at(-1)) } } } } }
      : { key: 'settings.oneOf', params: { ...params, options: choices.join(', ') } };
  return said !== null && englishText(said) === error.reason ? said : error.reason;
}

/** The line settings and repeat window the settings put over the profile's, each only when given. */
function lineSettingsOf(source: Record<string, unknown>): Partial<Pick<SourceSettings, 'dataBits' | 'parity' | 'stopBits' | 'rtscts' | 'repeatMs'>> {
  const given = <K extends string>(key: K) => source[key] !== undefined && source[key] !== null;
  let line: Partial<Pick<SourceSettings, 'dataBits' | 'parity' | 'stopBits' | 'rtscts'>> = {};
  try {
    const read = readLineSettings(source);
    line = {
      ...(given('dataBits') ? { dataBits: read.dataBits } : {}),
      ...(given('parity') ? { parity: read.parity } : {}),
      ...(given('stopBits') ? { stopBits: read.stopBits } : {}),
      ...(given('rtscts') ? { rtscts: read.rtscts } : {}),
    };
  } catch (error) {
    if (error instanceof InputError) throw new InputError(`source.${error.field}`, error.said ?? lineRefusal(error, source[error.field]));
    throw error;
  }
  return { ...line, ...(given('repeatMs') ? { repeatMs: whole(source.repeatMs, 'source.repeatMs', 0, MAX_WINDOW_MS) } : {}) };
}

/** The dealer on duty, when named: kept only then, so settings without one read back as they were. */
function dealerOf(value: unknown): { dealer?: string } {
  const dealer = text(value ?? '', 'table.dealer', MAX_NAME);
  return dealer === '' ? {} : { dealer };
}

/**
 * The table's name or number, when named: trimmed text of at most TABLE_NAME_MAX characters, no
 * control characters (it is printed on slips and in spreadsheets); empty or absent, not named.
 */
function tableNameOf(value: unknown): { name?: string } {
  if (value === undefined || value === null) return {};
  // eslint-disable-next-line no-control-regex
  const name = typeof value === 'string' && !/[\u0000-\u001f\u007f-\u009f]/.test(value) ? value.trim() : null;
  if (name === null || name.length > TABLE_NAME_MAX) throw new InputError('table.name', { key: 'settings.tableName', params: { n: TABLE_NAME_MAX } });
  return name === '' ? {} : { name };
}

/** The longest floor URL taken (a PostgreSQL URL is a line, not a document). */
export const FLOOR_URL_MAX = 2048;

/**
 * The floor link's settings: a PostgreSQL URL with a host and a database (empty while none is
 * set), and whether the link is on, which needs both the URL and the table's name (the name the
 * floor knows the table by). Absent: no floor. What the state adds (`passwordSet`) is not kept.
 */
function floorOf(value: unknown, tableName: string | undefined): { floor?: FloorSettings } {
  if (value === undefined || value === null) return {};
  const floor = record(value, 'floor');
  const on = floor.on ?? false;
  if (typeof on !== 'boolean') throw new InputError('floor.on', { key: 'settings.notBoolean', params: { got: got(on) } });
  const url = text(floor.url ?? '', 'floor.url', FLOOR_URL_MAX);
  if (url !== '' && floorTargetOf(url, '', 'settings') === null) throw new InputError('floor.url', { key: 'settings.floorUrl' });
  if (on && url === '') throw new InputError('floor.url', { key: 'settings.floorUrlNeeded' });
  if (on && tableName === undefined) throw new InputError('table.name', { key: 'settings.floorTableName' });
  return { floor: { on, url } };
}

/** A floor URL as the screens may see it: without its password. */
export function urlWithoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '';
  }
}

const passwordOf = (url: string): string => {
  try {
    return new URL(url).password;
  } catch {
    return '';
  }
};

/** The floor settings as the state carries them: the URL without its password, and whether one is set. */
export function shownFloor(floor: FloorSettings): FloorSettings {
  return { on: floor.on, url: urlWithoutPassword(floor.url), passwordSet: passwordOf(floor.url) !== '' };
}

/**
 * The floor settings a screen saves, with the password held kept: the screen is shown the URL
 * without it, so a URL saved without one keeps the one held, but only if it is exactly the URL
 * that password was entered with (scheme, login, host, port, database, every query parameter):
 * a `?host=` or `&port=` added to the shown URL would send it to another server. A URL with a
 * password sets it; any other URL is saved without one (the screen then says none is saved).
 */
export function withKeptPassword(given: unknown, held: FloorSettings | undefined): unknown {
  if (typeof given !== 'object' || given === null || held === undefined) return given;
  const url = (given as { url?: unknown }).url;
  if (typeof url !== 'string') return given;
  try {
    const next = new URL(url.trim());
    const kept = new URL(held.url);
    if (next.password !== '' || kept.password === '') return given;
    if (next.toString() !== urlWithoutPassword(held.url)) return given;
    next.password = kept.password;
    return { ...given, url: next.toString() };
  } catch {
    return given;
  }
}

/**
 * Validates settings from the screen or the settings file, naming the field at fault.
 * `platform` decides what a serial port's path looks like (tests pass another).
 */
export function readSettings(value: unknown, platform: NodeJS.Platform = process.platform): ConsoleSettings {
  // Before any check quotes a value (JSON.stringify would overflow the stack on one nested deep).
  refuseTooDeep(value, 'settings');
  const settings = record(value, 'settings');
  const table = record(settings.table, 'table');
  const chipSet = table.chipSet;
  if (!Array.isArray(chipSet) || chipSet.length < 2 || chipSet.length > 12) throw new InputError('table.chipSet', { key: 'settings.chipSetSize', params: { min: 2, n: 12 } });
  const chips = chipSet.map((chip, index) => whole(chip, `table.chipSet[${index}]`, 1, 100_000_000));
  if (chips.some((chip, index) => index > 0 && chip <= (chips[index - 1] as number))) throw new InputError('table.chipSet', { key: 'settings.chipSetOrder' });
  const removed = whole(table.removed, 'table.removed', 1, 100_000_000);
  const next = whole(table.next, 'table.next', 1, 100_000_000);
  if (!chips.includes(removed)) throw new InputError('table.removed', { key: 'settings.removedNotInSet', params: { removed } });
  if (!chips.includes(next) || next <= removed) throw new InputError('table.next', { key: 'settings.nextNotLarger', params: { removed } });
  if (!isMultipleOf(next, removed)) throw new InputError('table.next', { key: 'settings.nextNotMultiple', params: { next, removed } });
  const source = record(settings.source, 'source');
  const checkedTable = {
    seats: readSeats(table.seats),
    button: whole(table.button, 'table.button', 1, MAX_SEATS),
    chipSet: chips,
    removed,
    next,
    rules: oneOf<RuleSetName>(table.rules, RULE_SET_NAMES, 'table.rules'),
    decks: whole(table.decks, 'table.decks', 1, MAX_DECKS),
    ...dealerOf(table.dealer),
    ...tableNameOf(table.name),
  };
  const kind = oneOf<SourceKind>(source.kind, SOURCE_KINDS, 'source.kind');
  const path = text(source.path ?? '', 'source.path', 4096);
  return {
    table: checkedTable,
    source: {
      kind,
      // The simulator deals by itself and opens no port: its path is kept as entered, unused.
      path: kind === 'serial' ? serialPath(path, platform) : path,
      baud: whole(source.baud, 'source.baud', 50, 4_000_000),
      // A built-in profile's name, or one stored in the data folder: the service checks it is there.
      decoder: profileName(source.decoder),
      ...lineSettingsOf(source),
      // The scanner's own profile, when chosen (absent, from an older file: the default's).
      ...(source.scanner === undefined || source.scanner === null ? {} : { scanner: profileName(source.scanner, 'source.scanner') }),
    },
    language: oneOf<Language>(settings.language, LANGUAGES, 'language'),
    tournament: readTournament(settings.tournament, chips),
    ...floorOf(settings.floor, checkedTable.name),
  };
}

/** The byte-order mark some editors (Notepad) put before the text: not part of the JSON, not damage. */
const BOM = '\uFEFF';

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/**
 * Sets a damaged settings file aside under the first free name of `settings.json.bad`,
 * `settings.json.bad-2`, `-3`, …, never replacing an earlier copy, and resolves with the name
 * used. A hard link takes a name only if it is free, at once and whole; where the file system
 * has no hard links, an exclusive copy does.
 */
async function setAside(path: string): Promise<string> {
  for (let number = 1; ; number += 1) {
    const copy = number === 1 ? `${path}.bad` : `${path}.bad-${number}`;
    try {
      await link(path, copy);
    } catch (error) {
      if (codeOf(error) === 'EEXIST') continue;
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV'].includes(codeOf(error) ?? '')) throw error;
      try {
        await copyFile(path, copy, constants.COPYFILE_EXCL);
      } catch (copyError) {
        if (codeOf(copyError) === 'EEXIST') continue;
        await rm(copy, { force: true }).catch(() => undefined);
        throw copyError;
      }
      const file = await open(copy, 'r+');
      await file.sync().finally(() => file.close());
    }
    // The copy is kept: the damaged file may go (if it cannot, saving the settings replaces it).
    await unlink(path).catch(() => undefined);
    return copy;
  }
}

/** The settings as their file keeps them: the chip set once, in the table (the structure without its `chips`). */
export function storedSettings(settings: ConsoleSettings): unknown {
  const structure = settings.tournament?.structure ?? null;
  if (structure === null) return settings;
  const { chips: _table, ...rest } = structure;
  return { ...settings, tournament: { ...settings.tournament, structure: rest } };
}

/**
 * Reads a settings file. One written before the chip set was kept once holds it twice (the table's
 * and the structure's): where the two differ, the table's is the one the races used, and the
 * structure takes it; a structure that cannot be played with it is left out, and the problem said.
 */
/**
 * The settings a file gave, and what was wrong with it (null: nothing): `problem` in English,
 * `problemSaid` the same in keys (the screens say the journal finding in the dealer's language).
 */
export interface LoadedSettings {
  readonly settings: ConsoleSettings;
  readonly problem: string | null;
  readonly problemSaid: Message | null;
}

const loaded = (settings: ConsoleSettings, said: Message | null = null): LoadedSettings => ({ settings, problem: said === null ? null : englishText(said), problemSaid: said });

/** An InputError as a finding quotes it: `field: reason`, in keys when it was said so. */
const fieldSaid = (error: InputError): MessageParam => (error.said === undefined ? `${error.field}: ${error.reason}` : { message: { key: 'common.field', params: { field: error.field, reason: { message: error.said } } } });

function readSettingsFile(value: unknown): LoadedSettings {
  refuseTooDeep(value, 'settings');
  const file = value as { table?: { chipSet?: unknown }; tournament?: { structure?: { chips?: unknown } | null } } | null;
  const chipSet = file?.table?.chipSet;
  const structure = file?.tournament?.structure;
  const twice = typeof structure === 'object' && structure !== null && structure.chips !== undefined;
  if (!twice || JSON.stringify(structure.chips) === JSON.stringify(chipSet)) return loaded(readSettings(value));
  const { chips: _old, ...rest } = structure;
  try {
    return loaded(readSettings({ ...file, tournament: { ...file?.tournament, structure: rest } }));
  } catch (error) {
    if (!(error instanceof InputError) || !error.field.startsWith('tournament.')) throw error;
    return loaded(readSettings({ ...file, tournament: null }), { key: 'settings.file.structureChips', params: { chips: JSON.stringify(structure.chips), table: JSON.stringify(chipSet), why: fieldSaid(error) } });
  }
}

/** Loads the settings file; a missing one gives the defaults, a broken one the defaults and a problem to report. */
export async function loadSettings(path: string): Promise<LoadedSettings> {
  let raw: string;
  // `why`: the system's or the JSON reader's own words.
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return loaded(DEFAULT_SETTINGS);
    return loaded(DEFAULT_SETTINGS, { key: 'settings.file.unreadable', params: { why: (error as Error).message } });
  }
  try {
    return readSettingsFile(JSON.parse(raw.startsWith(BOM) ? raw.slice(BOM.length) : raw));
  } catch (error) {
    const why = error instanceof InputError ? fieldSaid(error) : (error as Error).message;
    try {
      return loaded(DEFAULT_SETTINGS, { key: 'settings.file.damagedKept', params: { why, file: basename(await setAside(path)) } });
    } catch (keepError) {
      return loaded(DEFAULT_SETTINGS, { key: 'settings.file.damagedNotKept', params: { why, keepWhy: codeOf(keepError) ?? (keepError as Error).message } });
    }
  }
}

/**
 * Writes settings atomically: a crash leaves either the old file or the new one, never half of one.
 * A write the disk refuses (full) rejects and leaves the old file in place, without the temporary.
 */
export async function saveSettings(path: string, settings: ConsoleSettings): Promise<void> {
  await writeFileAtomically(path, `${JSON.stringify(storedSettings(settings), null, 2)}\n`);
}

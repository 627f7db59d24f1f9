import { copyFile, constants, link, open, readFile, rm, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { InputError } from '../../engine/errors';
import { refuseTooDeep } from '../../engine/validate';
import { englishText, type Message, type MessageParam } from '../../engine/messages';
import { MAX_SEATS, type ConsoleSettings } from '../../protocol/contract';
import { writeFileAtomically } from './atomicWrite';
import { readSettings } from './settingsSchema';

/**
 * The settings file: read (a missing one gives the defaults, a damaged one is set aside) and
 * written atomically. What the settings may hold is their schema's (settingsSchema.ts, readSettings).
 */
export { readSettings } from './settingsSchema';
export { isAbsoluteSerialPath } from './sourceReaders';
export { FLOOR_URL_MAX, shownFloor, urlWithoutPassword, withKeptPassword } from './floorSettings';

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
 * A table once set up keeps a seat in play: settings saved with none are refused (naming the field),
 * unless the table held has none either (a console never set up saving its language or source).
 */
export function requireSeats(settings: ConsoleSettings, held: ConsoleSettings): ConsoleSettings {
  if (settings.table.seats.length === 0 && held.table.seats.length > 0) throw new InputError('table.seats', { key: 'command.seatCount', params: { n: MAX_SEATS } });
  return settings;
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

/**
 * The floor link's settings: read by the settings' schema (settingsSchema.ts), and the URL's
 * password kept from the screens (they are shown the URL without it) and kept across a save.
 */
import { InputError } from '../../engine/errors';
import type { FloorSettings } from '../../protocol/contract';
import { boolean, isRecord, object, parse, text, withDefault } from '../../protocol/schema';
import { floorTargetOf } from '../floorLink/target';
import { got } from './sourceReaders';

/** The longest floor URL taken (a PostgreSQL URL is a line, not a document). */
export const FLOOR_URL_MAX = 2048;

const FLOOR = object({
  on: withDefault(boolean((value) => ({ key: 'settings.notBoolean', params: { got: got(value) } })), false),
  url: withDefault(text(FLOOR_URL_MAX, { key: 'command.notText' }, { key: 'command.tooLong', params: { n: FLOOR_URL_MAX } }), ''),
}, { key: 'command.notObject' });

/**
 * The floor link's settings: a PostgreSQL URL with a host and a database (empty while none is
 * set), and whether the link is on, which needs both the URL and the table's name (the name the
 * floor knows the table by). What the state adds (`passwordSet`) is not kept.
 */
export function floorOf(value: unknown, tableName: string | undefined): FloorSettings {
  const { on, url: given } = parse(FLOOR, value, 'floor');
  const url = given.trim();
  if (url !== '' && floorTargetOf(url, '', 'settings') === null) throw new InputError('floor.url', { key: 'settings.floorUrl' });
  if (on && url === '') throw new InputError('floor.url', { key: 'settings.floorUrlNeeded' });
  if (on && tableName === undefined) throw new InputError('table.name', { key: 'settings.floorTableName' });
  return { on, url };
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
  if (!isRecord(given) || held === undefined) return given;
  const url = given.url;
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

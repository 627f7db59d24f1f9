/**
 * The floor link's settings: read by the settings' schema (settingsSchema.ts), and the URL's
 * password kept from the screens (they are shown the URL without it) and kept across a save.
 */
import { InputError } from '../../engine/errors';
import type { FloorSettings } from '../../protocol/contract';
import { boolean, isRecord, object, parse, text, withDefault } from '../../protocol/schema';
import { floorUrlOf, parseFloorAddress } from '../../replication/floorAddress';
import { floorUrlProblem } from '../floorLink/target';
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
  const problem = url === '' ? null : floorUrlProblem(url);
  if (problem !== null) throw new InputError('floor.url', problem);
  if (on && url === '') throw new InputError('floor.url', { key: 'settings.floorUrlNeeded' });
  if (on && tableName === undefined) throw new InputError('table.name', { key: 'settings.floorTableName' });
  return { on, url };
}

/** A floor URL as the screens may see it: without its password ('' for one that is not a floor URL). */
export function urlWithoutPassword(url: string): string {
  const reading = parseFloorAddress(url.trim());
  return reading.ok ? floorUrlOf(reading.address, { password: '' }) : '';
}

const passwordOf = (url: string): string => {
  const reading = parseFloorAddress(url.trim());
  return reading.ok ? reading.address.password : '';
};

/** The floor settings as the state carries them: the URL without its password, and whether one is set. */
export function shownFloor(floor: FloorSettings): FloorSettings {
  return { on: floor.on, url: urlWithoutPassword(floor.url), passwordSet: passwordOf(floor.url) !== '' };
}

/**
 * The floor settings a screen saves, with the password held kept: the screen is shown the URL
 * without it, so a URL saved without one keeps the one held, but only if it is exactly the URL
 * that password was entered with (scheme, login, every host and port of the list in its order,
 * database, every query parameter): a `?host=` or `&port=` added to the shown URL, or a host added
 * to its list, would send it to another server. A URL with a password sets it; any other URL is
 * saved without one (the screen then says none is saved).
 */
export function withKeptPassword(given: unknown, held: FloorSettings | undefined): unknown {
  if (!isRecord(given) || held === undefined) return given;
  const url = given.url;
  if (typeof url !== 'string') return given;
  const next = parseFloorAddress(url.trim());
  const kept = parseFloorAddress(held.url);
  if (!next.ok || !kept.ok) return given;
  if (next.address.password !== '' || kept.address.password === '') return given;
  if (floorUrlOf(next.address) !== urlWithoutPassword(held.url)) return given;
  return { ...given, url: floorUrlOf(next.address, { password: kept.address.password }) };
}

import { isMessageKey } from './index';
import type { Message } from './message';

/** How deep a Message read back from a file may nest (a reason inside a refusal inside a list…), and how wide. */
const STORED_DEPTH = 6;
const STORED_PARAMS = 24;
const STORED_ITEMS = 60;
const STORED_TEXT = 1000;

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown, max = STORED_TEXT): value is string => typeof value === 'string' && value.length <= max;
const hasOnly = (value: Fields, names: readonly string[]): boolean => Object.keys(value).every((name) => names.includes(name));

function isSeat(value: unknown): boolean {
  return isFields(value) && hasOnly(value, ['seat', 'name', 'start']) && Number.isSafeInteger(value.seat) && (value.name === undefined || isText(value.name, 40)) && (value.start === undefined || typeof value.start === 'boolean');
}

function isParam(value: unknown, depth: number): boolean {
  if (isText(value)) return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (!isFields(value)) return false;
  if ('card' in value) return hasOnly(value, ['card']) && isText(value.card, 32);
  if ('cards' in value) return hasOnly(value, ['cards']) && Array.isArray(value.cards) && value.cards.length <= STORED_ITEMS && value.cards.every((card) => isText(card, 32));
  if ('seats' in value) return hasOnly(value, ['seats']) && Array.isArray(value.seats) && value.seats.length <= STORED_ITEMS && value.seats.every(isSeat);
  if ('seat' in value) return isSeat(value);
  if ('message' in value) return hasOnly(value, ['message']) && isSayable(value.message, depth + 1);
  if ('items' in value) {
    return hasOnly(value, ['items', 'join']) && ['and', ',', ';'].includes(value.join as string) && Array.isArray(value.items) && value.items.length <= STORED_ITEMS && value.items.every((item) => isSayable(item, depth + 1));
  }
  return false;
}

function isSayable(value: unknown, depth: number): value is Message {
  if (depth > STORED_DEPTH || !isFields(value) || !hasOnly(value, ['key', 'params']) || !isMessageKey(value.key)) return false;
  if (value.params === undefined) return true;
  if (!isFields(value.params)) return false;
  const params = Object.entries(value.params);
  return params.length <= STORED_PARAMS && params.every(([name, param]) => name.length <= 40 && isParam(param, depth));
}

/**
 * Whether a Message read back from a file (a refusal's `said` in the journal) is one this version
 * can say: every key in it one the catalogs hold, every parameter of a Message's shapes, bounded in
 * depth and size. One a newer version wrote, with a key this one does not know, is not: the record
 * is then told by its English.
 */
export function isSayableMessage(value: unknown): value is Message {
  return isSayable(value, 0);
}

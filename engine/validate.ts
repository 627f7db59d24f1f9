import { describeValue } from './cards';
import { InputError } from './errors';
import type { Message, MessageParam } from './messages';

/** The input checks every engine entry shares, each refusing with the field and the reason. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether readWhole takes `value`: asked first on hot paths, so the refusal's words are built only for a refusal. */
export function isWhole(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

/**
 * The value a refusal quotes ("got …"), as a message parameter: the value as JSON text, quoted if text,
 * and "nothing" (said in the dealer's language) for a value left out.
 */
export function valueParam(value: unknown): MessageParam {
  return value === undefined ? { message: { key: 'value.nothing' } } : describeValue(value);
}

/**
 * How deep anything the console reads may nest (objects and lists inside each other): the deepest
 * it takes, a level of the settings' structure, is four down. Deeper input is refused before any check walks it
 * (quoting it, JSON.stringify, would overflow the stack at some thousands).
 */
export const MAX_NESTING = 64;

/**
 * Whether `value` nests objects or lists more than `max` deep; walked without recursion (a loop of
 * references, which JSON cannot make, reads as too deep).
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const values: object[] = [];
  const depths: number[] = [];
  if (typeof value === 'object' && value !== null) {
    values.push(value);
    depths.push(0);
  }
  while (values.length > 0) {
    const next = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth >= max) return true;
    for (const inner of Array.isArray(next) ? next : Object.values(next)) {
      if (typeof inner === 'object' && inner !== null) {
        values.push(inner as object);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** Refuses input nested deeper than MAX_NESTING, naming the field, in the dealer's language. */
export function refuseTooDeep(value: unknown, field: string): void {
  if (nestedDeeperThan(value, MAX_NESTING)) throw new InputError(field, { key: 'value.tooDeep', params: { n: MAX_NESTING } });
}

/**
 * A whole number of at least `min`; `what` names it in the message ("the seat number"): a Message
 * (its key said in the dealer's language), or English text for a check not yet given keys.
 */
export function readWhole(value: unknown, field: string, min: number, what: string | Message): number {
  if (isWhole(value, min)) return value;
  if (typeof what === 'string') {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new InputError(field, `${what} must be a number (got ${describeValue(value)})`);
    }
    if (!Number.isInteger(value)) throw new InputError(field, `${what} must be a whole number (got ${value})`);
    if (value < min) throw new InputError(field, `${what} must be at least ${min} (got ${value})`);
    throw new InputError(field, `${what} is too large (got ${value})`);
  }
  const params = { what: { message: what }, got: valueParam(value), min };
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InputError(field, { key: 'value.notNumber', params });
  if (!Number.isInteger(value)) throw new InputError(field, { key: 'value.notWhole', params });
  if (value < min) throw new InputError(field, { key: 'value.tooSmall', params });
  throw new InputError(field, { key: 'value.tooLarge', params });
}

/** Refuses a value left out: `what` says what belongs there (a Message, or English text for a check not yet given keys). */
export function missing(field: string, what: string | Message): never {
  throw new InputError(field, typeof what === 'string' ? `missing: ${what}` : { key: 'value.missing', params: { what: { message: what } } });
}

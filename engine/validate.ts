import { describeValue } from './cards';
import { InputError } from './errors';

/** The input checks every engine entry shares, each refusing with the field and the reason. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether readWhole takes `value`: asked first on hot paths, so the refusal's words are built only for a refusal. */
export function isWhole(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

/** A whole number of at least `min`; `what` names it in the message ("the seat number"). */
export function readWhole(value: unknown, field: string, min: number, what: string): number {
  if (isWhole(value, min)) return value;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InputError(field, `${what} must be a number (got ${describeValue(value)})`);
  }
  if (!Number.isInteger(value)) throw new InputError(field, `${what} must be a whole number (got ${value})`);
  if (value < min) throw new InputError(field, `${what} must be at least ${min} (got ${value})`);
  if (!Number.isSafeInteger(value)) throw new InputError(field, `${what} is too large (got ${value})`);
  return value;
}

export function missing(field: string, reason: string): never {
  throw new InputError(field, `missing: ${reason}`);
}

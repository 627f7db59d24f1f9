/**
 * A count as the keypad builds it (issue 24): the keys tapped for it, stacks of the house's size
 * (Settings: "Chips counted in stacks of") and digits, so `+20 +20 7` is 47, not the 407 that
 * digits after a number would make. The digits make one number whatever stacks come between
 * them; ⌫ takes back the last key, stack or digit. Pure: the counts screen keeps one for the seat
 * the keypad is on and sends the total as the count.
 */
export interface KeyedCount {
  /** Each key that stands, in the order tapped: a digit, or 'stack'. */
  readonly keys: readonly (number | 'stack')[];
}

export type CountKey = { readonly digit: number } | 'stack' | 'erase';

export const NOTHING_KEYED: KeyedCount = { keys: [] };

/** A count the keypad comes to (typed, kept, or none yet): its digits, as if tapped. */
export function keyedFrom(count: number | ''): KeyedCount {
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? { keys: [...String(count)].map(Number) } : NOTHING_KEYED;
}

/** The count: '' while nothing is keyed (not entered yet), else the stacks' chips and the digits' number. */
export function totalOf(keyed: KeyedCount, stack: number): number | '' {
  if (keyed.keys.length === 0) return '';
  const stacks = keyed.keys.filter((key) => key === 'stack').length;
  const digits = keyed.keys.filter((key) => key !== 'stack').join('');
  return stacks * stack + Number(digits === '' ? '0' : digits);
}

/** One key: a digit or a stack is added; ⌫ takes back the last of them. */
export function pressKey(keyed: KeyedCount, key: CountKey): KeyedCount {
  if (key === 'erase') return { keys: keyed.keys.slice(0, -1) };
  return { keys: [...keyed.keys, key === 'stack' ? 'stack' : key.digit] };
}

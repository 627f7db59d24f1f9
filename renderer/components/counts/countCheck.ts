/**
 * When a count is asked about before the race starts (issue 41): a digit typed onto a count
 * already there (4 → 44, 9 → 98) makes a count far past what a stack of the leaving colour comes
 * to, and the race would deal wrong. A player at a break holds some of the leaving colour, at
 * most about a stack (a count of 22 is a real one); two full stacks is far past it. So a count is
 * asked about when it is more than two stacks (the house's stack from Settings, at least
 * USUAL_STACK, as racks and chip trays hold them: 40 chips) and more than twice the exchange
 * ratio (5s into 100s: 40; 5s into 500s: 200). Asked once, naming each such seat and count; the
 * dealer says it is right, or corrects it. Pure: the counts screen asks.
 */

/** A stack of chips where the house counts chip by chip: as a rack's row and a chip tray's hold them. */
export const USUAL_STACK = 20;

/** The most chips of the leaving colour a count holds before it is asked about. */
export function unlikelyCountLimit(stack: number, ratio: number): number {
  return Math.max(2 * Math.max(USUAL_STACK, stack), 2 * ratio);
}

/** The counts past the limit, in seat order. */
export function unlikelyCounts<T extends { readonly chips: number }>(counts: readonly T[], limit: number): T[] {
  return counts.filter((count) => count.chips > limit);
}

/**
 * Chip arithmetic every layer shares, so each rule about denominations is stated once.
 */

/**
 * Whether `amount` is a whole multiple of `unit`: whether chips of `unit` pay `amount` exactly, and
 * (with `amount` the next denomination and `unit` the one removed) whether a race can exchange the
 * removed chips for the next ones — the race setup, the table settings, the planner's warnings and
 * the Structure screen all ask this one function.
 */
export function isMultipleOf(amount: number, unit: number): boolean {
  return unit > 0 && amount % unit === 0;
}

/**
 * Removed chips per chip of the next denomination (`next / removed`, 0 without a removed
 * denomination): the race plan's ratio, and what the setup and counts screens show as k.
 */
export function exchangeRatio(removed: number, next: number): number {
  return removed > 0 ? next / removed : 0;
}

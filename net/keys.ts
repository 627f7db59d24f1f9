import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether `given` is the key, in time that does not depend on where they differ (timingSafeEqual
 * over digests of both, which also have the same length whatever was given).
 */
export function keyMatches(key: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length > 1024) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(key), digest(given));
}

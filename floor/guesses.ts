/**
 * Wrong tokens cost time: each client address's wrong guesses are answered one after another,
 * `spacingMs` apart, so a script on the cardroom's network gets a few guesses a second instead of
 * thousands. A right token from an address still paying for its wrong ones waits its turn too
 * (otherwise a fast answer would tell which guess was right); an address with no wrong guesses
 * owed waits for nothing. Guesses beyond `maxWaiting` from one address are not checked at all.
 */

import { isIP } from 'node:net';

/**
 * Whose guesses a request's are: its IPv4 address (also when written as `::ffff:a.b.c.d`), or the
 * /64 an IPv6 address belongs to (one machine may take any address of its /64 at will).
 */
export function guessSource(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1] as string;
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : (head as string).split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...Array.from({ length: 8 - left.length - right.length }, () => '0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export interface GuessPacer {
  /**
   * Waits until the request may be answered; false when the address has too many guesses waiting
   * (the request is refused unchecked). `right` is whether the token it showed was the floor's.
   */
  pace(address: string, right: boolean): Promise<boolean>;
}

interface Owed {
  /** When the address's next answer may go out (ms since the epoch). */
  next: number;
  waiting: number;
}

/** Addresses remembered at most; beyond, the rest share one entry (a flood of addresses slows itself). */
const MAX_ADDRESSES = 10_000;

export function createGuessPacer(options: { readonly spacingMs: number; readonly maxWaiting: number; readonly now?: () => number }): GuessPacer {
  const now = options.now ?? Date.now;
  const owed = new Map<string, Owed>();

  const entryFor = (address: string, at: number): Owed => {
    let entry = owed.get(address);
    if (entry !== undefined) return entry;
    if (owed.size >= MAX_ADDRESSES) {
      for (const [key, value] of owed) if (value.next <= at && value.waiting === 0) owed.delete(key);
      if (owed.size >= MAX_ADDRESSES) return entryFor('overflow', at);
    }
    entry = { next: 0, waiting: 0 };
    owed.set(address, entry);
    return entry;
  };

  return {
    async pace(address, right) {
      const at = now();
      const known = owed.get(address);
      if (right && (known === undefined || known.next <= at)) return true;
      const entry = entryFor(address, at);
      if (entry.waiting >= options.maxWaiting) return false;
      if (!right) entry.next = Math.max(entry.next, at) + options.spacingMs;
      const wait = entry.next - at;
      entry.waiting += 1;
      try {
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      } finally {
        entry.waiting -= 1;
        if (entry.waiting === 0 && entry.next <= now()) owed.delete(address);
      }
      return true;
    },
  };
}

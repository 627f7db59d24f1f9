import type { Card } from '../../engine/cards';

/** The order the dealer reads a deck in "register deck" mode: spades, hearts, diamonds, clubs, each A 2 … K. */
export const REGISTRATION_ORDER: readonly Card[] = ['s', 'h', 'd', 'c'].flatMap((suit) => [...'A23456789TJQK'].map((rank) => `${rank}${suit}` as Card));
import type { Decoder } from './decoder';

/** RFID UIDs arrive as `04:A2:…`, `04a2…` or `04 A2 …`: one key for all of them. */
export function normaliseUid(text: string): string {
  return text.replace(/[\s:-]/g, '').toUpperCase();
}

/**
 * Opaque tag IDs resolved through a table. In "register deck" mode the dealer reads the deck in a
 * known order and each new tag is given the next card of that order.
 */
export class UidDecoder implements Decoder {
  private readonly table = new Map<string, Card>();
  private queue: Card[] = [];

  constructor(table: Readonly<Record<string, Card>> = {}) {
    for (const [uid, card] of Object.entries(table)) this.table.set(normaliseUid(uid), card);
  }

  /** The next tags read are assigned these cards, in order. */
  startRegistration(order: readonly Card[]): void {
    this.queue = [...order];
  }

  get registering(): boolean {
    return this.queue.length > 0;
  }

  /** The table as it stands, to be saved in the device profile. */
  entries(): Record<string, Card> {
    return Object.fromEntries(this.table);
  }

  decode(text: string) {
    const uid = normaliseUid(text);
    if (!/^[0-9A-F]{4,32}$/.test(uid)) return { reason: 'not a tag ID (hex digits)' };
    const known = this.table.get(uid);
    if (this.queue.length > 0) {
      if (known) return { reason: `tag ${uid} is already registered as ${known}` };
      const card = this.queue.shift() as Card;
      this.table.set(uid, card);
      return { card };
    }
    return known ? { card: known } : { reason: `tag ${uid} is not registered; register the deck first` };
  }
}

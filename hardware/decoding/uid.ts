import { isCard, type Card } from '../../engine/cards';
import { InputError } from '../../engine/errors';
import type { Message } from '../../engine/messages';
import { is, isRecord, literal, whenGiven, withDefault, type Infer, type Schema } from '../../engine/schema';
import { choiceOf, kindOptions, regexOf } from '../deviceKind';
import type { Decoded, Decoder, DecoderKind } from './decoder';

/** The order the dealer reads a deck in "register deck" mode: spades, hearts, diamonds, clubs, each A 2 … K. */
export const REGISTRATION_ORDER: readonly Card[] = ['s', 'h', 'd', 'c'].flatMap((suit) => [...'A23456789TJQK'].map((rank) => `${rank}${suit}` as Card));

/**
 * How a reader writes a tag ID's bytes (the decoder's `uidBytes`):
 * - absent: as hex digits, separators ignored (`04:A2:B3:C4`, `04a2b3c4`, `04 A2 B3 C4`);
 * - `hex`: each separated number is one byte in hex, one or two digits (`4 A2 B3 C4`, what
 *   Arduino's `Serial.print(b, HEX)` writes: without this, `4 A2` and `4A 2` would be one tag);
 * - `decimal`: each separated number is one byte 0–255 in decimal (`69 245 13 42`), so `1 2`
 *   (bytes 01 02) and `12` (byte 0C) differ, and a number over 255 is refused.
 * Either way the tag's key is its bytes as upper-case hex (`45F50D2A`): the key of the `cards`
 * table, whatever the reader prints.
 */
export const UID_BYTES = ['hex', 'decimal'] as const;
export type UidBytes = (typeof UID_BYTES)[number];

/**
 * The deck's tag table (`{"04A2B3C4": "As"}`), none when left out (or null). Always filled in when
 * read; optional in the type, as the built-in `rfid` profile has none.
 */
const TAG_TABLE: Schema<Readonly<Record<string, Card>> | undefined> = withDefault(
  is(
    (value): value is Record<string, Card> => isRecord(value) && Object.values(value).every((card) => isCard(card)),
    { key: 'hardware.profile.tagCards', params: { example: '{"04A2B3C4": "As"}' } },
  ),
  {},
);

/** A profile's `decoder` for RFID tags: the reader's notation, and the deck's tag table (`cards`). */
const UID_OPTIONS = kindOptions({
  kind: literal('uid'),
  cards: TAG_TABLE,
  /**
   * A regular expression with a named group `uid` (and optionally `reader`) that takes the tag ID
   * out of a longer line (`Card UID: 04 A2 B3 C4`, `1|04A2B3C4`, a JSON line). A line it does not
   * match is not a tag.
   */
  pattern: whenGiven(regexOf([['uid']], { key: 'hardware.profile.uidGroups' }), undefined),
  uidBytes: choiceOf(UID_BYTES, undefined),
});
export type UidDecoding = Infer<typeof UID_OPTIONS>;
export type UidOptions = Omit<UidDecoding, 'kind' | 'cards'>;

/** Separators between the bytes of a tag ID. */
const SEPARATORS = /[\s:-]/g;
/** Separators between the numbers of a byte list (`uidBytes`): spaces, `:`, `-` or `,`. */
const BYTE_SEPARATORS = /[\s:,-]+/;

/** RFID UIDs arrive as `04:A2:…`, `04a2…` or `04 A2 …`: one key for all of them. */
export function normaliseUid(text: string): string {
  return text.replace(SEPARATORS, '').toUpperCase();
}

/** A tag ID in the reader's notation as its key (upper-case hex), or why it is not one. */
export function uidKey(text: string, uidBytes?: UidBytes): { readonly uid: string } | { readonly reason: Message } {
  let uid: string;
  if (uidBytes === undefined) {
    uid = normaliseUid(text);
  } else {
    const numbers = text.trim().split(BYTE_SEPARATORS).filter((part) => part !== '');
    const bytes: string[] = [];
    for (const number of numbers) {
      const ok = uidBytes === 'hex' ? /^[0-9A-Fa-f]{1,2}$/.test(number) : /^\d{1,3}$/.test(number) && Number(number) <= 255;
      if (!ok) return { reason: { key: uidBytes === 'hex' ? 'hardware.decoder.notATagByteHex' : 'hardware.decoder.notATagByteDecimal', params: { number } } };
      bytes.push((uidBytes === 'hex' ? parseInt(number, 16) : Number(number)).toString(16).toUpperCase().padStart(2, '0'));
    }
    uid = bytes.join('');
  }
  return /^[0-9A-F]{4,32}$/.test(uid) ? { uid } : { reason: { key: 'hardware.decoder.notATag' } };
}

/** The bytes of a tag key written the way a reader with this `uidBytes` writes them (for the simulator). */
export function uidText(uid: string, uidBytes?: UidBytes): string {
  if (uidBytes === undefined) return uid;
  const bytes = (normaliseUid(uid).match(/../g) ?? []).map((pair) => parseInt(pair, 16));
  return bytes.map((byte) => (uidBytes === 'hex' ? byte.toString(16).toUpperCase() : String(byte))).join(' ');
}

/**
 * Opaque tag IDs resolved through a table. In "register deck" mode the dealer reads the deck in a
 * known order and each new tag is given the next card of that order.
 */
export class UidDecoder implements Decoder {
  private readonly table = new Map<string, Card>();
  private queue: Card[] = [];
  private readonly pattern: RegExp | undefined;

  constructor(
    table: Readonly<Record<string, Card>> = {},
    private readonly options: UidOptions = {},
  ) {
    for (const [uid, card] of Object.entries(table)) this.table.set(normaliseUid(uid), card);
    this.pattern = options.pattern === undefined ? undefined : new RegExp(options.pattern, 'u');
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

  /** The tag (and reader) a line names, without registering anything. */
  private read(text: string): { readonly uid: string; readonly reader?: string } | { readonly reason: Message } {
    let uidText = text;
    let reader: string | undefined;
    if (this.pattern !== undefined) {
      const groups = this.pattern.exec(text)?.groups;
      if (groups?.uid === undefined) return { reason: { key: 'hardware.decoder.noReaderMatch' } };
      uidText = groups.uid;
      reader = groups.reader;
    }
    const key = uidKey(uidText, this.options.uidBytes);
    if ('reason' in key) return key;
    return reader === undefined || reader === '' ? key : { uid: key.uid, reader };
  }

  readKey(text: string): string | undefined {
    const read = this.read(text);
    return 'uid' in read ? `${read.uid}${read.reader === undefined ? '' : ` @${read.reader}`}` : undefined;
  }

  decode(text: string): Decoded {
    const read = this.read(text);
    if ('reason' in read) return read;
    const { uid, reader } = read;
    const withReader = (card: Card): Decoded => (reader === undefined ? { card } : { card, reader });
    const known = this.table.get(uid);
    if (this.queue.length > 0) {
      if (known) return { reason: { key: 'hardware.decoder.tagRegistered', params: { uid, card: { card: known } } } };
      const card = this.queue.shift() as Card;
      this.table.set(uid, card);
      return withReader(card);
    }
    return known ? withReader(known) : { reason: { key: 'hardware.decoder.tagUnknown', params: { uid } } };
  }
}

export const UID_DECODING: DecoderKind<UidDecoding> = {
  kind: 'uid',
  summary: 'RFID tag IDs, looked up in the deck’s tag table.',
  schema: UID_OPTIONS,
  create: (config) => new UidDecoder(config.cards, config),
  describe(config) {
    const tags = Object.keys(config.cards ?? {}).length;
    const bytes = config.uidBytes === undefined ? '' : `, bytes written in ${config.uidBytes}`;
    return `RFID tag IDs${config.pattern === undefined ? '' : ` taken out by ${config.pattern}`}${bytes}, ${tags} tag${tags === 1 ? '' : 's'} registered`;
  },
  cardText(card, config) {
    if (config.pattern !== undefined) throw new InputError('decoder.pattern', 'a reader pattern only reads tags; simulate the reader without its pattern');
    const uid = Object.entries(config.cards ?? {}).find(([, mapped]) => mapped === card)?.[0];
    if (uid === undefined) throw new InputError('decoder.cards', `no tag is registered for ${card}`);
    return uidText(uid, config.uidBytes);
  },
};

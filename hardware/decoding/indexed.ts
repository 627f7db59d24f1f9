import type { Card } from '../../engine/cards';
import { is, literal, oneOf, withDefault, type Infer } from '../../engine/schema';
import { kindOptions } from '../deviceKind';
import type { Decoder, DecoderKind } from './decoder';

/** Text naming each of `letters` once, in any order. */
const orderOf =
  (letters: string) =>
  (value: unknown): value is string =>
    typeof value === 'string' && [...value].sort().join('') === [...letters].sort().join('');

/** A left-out (or null) option's value. */
const DEFAULTS = { base: 1, suitOrder: 'shdc', rankOrder: 'A23456789TJQK' } as const;

const INDEX_OPTIONS = kindOptions({
  kind: literal('index'),
  /** 1 for devices numbering 1–52, 0 for 0–51. */
  base: withDefault(oneOf([0, 1] as const, { key: 'hardware.profile.indexBase' }), DEFAULTS.base),
  /** The suits in the device's order, e.g. `shdc`: cards base…base+12 are spades. */
  suitOrder: withDefault(is(orderOf('cdhs'), { key: 'hardware.profile.suitOrder' }), DEFAULTS.suitOrder),
  /** The ranks within a suit in the device's order, e.g. `A23456789TJQK`. */
  rankOrder: withDefault(is(orderOf('A23456789TJQK'), { key: 'hardware.profile.rankOrder' }), DEFAULTS.rankOrder),
});
export type IndexDecoding = Infer<typeof INDEX_OPTIONS>;
export type IndexOptions = Omit<IndexDecoding, 'kind'>;

export const DEFAULT_INDEX_OPTIONS: IndexOptions = DEFAULTS;

export function cardAtIndex(index: number, options: IndexOptions): Card | null {
  const position = index - options.base;
  if (!Number.isInteger(position) || position < 0 || position > 51) return null;
  return `${options.rankOrder[position % 13]}${options.suitOrder[Math.floor(position / 13)]}` as Card;
}

export function indexOfCard(card: Card, options: IndexOptions): number {
  return options.suitOrder.indexOf(card[1] as string) * 13 + options.rankOrder.indexOf(card[0] as string) + options.base;
}

/**
 * A numeric card index (1–52 or 0–51) in a configurable suit and rank order. The number is
 * decimal and may be zero-padded (`017` is 17, never octal), as shoes with fixed-width fields send.
 */
export function indexDecoder(options: IndexOptions = DEFAULT_INDEX_OPTIONS): Decoder {
  const range = `${options.base}–${options.base + 51}`;
  return {
    decode(text) {
      if (!/^0*\d{1,2}$/.test(text)) return { reason: { key: /^\d+$/.test(text) ? 'hardware.decoder.outOfRange' : 'hardware.decoder.notANumber', params: { range } } };
      const card = cardAtIndex(Number(text), options);
      return card ? { card } : { reason: { key: 'hardware.decoder.outOfRange', params: { range } } };
    },
  };
}

export const INDEX_DECODING: DecoderKind<IndexDecoding> = {
  kind: 'index',
  summary: 'A card number (1–52 or 0–51) in the device’s suit and rank order.',
  schema: INDEX_OPTIONS,
  create: indexDecoder,
  describe: (config) => `card numbers ${config.base}–${config.base + 51} (suits ${config.suitOrder}, ranks ${config.rankOrder})`,
  cardText: (card, config) => String(indexOfCard(card, config)),
};

import type { Card } from '../../engine/cards';
import { InputError } from '../../engine/errors';
import type { Options } from '../deviceKind';
import type { Decoder, DecoderKind } from './decoder';

export interface IndexOptions {
  /** 1 for devices numbering 1–52, 0 for 0–51. */
  readonly base: 0 | 1;
  /** The suits in the device's order, e.g. `shdc`: cards base…base+12 are spades. */
  readonly suitOrder: string;
  /** The ranks within a suit in the device's order, e.g. `A23456789TJQK`. */
  readonly rankOrder: string;
}

export const DEFAULT_INDEX_OPTIONS: IndexOptions = { base: 1, suitOrder: 'shdc', rankOrder: 'A23456789TJQK' };

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

export type IndexDecoding = { readonly kind: 'index' } & IndexOptions;

function readIndexOptions(options: Options): IndexOptions {
  const base = options.base ?? DEFAULT_INDEX_OPTIONS.base;
  if (base !== 0 && base !== 1) throw new InputError('decoder.base', { key: 'hardware.profile.indexBase' });
  const suitOrder = options.suitOrder ?? DEFAULT_INDEX_OPTIONS.suitOrder;
  if (typeof suitOrder !== 'string' || [...suitOrder].sort().join('') !== 'cdhs') {
    throw new InputError('decoder.suitOrder', { key: 'hardware.profile.suitOrder' });
  }
  const rankOrder = options.rankOrder ?? DEFAULT_INDEX_OPTIONS.rankOrder;
  if (typeof rankOrder !== 'string' || [...rankOrder].sort().join('') !== [...'23456789AJKQT'].sort().join('')) {
    throw new InputError('decoder.rankOrder', { key: 'hardware.profile.rankOrder' });
  }
  return { base, suitOrder, rankOrder };
}

export const INDEX_DECODING: DecoderKind<IndexDecoding> = {
  kind: 'index',
  summary: 'A card number (1–52 or 0–51) in the device’s suit and rank order.',
  read: (options) => ({ kind: 'index', ...readIndexOptions(options) }),
  create: (config) => indexDecoder(config),
  describe: (config) => `card numbers ${config.base}–${config.base + 51} (suits ${config.suitOrder}, ranks ${config.rankOrder})`,
  cardText: (card, config) => String(indexOfCard(card, config)),
};

import { RANKS, type Card, type Rank, type Suit } from '../../engine/cards';
import { literal, type Infer } from '../../engine/schema';
import { kindOptions } from '../deviceKind';
import type { Decoder, DecoderKind } from './decoder';

const SUIT_NUMBER = /^([shdc])\s*(0?[1-9]|1[0-3])$/i;

/** 1 is the ace, 11–13 the jack, queen and king. */
export function rankOfNumber(number: number): Rank {
  return number === 1 ? 'A' : (RANKS[number - 2] as Rank);
}

/** Suit letter and numeric rank, as some shoes report: `D12` (Q♦), `S01` (A♠), `h7`. */
export function suitNumberDecoder(): Decoder {
  return {
    decode(text) {
      const match = SUIT_NUMBER.exec(text);
      if (!match) return { reason: { key: 'hardware.decoder.notSuitNumber' } };
      const suit = (match[1] as string).toLowerCase() as Suit;
      return { card: `${rankOfNumber(Number(match[2]))}${suit}` as Card };
    },
  };
}

/** `{"kind": "suit-number"}`: it has no options. */
const SUIT_NUMBER_OPTIONS = kindOptions({ kind: literal('suit-number') });
export type SuitNumberDecoding = Infer<typeof SUIT_NUMBER_OPTIONS>;

export const SUIT_NUMBER_DECODING: DecoderKind<SuitNumberDecoding> = {
  kind: 'suit-number',
  summary: 'A suit letter and a rank number: S01, D12.',
  schema: SUIT_NUMBER_OPTIONS,
  create: () => suitNumberDecoder(),
  describe: () => 'a suit letter and a rank number such as S01 or D12',
  cardText(card) {
    const rank = card[0] === 'A' ? 1 : '23456789TJQK'.indexOf(card[0] as string) + 2;
    return `${(card[1] as string).toUpperCase()}${String(rank).padStart(2, '0')}`;
  },
};

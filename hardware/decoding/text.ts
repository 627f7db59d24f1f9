import { parseCard } from '../../engine/cards';
import type { Decoder } from './decoder';

/** Plain card codes in any notation the engine reads: `As`, `AS`, `10h`, `Th`, `A♠`, `♤A` … */
export function textDecoder(): Decoder {
  return {
    decode(text) {
      const card = parseCard(text);
      return card ? { card } : { reason: 'not a card code' };
    },
  };
}

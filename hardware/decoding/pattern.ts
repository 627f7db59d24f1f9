import { parseCard } from '../../engine/cards';
import { InputError } from '../../engine/errors';
import { literal, type Infer } from '../../engine/schema';
import { kindOptions, regexOf, textTable } from '../deviceKind';
import type { Decoder, DecoderKind } from './decoder';

const PATTERN_OPTIONS = kindOptions({
  kind: literal('pattern'),
  /** A regular expression with named groups `rank` and `suit`, or one group `card`. */
  pattern: regexOf([['card'], ['rank', 'suit']], { key: 'hardware.profile.cardGroups' }),
  /** The device's rank text → a rank the engine reads (`"01": "A"`, `"11": "J"`). */
  ranks: textTable,
  /** The device's suit text → a suit the engine reads (`"1": "s"`). */
  suits: textTable,
});
export type PatternDecoding = Infer<typeof PATTERN_OPTIONS>;
export type PatternOptions = Omit<PatternDecoding, 'kind'>;

/** A vendor's format described as data: a pattern with named groups plus lookup tables. */
export function patternDecoder(options: PatternOptions): Decoder {
  const pattern = new RegExp(options.pattern, 'u');
  return {
    decode(text) {
      const groups = pattern.exec(text)?.groups;
      if (!groups) return { reason: { key: 'hardware.decoder.noPatternMatch' } };
      let code = groups.card;
      if (code === undefined) {
        const rank = groups.rank ?? '';
        const suit = groups.suit ?? '';
        code = `${options.ranks?.[rank] ?? rank}${options.suits?.[suit] ?? suit}`;
      }
      const card = parseCard(code);
      return card ? { card } : { reason: { key: 'hardware.decoder.patternNotACard', params: { code } } };
    },
  };
}

export const PATTERN_DECODING: DecoderKind<PatternDecoding> = {
  kind: 'pattern',
  summary: 'A vendor’s format: a pattern with named groups, and lookup tables.',
  schema: PATTERN_OPTIONS,
  create: (config) => patternDecoder(config),
  describe: (config) => `text matching ${config.pattern}`,
  cardText() {
    throw new InputError('decoder', 'a vendor pattern only reads cards; simulate its shoe with another format');
  },
};

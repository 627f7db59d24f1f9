import { formatCard, parseCard } from '../../engine/cards';
import { literal, type Infer } from '../../engine/schema';
import { flag, kindOptions } from '../deviceKind';
import type { Decoder, DecoderKind } from './decoder';

const TEXT_OPTIONS = kindOptions({
  kind: literal('text'),
  /**
   * The device writes the ace as rank `1` (`1s`, `♠1`). Off by default, since `1s` is otherwise
   * no card code and a stray `1` must not become an ace.
   */
  aceAsOne: flag,
});
export type TextDecoding = Infer<typeof TEXT_OPTIONS>;
export type TextOptions = Omit<TextDecoding, 'kind'>;

/** A `1` standing alone as the rank, before or after the suit; `10` is the ten and stays. */
function aceForOne(text: string): string {
  return text.trim().replace(/^1(?![0-9])/u, 'A').replace(/(?<![0-9])1$/u, 'A');
}

/** Plain card codes in any notation the engine reads: `As`, `AS`, `10h`, `Th`, `A♠`, `♤A` … */
export function textDecoder(options: TextOptions = {}): Decoder {
  return {
    decode(text) {
      const card = parseCard(options.aceAsOne === true ? aceForOne(text) : text);
      return card ? { card } : { reason: { key: 'hardware.decoder.notACardCode' } };
    },
  };
}

export const TEXT_DECODING: DecoderKind<TextDecoding> = {
  kind: 'text',
  summary: 'Card codes as text: As, 10h, A♠.',
  schema: TEXT_OPTIONS,
  create: (config) => textDecoder(config),
  describe: (config) => `card codes such as As or 10h${config.aceAsOne === true ? ' (1 for the ace)' : ''}`,
  cardText(card, config) {
    const code = formatCard(card, 'code');
    return config.aceAsOne === true && card[0] === 'A' ? `1${code.slice(1)}` : code;
  },
};

import { isCard, type Card } from '../engine/cards';
import { InputError } from '../engine/errors';
import { DEVICE_MESSAGES, type DeviceMessage } from './events';
import type { Decoder } from './decoding/decoder';
import { DEFAULT_INDEX_OPTIONS, indexDecoder, type IndexOptions } from './decoding/indexed';
import { patternDecoder, type PatternOptions } from './decoding/pattern';
import { suitNumberDecoder } from './decoding/suitNumber';
import { textDecoder } from './decoding/text';
import { UidDecoder } from './decoding/uid';
import { DEFAULT_MAX_FRAME, type Framer } from './framing/frame';
import { lineFramer } from './framing/lines';
import { silenceFramer } from './framing/silence';
import { CHECKSUMS, stxEtxFramer, type Checksum } from './framing/stxEtx';

export type FramingConfig =
  | { readonly kind: 'lines'; readonly maxLength?: number }
  | { readonly kind: 'stx-etx'; readonly checksum: Checksum; readonly maxLength?: number }
  | { readonly kind: 'silence'; readonly idleMs: number; readonly maxLength?: number };

export type DecoderConfig =
  | { readonly kind: 'text' }
  | { readonly kind: 'suit-number' }
  | ({ readonly kind: 'index' } & IndexOptions)
  | ({ readonly kind: 'pattern' } & PatternOptions)
  | { readonly kind: 'uid'; readonly cards?: Readonly<Record<string, Card>> };

/** How one kind of device talks: everything needed to read it, as data, so a new shoe needs no code. */
export interface DeviceProfile {
  readonly name: string;
  readonly baud: number;
  readonly framing: FramingConfig;
  readonly decoder: DecoderConfig;
  /** Frame texts (compared case-insensitively) that are device messages, not cards. */
  readonly messages: Readonly<Record<string, DeviceMessage>>;
}

export const DEFAULT_MESSAGES: Readonly<Record<string, DeviceMessage>> = {
  EMPTY: 'shoe-empty',
  'SHOE EMPTY': 'shoe-empty',
  NEW: 'new-shoe',
  'NEW SHOE': 'new-shoe',
};

const lines: FramingConfig = { kind: 'lines' };
function builtIn(name: string, framing: FramingConfig, decoder: DecoderConfig): DeviceProfile {
  return { name, baud: 9600, framing, decoder, messages: DEFAULT_MESSAGES };
}

export const BUILT_IN_PROFILES: Readonly<Record<string, DeviceProfile>> = {
  text: builtIn('text', lines, { kind: 'text' }),
  'suit-number': builtIn('suit-number', lines, { kind: 'suit-number' }),
  index1: builtIn('index1', lines, { kind: 'index', ...DEFAULT_INDEX_OPTIONS }),
  index0: builtIn('index0', lines, { kind: 'index', ...DEFAULT_INDEX_OPTIONS, base: 0 }),
  'stx-text': builtIn('stx-text', { kind: 'stx-etx', checksum: 'xor' }, { kind: 'text' }),
  'stx-sum': builtIn('stx-sum', { kind: 'stx-etx', checksum: 'sum' }, { kind: 'text' }),
  barcode: builtIn('barcode', { kind: 'silence', idleMs: 50 }, { kind: 'text' }),
  rfid: builtIn('rfid', lines, { kind: 'uid' }),
};

export const DEFAULT_PROFILE = BUILT_IN_PROFILES.text as DeviceProfile;

export function createFramer(framing: FramingConfig): Framer {
  const maxLength = framing.maxLength ?? DEFAULT_MAX_FRAME;
  if (framing.kind === 'lines') return lineFramer(maxLength);
  if (framing.kind === 'stx-etx') return stxEtxFramer(framing.checksum, maxLength);
  return silenceFramer(framing.idleMs, maxLength);
}

export function createDecoder(decoder: DecoderConfig): Decoder {
  switch (decoder.kind) {
    case 'text':
      return textDecoder();
    case 'suit-number':
      return suitNumberDecoder();
    case 'index':
      return indexDecoder(decoder);
    case 'pattern':
      return patternDecoder(decoder);
    case 'uid':
      return new UidDecoder(decoder.cards);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeIn(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InputError(field, `must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return value;
}

function stringTable(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || Object.values(value).some((entry) => typeof entry !== 'string')) {
    throw new InputError(field, 'must be an object of texts, e.g. {"01": "A"}');
  }
  return value as Record<string, string>;
}

function readFraming(value: unknown): FramingConfig {
  if (!isRecord(value)) throw new InputError('framing', 'must be an object with a "kind": lines, stx-etx or silence');
  const maxLength = wholeIn(value.maxLength, 'framing.maxLength', 1, 65536, DEFAULT_MAX_FRAME);
  if (value.kind === 'lines') return { kind: 'lines', maxLength };
  if (value.kind === 'stx-etx') {
    const checksum = value.checksum ?? 'none';
    if (!CHECKSUMS.includes(checksum as Checksum)) throw new InputError('framing.checksum', `choose one of ${CHECKSUMS.join(', ')}`);
    return { kind: 'stx-etx', checksum: checksum as Checksum, maxLength };
  }
  if (value.kind === 'silence') return { kind: 'silence', idleMs: wholeIn(value.idleMs, 'framing.idleMs', 5, 5000, 50), maxLength };
  throw new InputError('framing.kind', `unknown framing ${JSON.stringify(value.kind)}; choose lines, stx-etx or silence`);
}

function readIndexOptions(value: Record<string, unknown>): IndexOptions {
  const base = value.base ?? DEFAULT_INDEX_OPTIONS.base;
  if (base !== 0 && base !== 1) throw new InputError('decoder.base', 'must be 0 (cards 0–51) or 1 (cards 1–52)');
  const suitOrder = value.suitOrder ?? DEFAULT_INDEX_OPTIONS.suitOrder;
  if (typeof suitOrder !== 'string' || [...suitOrder].sort().join('') !== 'cdhs') {
    throw new InputError('decoder.suitOrder', 'must name each suit once, e.g. "shdc"');
  }
  const rankOrder = value.rankOrder ?? DEFAULT_INDEX_OPTIONS.rankOrder;
  if (typeof rankOrder !== 'string' || [...rankOrder].sort().join('') !== [...'23456789AJKQT'].sort().join('')) {
    throw new InputError('decoder.rankOrder', 'must name each rank once, e.g. "A23456789TJQK"');
  }
  return { base, suitOrder, rankOrder };
}

function readDecoder(value: unknown): DecoderConfig {
  if (!isRecord(value)) throw new InputError('decoder', 'must be an object with a "kind": text, suit-number, index, pattern or uid');
  switch (value.kind) {
    case 'text':
    case 'suit-number':
      return { kind: value.kind };
    case 'index':
      return { kind: 'index', ...readIndexOptions(value) };
    case 'pattern': {
      if (typeof value.pattern !== 'string') throw new InputError('decoder.pattern', 'must be a regular expression as text');
      try {
        new RegExp(value.pattern, 'u');
      } catch (error) {
        throw new InputError('decoder.pattern', `not a valid regular expression: ${(error as Error).message}`);
      }
      const groups = [...value.pattern.matchAll(/\(\?<([A-Za-z_]\w*)>/g)].map((match) => match[1] as string);
      if (!groups.includes('card') && !(groups.includes('rank') && groups.includes('suit'))) {
        throw new InputError('decoder.pattern', 'needs named groups (?<rank>…) and (?<suit>…), or (?<card>…)');
      }
      const ranks = stringTable(value.ranks, 'decoder.ranks');
      const suits = stringTable(value.suits, 'decoder.suits');
      return { kind: 'pattern', pattern: value.pattern, ...(ranks ? { ranks } : {}), ...(suits ? { suits } : {}) };
    }
    case 'uid': {
      const cards = value.cards ?? {};
      if (!isRecord(cards) || Object.values(cards).some((card) => !isCard(card))) {
        throw new InputError('decoder.cards', 'must map tag IDs to canonical cards, e.g. {"04A2B3C4": "As"}');
      }
      return { kind: 'uid', cards: cards as Record<string, Card> };
    }
    default:
      throw new InputError('decoder.kind', `unknown decoder ${JSON.stringify(value.kind)}; choose text, suit-number, index, pattern or uid`);
  }
}

/** Validates a device profile given as JSON (a saved setting or a file), naming the bad field. */
export function readProfile(value: unknown): DeviceProfile {
  if (!isRecord(value)) throw new InputError('profile', 'must be a JSON object with "framing" and "decoder"');
  const messages = value.messages ?? DEFAULT_MESSAGES;
  if (!isRecord(messages) || Object.values(messages).some((message) => !DEVICE_MESSAGES.includes(message as DeviceMessage))) {
    throw new InputError('messages', `must map device texts to ${DEVICE_MESSAGES.join(' or ')}`);
  }
  return {
    name: typeof value.name === 'string' && value.name.trim() !== '' ? value.name.trim() : 'custom',
    baud: wholeIn(value.baud, 'baud', 50, 4_000_000, 9600),
    framing: readFraming(value.framing),
    decoder: readDecoder(value.decoder),
    messages: messages as Record<string, DeviceMessage>,
  };
}

import type { Card } from '../engine/cards';
import { object, parse, variant, type Schema } from '../engine/schema';
import { orSaid } from './deviceKind';
import type { Decoder, DecoderKind } from './decoding/decoder';
import { INDEX_DECODING, type IndexDecoding } from './decoding/indexed';
import { PATTERN_DECODING, type PatternDecoding } from './decoding/pattern';
import { SUIT_NUMBER_DECODING, type SuitNumberDecoding } from './decoding/suitNumber';
import { TEXT_DECODING, type TextDecoding } from './decoding/text';
import { UID_DECODING, type UidDecoding } from './decoding/uid';
import { BINARY_FRAMING, type BinaryFraming } from './framing/binary';
import { FRAME_MAX_LENGTH, type Framer, type FramingKind } from './framing/frame';
import { LINES_FRAMING, type LinesFraming } from './framing/lines';
import { SILENCE_FRAMING, type SilenceFraming } from './framing/silence';
import { STX_ETX_FRAMING, type StxEtxFraming } from './framing/stxEtx';

/**
 * The framers and decoders a device profile may name, each by its `kind`: the one list that
 * profiles are read against (FRAMING and DECODER, variants of the kinds' own schemas), summarised
 * by (profileSummary) and built from (createFramer, createDecoder). A new kind is a module
 * exporting its DeviceKind (its config type its schema's Infer), its config in the union below,
 * and one line in its table; the refusals that list the kinds follow by themselves.
 */

/** A profile's `framing`: how the bytes are cut into messages. */
export type FramingConfig = LinesFraming | StxEtxFraming | SilenceFraming | BinaryFraming;

/** A profile's `decoder`: how a message's text becomes a card. */
export type DecoderConfig = TextDecoding | SuitNumberDecoding | IndexDecoding | PatternDecoding | UidDecoding;

/** Every kind of the config union, each with its own entry: the type checker sees none is missing. */
type FramingTable = { readonly [K in FramingConfig['kind']]: FramingKind<Extract<FramingConfig, { readonly kind: K }>> };
type DecoderTable = { readonly [K in DecoderConfig['kind']]: DecoderKind<Extract<DecoderConfig, { readonly kind: K }>> };

export const FRAMINGS: FramingTable = {
  lines: LINES_FRAMING,
  'stx-etx': STX_ETX_FRAMING,
  silence: SILENCE_FRAMING,
  binary: BINARY_FRAMING,
};

export const DECODERS: DecoderTable = {
  text: TEXT_DECODING,
  'suit-number': SUIT_NUMBER_DECODING,
  index: INDEX_DECODING,
  pattern: PATTERN_DECODING,
  uid: UID_DECODING,
};

/** The kinds in the order the refusals and lists name them. */
export const FRAMING_KINDS = Object.keys(FRAMINGS) as readonly FramingConfig['kind'][];
export const DECODER_KINDS = Object.keys(DECODERS) as readonly DecoderConfig['kind'][];

/** One kind as a list shows it (a settings screen, a command's help). */
export interface KindListing {
  readonly kind: string;
  /** What it reads, in English. */
  readonly summary: string;
  /** The stable key a screen translates the summary by: `source.framings.<kind>`, `source.decoderKinds.<kind>`. */
  readonly summaryKey: string;
}

/** The framings and the decoders, in order, each with its summary and its key. */
export const FRAMING_LISTING: readonly KindListing[] = FRAMING_KINDS.map((kind) => ({ kind, summary: FRAMINGS[kind].summary, summaryKey: `source.framings.${kind}` }));
export const DECODER_LISTING: readonly KindListing[] = DECODER_KINDS.map((kind) => ({ kind, summary: DECODERS[kind].summary, summaryKey: `source.decoderKinds.${kind}` }));

/** The entry of a config's kind, typed for that config (TypeScript cannot follow the kind through the table). */
function framingOf(config: FramingConfig): FramingKind<FramingConfig> {
  return FRAMINGS[config.kind] as unknown as FramingKind<FramingConfig>;
}

function decoderOf(config: DecoderConfig): DecoderKind<DecoderConfig> {
  return DECODERS[config.kind] as unknown as DecoderKind<DecoderConfig>;
}

/** Each kind's schema by its name, for the variant that picks one by `kind` (an own key: never `toString`). */
const schemasOf = <Config>(table: Readonly<Record<string, { readonly schema: Schema<unknown> }>>): Readonly<Record<string, Schema<Config>>> =>
  Object.fromEntries(Object.entries(table).map(([kind, entry]) => [kind, entry.schema as Schema<Config>]));

/**
 * A profile's `framing`: an object (no list) whose `kind` names a framing, read by that kind's
 * schema. `maxLength`, which every framing has, is read first, whatever the kind.
 */
export const FRAMING: Schema<FramingConfig> = variant(
  'kind',
  schemasOf<FramingConfig>(FRAMINGS),
  { key: 'hardware.profile.kindObject', params: { kinds: orSaid(FRAMING_KINDS) } },
  (kind) => ({ key: 'hardware.profile.framingUnknown', params: { got: String(JSON.stringify(kind)), kinds: orSaid(FRAMING_KINDS) } }),
  { plainOnly: true, before: object({ maxLength: FRAME_MAX_LENGTH }, { key: 'hardware.profile.notObject' }) },
);

/** A profile's `decoder`: an object (no list) whose `kind` names a decoder, read by that kind's schema. */
export const DECODER: Schema<DecoderConfig> = variant(
  'kind',
  schemasOf<DecoderConfig>(DECODERS),
  { key: 'hardware.profile.kindObject', params: { kinds: orSaid(DECODER_KINDS) } },
  (kind) => ({ key: 'hardware.profile.decoderUnknown', params: { got: String(JSON.stringify(kind)), kinds: orSaid(DECODER_KINDS) } }),
  { plainOnly: true },
);

/** A profile's `framing` alone, refused naming the field (`framing.kind` …). */
export const readFraming = (value: unknown): FramingConfig => parse(FRAMING, value, 'framing');

/** A profile's `decoder` alone, refused naming the field (`decoder.base` …). */
export const readDecoder = (value: unknown): DecoderConfig => parse(DECODER, value, 'decoder');

export function createFramer(framing: FramingConfig): Framer {
  return framingOf(framing).create(framing);
}

export function createDecoder(decoder: DecoderConfig): Decoder {
  return decoderOf(decoder).create(decoder);
}

export function describeFraming(framing: FramingConfig): string {
  return framingOf(framing).describe(framing);
}

export function describeDecoder(decoder: DecoderConfig): string {
  return decoderOf(decoder).describe(decoder);
}

/** One message wrapped as a device of this framing sends it. */
export function wrapMessage(payload: Buffer, framing: FramingConfig, lineEnding: string): Buffer {
  return framingOf(framing).wrap(payload, framing, lineEnding);
}

/** The text a device of this decoder sends for a card (what the simulated shoe writes); an InputError when it cannot be simulated. */
export function cardText(card: Card, decoder: DecoderConfig): string {
  return decoderOf(decoder).cardText(card, decoder);
}

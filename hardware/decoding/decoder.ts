import type { Card } from '../../engine/cards';
import type { Message } from '../../engine/messages';
import type { DeviceKind } from '../deviceKind';

/**
 * What a decoder makes of one frame's text: a card, or the reason it is not one. `reader` is the
 * antenna or reader the device named (an RFID line such as `1|04A2B3C4`), when it names one.
 */
export type Decoded = { readonly card: Card; readonly reader?: string } | { readonly reason: Message };

export interface Decoder {
  decode(text: string): Decoded;
  /**
   * What the text reads as, worked out without decoding it (decoding may change the decoder's
   * state: a tag read while registering a deck is registered). The repeat window (the profile's
   * `repeatMs`) compares these, so a tag lying on the antenna is one read even while registering
   * or when it is not registered. Decoders without it are compared by the card they decode.
   */
  readKey?(text: string): string | undefined;
}

/** A kind of decoder as the registry lists it. */
export interface DecoderKind<Config extends { readonly kind: string }> extends DeviceKind<Config, Decoder> {
  /**
   * The text a device of this kind sends for a card (what the simulated shoe writes); an
   * InputError naming the field when such a device cannot be simulated.
   */
  cardText(card: Card, config: Config): string;
}

/** AIM symbology identifiers (`]C0`, `]Q1`, `]E0` …) that barcode readers put before the data. */
const SYMBOLOGY_PREFIX = /^\][A-Za-z][0-9A-Za-z]/;

export function stripSymbology(text: string): string {
  return text.replace(SYMBOLOGY_PREFIX, '');
}

/**
 * A one-letter Code ID (Honeywell `j` for Code 128, `b` for Code 39, `Q` for QR …) that a scanner
 * configured to send one puts before everything it reads. Only profiles with `codeId` strip it: a
 * letter is just as likely to be the data (`As`), so it is never guessed.
 */
export function stripCodeId(text: string): string {
  return text.replace(/^[A-Za-z]/, '');
}

import type { Card } from '../../engine/cards';

/** What a decoder makes of one frame's text: a card, or the reason it is not one. */
export type Decoded = { readonly card: Card } | { readonly reason: string };

export interface Decoder {
  decode(text: string): Decoded;
}

/** AIM symbology identifiers (`]C0`, `]Q1`, `]E0` …) that barcode readers put before the data. */
const SYMBOLOGY_PREFIX = /^\][A-Za-z][0-9A-Za-z]/;

export function stripSymbology(text: string): string {
  return text.replace(SYMBOLOGY_PREFIX, '');
}

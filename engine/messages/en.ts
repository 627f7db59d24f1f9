import type { Catalog } from './message';

/**
 * What the engine says, in English: the command line prints these, and the screens show them in
 * English. Keys are stable (see message.ts); fi.ts and ru.ts have every key of this one (a test says so).
 */
export const en = {
  common: {
    seat: 'Seat {seat}',
    seatNamed: 'Seat {seat} — {name}',
    seatInText: 'seat {seat}',
    seatNamedInText: 'seat {seat} — {name}',
    and: '{list} and {last}',
    nobody: 'Nobody',
  },
  race: {
    refused: {
      duplicate: '{card} was already dealt (to {seats}) and the shoe holds one deck: a misread or misdeal; check the card',
      duplicateDecks: '{card} was already dealt {copies} times (to {seats}) and the shoe holds only {decks} decks',
    },
  },
} as const satisfies Catalog;

/** The shape every language's catalog has: the same keys as the English one. */
export type EngineCatalog = DeepStrings<typeof en>;
type DeepStrings<T> = { readonly [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };

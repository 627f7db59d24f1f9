import { enEngine } from './en/engine';
import { enConsole } from './en/console';
import { enDevices } from './en/devices';
import type { Catalog } from './catalog';

/**
 * What the engine says, in English: the command line prints these, and the screens show them in
 * English. Keys are stable (see message.ts); fi.ts and ru.ts have every key of this one (a test says so).
 */
export const en = { ...enEngine, ...enConsole, ...enDevices } as const satisfies Catalog;

/** The shape every language's catalog has: the same keys as the English one. */
export type EngineCatalog = DeepStrings<typeof en>;
/** A part of the English catalog as every other language has it: the same keys, any words. */
export type DeepStrings<T> = { readonly [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };

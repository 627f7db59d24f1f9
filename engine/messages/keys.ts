import type { en } from './en';

/** Every key the catalogs hold, dotted: `race.refused.duplicate`. A Message with any other key does not compile. */
export type MessageKey = KeysOf<typeof en>;
/** The dotted keys of a catalog's tree (a part's own catalog, such as the floor's, names its keys with it). */
export type KeysOf<T, Prefix extends string = ''> = { [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`> }[keyof T & string];

import { en } from './en';
import { fi } from './fi';
import { ru } from './ru';
import type { MessageKey } from './keys';
import { formatMessage, templateOf, type Catalog, type FormatOptions, type Message, type MessageLanguage } from './message';

export * from './message';
export type { MessageKey } from './keys';

/** Every language's catalog of what the engine says. */
export const ENGINE_CATALOGS: Readonly<Record<MessageLanguage, Catalog>> = { en, fi, ru };

/** The message in English with card codes, as the command line and the journal have always said it. */
export function englishText(message: Message, options: FormatOptions = { cards: 'code' }): string {
  return formatMessage(message, 'en', en, options);
}

/** Whether `value` is a key the catalogs hold: a key read back from a file (a journal a newer version wrote) is checked with it. */
export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && value.length <= 120 && templateOf(en, value) !== undefined;
}

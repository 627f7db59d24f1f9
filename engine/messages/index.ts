import { en } from './en';
import { fi } from './fi';
import { ru } from './ru';
import { formatMessage, type Catalog, type FormatOptions, type Message, type MessageLanguage } from './message';

export * from './message';

/** Every language's catalog of what the engine says. */
export const ENGINE_CATALOGS: Readonly<Record<MessageLanguage, Catalog>> = { en, fi, ru };

/** The message in English with card codes, as the command line and the journal have always said it. */
export function englishText(message: Message, options: FormatOptions = { cards: 'code' }): string {
  return formatMessage(message, 'en', en, options);
}

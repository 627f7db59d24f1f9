import type { InputError } from '../errors';
import { ENGINE_CATALOGS, englishText, templateOf, type Catalog, type Message, type MessageParam } from './index';
import { formatMessage } from './message';

/** Every key a message uses, its own and its nested messages'. */
function keysOf<Key extends string>(message: Message<Key>): string[] {
  const nested = Object.values<MessageParam<Key>>(message.params ?? {}).flatMap((param) =>
    typeof param === 'object' && 'message' in param ? keysOf(param.message) : [],
  );
  return [message.key, ...nested];
}

/**
 * For tests: the refusal speaks in keys — it carries a message, its English (`english`) is its
 * reason, and every key in it (nested ones too) has a template in every language of `catalogs`, so
 * no screen or page shows a bare key or a placeholder. Throws, naming what is wrong, otherwise
 * returns the message. The engine's refusals are checked with its catalogs (expectSaid), a part's
 * with its own (the floor's: floor/testing/said.ts).
 */
export function expectSaidIn<Said extends Message<string>>(error: InputError<Said>, english: (said: Said) => string, catalogs: Readonly<Record<string, Catalog>>): Said {
  const said = error.said;
  if (said === undefined) throw new Error(`${error.field}: ${error.reason} carries no message key`);
  if (english(said) !== error.reason) throw new Error(`${said.key}: its English "${english(said)}" is not the reason "${error.reason}"`);
  for (const [language, catalog] of Object.entries(catalogs)) {
    for (const key of keysOf(said)) if (templateOf(catalog, key) === undefined) throw new Error(`${language}: no template for ${key}`);
    const text = formatMessage(said, language, catalog);
    if (/\{\w+\}/.test(text)) throw new Error(`${language}: a placeholder is left in "${text}"`);
  }
  return said;
}

/** For tests: the engine's refusal speaks in keys, with the engine's catalogs (expectSaidIn). */
export function expectSaid(error: InputError): Message {
  return expectSaidIn(error, englishText, ENGINE_CATALOGS);
}

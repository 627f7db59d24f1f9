import type { InputError } from '../errors';
import { ENGINE_CATALOGS, englishText, templateOf, type Message, type MessageParam } from './index';
import { formatMessage } from './message';

/** Every key a message uses, its own and its nested messages'. */
function keysOf(message: Message): string[] {
  const nested = Object.values(message.params ?? {}).flatMap((param: MessageParam) =>
    typeof param === 'object' && 'message' in param ? keysOf(param.message) : [],
  );
  return [message.key, ...nested];
}

/**
 * For tests: the refusal speaks in keys — it carries a Message, its English is its reason, and every
 * key in it (nested ones too) has a template in every language, so no screen shows a bare key or a
 * placeholder. Throws, naming what is wrong, otherwise returns the message.
 */
export function expectSaid(error: InputError): Message {
  const said = error.said;
  if (said === undefined) throw new Error(`${error.field}: ${error.reason} carries no message key`);
  if (englishText(said) !== error.reason) throw new Error(`${said.key}: its English "${englishText(said)}" is not the reason "${error.reason}"`);
  for (const [language, catalog] of Object.entries(ENGINE_CATALOGS)) {
    for (const key of keysOf(said)) if (templateOf(catalog, key) === undefined) throw new Error(`${language}: no template for ${key}`);
    const text = formatMessage(said, language, catalog);
    if (/\{\w+\}/.test(text)) throw new Error(`${language}: a placeholder is left in "${text}"`);
  }
  return said;
}

import type { InputError } from '../../engine/errors';
import { formatMessage, templateOf } from '../../engine/messages';
import { englishFloorText, FLOOR_CATALOGS, type FloorMessage, type FloorParam } from '../page/words';

/** Every key a message uses, its own and its nested messages'. */
function keysOf(message: FloorMessage): string[] {
  const nested = Object.values(message.params ?? {}).flatMap((param: FloorParam) => (typeof param === 'object' && 'message' in param ? keysOf(param.message) : []));
  return [message.key, ...nested];
}

/**
 * For tests: the floor's refusal speaks in keys, as the engine's do (engine/messages/testing.ts
 * expectSaid), with the floor's catalogs — it carries a message, its English is its reason, and
 * every key in it has a template in every language, no placeholder left. Throws, naming what is
 * wrong, otherwise returns the message.
 */
export function expectFloorSaid(error: InputError<FloorMessage>): FloorMessage {
  const said = error.said;
  if (said === undefined) throw new Error(`${error.field}: ${error.reason} carries no message key`);
  if (englishFloorText(said) !== error.reason) throw new Error(`${said.key}: its English "${englishFloorText(said)}" is not the reason "${error.reason}"`);
  for (const [language, catalog] of Object.entries(FLOOR_CATALOGS)) {
    for (const key of keysOf(said)) if (templateOf(catalog, key) === undefined) throw new Error(`${language}: no template for ${key}`);
    const text = formatMessage(said, language, catalog);
    if (/\{\w+\}/.test(text)) throw new Error(`${language}: a placeholder is left in "${text}"`);
  }
  return said;
}

import type { InputError } from '../../engine/errors';
import { expectSaidIn } from '../../engine/messages/testing';
import { englishFloorText, FLOOR_CATALOGS, type FloorMessage } from '../page/words';

/**
 * For tests: the floor's refusal speaks in keys, as the engine's do (engine/messages/testing.ts
 * expectSaidIn), with the floor's catalogs — it carries a message, its English is its reason, and
 * every key in it has a template in every language, no placeholder left. Throws, naming what is
 * wrong, otherwise returns the message.
 */
export function expectFloorSaid(error: InputError<FloorMessage>): FloorMessage {
  return expectSaidIn(error, englishFloorText, FLOOR_CATALOGS);
}

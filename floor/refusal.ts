import { InputError } from '../engine/errors';
import { englishFloorText, type FloorMessage } from './page/words';

/**
 * A refusal of the floor's: an InputError (the field at fault, the reason in English) whose `said`
 * may be in the floor's own words (floor/words), its English said from the floor's catalog. The
 * command line prints its reason; the floor page says it in the page's language.
 */
export class FloorRefusal extends InputError<FloorMessage> {
  constructor(field: string, said: FloorMessage) {
    super(field, said, englishFloorText);
  }
}

/** Whether `error` is a refusal, the floor's or the engine's (an engine Message is a FloorMessage too). */
export function isFloorRefusal(error: unknown): error is InputError<FloorMessage> {
  return error instanceof InputError;
}

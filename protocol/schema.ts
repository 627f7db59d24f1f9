/**
 * The house schema builder (engine/schema.ts, where hardware/ can use it too) and the one mapping
 * from its refusals to the keyed `{field, said}` refusal the screens translate (`refusalOf`,
 * `commandErrorOf`). Every boundary that protocol/, station/, the floor and the renderer read is
 * described with what this file exports.
 */
import type { InputError } from '../engine/errors';
import { englishText, type Message } from '../engine/messages';

export * from '../engine/schema';

/** A refusal as the screens get it (CommandError in protocol/contract.ts). */
export interface CommandError {
  /** The input field at fault (`cards`, `seats[2].chips`, `path` …). */
  readonly field: string;
  /** The refusal in English (the command line's and the log's words). */
  readonly message: string;
  /** The refusal as a key and its parameters (engine/messages), for the screens to say in the dealer's language. */
  readonly said?: Message;
  /** A card read refused by the race or game (a scan): the card the profile that decoded the read made of it, so the screens call it that. */
  readonly card?: string;
}

/** A refusal as the screens get it: the field, the English, and the key with its parameters. The one mapping from a schema's refusals. */
export const refusalOf = (field: string, said: Message): CommandError => ({ field, message: englishText(said), said });

/** An InputError (a schema's, or a reader's keyed one) as a refusal; one said only in English keeps its words. */
export const commandErrorOf = (error: InputError): CommandError => (error.said === undefined ? { field: error.field, message: error.reason } : refusalOf(error.field, error.said));

import { englishText, type Message } from './messages';

/**
 * Every refusal the engine makes names the input field at fault and the reason, so the console,
 * the command line and the journal can show one clear line without interpreting the error. A
 * refusal given as a Message carries its stable key and parameters, so the screens say it in the
 * dealer's language; `reason` is always its English (card codes as the command line prints them).
 */
export class InputError<Said extends Message<string> = Message> extends Error {
  readonly field: string;
  readonly reason: string;
  /** The refusal as a key and its parameters; absent for a refusal still worded in English only. */
  readonly said?: Said;

  /**
   * A refusal in the engine's words is said in English by `englishText`. One in the words of a part
   * with its own catalog (`Said` wider than Message: the floor's, floor/refusal.ts) gives its own
   * English formatter, and must.
   */
  constructor(field: string, reason: string | NoInfer<Said>, ...english: [Said] extends [Message] ? [] : [english: (said: Said) => string]) {
    const [own] = english;
    const text = typeof reason === 'string' ? reason : own !== undefined ? own(reason) : englishText(reason as Message);
    super(`${field}: ${text}`);
    this.name = 'InputError';
    this.field = field;
    this.reason = text;
    if (typeof reason !== 'string') this.said = reason;
  }
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}

import { englishText, type Message } from './messages';

/**
 * Every refusal the engine makes names the input field at fault and the reason, so the console,
 * the command line and the journal can show one clear line without interpreting the error. A
 * refusal given as a Message carries its stable key and parameters, so the screens say it in the
 * dealer's language; `reason` is always its English (card codes as the command line prints them).
 */
export class InputError extends Error {
  readonly field: string;
  readonly reason: string;
  /** The refusal as a key and its parameters; absent for a refusal still worded in English only. */
  readonly said?: Message;

  constructor(field: string, reason: string | Message) {
    const text = typeof reason === 'string' ? reason : englishText(reason);
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

/**
 * Every refusal the engine makes names the input field at fault and the reason, so the console,
 * the command line and the journal can show one clear line without interpreting the error.
 */
export class InputError extends Error {
  readonly field: string;
  readonly reason: string;

  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.name = 'InputError';
    this.field = field;
    this.reason = reason;
  }
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}

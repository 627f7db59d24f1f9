import type { CommandName } from '../../protocol/commands';
import type { CommandResult } from '../../protocol/contract';
import type { Message } from '../../engine/messages';

/**
 * A command's outcome as the screens see it: the service's result, or a refusal the screen found
 * itself, or the connection lost. Every action of the store answers one.
 */
export interface UiError {
  readonly field: string;
  /** The service's English. */
  readonly message: string;
  /** A refusal the screen found itself: its locale key. */
  readonly key?: string;
  readonly params?: Readonly<Record<string, string | number>>;
  /** The service's refusal as a key and its parameters (engine/messages): said in the dealer's language. */
  readonly said?: Message;
  /** A read the race or game refused: the card the service's profile decoded it as (CommandError.card). */
  readonly card?: string;
}

export type Outcome<T = null> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: UiError };

/**
 * The store's actions that keep an error and a busy flag of their own: every command of the table
 * (protocol/commands.ts) except reading the state, and a scan, whose refusal is the deal's.
 */
export type ActionName = Exclude<CommandName, 'getState' | 'dealScan'>;

export const CONNECTION_LOST: UiError = { field: 'connection', message: 'connection to the console service lost', key: 'errors.connection' };

export function toUiError(error: unknown): UiError {
  if (error instanceof Error && error.name !== 'ConnectionLostError') {
    return { field: 'connection', message: error.message, key: 'errors.unexpected', params: { message: error.message } };
  }
  return CONNECTION_LOST;
}

export function isCommandResult(value: unknown): value is CommandResult<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const ok = (value as { ok?: unknown }).ok;
  if (ok === true) return 'value' in value;
  if (ok === false) {
    const error = (value as { error?: unknown }).error;
    return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
  }
  return false;
}

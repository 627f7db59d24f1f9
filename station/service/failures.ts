import { isInputError } from '../../engine/errors';
import { englishText, type Message } from '../../engine/messages';
import { findingText, type JournalFinding } from '../../journal/findings';
import type { CommandResult } from '../../protocol/contract';

/**
 * How a command fails, as every screen is told it: a refusal said as a key (its English beside
 * it), a write the disk would not take, a journal a newer version wrote.
 */

export const ok = <T>(value: T): CommandResult<T> => ({ ok: true, value });

/**
 * A refusal: said as a key and its parameters (its English, from the same catalog, is the message),
 * or, where the words come from elsewhere in English only (a journal finding, a device profile's
 * reader), as that text alone.
 */
export const refused = (field: string, reason: Message | string): CommandResult<never> =>
  ({ ok: false, error: typeof reason === 'string' ? { field, message: reason } : { field, message: englishText(reason), said: reason } });

/**
 * A change the disk would not take (full, read-only, failing). Nothing of it was kept, on disk or
 * in memory: the console stays as it was, and the dealer is told why and what to do.
 */
export class SaveError extends Error {
  constructor(
    readonly field: 'journal' | 'settings',
    cause: unknown,
  ) {
    const said = saveRefusal(field, cause);
    super(englishText(said));
    this.said = said;
  }

  readonly said: Message;
}

/** Why a write failed, as the dealer is told it: the disk full (its code) or refusing (the system's words). */
function saveRefusal(field: 'journal' | 'settings', cause: unknown): Message {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  const kind = field === 'journal' ? 'journal' : 'settings';
  return full
    ? { key: `service.save.${kind}Full`, params: { code: code ?? '' } }
    : { key: `service.save.${kind}Refused`, params: { why: (cause as Error | null)?.message ?? String(cause) } };
}

/** Why the journal takes nothing, as a refusal says it: the finding that made it read-only, in keys. */
function readOnlySaid(why: JournalFinding | null): Message {
  switch (why?.code) {
    case 'newer-version':
      return { key: 'service.readOnlyNewer', params: { version: why.version } };
    case 'unknown-record':
      return { key: 'service.readOnlyUnknown', params: { seq: why.seq, kind: why.kind } };
    case 'key-missing':
      return { key: 'service.readOnlyKeyMissing', params: { keyId: why.keyId } };
    case 'key-wrong':
      return { key: 'service.readOnlyKeyWrong', params: { keyId: why.keyId } };
    default:
      return { key: 'service.readOnly' };
  }
}

/** The journal was written by a newer version (or is sealed with a key not given): the console shows it, and records nothing. */
export class ReadOnlyError extends Error {
  readonly said: Message;

  constructor(why: JournalFinding | null) {
    super(why === null ? englishText({ key: 'service.readOnly' }) : findingText(why));
    this.said = readOnlySaid(why);
  }
}

/** Any error a command ends with, as its refusal. */
export function failure(error: unknown): CommandResult<never> {
  // The field travels on its own: the message is the reason alone, ready to read after the screen's lead-in.
  // An InputError's reason is already its said's English: taken as it is, not rendered again.
  if (isInputError(error)) return { ok: false, error: error.said === undefined ? { field: error.field, message: error.reason } : { field: error.field, message: error.reason, said: error.said } };
  if (error instanceof SaveError) return refused(error.field, error.said);
  if (error instanceof ReadOnlyError) return refused('journal', error.said);
  return refused('service', { key: 'service.unexpected', params: { message: (error as Error).message } });
}

import { isInputError } from '../../engine/errors';
import { DataFolderError } from './dataFolder';

/** System error codes a start can meet, in the dealer's words. */
const CAUSES: Readonly<Record<string, string>> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EIO: 'the disk reported an input/output error',
  ENOENT: 'a file or folder is missing',
  ENOTDIR: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
  EEXIST: 'something of that name is already there',
  EBUSY: 'it is in use by another program',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open on this computer',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'a path has a loop of links',
  EADDRINUSE: 'the network port is already in use (is the console already running?)',
  EADDRNOTAVAIL: 'that address is not on this computer',
  EAI_AGAIN: 'that host name cannot be looked up',
  ENOTFOUND: 'that host name cannot be looked up',
};

const MAX_LENGTH = 400;

/** One line, however the text came: control characters (newlines) become spaces, length is capped. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/ {2,}/g, ' ').trim();
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH - 1)}…` : line;
}

/** The first line of what was thrown, never its stack. */
function said(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0]?.trim() || error.name || 'an error without a message';
  if (typeof error === 'string') return error.split('\n')[0]?.trim() || 'an empty error';
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * The one line to print (browser mode) or show (Electron) for anything thrown while the console
 * starts: a DataFolderError as it is, a field at fault as field and reason, a system error as
 * its cause in words with the code and what it concerned; never a stack.
 */
export function startFailureMessage(error: unknown): string {
  if (error instanceof DataFolderError) return oneLine(error.message);
  if (isInputError(error)) return oneLine(`could not start: ${error.field}: ${error.reason}`);
  const failure = error as (NodeJS.ErrnoException & { address?: unknown; port?: unknown; dest?: unknown }) | null;
  const code = typeof failure === 'object' && failure !== null && typeof failure.code === 'string' ? failure.code : undefined;
  if (code === undefined) return oneLine(`could not start: ${said(error)}`);
  const text = said(error);
  // Node writes "CODE: description, syscall 'path'": the description alone, the rest comes after.
  const described = text.startsWith(`${code}: `) ? text.slice(code.length + 2) : text;
  const syscallAt = typeof failure?.syscall === 'string' ? described.lastIndexOf(`, ${failure.syscall}`) : -1;
  const cause = CAUSES[code] ?? (syscallAt > 0 ? described.slice(0, syscallAt) : described);
  const where = [
    typeof failure?.syscall === 'string' ? failure.syscall : '',
    typeof failure?.path === 'string' ? failure.path : '',
    typeof failure?.dest === 'string' ? `→ ${failure.dest}` : '',
    typeof failure?.address === 'string' ? `${failure.address}${typeof failure.port === 'number' ? `:${failure.port}` : ''}` : '',
  ].filter((part) => part !== '').join(' ');
  return oneLine(`could not start: ${cause} (${code}${where === '' ? '' : `, ${where}`})`);
}

import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Browser mode's secret ("browser key"): 32 random bytes, base64url. Loopback is shared by every
 * user of the machine, so listening there is not enough: a page or a process must also show this
 * key, which only the user who started the console can read (mode 0600 in their data folder).
 *
 * One key per data folder, not per launch: it is made on the first start and read back after that,
 * so a page left open reconnects after the service crashed or was restarted, and the address the
 * console printed keeps working. Deleting the file makes a new key on the next start (every open
 * page must then be opened again from the new address).
 */

export const KEY_FILE = 'browser-key';
/**
 * The player display's own key, kept the same way: its address goes to the room's TV, whose
 * browser must open the display (read-only) and nothing else, never the console.
 */
export const DISPLAY_KEY_FILE = 'display-key';

const KEY_BYTES = 32;
/** 32 bytes in base64url without padding: 43 characters. */
const KEY_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function isKeyFormat(value: string): boolean {
  return KEY_FORMAT.test(value);
}

export function newKey(): string {
  return randomBytes(KEY_BYTES).toString('base64url');
}

/** The key file's text if it is a regular file only its owner can read, holding a well-formed key. */
function readUsable(path: string): string | null {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return null;
  }
  // A link could point anywhere, and a key others can read is no secret: either is replaced.
  if (!stats.isFile() || (stats.mode & 0o077) !== 0) return null;
  if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) return null;
  const text = readFileSync(path, 'utf8').trim();
  return isKeyFormat(text) ? text : null;
}

/** Writes a fresh key to a temporary file of mode 0600 (whatever the umask), synced; returns its path and the key. */
function writeTemporary(dir: string, file: string): { temporary: string; key: string } {
  const key = newKey();
  const temporary = join(dir, `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(temporary, 0o600);
  return { temporary, key };
}

/**
 * The data folder's browser key: read from `<dataDir>/browser-key`, or made there on the first
 * start (mode 0600). A file that is not usable (not a regular file, readable by others, owned by
 * someone else, not a key) is replaced with a new key.
 */
export function loadBrowserKey(dataDir: string): string {
  return loadKey(dataDir, KEY_FILE);
}

/** The player display's key: `<dataDir>/display-key`, kept and replaced as the browser key is. */
export function loadDisplayKey(dataDir: string): string {
  return loadKey(dataDir, DISPLAY_KEY_FILE);
}

function loadKey(dataDir: string, file: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, file);
  const existing = readUsable(path);
  if (existing !== null) return existing;
  const { temporary, key } = writeTemporary(dataDir, file);
  try {
    try {
      // link, not rename, on a first start: it fails if the file appeared meanwhile (two consoles
      // started at once on one folder), and then both use the one that is there.
      linkSync(temporary, path);
      return key;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const raced = readUsable(path);
    if (raced !== null) return raced;
    // The file there is not usable: replace it (rename replaces a link itself, not what it points to).
    renameSync(temporary, path);
    return key;
  } finally {
    rmSync(temporary, { force: true });
  }
}

import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** How the dealer picks another data folder, in the words of the message. */
export const CHOOSE_ANOTHER = 'choose another with CHIP_RACE_DATA_DIR';

/**
 * The data folder cannot hold the journal and the settings. `message` is one line for the
 * dealer: the folder, the cause in words with its code, and what to do.
 */
export class DataFolderError extends Error {
  override readonly name = 'DataFolderError';

  constructor(
    /** The folder, as an absolute path. */
    readonly dir: string,
    /** The system's error code (ENOTDIR also when a file stands where the folder should be). */
    readonly code: string,
    /** The cause in words, e.g. "read-only file system". */
    readonly reason: string,
    /** What to do, e.g. "choose another with CHIP_RACE_DATA_DIR or make it writable". */
    readonly remedy: string,
  ) {
    super(`the data folder ${oneLine(dir)} cannot be written (${reason}, ${code}): ${remedy}`);
  }
}

export interface DataFolderOptions {
  /** How another folder is chosen where the console runs; CHOOSE_ANOTHER (browser mode) unless told. */
  readonly chooseAnother?: string;
}

/** Control characters (a newline in a path) would break the one line. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, '?');
}

const errorCode = (error: unknown): string | undefined => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The nearest part of the path above `dir` that exists and is not a folder, if any. */
async function fileAbove(dir: string): Promise<string | null> {
  for (let path = dirname(dir); ; path = dirname(path)) {
    const entry = await stat(path).catch(() => null);
    if (entry !== null) return entry.isDirectory() ? null : path;
    if (dirname(path) === path) return null;
  }
}

const coded = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

/**
 * `mkdir -p`, one level at a time: Node's recursive mkdir reports ENOENT for a folder it cannot
 * make on a read-only disk, where each level's own mkdir says EROFS.
 */
async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  for (let path = folder; ; path = dirname(path)) {
    const entry = await stat(path).catch((error: unknown) => error as NodeJS.ErrnoException);
    if (!(entry instanceof Error)) {
      if (!entry.isDirectory()) throw coded('ENOTDIR', 'not a directory');
      break;
    }
    // ENOTDIR: a part above is a file; anything else (EACCES, EIO) is as it came.
    if (entry.code !== 'ENOENT' || dirname(path) === path) throw entry;
    missing.unshift(path);
  }
  for (const path of missing) {
    try {
      // The data folder itself for its owner alone (it holds the floor's password); the levels above as usual.
      await mkdir(path, path === folder ? OWNER_ONLY_FOLDER : undefined);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      // Made meanwhile (fine), a file (refused), or a link to nowhere (stat finds nothing).
      const entry = await stat(path).catch(() => null);
      if (entry === null) throw coded('ENOENT', 'no such file or directory');
      if (!entry.isDirectory()) throw coded('ENOTDIR', 'not a directory');
    }
  }
}

/** A new data folder's mode: it holds the floor's password and every race, for its owner alone. */
const OWNER_ONLY_FOLDER = 0o700;

/**
 * Takes away every permission of group and others, and adds none (a folder its owner made
 * read-only stays so). One of someone else's, which the console may still use (made by root for
 * it), is left as it is rather than refused.
 */
async function ownerOnly(path: string, mode: number): Promise<void> {
  if ((mode & 0o077) === 0) return;
  try {
    await chmod(path, mode & 0o700);
  } catch (error) {
    if (errorCode(error) !== 'EPERM') throw error;
  }
}

/** What in the data folder is the console's: files by the start of their names, and whole folders. */
export interface ConsoleFiles {
  /** `settings.json` also takes `settings.json.bad-2` and `settings.json.tmp`. */
  readonly files: readonly string[];
  readonly folders: readonly string[];
}

/**
 * Makes what the console keeps in the data folder its owner's alone: the folder, its files named
 * in `owned` and every file in the folders named there (the device profiles) lose every
 * permission of group and others, whatever the umask or an older version left. Anything else in
 * it is not the console's and is left alone (a data folder set to a home folder must not close
 * the whole home), and links are not followed.
 */
export async function tightenDataFolder(dir: string, owned: ConsoleFiles): Promise<void> {
  const folder = resolve(dir);
  await ownerOnly(folder, (await stat(folder)).mode);
  await tightenFiles(folder, owned, false);
}

async function tightenFiles(folder: string, owned: ConsoleFiles, all: boolean): Promise<void> {
  for (const name of await readdir(folder)) {
    const path = join(folder, name);
    const entry = await lstat(path).catch(() => null);
    if (entry === null || entry.isSymbolicLink()) continue;
    if (entry.isDirectory() && !all && owned.folders.includes(name)) {
      await ownerOnly(path, entry.mode);
      await tightenFiles(path, owned, true);
    } else if (entry.isFile() && (all || owned.files.some((prefix) => name.startsWith(prefix)))) await ownerOnly(path, entry.mode);
  }
}

/** Turns what the system said into the dealer's words. */
async function explain(dir: string, error: unknown, chooseAnother: string): Promise<DataFolderError> {
  const code = errorCode(error);
  const writable = `${chooseAnother} or make it writable`;
  switch (code) {
    case 'EROFS':
      return new DataFolderError(dir, code, 'read-only file system', writable);
    case 'EACCES':
      return new DataFolderError(dir, code, 'permission denied', writable);
    case 'EPERM':
      return new DataFolderError(dir, code, 'not permitted', writable);
    case 'ENOSPC':
      return new DataFolderError(dir, code, 'the disk is full', `free some disk space or ${chooseAnother}`);
    case 'EDQUOT':
      return new DataFolderError(dir, code, 'the disk quota is used up', `free some disk space or ${chooseAnother}`);
    case 'EEXIST':
    case 'ENOTDIR': {
      const here = await stat(dir).catch(() => null);
      const file = here !== null && !here.isDirectory() ? dir : await fileAbove(dir);
      const reason = file === dir ? 'it is a file, not a folder' : file !== null ? `${oneLine(file)} is a file, not a folder` : 'a part of its path is not a folder';
      return new DataFolderError(dir, 'ENOTDIR', reason, `move the file away or ${chooseAnother}`);
    }
    case 'ENOENT':
      return new DataFolderError(dir, code, 'a part of its path does not exist: a missing drive or a broken link', chooseAnother);
    case 'ENAMETOOLONG':
      return new DataFolderError(dir, code, 'the path is too long', chooseAnother);
    case 'ELOOP':
      return new DataFolderError(dir, code, 'its path has a loop of links', chooseAnother);
    case 'EIO':
      return new DataFolderError(dir, code, 'the disk reported an input/output error', `check the disk or ${chooseAnother}`);
    default: {
      const said = oneLine((error as Error | null)?.message ?? String(error)).replace(/^[A-Z0-9]+: /, '');
      return new DataFolderError(dir, code ?? 'unknown', `the system said: ${said}`, `check the disk or ${chooseAnother}`);
    }
  }
}

/**
 * Makes sure the console can keep its journal and settings in `dir` before anything is read:
 * creates the folder if needed (0700), takes group's and others' permissions off it, then
 * creates, writes, fsyncs and removes a probe file in it.
 * Anything the system refuses becomes a DataFolderError with a one-line message, except a disk
 * that is only full (the probe could be made but not filled): that console starts.
 */
export async function prepareDataFolder(dir: string, options: DataFolderOptions = {}): Promise<void> {
  const chooseAnother = options.chooseAnother ?? CHOOSE_ANOTHER;
  const folder = resolve(dir);
  try {
    await makeFolder(folder);
  } catch (error) {
    throw await explain(folder, error, chooseAnother);
  }
  try {
    // A folder made by an older version (0755) is closed first: nothing is read or written in it before.
    await ownerOnly(folder, (await stat(folder)).mode);
  } catch (error) {
    throw await explain(folder, error, chooseAnother);
  }
  const probe = join(folder, `.write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  let created = false;
  try {
    const file = await open(probe, 'wx');
    created = true;
    try {
      // Some bytes, not an empty file: a full disk still has room for a name, not for data.
      await file.writeFile('chip race console: this folder can be written\n');
      await file.sync();
    } finally {
      await file.close();
    }
    await rm(probe);
    created = false;
  } catch (error) {
    if (created) await rm(probe, { force: true }).catch(() => undefined);
    // A full disk is writable, only full: the console starts, shows what it holds, and refuses
    // each change with "the disk is full" until space is freed (the journal's own guarantee).
    const code = errorCode(error);
    if (created && (code === 'ENOSPC' || code === 'EDQUOT')) return;
    throw await explain(folder, error, chooseAnother);
  }
}

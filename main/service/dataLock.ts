import { constants } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import process from 'node:process';

/** The file that says which console has the data folder. */
export const LOCK_FILE = 'console.lock';

/** The data folders this process holds (two consoles in one process would clash just the same). */
const heldHere = new Set<string>();

/** Another console (a browser mode, the Electron app) already has this data folder. */
export class DataFolderInUseError extends Error {
  override readonly name = 'DataFolderInUseError';
}

/** Whether a process of that id is running (one of another user's counts: we may not signal it). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function create(path: string): Promise<boolean> {
  let file;
  try {
    file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await file.writeFile(`${JSON.stringify({ pid: process.pid })}\n`);
    await file.sync();
  } catch {
    // A full disk takes the name but not the number: the lock holds all the same, only a
    // console started later cannot tell whose it is (and takes it as left behind).
  } finally {
    await file.close();
  }
  return true;
}

/**
 * Takes the data folder for this console: two consoles on one journal would write the same
 * sequence numbers and break each other's links, which would read as tampering. A lock left by a
 * console that is no longer running (killed, a power cut) is taken over. Returns the release.
 */
export async function lockDataFolder(dataDir: string): Promise<() => Promise<void>> {
  const path = join(resolve(dataDir), LOCK_FILE);
  if (heldHere.has(path)) throw new DataFolderInUseError(`the data folder ${dataDir} is in use by another console (process ${process.pid}): close that one first, or choose another folder`);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await create(path)) {
      heldHere.add(path);
      return async () => {
        heldHere.delete(path);
        // Given back only if still this console's (not taken over meanwhile as left behind).
        const holder = await readFile(path, 'utf8').then((text) => (text === '' ? process.pid : (JSON.parse(text) as { pid?: unknown }).pid), () => null);
        if (holder === process.pid) await rm(path, { force: true });
      };
    }
    let pid: unknown = null;
    try {
      pid = (JSON.parse(await readFile(path, 'utf8')) as { pid?: unknown }).pid;
    } catch {
      // Unreadable or half-written: no console holds it.
    }
    if (Number.isSafeInteger(pid) && pid !== process.pid && isRunning(pid as number)) {
      throw new DataFolderInUseError(`the data folder ${dataDir} is in use by another console (process ${String(pid)}): close that one first, or choose another folder`);
    }
    await rm(path, { force: true });
  }
  throw new DataFolderInUseError(`the data folder ${dataDir} could not be taken for this console: another one keeps starting on it`);
}

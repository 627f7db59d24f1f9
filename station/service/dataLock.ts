import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import process from 'node:process';

/** The file that says which console has the data folder. */
export const LOCK_FILE = 'console.lock';

/** The data folders this process holds (two consoles in one process would clash just the same). */
const heldHere = new Set<string>();

/** A reaper's claim on a stale lock is held for microseconds: one older than this was left by a reaper that died. */
const REAP_STALE_MS = 10_000;

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

/** Creates a new file (never over an existing one) holding `text`, fsynced; on a full disk it may stay empty. */
async function writeNew(path: string, text: string): Promise<void> {
  const file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await file.writeFile(text);
    await file.sync();
  } catch {
    // A full disk takes the name but not the number: the lock holds all the same, only a
    // console started later cannot tell whose it is (and takes it as left behind).
  } finally {
    await file.close();
  }
}

/**
 * Puts this console's lock in place in one step: written whole under a name of its own, then
 * linked to the lock's name, which link(2) does only if no file has that name. The lock is
 * never seen half-written (an empty lock read as left behind is how two consoles got in).
 */
async function place(path: string, text: string): Promise<boolean> {
  const own = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeNew(own, text);
  try {
    await link(own, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(own, { force: true });
  }
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function holderOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { pid?: unknown }).pid;
  } catch {
    // Unreadable (a full disk left it empty): no console can be named.
    return null;
  }
}

/**
 * Removes a lock left behind, as it was read (`text`), and nothing else: of the consoles that
 * found it left behind, only the one that claims it first (a file named after it, made with
 * O_EXCL) may remove it, and only while it still holds that text. A later claimant of the same
 * lock finds another lock (or none) there, and leaves it alone.
 */
async function reap(path: string, text: string): Promise<void> {
  const claim = `${path}.reap-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  try {
    await writeNew(claim, `${JSON.stringify({ pid: process.pid })}\n`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another console is removing it; a claim left by one that died meanwhile is cleared.
    const age = await stat(claim).then((info) => Date.now() - info.mtimeMs, () => 0);
    if (age > REAP_STALE_MS) await rm(claim, { force: true });
    return;
  }
  try {
    if ((await readText(path)) === text) await rm(path, { force: true });
  } finally {
    await rm(claim, { force: true });
  }
}

/**
 * Takes the data folder for this console: two consoles on one journal would write the same
 * sequence numbers and break each other's links, which would read as tampering. Exactly one of
 * any number of consoles started at once gets it. A lock left by a console that is no longer
 * running (killed, a power cut) is taken over. Returns the release.
 */
export async function lockDataFolder(dataDir: string): Promise<() => Promise<void>> {
  const path = join(resolve(dataDir), LOCK_FILE);
  if (heldHere.has(path)) throw new DataFolderInUseError(`the data folder ${dataDir} is in use by another console (process ${process.pid}): close that one first, or choose another folder`);
  // Taken for this process before the first await: a second start in this process meanwhile
  // would otherwise read this process's own lock as one left behind by an earlier life.
  heldHere.add(path);
  const mine = `${JSON.stringify({ pid: process.pid, nonce: randomBytes(8).toString('hex') })}\n`;
  try {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      if (await place(path, mine)) {
        return async () => {
          heldHere.delete(path);
          // Given back only if still this console's (not taken over meanwhile as left behind).
          if ((await readText(path).catch(() => null)) === mine) await rm(path, { force: true });
        };
      }
      const text = await readText(path);
      if (text === null) continue;
      const pid = holderOf(text);
      if (Number.isSafeInteger(pid) && pid !== process.pid && isRunning(pid as number)) {
        throw new DataFolderInUseError(`the data folder ${dataDir} is in use by another console (process ${String(pid)}): close that one first, or choose another folder`);
      }
      await reap(path, text);
      // Others may be taking it over at the same moment: a short, random pause before trying again.
      await new Promise((done) => setTimeout(done, Math.random() * 5 * (attempt + 1)));
    }
    throw new DataFolderInUseError(`the data folder ${dataDir} could not be taken for this console: another one keeps starting on it`);
  } catch (error) {
    heldHere.delete(path);
    throw error;
  }
}

import { open, rename, rm } from 'node:fs/promises';

/**
 * Writes text to path by way of a temporary file beside it, synced and then renamed over the old
 * one, so a reader sees the old file or the new, never half of one. A write the disk refuses (full)
 * rejects and leaves the old file in place, without the temporary. The file is its owner's alone
 * (0600): what the console keeps in its data folder (the floor's password among it) is nobody else's.
 */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp`;
  try {
    const file = await open(temporary, 'w', 0o600);
    try {
      // Owner-only whatever the umask, and also a temporary left by a crash (open keeps its mode).
      await file.chmod(0o600);
      // writeFile, unlike write, goes on after a short write until all is written or it fails.
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

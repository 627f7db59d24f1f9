import { open, rename, rm } from 'node:fs/promises';

/**
 * Writes text to path by way of a temporary file beside it, synced and then renamed over the old
 * one, so a reader sees the old file or the new, never half of one. A write the disk refuses (full)
 * rejects and leaves the old file in place, without the temporary. The file is its owner's alone
 * (0600): what the console keeps in its data folder (the floor's password among it) is nobody else's.
 */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  await writeChunksAtomically(path, [text]);
}

/**
 * The same for text that comes in pieces (an export of the whole history): each piece written as
 * it comes, so what is held is one piece, never the whole file. Returns the bytes written.
 */
export async function writeChunksAtomically(path: string, pieces: Iterable<string> | AsyncIterable<string>): Promise<number> {
  const temporary = `${path}.tmp`;
  let bytes = 0;
  try {
    const file = await open(temporary, 'w', 0o600);
    try {
      // Owner-only whatever the umask, and also a temporary left by a crash (open keeps its mode).
      await file.chmod(0o600);
      // writeFile, unlike write, goes on after a short write until all is written or it fails; each goes on where the last ended.
      for await (const piece of pieces) {
        await file.writeFile(piece);
        bytes += Buffer.byteLength(piece);
      }
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
    return bytes;
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { CoverToCheck } from './checkpoint';
import { readChunks } from './chunks';

/** What the check of a checkpoint's whole blocks found: all the same, or the first block that is not (its bytes). */
export type CoverFound = { readonly same: true; readonly bytes: number } | { readonly same: false; readonly block: number; readonly from: number; readonly to: number };

/**
 * Reads the journal's bytes a start from a checkpoint took on trust (its cover's whole blocks) and
 * compares each block's SHA-256 with the checkpoint's: a chunk at a time, each read awaited, so
 * the console goes on serving while it runs. Reads only, writes nothing: a stop mid-check leaves
 * nothing behind. `signal` ends it between two chunks (null: stopped, nothing found).
 */
export async function checkCover(toCheck: CoverToCheck, signal: AbortSignal): Promise<CoverFound | null> {
  const { journal, blocks, blockBytes } = toCheck;
  const file = await open(journal, 'r').catch(() => null);
  if (file === null) return { same: false, block: 0, from: 0, to: blockBytes };
  try {
    for (const [index, stored] of blocks.entries()) {
      const from = index * blockBytes;
      const hash = createHash('sha256');
      // A block that cannot be read (an I/O error) cannot be said unchanged: found as a missing
      // journal is, not thrown into a check nobody awaits until the console closes.
      const read = await readChunks(file, (chunk) => hash.update(chunk), from, from + blockBytes, signal).catch(() => -1);
      if (signal.aborted) return null;
      if (read !== blockBytes || hash.digest('hex') !== stored) return { same: false, block: index, from, to: from + blockBytes };
    }
    return { same: true, bytes: blocks.length * blockBytes };
  } finally {
    await file.close();
  }
}

import { createHash, type Hash } from 'node:crypto';

/** The bytes one block hash covers: a checkpoint of a 3 GB journal names about fifty. */
export const COVER_BLOCK_BYTES = 64 * 1024 * 1024;

/** What a CoverHash says of the bytes it was given: each whole block's SHA-256, then the rest's. */
export interface Cover {
  readonly bytes: number;
  readonly blocks: readonly string[];
  readonly tail: string;
}

/**
 * SHA-256 over a file's bytes in blocks of COVER_BLOCK_BYTES, so that what a checkpoint covers can
 * be taken up again after a restart: a hash's inner state cannot be saved, but a finished block's
 * hash can, and the block under way is at most one block to hash again (the start reads it anyway,
 * to check the checkpoint's cover).
 */
export class CoverHash {
  private readonly blocks: string[] = [];
  private hash: Hash = createHash('sha256');
  private inBlock = 0;

  /** `blockBytes` other than COVER_BLOCK_BYTES only in tests (a block boundary within a small journal). */
  constructor(readonly blockBytes: number = COVER_BLOCK_BYTES) {}

  /**
   * Takes up a cover from a checkpoint's whole-block hashes, as they were written: the start hashes
   * only the block under way again (fed to `update`), and the whole blocks are checked later
   * (station/journal/coverCheck.ts), while the console serves.
   */
  static resume(blocks: readonly string[], blockBytes: number = COVER_BLOCK_BYTES): CoverHash {
    const cover = new CoverHash(blockBytes);
    cover.blocks.push(...blocks);
    return cover;
  }

  update(bytes: Uint8Array): void {
    let start = 0;
    while (start < bytes.length) {
      const take = Math.min(bytes.length - start, this.blockBytes - this.inBlock);
      this.hash.update(bytes.subarray(start, start + take));
      this.inBlock += take;
      start += take;
      if (this.inBlock === this.blockBytes) {
        this.blocks.push(this.hash.digest('hex'));
        this.hash = createHash('sha256');
        this.inBlock = 0;
      }
    }
  }

  get bytes(): number {
    return this.blocks.length * this.blockBytes + this.inBlock;
  }

  cover(): Cover {
    return { bytes: this.bytes, blocks: [...this.blocks], tail: this.hash.copy().digest('hex') };
  }
}

export function sameCover(a: Cover, b: Cover): boolean {
  return a.bytes === b.bytes && a.tail === b.tail && a.blocks.length === b.blocks.length && a.blocks.every((block, index) => block === b.blocks[index]);
}

import type { FileHandle } from 'node:fs/promises';

/** How much of a journal is read at a time: a start's memory does not grow with the file. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * Hands the bytes `from`…`to` of an open file (to its end when `to` is absent) to `each`, a chunk
 * at a time, in one buffer used again for every chunk: `each` copies what it keeps. An aborted
 * `signal` stops it before the next chunk.
 */
export async function readChunks(file: FileHandle, each: (chunk: Buffer) => void, from = 0, to = Number.POSITIVE_INFINITY, signal?: AbortSignal): Promise<number> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let position = from;
  while (position < to && signal?.aborted !== true) {
    const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK_BYTES, to - position), position);
    if (bytesRead === 0) break;
    each(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return position - from;
}

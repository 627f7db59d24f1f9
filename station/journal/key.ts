import { readFile, realpath } from 'node:fs/promises';
import { relative, resolve, isAbsolute } from 'node:path';

/** The shortest key worth the name: 128 bits. */
export const MIN_KEY_BYTES = 16;

/** A journal key that cannot be used; `message` is one line saying why and what to do. */
export class JournalKeyError extends Error {
  override readonly name = 'JournalKeyError';
}

async function real(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

/**
 * Reads the key that seals the journal with HMAC (CHIP_RACE_JOURNAL_KEY names its file). It must
 * live outside the data folder: a key beside the journal would let whoever can edit the journal
 * seal it afresh, which is exactly what the key is there to stop.
 */
export async function loadJournalKey(path: string, dataDir: string): Promise<Buffer> {
  const file = await real(path);
  const folder = await real(dataDir);
  const inside = relative(folder, file);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) {
    throw new JournalKeyError(`the journal key ${path} is inside the data folder ${dataDir}: keep it elsewhere (a key beside the journal protects nothing)`);
  }
  let key: Buffer;
  try {
    key = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw new JournalKeyError(`the journal key ${path} cannot be read (${code === 'ENOENT' ? 'no such file' : code}): check CHIP_RACE_JOURNAL_KEY`);
  }
  if (key.length < MIN_KEY_BYTES) throw new JournalKeyError(`the journal key ${path} is too short (${key.length} bytes; at least ${MIN_KEY_BYTES}): make one with \`head -c 32 /dev/urandom > ${path}\``);
  return key;
}

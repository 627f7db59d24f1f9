import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCover } from './coverCheck';

describe("the check of a checkpoint's whole blocks", () => {
  const dir = mkdtempSync(join(tmpdir(), 'cover-check-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a block it cannot read (an I/O error: here a folder opened where the journal was) as not the same, without throwing', async () => {
    // Opening a folder succeeds; reading it fails with EISDIR, as a failing disk fails a read.
    const found = await checkCover({ journal: dir, blocks: ['00'], blockBytes: 1024 }, new AbortController().signal);
    expect(found).toEqual({ same: false, block: 0, from: 0, to: 1024 });
  });
});

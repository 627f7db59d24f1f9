// What the dealer reads when the console cannot start: one line, never a stack.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../engine/errors';
import { DataFolderError, prepareDataFolder } from './dataFolder';
import { startFailureMessage } from './startFailure';

async function thrownBy(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => expect.unreachable('it should have thrown'),
    (error: unknown) => error,
  );
}

describe('startFailureMessage', () => {
  it('a data folder that cannot be written: its own message, as it is', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'start-failure-')), 'data');
    writeFileSync(dir, '');
    const error = await thrownBy(() => prepareDataFolder(dir));
    expect(error).toBeInstanceOf(DataFolderError);
    expect(startFailureMessage(error)).toBe(`the data folder ${dir} cannot be written (it is a file, not a folder, ENOTDIR): move the file away or choose another with CHIP_RACE_DATA_DIR`);
  });

  it('a system error from the disk: the cause in words, the code, and what it concerned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-failure-'));
    const error = await thrownBy(() => open(dir, 'a'));
    expect(startFailureMessage(error)).toBe(`could not start: a folder is where a file should be (EISDIR, open ${dir})`);
    const missing = await thrownBy(() => open(join(dir, 'nothing', 'journal.jsonl'), 'r'));
    expect(startFailureMessage(missing)).toBe(`could not start: a file or folder is missing (ENOENT, open ${join(dir, 'nothing', 'journal.jsonl')})`);
  });

  it('a port already taken: named with its address', async () => {
    const first = createServer();
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
    const { port } = first.address() as { port: number };
    const second = createServer();
    const error = await new Promise<unknown>((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    await new Promise((resolve) => first.close(resolve));
    expect(startFailureMessage(error)).toBe(`could not start: the network port is already in use (is the console already running?) (EADDRINUSE, listen 127.0.0.1:${port})`);
  });

  it.each([
    ['a full disk', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' }), 'could not start: the disk is full (ENOSPC, write)'],
    ['a read-only disk', Object.assign(new Error("EROFS: read-only file system, open '/data/journal.jsonl'"), { code: 'EROFS', syscall: 'open', path: '/data/journal.jsonl' }), 'could not start: read-only file system (EROFS, open /data/journal.jsonl)'],
    ['a rename refused', Object.assign(new Error("EXDEV: cross-device link not permitted, rename '/a' -> '/b'"), { code: 'EXDEV', syscall: 'rename', path: '/a', dest: '/b' }), 'could not start: cross-device link not permitted (EXDEV, rename /a → /b)'],
    ['a code of no system call', Object.assign(new Error('the port is not a number'), { code: 'ERR_SOCKET_BAD_PORT' }), 'could not start: the port is not a number (ERR_SOCKET_BAD_PORT)'],
    ['a message of several lines', Object.assign(new Error('first line\n    at somewhere (file.ts:1:1)'), { code: 'EWEIRD' }), 'could not start: first line (EWEIRD)'],
  ])('%s', (_what, error, message) => {
    expect(startFailureMessage(error)).toBe(message);
  });

  it('a field at fault: the field and the reason', () => {
    expect(startFailureMessage(new InputError('source.path', 'must be text'))).toBe('could not start: source.path: must be text');
  });

  it('anything else: its first line, never the stack', () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'race')");
    expect(error.stack).toContain('\n');
    expect(startFailureMessage(error)).toBe("could not start: Cannot read properties of undefined (reading 'race')");
    expect(startFailureMessage(new Error('one\ntwo'))).toBe('could not start: one');
    expect(startFailureMessage(new Error(''))).toBe('could not start: Error');
    expect(startFailureMessage('just text')).toBe('could not start: just text');
    expect(startFailureMessage({ reason: 'odd' })).toBe('could not start: {"reason":"odd"}');
    expect(startFailureMessage(undefined)).toBe('could not start: undefined');
    expect(startFailureMessage(null)).toBe('could not start: null');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(startFailureMessage(circular)).toBe('could not start: [object Object]');
  });

  it('is always one line of reasonable length, whatever was thrown', () => {
    for (const thrown of [new Error('\r\n\t'), new Error('x'.repeat(10_000)), Object.assign(new Error('a\u0000b'), { code: 'E\nX', path: 'p\nq' }), new DataFolderError('/a\nb', 'EROFS', 'read-only file system', 'choose another')]) {
      const line = startFailureMessage(thrown);
      expect(line).not.toMatch(/[\r\n]/);
      expect(line.length).toBeLessThanOrEqual(400);
      expect(line.length).toBeGreaterThan('could not start: '.length - 1);
    }
    expect(startFailureMessage(new Error('x'.repeat(10_000)))).toBe(`could not start: ${'x'.repeat(400 - 'could not start: '.length - 1)}…`);
  });
});

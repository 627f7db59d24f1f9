// The data folder is proved writable before the console reads anything: what the system refuses
// (a read-only disk, a full one, a file where the folder should be) is one line naming the folder,
// the cause in words and what to do. The read-only and full disks are real: a tmpfs in a mount
// namespace of a child's own (`unshare`), remounted read-only or filled to the last byte.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFolderError, prepareDataFolder } from './dataFolder';
import { scratchScript, spawnAsNobody, type ScratchScript } from './testing/scratchChild';
import { canMountPrivateTmpfs } from './testing/serviceChild';

const fresh = () => mkdtempSync(join(tmpdir(), 'data-folder-'));
const HINT = 'choose another with CHIP_RACE_DATA_DIR';

async function refusal(dir: string, options?: Parameters<typeof prepareDataFolder>[1]): Promise<DataFolderError> {
  const error: unknown = await prepareDataFolder(dir, options).then(() => null, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(DataFolderError);
  expect((error as Error).message).not.toContain('\n');
  return error as DataFolderError;
}

interface Outcome {
  /** What prepareDataFolder threw, or null. */
  readonly thrown: { name: string; message: string } | null;
  /** What the folder holds afterwards (null if there is none). */
  readonly entries: string[] | null;
}

/**
 * A child's script: prepareDataFolder on its first argument, printing an Outcome. It runs from a
 * folder of its own, outside the checkout: as `nobody` it may not enter the checkout's folder.
 */
const CHILD = [
  'import { readdirSync } from "node:fs";',
  'import { prepareDataFolder } from "./dataFolder.mjs";',
  'const dir = process.argv[2];',
  'const thrown = await prepareDataFolder(dir).then(() => null, (error) => ({ name: error.name, message: error.message }));',
  'let entries = null;',
  'try { entries = readdirSync(dir); } catch {}',
  'console.log(JSON.stringify({ thrown, entries }));',
].join('\n');

let childScript: ScratchScript;
beforeAll(() => {
  childScript = scratchScript([join(import.meta.dirname, 'dataFolder.ts')], CHILD);
});
afterAll(() => childScript.dispose());

function outcome(child: SpawnSyncReturns<string>): Outcome {
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout) as Outcome;
}

/**
 * Runs prepareDataFolder in a child whose `<mount>` is a tmpfs of its own, after `setup` (shell,
 * with the mount as "$0"). `folder` is relative to the mount.
 */
function inPrivateTmpfs(mount: string, setup: string, folder: string, options = ''): Outcome {
  const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  const script = `mount -t tmpfs -o size=4096${options === '' ? '' : `,${options}`} chip-race-test "$0" && ${setup} && exec "$1" "$2" "$0/${folder}"`;
  return outcome(spawnSync('unshare', [...user, '--mount', '--propagation', 'private', 'sh', '-c', script, mount, process.execPath, childScript.path], { encoding: 'utf8' }));
}

/** Runs prepareDataFolder as a user who is not root (root may write anywhere), here or in a child. */
async function asNotRoot(dir: string): Promise<Outcome> {
  if (process.getuid?.() !== 0) {
    const thrown = await prepareDataFolder(dir).then(() => null, (error: Error) => ({ name: error.name, message: error.message }));
    return { thrown, entries: readdirSync(dir) };
  }
  return outcome(spawnAsNobody(childScript, [dir]));
}

describe('prepareDataFolder', () => {
  it('creates a missing folder, parents and all, and leaves nothing behind in it', async () => {
    const dir = join(fresh(), 'share', 'chip-race-console');
    await prepareDataFolder(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes an existing folder as it is, what it holds untouched', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'journal.jsonl'), '{"seq":1}\n');
    await prepareDataFolder(dir);
    expect(readdirSync(dir)).toEqual(['journal.jsonl']);
    expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8')).toBe('{"seq":1}\n');
  });

  it('takes a link to a folder', async () => {
    const base = fresh();
    mkdirSync(join(base, 'real'));
    symlinkSync(join(base, 'real'), join(base, 'link'));
    await prepareDataFolder(join(base, 'link'));
    expect(readdirSync(join(base, 'real'))).toEqual([]);
  });

  it('a file in place of the folder: named as a file, and left as it was', async () => {
    const dir = join(fresh(), 'chip-race-console');
    writeFileSync(dir, 'my notes');
    const error = await refusal(dir);
    expect(error.message).toBe(`the data folder ${dir} cannot be written (it is a file, not a folder, ENOTDIR): move the file away or ${HINT}`);
    expect(error).toMatchObject({ name: 'DataFolderError', dir, code: 'ENOTDIR', reason: 'it is a file, not a folder' });
    expect(readFileSync(dir, 'utf8')).toBe('my notes');
  });

  it('a folder under a file: the file in the way is named', async () => {
    const base = fresh();
    writeFileSync(join(base, 'share'), 'my notes');
    const dir = join(base, 'share', 'chip-race-console');
    expect((await refusal(dir)).message).toBe(`the data folder ${dir} cannot be written (${join(base, 'share')} is a file, not a folder, ENOTDIR): move the file away or ${HINT}`);
    const deeper = join(base, 'share', 'a', 'b');
    expect((await refusal(deeper)).message).toBe(`the data folder ${deeper} cannot be written (${join(base, 'share')} is a file, not a folder, ENOTDIR): move the file away or ${HINT}`);
    expect(readFileSync(join(base, 'share'), 'utf8')).toBe('my notes');
  });

  it('a broken link in place of the folder: a part of the path does not exist', async () => {
    const base = fresh();
    symlinkSync(join(base, 'gone', 'away'), join(base, 'data'));
    const dir = join(base, 'data');
    expect((await refusal(dir)).message).toBe(`the data folder ${dir} cannot be written (a part of its path does not exist: a missing drive or a broken link, ENOENT): ${HINT}`);
  });

  it('names the folder in full when given a relative one, and on one line whatever its name', async () => {
    const base = fresh();
    writeFileSync(join(base, 'file'), '');
    const dir = relative(process.cwd(), join(base, 'file'));
    expect((await refusal(dir)).message).toBe(`the data folder ${join(base, 'file')} cannot be written (it is a file, not a folder, ENOTDIR): move the file away or ${HINT}`);
    writeFileSync(join(base, 'two\nlines'), '');
    expect((await refusal(join(base, 'two\nlines'))).message).toBe(`the data folder ${join(base, 'two?lines')} cannot be written (it is a file, not a folder, ENOTDIR): move the file away or ${HINT}`);
  });

  it('a folder this user may not write: permission denied', async () => {
    const dir = join(fresh(), 'data');
    mkdirSync(dir, { mode: 0o555 });
    chmodSync(dirname(dir), 0o755);
    expect(await asNotRoot(dir)).toEqual({
      thrown: { name: 'DataFolderError', message: `the data folder ${dir} cannot be written (permission denied, EACCES): ${HINT} or make it writable` },
      entries: [],
    });
    const inside = join(dir, 'chip-race-console');
    expect((await asNotRoot(inside)).thrown?.message).toBe(`the data folder ${inside} cannot be written (permission denied, EACCES): ${HINT} or make it writable`);
  });

  it('says how to choose another folder where the console runs', async () => {
    const dir = join(fresh(), 'file');
    writeFileSync(dir, '');
    expect((await refusal(dir, { chooseAnother: 'choose another in the settings' })).message).toBe(
      `the data folder ${dir} cannot be written (it is a file, not a folder, ENOTDIR): move the file away or choose another in the settings`,
    );
  });

  describe('on a real disk that refuses writes (a private tmpfs)', () => {
    beforeAll(() => {
      expect(canMountPrivateTmpfs(), 'unshare cannot mount a private tmpfs here: these tests need root or unprivileged user namespaces').toBe(true);
    });

    it('a read-only folder that exists', () => {
      const mount = fresh();
      expect(inPrivateTmpfs(mount, 'mkdir "$0/data" && echo "{}" > "$0/data/settings.json" && mount -o remount,ro "$0"', 'data')).toEqual({
        thrown: { name: 'DataFolderError', message: `the data folder ${mount}/data cannot be written (read-only file system, EROFS): ${HINT} or make it writable` },
        entries: ['settings.json'],
      });
    });

    it('a folder still to be made on a read-only disk', () => {
      const mount = fresh();
      expect(inPrivateTmpfs(mount, 'mount -o remount,ro "$0"', 'share/chip-race-console')).toEqual({
        thrown: { name: 'DataFolderError', message: `the data folder ${mount}/share/chip-race-console cannot be written (read-only file system, EROFS): ${HINT} or make it writable` },
        entries: null,
      });
    });

    it('a full disk is not refused: the console starts and shows what it holds (each change is refused until space is freed); no probe is left', () => {
      const mount = fresh();
      expect(inPrivateTmpfs(mount, 'mkdir "$0/data" && touch "$0/data/journal.jsonl" && { head -c 1048576 /dev/zero > "$0/fill" 2>/dev/null; true; }', 'data')).toEqual({
        thrown: null,
        entries: ['journal.jsonl'],
      });
    });

    it('a full disk where even the probe has no room for its name (no free inode): refused, with the cause', () => {
      const mount = fresh();
      // A tmpfs with as many inodes as files: the probe cannot even be created.
      expect(inPrivateTmpfs(mount, 'mkdir "$0/data" && touch "$0/data/journal.jsonl" && i=0; while touch "$0/f$i" 2>/dev/null; do i=$((i+1)); done; true', 'data', 'nr_inodes=16')).toMatchObject({
        thrown: { name: 'DataFolderError', message: `the data folder ${mount}/data cannot be written (the disk is full, ENOSPC): free some disk space or ${HINT}` },
      });
    });

    it('the same disk with room and writable: fine, and no probe is left', () => {
      const mount = fresh();
      expect(inPrivateTmpfs(mount, 'mkdir "$0/data" && touch "$0/data/journal.jsonl"', 'data')).toEqual({ thrown: null, entries: ['journal.jsonl'] });
    });
  });
});

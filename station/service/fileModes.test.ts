// The data folder holds the floor's password (settings.json) and every race (the journal): only the
// user who runs the console may read it. Real files, their modes read back with stat, through the
// service as it starts: a folder it makes (whatever the umask) and one an older version left open.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import type { ConsoleSettings } from '../../protocol/contract';
import { ConsoleService } from './service';
import { DEFAULT_SETTINGS } from './settings';

const modeOf = (path: string) => statSync(path).mode & 0o777;

const TABLE: ConsoleSettings = {
  ...DEFAULT_SETTINGS,
  table: { ...DEFAULT_SETTINGS.table, name: 'Table 7', seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }], button: 2 },
  floor: { on: false, url: 'postgres://table7:s3cret@floor.example:5432/floor' },
};

/** Every file and folder the console keeps in `dir` (the profiles folder too), with its mode. */
function modes(dir: string): Record<string, number> {
  const found: Record<string, number> = { '.': modeOf(dir) };
  for (const name of readdirSync(dir)) {
    found[name] = modeOf(join(dir, name));
    if (name === 'profiles') for (const inner of readdirSync(join(dir, name))) found[`profiles/${inner}`] = modeOf(join(dir, name, inner));
  }
  return found;
}

async function withUmask<T>(mask: number, run: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await run();
  } finally {
    process.umask(previous);
  }
}

describe('the data folder is its owner\'s alone', () => {
  it('a folder the console makes, and every file it writes there, whatever the umask', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'modes-')), 'new', 'chip-race-console');
    const service = await withUmask(0o000, () => ConsoleService.start({ dataDir: dir }));
    try {
      expect(await withUmask(0o000, () => service.saveSettings(TABLE))).toEqual({ ok: true, value: null });
      expect(await withUmask(0o000, () => service.saveCountDrafts([{ seat: 1, chips: 7, hasOther: false }]))).toEqual({ ok: true, value: null });
      expect(await withUmask(0o000, () => service.dealCard('race-0', 'Ah'))).toMatchObject({ ok: false });
      expect(modes(dir)).toEqual({ '.': 0o700, 'console.lock': 0o600, 'journal.jsonl': 0o600, 'settings.json': 0o600, 'count-drafts.json': 0o600 });
    } finally {
      await service.close();
    }
  });

  it('a folder and files an older version left readable by others are closed on start, nothing else in it (not the console’s) is touched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modes-old-'));
    const first = await ConsoleService.start({ dataDir: dir });
    expect(await first.saveSettings(TABLE)).toEqual({ ok: true, value: null });
    await first.close();
    // What an older version (or a umask of 022) left: the folder 0755, the files 0644.
    mkdirSync(join(dir, 'profiles'));
    writeFileSync(join(dir, 'profiles', 'my-shoe.json'), '{}\n');
    writeFileSync(join(dir, 'settings.json.bad'), '{ damaged');
    mkdirSync(join(dir, 'not-the-consoles'));
    writeFileSync(join(dir, 'not-the-consoles', 'notes.txt'), 'mine');
    writeFileSync(join(dir, 'my-notes.txt'), 'mine too');
    chmodSync(join(dir, 'my-notes.txt'), 0o644);
    for (const path of ['.', 'profiles']) chmodSync(join(dir, path), 0o755);
    for (const path of ['settings.json', 'journal.jsonl', 'settings.json.bad', 'profiles/my-shoe.json']) chmodSync(join(dir, path), 0o644);
    chmodSync(join(dir, 'not-the-consoles'), 0o755);
    chmodSync(join(dir, 'not-the-consoles', 'notes.txt'), 0o644);

    const again = await ConsoleService.start({ dataDir: dir });
    try {
      expect(modes(dir)).toEqual({
        '.': 0o700,
        'console.lock': 0o600,
        'journal.jsonl': 0o600,
        'settings.json': 0o600,
        'settings.json.bad': 0o600,
        profiles: 0o700,
        'profiles/my-shoe.json': 0o600,
        'not-the-consoles': 0o755,
        'my-notes.txt': 0o644,
      });
      expect(modeOf(join(dir, 'not-the-consoles', 'notes.txt'))).toBe(0o644);
      // The settings (and their password) were read as before.
      expect(again.getState().settings.floor).toMatchObject({ url: 'postgres://table7@floor.example:5432/floor', passwordSet: true });
    } finally {
      await again.close();
    }
  });

  it('takes away only what group and others had: a folder its owner made read-only stays read-only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modes-ro-'));
    writeFileSync(join(dir, 'settings.json.bad'), 'x');
    chmodSync(join(dir, 'settings.json.bad'), 0o444);
    const service = await ConsoleService.start({ dataDir: dir });
    await service.close();
    expect(modeOf(join(dir, 'settings.json.bad'))).toBe(0o400);
  });
});

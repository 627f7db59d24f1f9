import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISPLAY_KEY_FILE, isKeyFormat, KEY_FILE, loadBrowserKey, loadDisplayKey, newKey } from './key';
import { keyMatches } from '../../net/keys';

const folder = () => mkdtempSync(join(tmpdir(), 'browser-key-'));
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the browser key', () => {
  it('is 32 random bytes in base64url', () => {
    const key = newKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(newKey()).not.toBe(key);
    expect(isKeyFormat(key)).toBe(true);
    expect(isKeyFormat(`${key}=`)).toBe(false);
    expect(isKeyFormat(key.slice(1))).toBe(false);
  });

  it('is made in <dataDir>/browser-key with mode 0600 on the first start, whatever the umask, and read back after that', () => {
    const dir = join(folder(), 'not-yet-made');
    const previous = process.umask(0o000);
    let key: string;
    try {
      key = loadBrowserKey(dir);
    } finally {
      process.umask(previous);
    }
    expect(isKeyFormat(key)).toBe(true);
    expect(readFileSync(join(dir, KEY_FILE), 'utf8')).toBe(`${key}\n`);
    expect(modeOf(join(dir, KEY_FILE))).toBe(0o600);
    // Per data folder, not per launch: the next start (after a crash or a restart) has the same key.
    expect(loadBrowserKey(dir)).toBe(key);
    expect(loadBrowserKey(folder())).not.toBe(key);
    // No temporary file is left behind.
    expect(readdirSync(dir)).toEqual([KEY_FILE]);
  });

  it('replaces a key file others can read, one that is a link, and one that holds no key', () => {
    const readable = folder();
    const old = loadBrowserKey(readable);
    chmodSync(join(readable, KEY_FILE), 0o644);
    const replaced = loadBrowserKey(readable);
    expect(replaced).not.toBe(old);
    expect(modeOf(join(readable, KEY_FILE))).toBe(0o600);

    const linked = folder();
    const elsewhere = join(folder(), 'someone-elses-key');
    writeFileSync(elsewhere, `${newKey()}\n`, { mode: 0o600 });
    symlinkSync(elsewhere, join(linked, KEY_FILE));
    const own = loadBrowserKey(linked);
    expect(`${own}\n`).not.toBe(readFileSync(elsewhere, 'utf8'));
    expect(statSync(join(linked, KEY_FILE)).isFile()).toBe(true);

    const broken = folder();
    writeFileSync(join(broken, KEY_FILE), 'not a key\n', { mode: 0o600 });
    expect(isKeyFormat(loadBrowserKey(broken))).toBe(true);
    expect(readdirSync(broken)).toEqual([KEY_FILE]);
  });

  it('is compared in full: any other text, a prefix, or nothing does not match', () => {
    const key = newKey();
    expect(keyMatches(key, key)).toBe(true);
    for (const other of [newKey(), key.slice(0, -1), `${key}x`, '', null, undefined, key.toUpperCase(), 'x'.repeat(5000)]) expect(keyMatches(key, other)).toBe(false);
  });

  it('the player display has a key of its own, in <dataDir>/display-key, mode 0600 whatever the umask, read back after that', () => {
    const dir = join(folder(), 'not-yet-made');
    const previous = process.umask(0o000);
    let display: string;
    try {
      display = loadDisplayKey(dir);
    } finally {
      process.umask(previous);
    }
    expect(isKeyFormat(display)).toBe(true);
    expect(readFileSync(join(dir, DISPLAY_KEY_FILE), 'utf8')).toBe(`${display}\n`);
    expect(modeOf(join(dir, DISPLAY_KEY_FILE))).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
    const browser = loadBrowserKey(dir);
    expect(browser).not.toBe(display);
    expect(loadDisplayKey(dir)).toBe(display);
    expect(readdirSync(dir).sort()).toEqual([KEY_FILE, DISPLAY_KEY_FILE].sort());
    // Replaced like the browser key when others can read it.
    chmodSync(join(dir, DISPLAY_KEY_FILE), 0o644);
    expect(loadDisplayKey(dir)).not.toBe(display);
    expect(modeOf(join(dir, DISPLAY_KEY_FILE))).toBe(0o600);
  });
});

// The settings file and the settings checks: a serial port must be named from the root, a
// damaged file is set aside under a name of its own (never over an earlier copy), and a
// byte-order mark is not damage. The catalogue (badInput.test.ts) runs the same through the service.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleSettings } from '../../protocol/contract';
import { ConsoleService } from './service';
import { englishText } from '../../engine/messages';
import { DEFAULT_SETTINGS, isAbsoluteSerialPath, loadSettings, readSettings, saveSettings } from './settings';
import { canMountPrivateTmpfs } from './testing/serviceChild';

// The real link, unless a test makes it fail as on a file system without hard links.
vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  return { ...real, link: vi.fn(real.link) };
});

const root = fileURLToPath(new URL('../..', import.meta.url));
const withSource = (source: Partial<ConsoleSettings['source']>): ConsoleSettings => ({ ...DEFAULT_SETTINGS, source: { ...DEFAULT_SETTINGS.source, ...source } });
const UNIX_HELP = 'must be the full path of the port, starting with /, e.g. /dev/ttyUSB0 or /dev/serial/by-id/…';
const WINDOWS_HELP = 'must be a port name, e.g. COM3 or \\\\.\\COM3';

function refusalOf(value: unknown, platform: NodeJS.Platform): { field: string; reason: string } | null {
  try {
    readSettings(value, platform);
    return null;
  } catch (error) {
    const { field, reason } = error as { field: string; reason: string };
    return { field, reason };
  }
}

describe('a serial port is named from the root', () => {
  it.each([
    '/dev/ttyUSB0',
    '/dev/ttyACM0',
    '/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0',
    '/dev/tty.usbserial-1410',
    '/tmp/chiprace-shoe/b',
  ])('%s on Linux and macOS', (path) => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(isAbsoluteSerialPath(path, platform)).toBe(true);
      expect(readSettings(withSource({ kind: 'serial', path }), platform).source.path).toBe(path);
    }
  });

  it.each(['COM1', 'COM3', 'COM12', 'com4', '\\\\.\\COM3', '\\\\.\\COM10'])('%s on Windows', (path) => {
    expect(isAbsoluteSerialPath(path, 'win32')).toBe(true);
    expect(readSettings(withSource({ kind: 'serial', path }), 'win32').source.path).toBe(path);
  });

  it.each(['ttyUSB0', './x', '../dev/ttyS0', 'dev/ttyUSB0', '~/ttyUSB0', 'COM3', '\\\\.\\COM3'])('%s is refused on Linux and macOS', (path) => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(refusalOf(withSource({ kind: 'serial', path }), platform)).toEqual({ field: 'source.path', reason: `${UNIX_HELP} (got ${JSON.stringify(path)})` });
    }
  });

  it.each(['ttyUSB0', '/dev/ttyUSB0', 'COM', 'COM0', 'COM3x', 'C:\\ports\\COM3', '\\\\.\\PIPE\\shoe', '.\\COM3'])('%s is refused on Windows', (path) => {
    expect(refusalOf(withSource({ kind: 'serial', path }), 'win32')).toEqual({ field: 'source.path', reason: `${WINDOWS_HELP} (got ${JSON.stringify(path)})` });
  });

  it('the path is checked as saved, without the spaces around it', () => {
    expect(readSettings(withSource({ kind: 'serial', path: ' /dev/ttyUSB0 ' }), 'linux').source.path).toBe('/dev/ttyUSB0');
    expect(refusalOf(withSource({ kind: 'serial', path: ' ttyUSB0' }), 'linux')).toEqual({ field: 'source.path', reason: `${UNIX_HELP} (got "ttyUSB0")` });
  });

  it('a serial source with no port yet is kept as it is (no port is opened)', () => {
    for (const platform of ['linux', 'win32'] as const) {
      expect(readSettings(withSource({ kind: 'serial', path: '' }), platform).source).toEqual({ kind: 'serial', path: '', baud: 9600, decoder: 'text' });
      expect(readSettings(withSource({ kind: 'serial', path: '   ' }), platform).source.path).toBe('');
    }
  });

  it('the manual and simulated sources open no port: their path is kept as entered', () => {
    expect(readSettings(withSource({ kind: 'simulator', path: 'shoeA' }), 'linux').source.path).toBe('shoeA');
    expect(readSettings(withSource({ kind: 'manual', path: './x' }), 'linux').source.path).toBe('./x');
  });

  it('the machine it runs on decides, unless told', () => {
    const expected = process.platform === 'win32' ? WINDOWS_HELP : UNIX_HELP;
    expect(() => readSettings(withSource({ kind: 'serial', path: 'ttyUSB0' }))).toThrow(`source.path: ${expected} (got "ttyUSB0")`);
  });
});

describe('loadSettings', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'settings-'));
  const saved = (settings: ConsoleSettings) => `${JSON.stringify(settings, null, 2)}\n`;
  const SERIAL = withSource({ kind: 'serial', path: '/dev/ttyUSB0' });
  afterEach(async () => {
    const real = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
    vi.mocked(fs.link).mockImplementation(real.link);
  });

  it('a byte-order mark before the text is not damage: read as if absent, the file left as it is', async () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    writeFileSync(path, `\uFEFF${saved(SERIAL)}`);
    expect(await loadSettings(path)).toEqual({ settings: SERIAL, problem: null, problemSaid: null });
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(readFileSync(path, 'utf8')).toBe(`\uFEFF${saved(SERIAL)}`);
  });

  it('a byte-order mark before damage is still damage, and one mark only is forgiven', async () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    writeFileSync(path, '\uFEFF{"table":');
    expect((await loadSettings(path)).problem).toMatch(/^settings file was damaged \(.+\); defaults are used and the old file was kept as settings\.json\.bad$/);
    writeFileSync(path, `\uFEFF\uFEFF${JSON.stringify(SERIAL)}`);
    expect((await loadSettings(path)).problem).toMatch(/^settings file was damaged \(.+\); defaults are used and the old file was kept as settings\.json\.bad-2$/);
  });

  it('damaged files in a row are each kept, under numbered names, none over another', async () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    for (const [index, name] of ['settings.json.bad', 'settings.json.bad-2', 'settings.json.bad-3'].entries()) {
      writeFileSync(path, `damaged ${index + 1}`);
      const { settings, problem } = await loadSettings(path);
      expect(settings).toEqual(DEFAULT_SETTINGS);
      expect(problem).toMatch(new RegExp(`^settings file was damaged \\(.+\\); defaults are used and the old file was kept as ${name.replaceAll('.', '\\.')}$`));
    }
    expect(readdirSync(dir).sort()).toEqual(['settings.json.bad', 'settings.json.bad-2', 'settings.json.bad-3']);
    expect(['settings.json.bad', 'settings.json.bad-2', 'settings.json.bad-3'].map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual(['damaged 1', 'damaged 2', 'damaged 3']);
  });

  it('takes the first free name, whatever holds the others', async () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    writeFileSync(join(dir, 'settings.json.bad'), 'kept before');
    mkdirSync(join(dir, 'settings.json.bad-2'));
    writeFileSync(join(dir, 'settings.json.bad-4'), 'kept before, too');
    writeFileSync(path, '{');
    expect((await loadSettings(path)).problem).toMatch(/kept as settings\.json\.bad-3$/);
    writeFileSync(path, '[');
    expect((await loadSettings(path)).problem).toMatch(/kept as settings\.json\.bad-5$/);
    expect(readFileSync(join(dir, 'settings.json.bad'), 'utf8')).toBe('kept before');
    expect(readFileSync(join(dir, 'settings.json.bad-3'), 'utf8')).toBe('{');
    expect(readFileSync(join(dir, 'settings.json.bad-4'), 'utf8')).toBe('kept before, too');
    expect(readFileSync(join(dir, 'settings.json.bad-5'), 'utf8')).toBe('[');
    expect(existsSync(path)).toBe(false);
  });

  it('a file system without hard links: the copy is made another way, still never over an earlier one', async () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    writeFileSync(join(dir, 'settings.json.bad'), 'kept before');
    writeFileSync(path, 'damaged');
    const refuse = async () => {
      throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    };
    vi.mocked(fs.link).mockImplementation(refuse);
    expect((await loadSettings(path)).problem).toMatch(/kept as settings\.json\.bad-2$/);
    expect(fs.link).toHaveBeenCalled();
    expect(readFileSync(join(dir, 'settings.json.bad'), 'utf8')).toBe('kept before');
    expect(readFileSync(join(dir, 'settings.json.bad-2'), 'utf8')).toBe('damaged');
    expect(existsSync(path)).toBe(false);
  });

  it('a relative serial path in the file is damage like any bad value', async () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    writeFileSync(path, saved(withSource({ kind: 'serial', path: 'ttyUSB0' })));
    const help = process.platform === 'win32' ? WINDOWS_HELP : UNIX_HELP;
    const { problemSaid, ...loaded } = await loadSettings(path);
    expect(loaded).toEqual({
      settings: DEFAULT_SETTINGS,
      problem: `settings file was damaged (source.path: ${help} (got "ttyUSB0")); defaults are used and the old file was kept as settings.json.bad`,
    });
    // The same in keys, the field's refusal nested in it, for the screens to say in the dealer's language.
    expect(problemSaid === null ? null : englishText(problemSaid)).toBe(loaded.problem);
    expect(problemSaid?.key).toBe('settings.file.damagedKept');
  });

  it('no copy can be kept (a real read-only disk): the message says so, not that one was kept', () => {
    expect(canMountPrivateTmpfs(), 'unshare cannot mount a private tmpfs here: this test needs root or unprivileged user namespaces').toBe(true);
    const mount = mkdtempSync(join(tmpdir(), 'settings-ro-'));
    const code = [
      `import { loadSettings } from ${JSON.stringify(new URL('./settings.ts', import.meta.url).href)};`,
      'import { readdirSync } from "node:fs";',
      'const { problem } = await loadSettings(process.argv[1] + "/settings.json");',
      'console.log(JSON.stringify({ problem, entries: readdirSync(process.argv[1]) }));',
    ].join('\n');
    const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
    const script = 'mount -t tmpfs -o size=65536 chip-race-test "$0" && printf "{" > "$0/settings.json" && mount -o remount,ro "$0" && exec "$1" --import tsx --input-type=module -e "$2" "$0"';
    const child = spawnSync('unshare', [...user, '--mount', '--propagation', 'private', 'sh', '-c', script, mount, process.execPath, code], { cwd: root, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({
      problem: expect.stringMatching(/^settings file was damaged \(.+\); defaults are used, and no copy of the old file could be kept \(EROFS\): saving the settings will replace it$/),
      entries: ['settings.json'],
    });
  });
});

describe('the chip set is kept once, in the table', () => {
  const structure = { chips: [25, 100, 500, 1000, 5000], levels: [{ sb: 25, bb: 50 }, { sb: 50, bb: 100 }, { break: 15 }, { sb: 100, bb: 200 }] };
  /** A settings file as the console wrote it before: the chip set in the table and again in the structure. */
  const oldFile = (chips: readonly number[]) => ({ ...DEFAULT_SETTINGS, tournament: { structure: { ...structure, chips }, atBreakAfter: 2 } });
  const folder = () => mkdtempSync(join(tmpdir(), 'settings-'));

  it('reads a settings file written the old way (the chips twice), and saves it with the chips once', async () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    writeFileSync(path, JSON.stringify(oldFile(DEFAULT_SETTINGS.table.chipSet), null, 2));
    const { settings, problem } = await loadSettings(path);
    expect(problem).toBeNull();
    expect(settings.tournament).toEqual({ structure, atBreakAfter: 2 });
    await saveSettings(path, settings);
    const stored = JSON.parse(readFileSync(path, 'utf8'));
    expect(stored.table.chipSet).toEqual([25, 100, 500, 1000, 5000]);
    expect(stored.tournament).toEqual({ structure: { levels: structure.levels }, atBreakAfter: 2 });
    expect(await loadSettings(path)).toEqual({ settings, problem: null, problemSaid: null });
  });

  it('an old file whose structure listed other chips: the table’s are kept (the races used them), or the structure is left out and said', async () => {
    const dir = folder();
    const path = join(dir, 'settings.json');
    writeFileSync(path, JSON.stringify(oldFile([25, 100, 500, 1000])));
    expect((await loadSettings(path)).settings.tournament).toEqual({ structure, atBreakAfter: 2 });
    writeFileSync(path, JSON.stringify({ ...oldFile([5, 25, 100, 500]), tournament: { structure: { ...structure, chips: [5, 25, 100, 500], levels: [{ sb: 5, bb: 10 }] }, atBreakAfter: null } }));
    const { settings, problem } = await loadSettings(path);
    expect(settings.tournament).toEqual({ structure: null, atBreakAfter: null });
    expect(settings.table).toEqual(DEFAULT_SETTINGS.table);
    expect(problem).toMatch(/^the saved structure listed other chips \(\[5,25,100,500\]\) than the table \(\[25,100,500,1000,5000\]\) and cannot be played with the table's \(tournament\.structure\.levels\[0\]\.sb: .+\): it was left out; save it again on the structure screen$/);
  });

  it('refuses settings whose structure lists other chips than the table', () => {
    expect(refusalOf(oldFile([25, 100, 500]), 'linux')).toEqual({ field: 'tournament.structure.chips', reason: expect.stringContaining("the structure plays with the table's chip set (25, 100, 500, 1000, 5000), not 25, 100, 500") });
    expect(readSettings({ ...oldFile(DEFAULT_SETTINGS.table.chipSet), tournament: { structure: { levels: structure.levels }, atBreakAfter: null } }).tournament?.structure).toEqual(structure);
  });
});

/**
 * A server that asks every client for its password in clear (PostgreSQL's AuthenticationCleartextPassword)
 * and keeps what it is sent: what a server a forged `?host=` pointed at would learn.
 */
async function passwordCatcher(): Promise<{ port: number; heard: () => string; connections: () => number; close: () => Promise<void> }> {
  let heard = Buffer.alloc(0);
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.on('error', () => socket.destroy());
    let asked = false;
    socket.on('data', (chunk: Buffer) => {
      heard = Buffer.concat([heard, chunk]);
      if (!asked) {
        asked = true;
        // 'R', length 8, 3: send the password in clear.
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    heard: () => heard.toString('latin1'),
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the floor password kept for a screen that never sees it', () => {
  const PASSWORD = 'pw-of-table-7';
  const table: ConsoleSettings = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, name: '7', seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }], button: 2 } };

  it('is kept only for exactly the URL it was entered with: a ?host= and &port= added to the shown URL take none along', async () => {
    const catcher = await passwordCatcher();
    const dataDir = mkdtempSync(join(tmpdir(), 'kept-password-'));
    const service = await ConsoleService.start({ dataDir, floorTiming: { retryFirstMs: 50, retryMaxMs: 100, connectMs: 1_000 } });
    try {
      // The floor as the director gave it (off: nothing listens there).
      const entered = `postgres://table7:${PASSWORD}@127.0.0.1:9/floor?sslmode=disable`;
      expect(await service.saveSettings({ ...table, floor: { on: false, url: entered } })).toEqual({ ok: true, value: null });
      const shown = service.getState().settings.floor?.url ?? '';
      expect(shown).toBe('postgres://table7@127.0.0.1:9/floor?sslmode=disable');
      // The same URL, as shown, keeps the password; so does that URL with spaces around it.
      expect(await service.saveSettings({ ...service.getState().settings, floor: { on: false, url: ` ${shown} ` } })).toEqual({ ok: true, value: null });
      expect(service.getState().settings.floor).toEqual({ on: false, url: shown, passwordSet: true });
      expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).toContain(PASSWORD);

      // A screen (or a page that got hold of the bridge) saves the shown URL pointed elsewhere.
      const elsewhere = `${shown}&host=127.0.0.1&port=${catcher.port}`;
      expect(await service.saveSettings({ ...service.getState().settings, floor: { on: true, url: elsewhere } })).toEqual({ ok: true, value: null });
      // The link goes there (without a password, it has none to give).
      const deadline = Date.now() + 10_000;
      while (catcher.connections() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(catcher.connections()).toBeGreaterThan(0);
      expect(catcher.heard()).not.toContain(PASSWORD);
      // Saved without one, and the screen says so (passwordSet false: "No password is saved for it.").
      expect(service.getState().settings.floor).toEqual({ on: true, url: elsewhere, passwordSet: false });
      expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain(PASSWORD);

      // Nor any other change of what the URL names: login, host, port, database, query, scheme.
      for (const other of ['postgres://table8@127.0.0.1:9/floor?sslmode=disable', 'postgres://table7@127.0.0.2:9/floor?sslmode=disable', 'postgres://table7@127.0.0.1:10/floor?sslmode=disable', 'postgres://table7@127.0.0.1:9/other?sslmode=disable', 'postgres://table7@127.0.0.1:9/floor', 'postgresql://table7@127.0.0.1:9/floor?sslmode=disable']) {
        expect(await service.saveSettings({ ...table, floor: { on: false, url: entered } })).toEqual({ ok: true, value: null });
        expect(await service.saveSettings({ ...table, floor: { on: false, url: other } })).toEqual({ ok: true, value: null });
        expect([other, service.getState().settings.floor?.passwordSet]).toEqual([other, false]);
      }
    } finally {
      await service.close();
      await catcher.close();
    }
  }, 30_000);
});

describe('settings nested deep', () => {
  /** JSON text of 60,000 lists inside each other (JSON.stringify of such a value would overflow the stack itself). */
  const DEEP = `${'['.repeat(60_000)}1${']'.repeat(60_000)}`;
  const deep = () => JSON.parse(DEEP) as unknown;
  const TOO_DEEP = 'nested more than 64 levels deep (lists or objects inside each other); nothing the console reads goes that deep';
  const table = { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }], button: 2 };

  it('a screen saving a structure (or any field) nested 60,000 deep is refused with a clear message, and nothing changes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'deep-settings-'));
    const service = await ConsoleService.start({ dataDir });
    try {
      const before = service.getState().settings;
      const structure = { ...DEFAULT_SETTINGS, table, tournament: { structure: { levels: deep() }, atBreakAfter: null } };
      const button = { ...DEFAULT_SETTINGS, table: { ...table, button: deep() } };
      for (const settings of [structure, button]) {
        expect(await service.saveSettings(settings as unknown as ConsoleSettings)).toEqual({ ok: false, error: { field: 'settings', message: TOO_DEEP, said: { key: 'value.tooDeep', params: { n: 64 } } } });
      }
      expect(service.getState().settings).toEqual(before);
      expect(existsSync(join(dataDir, 'settings.json'))).toBe(false);
    } finally {
      await service.close();
    }
  });

  it('a settings file nested 60,000 deep gives the defaults and says why, the file kept aside', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deep-file-'));
    const path = join(dir, 'settings.json');
    const file = `{"table":${JSON.stringify(table)},"source":${JSON.stringify(DEFAULT_SETTINGS.source)},"language":"en","tournament":{"structure":{"chips":${DEEP},"levels":[]}}}`;
    writeFileSync(path, file);
    const { settings, problem } = await loadSettings(path);
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(problem).toBe(`settings file was damaged (settings: ${TOO_DEEP}); defaults are used and the old file was kept as settings.json.bad`);
    expect(readFileSync(join(dir, 'settings.json.bad'), 'utf8')).toBe(file);
  });
});

describe("the keyboard-wedge scanner's profile (source.scanner)", () => {
  it('is kept when chosen, left out when not (a file from before reads as it was: the default applies), refused naming its field when of no shape', () => {
    const given = { ...DEFAULT_SETTINGS, source: { ...DEFAULT_SETTINGS.source, decoder: 'suit-number' } };
    expect(readSettings(given).source).toEqual({ kind: 'manual', path: '', baud: 9600, decoder: 'suit-number' });
    expect(readSettings({ ...given, source: { ...given.source, scanner: 'text' } }).source).toEqual({ kind: 'manual', path: '', baud: 9600, decoder: 'suit-number', scanner: 'text' });
    expect(() => readSettings({ ...given, source: { ...given.source, scanner: '../x' } })).toThrow(expect.objectContaining({ field: 'source.scanner' }));
    expect(() => readSettings({ ...given, source: { ...given.source, scanner: 7 } })).toThrow(expect.objectContaining({ field: 'source.scanner' }));
  });
});

describe("the player display's settings (display.clockSound, display.resultMinutes)", () => {
  it('are left out when never set (the clock sounds, a result stays 10 minutes), kept when set, the defaults when left out of them, refused naming the field when no boolean or no minutes', () => {
    expect(readSettings(DEFAULT_SETTINGS).display).toBeUndefined();
    expect(readSettings({ ...DEFAULT_SETTINGS, display: { clockSound: false } }).display).toEqual({ clockSound: false, resultMinutes: 10 });
    expect(readSettings({ ...DEFAULT_SETTINGS, display: {} }).display).toEqual({ clockSound: true, resultMinutes: 10 });
    expect(readSettings({ ...DEFAULT_SETTINGS, display: { clockSound: true, resultMinutes: 0 } }).display).toEqual({ clockSound: true, resultMinutes: 0 });
    expect(refusalOf({ ...DEFAULT_SETTINGS, display: { resultMinutes: 61 } }, 'linux')).toEqual({ field: 'display.resultMinutes', reason: 'must be a whole number from 0 to 60 (got 61)' });
    expect(refusalOf({ ...DEFAULT_SETTINGS, display: { resultMinutes: 2.5 } }, 'linux')?.field).toBe('display.resultMinutes');
    expect(refusalOf({ ...DEFAULT_SETTINGS, display: { clockSound: 'no' } }, 'linux')).toEqual({ field: 'display.clockSound', reason: 'must be true or false (got "no")' });
    expect(refusalOf({ ...DEFAULT_SETTINGS, display: 'quiet' }, 'linux')?.field).toBe('display');
  });
});

describe('settings read back as written', () => {
  it('keep the order of their fields, which the screens compare as JSON to know whether they are saved', () => {
    const written: ConsoleSettings = {
      table: { seats: [{ seat: 1, name: 'Matti' }, { seat: 3, name: '' }], button: 3, chipSet: [25, 100, 500], removed: 25, next: 100, rules: 'tda', decks: 2, dealer: 'Liisa', name: '12' },
      source: { kind: 'serial', path: '/dev/ttyUSB0', baud: 9600, decoder: 'text', dataBits: 8, parity: 'none', stopBits: 1, rtscts: false, repeatMs: 300, scanner: 'suit-number' },
      language: 'fi',
      tournament: { structure: null, atBreakAfter: null },
    };
    expect(JSON.stringify(readSettings(written, 'linux'))).toBe(JSON.stringify(written));
    const plain: ConsoleSettings = { ...written, table: { seats: [], button: 1, chipSet: [25, 100], removed: 25, next: 100, rules: 'classic', decks: 1 }, source: { kind: 'manual', path: '', baud: 9600, decoder: 'text' } };
    expect(JSON.stringify(readSettings(plain, 'linux'))).toBe(JSON.stringify(plain));
  });
});

describe('the race settings a table chooses on its own (table.rounding, dealStart, protection, award: issue 25)', () => {
  const table = { ...DEFAULT_SETTINGS.table, seats: [{ seat: 1, name: '' }], chipSet: [25, 100], removed: 25, next: 100 };
  it('are left out when not chosen (a file from before reads as it was: the rule set’s), kept when chosen, in the order written, refused naming the field when unknown', () => {
    expect(readSettings({ ...DEFAULT_SETTINGS, table }).table).toEqual(table);
    const chosen = { ...table, rounding: 'pooled-more-than-half', dealStart: 'button', protection: 'exempt', award: 'high-card-takes-all' };
    expect(JSON.stringify(readSettings({ ...DEFAULT_SETTINGS, table: chosen }).table)).toBe(JSON.stringify(chosen));
    expect(readSettings({ ...DEFAULT_SETTINGS, table: { ...table, award: null } }).table).toEqual(table);
    expect(refusalOf({ ...DEFAULT_SETTINGS, table: { ...table, award: 'winner-takes-all' } }, 'linux')).toEqual({ field: 'table.award', reason: 'choose one of one-chip-each, high-card-takes-all (got "winner-takes-all")' });
    expect(refusalOf({ ...DEFAULT_SETTINGS, table: { ...table, dealStart: 'dealer' } }, 'linux')?.field).toBe('table.dealStart');
    expect(refusalOf({ ...DEFAULT_SETTINGS, table: { ...table, rounding: 'half' } }, 'linux')?.field).toBe('table.rounding');
  });

  it('the floor’s house gives them, the station’s own kept aside with them, refused naming the field when unknown', () => {
    const own = { chipSet: [25, 100], removed: 25, next: 100, rules: 'tda', decks: 1, award: 'one-chip-each', tournament: null };
    const fromFloor = { house: { rules: 'classic', award: 'high-card-takes-all', dealStart: 'button' }, own };
    const read = readSettings({ ...DEFAULT_SETTINGS, table: { ...table, award: 'high-card-takes-all', dealStart: 'button' }, fromFloor });
    expect(read.fromFloor).toEqual(fromFloor);
    expect(refusalOf({ ...DEFAULT_SETTINGS, table, fromFloor: { ...fromFloor, house: { award: 'all' } } }, 'linux')?.field).toBe('fromFloor.house.award');
    expect(refusalOf({ ...DEFAULT_SETTINGS, table, fromFloor: { ...fromFloor, own: { ...own, protection: 'none' } } }, 'linux')?.field).toBe('fromFloor.own.protection');
  });
});

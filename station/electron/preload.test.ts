// The preload is the only bridge between the page and the main process. It must expose exactly
// the console's API under window.chipRace — one function per command plus onStateMessage — and never
// ipcRenderer, Node, or an IPC event (whose `sender` is ipcRenderer itself). Loaded here with a
// stand-in `electron` module: the TypeScript source, and the bundle as it ships (CommonJS).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_KEY } from '../../protocol/contract';
import { COMMAND_NAMES, type CommandName } from '../../protocol/commands';
import { commandChannel, STATE_CHANNEL } from '../ipc/channels';

type Listener = (...args: unknown[]) => void;

function fakeElectron() {
  const exposed: Array<[string, unknown]> = [];
  const listeners = new Map<string, Set<Listener>>();
  const ipcRenderer = {
    invoke: vi.fn(async (channel: string, ...args: unknown[]) => ({ ok: true, value: { channel, args } })),
    send: vi.fn(),
    sendSync: vi.fn(),
    on: vi.fn((channel: string, listener: Listener) => {
      listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener));
      return ipcRenderer;
    }),
    removeListener: vi.fn((channel: string, listener: Listener) => {
      listeners.get(channel)?.delete(listener);
      return ipcRenderer;
    }),
  };
  const electron = {
    contextBridge: { exposeInMainWorld: vi.fn((key: string, api: unknown) => exposed.push([key, api])) },
    ipcRenderer,
  };
  /** What main would send: the event (whose sender is ipcRenderer) and the state message. */
  const push = (message: unknown) => {
    for (const listener of listeners.get(STATE_CHANNEL) ?? []) listener({ sender: ipcRenderer, senderId: 0 }, message);
  };
  return { electron, exposed, ipcRenderer, listeners, push };
}

type Fake = ReturnType<typeof fakeElectron>;

/** Every object and function reachable from `root` through own data properties. */
function reachable(root: unknown): unknown[] {
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) visit(descriptor.value);
    }
  };
  visit(root);
  return [...seen];
}

function checkPreload(label: string, load: () => Promise<Fake>, timeoutMs = 10_000, commands: readonly CommandName[] = COMMAND_NAMES): void {
  describe(label, () => {
    let fake: Fake;
    beforeAll(async () => {
      fake = await load();
    }, timeoutMs);

    it('exposes one API, under the console’s key, with exactly the commands and onStateMessage', () => {
      expect(fake.electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
      const [key, api] = fake.exposed[0] as [string, Record<string, unknown>];
      expect(key).toBe(API_KEY);
      expect(Object.keys(api).sort()).toEqual([...commands, 'onStateMessage'].sort());
      for (const name of Object.keys(api)) expect(typeof api[name], name).toBe('function');
    });

    it('never exposes ipcRenderer or anything of it', () => {
      const [, api] = fake.exposed[0] as [string, unknown];
      const values = reachable(api);
      expect(values).not.toContain(fake.ipcRenderer);
      for (const method of Object.values(fake.ipcRenderer)) expect(values).not.toContain(method);
    });

    it(commands.length === 0 ? 'invokes nothing: the page can only listen' : 'each command is one invoke on its own channel, with the arguments as given', async () => {
      const [, api] = fake.exposed[0] as [string, Record<string, (...args: unknown[]) => Promise<unknown>>];
      for (const name of commands) {
        fake.ipcRenderer.invoke.mockClear();
        expect(await api[name]?.('x', 2)).toEqual({ ok: true, value: { channel: commandChannel(name), args: ['x', 2] } });
        expect(fake.ipcRenderer.invoke).toHaveBeenCalledTimes(1);
      }
      expect(fake.ipcRenderer.send).not.toHaveBeenCalled();
      expect(fake.ipcRenderer.sendSync).not.toHaveBeenCalled();
    });

    it('onStateMessage hands the listener the message alone (never the event and its sender), and stops when asked', () => {
      const [, api] = fake.exposed[0] as [string, { onStateMessage(listener: (...args: unknown[]) => void): () => void }];
      // Received before the page subscribes: a patch with nothing to apply to is dropped; a whole state is kept.
      fake.push({ type: 'patch', patch: { race: 'lost' } });
      fake.push({ type: 'state', state: { race: null, history: [] } });
      fake.push({ type: 'patch', patch: { race: 'open' } });
      const calls: unknown[][] = [];
      const stop = api.onStateMessage((...args) => calls.push(args));
      // The page starts from the whole state as merged so far, then gets each message as sent.
      expect(calls).toEqual([[{ type: 'state', state: { race: 'open', history: [] } }]]);
      fake.push({ type: 'patch', patch: { race: 'dealt' } });
      fake.push({ type: 'nonsense' });
      expect(calls).toEqual([[{ type: 'state', state: { race: 'open', history: [] } }], [{ type: 'patch', patch: { race: 'dealt' } }]]);
      stop();
      fake.push({ type: 'patch', patch: { race: 'later' } });
      expect(calls).toHaveLength(2);
    });
  });
}

describe('the preload exposes exactly the allowed functions', () => {
  checkPreload('source (station/electron/preload.ts)', async () => {
    const fake = fakeElectron();
    vi.resetModules();
    vi.doMock('electron', () => fake.electron);
    await import('./preload');
    vi.doUnmock('electron');
    return fake;
  });

  checkPreload(
    "the player display's source (station/electron/displayPreload.ts): no command at all",
    async () => {
      const fake = fakeElectron();
      vi.resetModules();
      vi.doMock('electron', () => fake.electron);
      await import('./displayPreload');
      vi.doUnmock('electron');
      return fake;
    },
    10_000,
    [],
  );

  const bundleDirs: string[] = [];
  afterAll(() => {
    for (const dir of bundleDirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A preload bundled as electron-vite ships it, loaded with a require that knows only electron (as a sandboxed preload's). */
  async function bundled(source: string): Promise<Fake> {
    const { build } = await import('vite');
    const root = fileURLToPath(new URL('../..', import.meta.url));
    mkdirSync(join(root, 'node_modules', '.tmp'), { recursive: true });
    const bundleDir = mkdtempSync(join(root, 'node_modules', '.tmp', 'preload-'));
    bundleDirs.push(bundleDir);
    await build({
      configFile: false,
      logLevel: 'warn',
      root,
      build: {
        ssr: join(root, 'station', 'electron', source),
        outDir: bundleDir,
        minify: false,
        rolldownOptions: { external: ['electron'], output: { format: 'cjs', entryFileNames: 'index.cjs' } },
      },
    });
    const code = readFileSync(join(bundleDir, 'index.cjs'), 'utf8');
    const fake = fakeElectron();
    const required: string[] = [];
    const module = { exports: {} };
    const fakeRequire = (name: string) => {
      required.push(name);
      if (name === 'electron') return fake.electron;
      throw new Error(`the preload required ${name}`);
    };
    new Function('require', 'module', 'exports', code)(fakeRequire, module, module.exports);
    expect(required).toEqual(['electron']);
    return fake;
  }
  checkPreload('bundle (CommonJS, electron left to require, as electron-vite ships it)', () => bundled('preload.ts'), 60_000);
  checkPreload("the player display's bundle", () => bundled('displayPreload.ts'), 60_000, []);
});

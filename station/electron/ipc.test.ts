import { describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { COMMAND_NAMES } from '../../protocol/commands';
import type { CommandTarget } from '../ipc/validate';
import { registerIpc, type IpcRegistry } from './ipc';

const APP = 'file:///opt/console/out/renderer/index.html';

function fakeIpc() {
  const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
  const registry: IpcRegistry = {
    handle: (channel, listener) => handlers.set(channel, listener),
    removeHandler: (channel) => handlers.delete(channel),
  };
  return { handlers, registry };
}

/** The dealer window's main frame; any other frame (the player display's, a subframe) is not it. */
const DEALER_FRAME = { url: APP };
const isDealerFrame = (frame: unknown) => frame === DEALER_FRAME;
const from = (url: string | undefined, frame: object = url === APP ? DEALER_FRAME : { url }) => ({ senderFrame: url === undefined ? null : frame }) as unknown as IpcMainInvokeEvent;

describe('IPC handlers', () => {
  const calls: unknown[] = [];
  const service = Object.fromEntries(COMMAND_NAMES.map((name) => [name, (...args: unknown[]) => {
    calls.push([name, ...args]);
    return { ok: true, value: null };
  }])) as unknown as CommandTarget;

  it('registers exactly one channel per command and removes them again', () => {
    const { handlers, registry } = fakeIpc();
    const remove = registerIpc(registry, service, APP, isDealerFrame);
    expect([...handlers.keys()].sort()).toEqual(COMMAND_NAMES.map((name) => `chipRace:${name}`).sort());
    remove();
    expect(handlers.size).toBe(0);
  });

  it('answers the console page and refuses any other sender', async () => {
    const { handlers, registry } = fakeIpc();
    registerIpc(registry, service, APP, isDealerFrame);
    const deal = handlers.get('chipRace:dealCard');
    calls.length = 0;
    expect(await deal?.(from(APP), 'race-1', 'As')).toEqual({ ok: true, value: null });
    expect(await deal?.(from('https://evil.example/'), 'race-1', 'As')).toMatchObject({ ok: false, error: { field: 'sender' } });
    expect(await deal?.(from('file:///tmp/other.html'), 'race-1', 'As')).toMatchObject({ ok: false, error: { field: 'sender' } });
    expect(await deal?.(from(undefined), 'race-1', 'As')).toMatchObject({ ok: false, error: { field: 'sender' } });
    expect(calls).toEqual([['dealCard', 'race-1', 'As']]);
  });

  it.each(COMMAND_NAMES)("%s refuses the player display's window, the console's own page but not the dealer's frame", async (name) => {
    const { handlers, registry } = fakeIpc();
    registerIpc(registry, service, APP, isDealerFrame);
    calls.length = 0;
    const display = from(APP, { url: `${APP}#/display` });
    const subframe = from(APP, { url: APP, parent: DEALER_FRAME });
    for (const event of [display, subframe]) {
      expect(await handlers.get(`chipRace:${name}`)?.(event)).toEqual({ ok: false, error: { field: 'sender', message: 'refused: only the dealer window sends commands (the player display is read-only)' } });
    }
    expect(calls).toEqual([]);
  });

  it('refuses malformed arguments before the service sees them', async () => {
    const { handlers, registry } = fakeIpc();
    registerIpc(registry, service, APP, isDealerFrame);
    calls.length = 0;
    expect(await handlers.get('chipRace:voidCards')?.(from(APP), 'race-1', 'all')).toMatchObject({ ok: false, error: { field: 'count' } });
    expect(await handlers.get('chipRace:startRace')?.(from(APP), [{ seat: 1, chips: -3, hasOther: true }])).toMatchObject({ ok: false, error: { field: 'counts[0].chips' } });
    expect(calls).toEqual([]);
  });

  it.each(COMMAND_NAMES)('%s refuses every sender that is not the console page, before the service sees it', async (name) => {
    const { handlers, registry } = fakeIpc();
    registerIpc(registry, service, APP, isDealerFrame);
    calls.length = 0;
    const untrusted = [
      'https://evil.example/',
      `${APP}?x=1`,
      'file:///opt/console/out/renderer/index.html/../other.html',
      'file://evil.example/opt/console/out/renderer/index.html',
      'about:blank',
      'devtools://devtools/bundled/inspector.html',
      'data:text/html,<script>1</script>',
      '',
      undefined,
    ];
    for (const url of untrusted) expect(await handlers.get(`chipRace:${name}`)?.(from(url)), String(url)).toEqual({ ok: false, error: { field: 'sender', message: 'refused: the request did not come from the console page' } });
    expect(calls).toEqual([]);
  });

  it.each(COMMAND_NAMES)('%s refuses a flood of arguments from the console page itself, before the service sees it', async (name) => {
    const { handlers, registry } = fakeIpc();
    registerIpc(registry, service, APP, isDealerFrame);
    calls.length = 0;
    const junk = Array.from({ length: 20 }, (_, index) => ({ index, __proto__: { polluted: true } }));
    expect(await handlers.get(`chipRace:${name}`)?.(from(APP), ...junk)).toMatchObject({ ok: false, error: { field: 'args' } });
    expect(calls).toEqual([]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

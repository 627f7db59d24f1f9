// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConsoleState, StateMessage } from '../../protocol/contract';
import { commandCalls, type PreloadApi } from '../../protocol/commands';
import { makeState } from '../testing/fixtures';

afterEach(() => {
  delete window.chipRace;
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('getConsoleApi', () => {
  it("in the player display's Electron window (a preload without commands): every command read-only, getState the latest state pushed", async () => {
    let push: (message: StateMessage) => void = () => undefined;
    window.chipRace = {
      onStateMessage(listener: (message: StateMessage) => void) {
        push = listener;
        return () => undefined;
      },
    };
    const { getConsoleApi, READ_ONLY } = await import('./index');
    const api = getConsoleApi();
    expect(await api.dealCard('race-1', 'As')).toEqual(READ_ONLY);
    expect(await api.confirmRace('race-1')).toEqual(READ_ONLY);
    expect(await api.saveSettings({} as never)).toEqual(READ_ONLY);
    const asked = api.getState();
    const whole = makeState();
    push({ type: 'state', state: whole });
    expect(await asked).toEqual(whole);
    expect(await api.getState()).toEqual(whole);
  });

  it('uses the Electron preload API when present, merging its pushed messages into whole states', async () => {
    // A preload's commands (what they answer does not matter here) and a state to push.
    const state = makeState();
    const service = { ...commandCalls(() => Promise.resolve({ ok: true, value: null })), getState: () => Promise.resolve(state) };
    let push: (message: StateMessage) => void = () => undefined;
    const preload = {
      ...service,
      onState: undefined,
      onStateMessage(listener: (message: StateMessage) => void) {
        push = listener;
        return () => undefined;
      },
    } as unknown as PreloadApi;
    window.chipRace = preload;
    const { getConsoleApi, hasConnection } = await import('./index');
    const api = getConsoleApi();
    expect(getConsoleApi()).toBe(api);
    expect(hasConnection(api)).toBe(false);
    expect(api.dealCard).toBe(service.dealCard);
    // The whole state may come before the screen listens: it is kept, and patches apply to it.
    const whole = await service.getState();
    push({ type: 'state', state: whole });
    const states: ConsoleState[] = [];
    api.onState((state) => states.push(state));
    push({ type: 'patch', patch: { lastInput: { type: 'unknown', raw: 'x', reason: 'test', said: { key: 'hardware.decoder.notACardCode' } } } });
    expect(states).toHaveLength(1);
    expect(states[0]?.lastInput).toEqual({ type: 'unknown', raw: 'x', reason: 'test', said: { key: 'hardware.decoder.notACardCode' } });
    expect(states[0]?.history).toBe(whole.history);
    expect(states[0]?.settings).toBe(whole.settings);
  });

  it('otherwise opens the WebSocket bridge on the page host, once', async () => {
    const urls: string[] = [];
    class RecordingSocket {
      readyState = 0;
      onopen = null;
      onclose = null;
      onerror = null;
      onmessage = null;
      constructor(url: string) {
        urls.push(url);
      }
      send(): void {}
      close(): void {}
    }
    vi.stubGlobal('WebSocket', RecordingSocket);
    const { getConsoleApi, hasConnection } = await import('./index');
    const api = getConsoleApi();
    expect(getConsoleApi()).toBe(api);
    expect(hasConnection(api)).toBe(true);
    expect(urls).toEqual([`ws://${window.location.host}/bridge`]);
  });

  it.each([['#/display'], ['?view=display']])('opens it as the read-only display on the player display’s page (%s)', async (where) => {
    const urls: string[] = [];
    class RecordingSocket {
      readyState = 0;
      onopen = null;
      onclose = null;
      onerror = null;
      onmessage = null;
      constructor(url: string) {
        urls.push(url);
      }
      send(): void {}
      close(): void {}
    }
    vi.stubGlobal('WebSocket', RecordingSocket);
    const page = window.location.href;
    window.history.replaceState(null, '', `/${where}`);
    try {
      const { getConsoleApi } = await import('./index');
      getConsoleApi();
    } finally {
      window.history.replaceState(null, '', page);
    }
    expect(urls).toEqual([`ws://${window.location.host}/bridge?role=display`]);
  });
});

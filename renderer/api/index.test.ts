// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../testing/fakeApi';

afterEach(() => {
  delete window.chipRace;
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('getConsoleApi', () => {
  it('uses the Electron preload API when present', async () => {
    const preload = createFakeApi();
    window.chipRace = preload;
    const { getConsoleApi, hasConnection } = await import('./index');
    expect(getConsoleApi()).toBe(preload);
    expect(hasConnection(preload)).toBe(false);
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
});

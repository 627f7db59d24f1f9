import type { ConsoleApi, ConsoleState, PreloadApi } from '../../main/ipc/contract';
import { bridgeUrl, createBridgeApi, type ConnectionSource } from './bridge';
import { createStateMerge } from './stateMerge';

export { bridgeUrl, ConnectionLostError, createBridgeApi } from './bridge';
export type { BridgeApi, ConnectionSource, ConnectionStatus, WebSocketLike } from './bridge';

let shared: ConsoleApi | null = null;

/**
 * The Electron preload's API as the screens use it: its pushed messages (a whole state, then
 * patches) merged into whole states. Subscribes at once, so no message is missed.
 */
export function fromPreload(preload: PreloadApi): ConsoleApi {
  const { onStateMessage, ...calls } = preload;
  const listeners = new Set<(state: ConsoleState) => void>();
  const merge = createStateMerge();
  onStateMessage((message) => {
    const state = merge(message);
    if (state !== null) for (const listener of [...listeners]) listener(state);
  });
  return {
    ...calls,
    onState(listener: (state: ConsoleState) => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * The console service: the Electron preload's `window.chipRace` when present, otherwise (browser
 * mode) a WebSocket bridge client to `/bridge` on the page's own host. One per page.
 */
export function getConsoleApi(): ConsoleApi {
  if (shared === null) shared = window.chipRace ? fromPreload(window.chipRace) : createBridgeApi({ url: bridgeUrl(window.location) });
  return shared;
}

/** Whether `api` reports its connection (the bridge does; the preload is always connected). */
export function hasConnection(api: ConsoleApi): api is ConsoleApi & ConnectionSource {
  return typeof (api as Partial<ConnectionSource>).onConnection === 'function';
}

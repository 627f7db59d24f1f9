import type { ConsoleApi } from '../../main/ipc/contract';
import { bridgeUrl, createBridgeApi, type ConnectionSource } from './bridge';

export { bridgeUrl, ConnectionLostError, createBridgeApi } from './bridge';
export type { BridgeApi, ConnectionSource, ConnectionStatus, WebSocketLike } from './bridge';

let shared: ConsoleApi | null = null;

/**
 * The console service: the Electron preload's `window.chipRace` when present, otherwise (browser
 * mode) a WebSocket bridge client to `/bridge` on the page's own host. One per page.
 */
export function getConsoleApi(): ConsoleApi {
  if (shared === null) shared = window.chipRace ?? createBridgeApi({ url: bridgeUrl(window.location) });
  return shared;
}

/** Whether `api` reports its connection (the bridge does; the preload is always connected). */
export function hasConnection(api: ConsoleApi): api is ConsoleApi & ConnectionSource {
  return typeof (api as Partial<ConnectionSource>).onConnection === 'function';
}

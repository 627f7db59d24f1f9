import { commandCalls, type ConsoleApi, type PreloadApi } from '../../protocol/commands';
import { readStateMessage, type CommandError, type CommandResult, type ConsoleState, type DisplayPreloadApi } from '../../protocol/contract';
import { isDisplayMode } from '../displayMode';
import { bridgeUrl, createBridgeApi, type ConnectionSource } from './bridge';
import { createStateRefusals, logStateRefusal, type StateRefusalSource } from './stateRefusals';
import { createStateMerge } from '../../protocol/stateMerge';

export { bridgeUrl, ConnectionLostError, createBridgeApi } from './bridge';
export { hasStateRefusals, logStateRefusal, type StateRefusalSource } from './stateRefusals';
export type { BridgeApi, BridgeRole, ConnectionSource, ConnectionStatus, WebSocketLike } from './bridge';

let shared: ConsoleApi | null = null;

/** What a command answers where the page may not command (the player display's window). */
export const READ_ONLY: CommandResult<never> = { ok: false, error: { field: 'role', message: 'refused: the player display is read-only' } };

/**
 * The Electron preload's API as the screens use it: its pushed messages (a whole state, then
 * patches) merged into whole states. Subscribes at once, so no message is missed. The player
 * display's preload has no commands: there each command answers READ_ONLY, and getState gives
 * the latest state pushed (once one has come). Each message is read by its schema first
 * (`readStateMessage`): one refused is dropped and said (`onRefused`, the log by default;
 * `onStateRefusal` for the screens), the last good state kept.
 */
export function fromPreload(preload: PreloadApi | DisplayPreloadApi, onRefused: (error: CommandError) => void = logStateRefusal): ConsoleApi & StateRefusalSource {
  const { onStateMessage, ...given } = preload as PreloadApi;
  const listeners = new Set<(state: ConsoleState) => void>();
  const merge = createStateMerge();
  const refusals = createStateRefusals(onRefused);
  let latest: ConsoleState | null = null;
  const waiting: Array<(state: ConsoleState) => void> = [];
  onStateMessage((message: unknown) => {
    const read = readStateMessage(message);
    if (!read.ok) {
      refusals.refused(read.error);
      return;
    }
    refusals.taken(read.value);
    const state = merge(read.value);
    if (state === null) return;
    latest = state;
    for (const resolve of waiting.splice(0)) resolve(state);
    for (const listener of [...listeners]) listener(state);
  });
  const readOnly = commandCalls(() => Promise.resolve(READ_ONLY));
  const pushed = () => (latest !== null ? Promise.resolve(latest) : new Promise<ConsoleState>((resolve) => waiting.push(resolve)));
  const calls = 'getState' in given ? given : { ...readOnly, getState: pushed };
  return {
    ...(calls as ConsoleApi),
    ...refusals.source,
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
 * mode) a WebSocket bridge client to `/bridge` on the page's own host (its cookie carries the
 * browser key). The player display (`#/display`, `?view=display`) connects as the read-only
 * display. One per page.
 */
export function getConsoleApi(): ConsoleApi {
  if (shared === null) {
    shared = window.chipRace
      ? fromPreload(window.chipRace)
      : createBridgeApi({ url: bridgeUrl(window.location), role: isDisplayMode(window.location) ? 'display' : 'console' });
  }
  return shared;
}

/** Whether `api` reports its connection (the bridge does; the preload is always connected). */
export function hasConnection(api: ConsoleApi): api is ConsoleApi & ConnectionSource {
  return typeof (api as Partial<ConnectionSource>).onConnection === 'function';
}

import type { IpcRenderer, IpcRendererEvent } from 'electron';
import type { ConsoleState, StateMessage } from '../../../protocol/contract';
import { mergeState } from '../../../protocol/stateMerge';
import { STATE_CHANNEL } from '../../ipc/channels';

/**
 * The state messages main sends a window (the whole state once its page has loaded, then patches:
 * station/ipc/stateFeed), received from the first moment and kept merged, so a page that subscribes
 * later still starts from the whole state, then gets the messages as they come. Listeners get the
 * message alone, never the IPC event (whose `sender` is ipcRenderer itself).
 */
export function stateMessages(ipcRenderer: Pick<IpcRenderer, 'on'>): (listener: (message: StateMessage) => void) => () => void {
  let current: ConsoleState | null = null;
  const pageListeners = new Set<(message: StateMessage) => void>();
  ipcRenderer.on(STATE_CHANNEL, (_event: IpcRendererEvent, message: StateMessage) => {
    if (message?.type !== 'state' && message?.type !== 'patch') return;
    const merged = mergeState(current, message);
    if (merged === null) return;
    current = merged;
    for (const listener of [...pageListeners]) listener(message);
  });
  return (listener) => {
    pageListeners.add(listener);
    if (current !== null) listener({ type: 'state', state: current });
    return () => {
      pageListeners.delete(listener);
    };
  };
}

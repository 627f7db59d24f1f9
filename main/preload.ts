// Preload script: runs sandboxed, before the renderer, with contextIsolation. It exposes the
// console's own API (./ipc/contract) through contextBridge and nothing else: the page never sees
// ipcRenderer, Node or Electron.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { API_KEY, COMMAND_NAMES, type ConsoleState, type PreloadApi, type StateMessage } from './ipc/contract';
import { commandChannel, STATE_CHANNEL } from './ipc/channels';

const commands = Object.fromEntries(COMMAND_NAMES.map((name) => [name, (...args: unknown[]) => ipcRenderer.invoke(commandChannel(name), ...args)]));

// Main sends the whole state once the page has loaded, then patches (main/ipc/stateFeed). They are
// received from the first moment and kept merged here, so a page that subscribes later still
// starts from the whole state, then gets the messages as they come.
let current: ConsoleState | null = null;
const pageListeners = new Set<(message: StateMessage) => void>();
ipcRenderer.on(STATE_CHANNEL, (_event: IpcRendererEvent, message: StateMessage) => {
  if (message?.type === 'state') current = message.state;
  else if (message?.type === 'patch' && current !== null) current = { ...current, ...message.patch };
  else return;
  for (const listener of [...pageListeners]) listener(message);
});

const api = {
  ...commands,
  onStateMessage(listener: (message: StateMessage) => void) {
    pageListeners.add(listener);
    if (current !== null) listener({ type: 'state', state: current });
    return () => {
      pageListeners.delete(listener);
    };
  },
} as PreloadApi;

contextBridge.exposeInMainWorld(API_KEY, api);

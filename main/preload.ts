// Preload script: runs sandboxed, before the renderer, with contextIsolation. It exposes the
// console's own API (./ipc/contract) through contextBridge and nothing else: the page never sees
// ipcRenderer, Node or Electron.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { API_KEY, COMMAND_NAMES, type ConsoleApi, type ConsoleState } from './ipc/contract';
import { commandChannel, STATE_CHANNEL } from './ipc/channels';

const commands = Object.fromEntries(COMMAND_NAMES.map((name) => [name, (...args: unknown[]) => ipcRenderer.invoke(commandChannel(name), ...args)]));

const api = {
  ...commands,
  onState(listener: (state: ConsoleState) => void) {
    const forward = (_event: IpcRendererEvent, state: ConsoleState) => listener(state);
    ipcRenderer.on(STATE_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(STATE_CHANNEL, forward);
    };
  },
} as ConsoleApi;

contextBridge.exposeInMainWorld(API_KEY, api);

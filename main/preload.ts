// The dealer window's preload: runs sandboxed, before the renderer, with contextIsolation. It
// exposes the console's own API (../protocol/contract) through contextBridge and nothing else: the page
// never sees ipcRenderer, Node or Electron.
import { contextBridge, ipcRenderer } from 'electron';
import { API_KEY, COMMAND_NAMES, type PreloadApi } from '../protocol/contract';
import { commandChannel } from './ipc/channels';
import { stateMessages } from './preload/stateMessages';

const commands = Object.fromEntries(COMMAND_NAMES.map((name) => [name, (...args: unknown[]) => ipcRenderer.invoke(commandChannel(name), ...args)]));

const api = { ...commands, onStateMessage: stateMessages(ipcRenderer) } as PreloadApi;

contextBridge.exposeInMainWorld(API_KEY, api);

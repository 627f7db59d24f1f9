// The dealer window's preload: runs sandboxed, before the renderer, with contextIsolation. It
// exposes the console's own API (one function per command of ../protocol/commands' table, and the
// state messages) through contextBridge and nothing else: the page never sees ipcRenderer, Node or
// Electron.
import { contextBridge, ipcRenderer } from 'electron';
import { commandCalls, type PreloadApi } from '../../protocol/commands';
import { API_KEY } from '../../protocol/constants';
import { commandChannel } from '../ipc/channels';
import { stateMessages } from './preload/stateMessages';

const api: PreloadApi = { ...commandCalls((name, args) => ipcRenderer.invoke(commandChannel(name), ...args)), onStateMessage: stateMessages(ipcRenderer) };

contextBridge.exposeInMainWorld(API_KEY, api);

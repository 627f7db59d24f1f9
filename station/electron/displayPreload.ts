// The player display window's preload: the room's screen shows the state and can do nothing
// else. It exposes only `onStateMessage`: no command, so nothing the display's page runs (or a
// hand at its keyboard) can reach the service; main refuses its frame's IPC besides (ipc.ts).
import { contextBridge, ipcRenderer } from 'electron';
import { API_KEY, type DisplayPreloadApi } from '../../protocol/contract';
import { stateMessages } from './preload/stateMessages';

const api: DisplayPreloadApi = { onStateMessage: stateMessages(ipcRenderer) };

contextBridge.exposeInMainWorld(API_KEY, api);

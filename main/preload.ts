// Preload script: runs sandboxed, before the renderer, with contextIsolation. It exposes the
// narrow typed API of ./ipc/contract and nothing else (no ipcRenderer, no Node).
import { contextBridge } from 'electron';
import { API_KEY, APP_NAME, type ConsoleApi } from './ipc/contract';

const api: ConsoleApi = {
  appName: () => APP_NAME,
};

contextBridge.exposeInMainWorld(API_KEY, api);

/// <reference types="vite/client" />
import type { ConsoleApi } from '../main/ipc/contract';

declare global {
  interface Window {
    /** Exposed by main/preload.ts; absent when the renderer runs outside Electron. */
    chipRace?: ConsoleApi;
  }
}

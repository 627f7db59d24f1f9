/// <reference types="vite/client" />
import type { PreloadApi } from '../main/ipc/contract';

declare global {
  interface Window {
    /** Exposed by main/preload.ts; absent when the renderer runs outside Electron. */
    chipRace?: PreloadApi;
  }
}

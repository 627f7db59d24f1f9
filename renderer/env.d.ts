/// <reference types="vite/client" />
import type { DisplayPreloadApi, PreloadApi } from '../protocol/contract';

declare global {
  interface Window {
    /**
     * Exposed by main/preload.ts (the dealer's window) or main/displayPreload.ts (the player
     * display's: no commands); absent when the renderer runs outside Electron.
     */
    chipRace?: PreloadApi | DisplayPreloadApi;
  }
}

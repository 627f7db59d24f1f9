/// <reference types="vite/client" />
import type { DisplayPreloadApi } from '../protocol/contract';
import type { PreloadApi } from '../protocol/commands';

declare global {
  interface Window {
    /**
     * Exposed by station/electron/preload.ts (the dealer's window) or station/electron/displayPreload.ts (the player
     * display's: no commands); absent when the renderer runs outside Electron.
     */
    chipRace?: PreloadApi | DisplayPreloadApi;
  }
}

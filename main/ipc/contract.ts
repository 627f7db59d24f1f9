/**
 * The typed surface the preload script exposes to the renderer (`window.chipRace`).
 *
 * This file holds only types and constants: the renderer may `import type` from it, the preload
 * implements it, and later issues grow it into the full IPC contract.
 */
export const API_KEY = 'chipRace';

export const APP_NAME = 'Chip Race Console';

export interface ConsoleApi {
  /** The application's product name. */
  appName(): string;
}

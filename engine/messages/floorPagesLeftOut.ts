/**
 * The floor's own pages' words, left out: what the renderer's build reads in place of each
 * language's `floorPages.ts` (electron.vite.config.ts). The station's screens never say them.
 */
export const enFloorPages = {};
export const fiFloorPages = {};
export const ruFloorPages = {};

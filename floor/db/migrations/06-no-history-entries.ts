import type { Migration } from './shared';

export const migration: Migration = {
  version: 6,
  name: 'the confirmed races\' history entries no longer kept by the fold (the export replays them: floor/fold.ts tableHistory)',
  sql: `
ALTER TABLE public.floor_races DROP COLUMN entry;
`,
};

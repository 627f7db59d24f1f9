import type { Migration } from './shared';

export const migration: Migration = {
  version: 15,
  name: 'the flag keeps the race it is about: a decision about another race does not settle it (issue 43)',
  // Filled by the fold (FOLD_VERSION 6 folds every table again); readFloorStatus counts only the
  // decisions naming this race, or none, as settling the flag.
  sql: `
ALTER TABLE public.floor_table_state ADD COLUMN flag_race pg_catalog.text;
`,
};

import type { Migration } from './shared';

export const migration: Migration = {
  version: 17,
  name: 'the breaks each table left with its colour-up finished, so a station leaves a break with the clock and the held break still counts it done (floor/fold.ts LeftFinished)',
  // Filled by the fold (FOLD_VERSION 7 folds every table again): a JSON list of
  // {afterLevel, base, flag}; readFloorStatus settles each flag with the decisions. Floor only.
  sql: `
ALTER TABLE public.floor_table_state ADD COLUMN left_finished jsonb;
`,
};

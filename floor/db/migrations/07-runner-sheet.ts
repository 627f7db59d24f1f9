import type { Migration } from './shared';

export const migration: Migration = {
  version: 7,
  name: "the chip runner's sheet: each race's chips handed out and taken in as its station's screens say them, and the break each table marked last (floor/fold.ts)",
  // sheet: {"bring": {"100": 3}, "collect": {"25": 9}} (engine/race/summary.ts raceChipSheet), null
  // while the race's result is not known and for an abandoned race. break_marked: the break the
  // table's station marked last (null: none, or unmarked). Filled by the fold's next version.
  sql: `
ALTER TABLE public.floor_races ADD COLUMN sheet jsonb;
ALTER TABLE public.floor_table_state ADD COLUMN break_marked integer;
`,
};

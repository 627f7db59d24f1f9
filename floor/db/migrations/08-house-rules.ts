import type { Migration } from './shared';

export const migration: Migration = {
  version: 8,
  name: "the tournament held by the floor: the house's rules (rule set, decks per shoe) beside the structure every station takes (floor/clock.ts)",
  // {"rules": "tda", "decks": 2}; null or a rule left out: each table's own. Stations read it with
  // the clock (their SELECT on floor_clock covers the new column).
  sql: `
ALTER TABLE public.floor_clock ADD COLUMN house jsonb;
`,
};

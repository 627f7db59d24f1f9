import type { Migration } from './shared';

export const migration: Migration = {
  version: 11,
  name: "the held break: the floor's clock holds at the end of a break with a colour-up until every table is done (floor/hold.ts), each hold and its release kept",
  // held: {"afterLevel": 2, "tables": 3, "since": <epoch ms>} while the clock is held (stations
  // read it with the clock, and say so). floor_break_holds: each break held once per clock start,
  // released by the last table's confirmation ('tables-done'), the option turned off ('option-off')
  // or the director's override ('director'), with the tables still left then. Floor only: no station reads it.
  sql: `
ALTER TABLE public.floor_clock ADD COLUMN hold_breaks boolean NOT NULL DEFAULT false, ADD COLUMN held jsonb;
CREATE TABLE public.floor_break_holds (
  clock_start bigint NOT NULL,
  after_level integer NOT NULL,
  held_at timestamptz NOT NULL DEFAULT now(),
  tables_left integer NOT NULL,
  released_at timestamptz,
  released_by text CHECK (released_by IN ('tables-done', 'option-off', 'director')),
  tables_left_at_release integer,
  PRIMARY KEY (clock_start, after_level)
);
`,
};

import type { Migration } from './shared';

export const migration: Migration = {
  version: 2,
  name: 'the floor console: races and tables folded from the records (floor/fold.ts)',
  // Written by the floor only (its fold), read by the floor's page: no station reads or writes them.
  sql: `
CREATE TABLE floor_races (
  table_name text NOT NULL REFERENCES floor_tables,
  race_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('racing', 'waiting-to-confirm', 'confirmed', 'abandoned')),
  level integer,
  removed bigint NOT NULL,
  next bigint NOT NULL,
  value_delta bigint,
  winners jsonb NOT NULL DEFAULT '[]',
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  corrections integer NOT NULL DEFAULT 0,
  refusals integer NOT NULL DEFAULT 0,
  collect bigint NOT NULL DEFAULT 0,
  bring bigint NOT NULL DEFAULT 0,
  first_seq bigint NOT NULL,
  last_seq bigint NOT NULL,
  entry jsonb,
  PRIMARY KEY (table_name, race_id)
);
CREATE INDEX floor_races_by_start ON floor_races (table_name, first_seq);

CREATE TABLE floor_table_state (
  table_name text PRIMARY KEY REFERENCES floor_tables,
  folded_seq bigint NOT NULL,
  resume_seq bigint NOT NULL,
  failures integer NOT NULL,
  colour_up text NOT NULL,
  open_race text,
  folded_at timestamptz NOT NULL
);
CREATE INDEX station_records_by_kind ON station_records (table_name, kind, seq);
REVOKE ALL ON floor_races, floor_table_state FROM PUBLIC;
`,
};

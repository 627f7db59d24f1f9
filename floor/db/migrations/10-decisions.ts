import { type Migration, STATION_GROUP } from './shared';

export const migration: Migration = {
  version: 10,
  name: "disputes settled on the record: the director's decisions on a table (floor/decisions.ts), each station reading its own table's; the fold keeps what flags a table apart from its colour-up",
  // decision: what was decided (DECISIONS); note and decided_by required; race_id the race it is
  // about, when one; settles_seq the table's last record when it was decided: an abandoned race or
  // a call of the floor at or before it is settled (floor/fold.ts settledStatus). A station reads
  // its own table's decisions only (row-level security, as its records), and writes none.
  sql: `
CREATE TABLE public.floor_decisions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  table_name text NOT NULL REFERENCES public.floor_tables (table_name),
  decided_at timestamptz NOT NULL DEFAULT now(),
  decided_by text NOT NULL CHECK (btrim(decided_by) <> '' AND length(decided_by) <= 80),
  decision text NOT NULL CHECK (decision IN ('re-race', 'race-stands', 'chips-adjusted', 'race-closed')),
  note text NOT NULL CHECK (btrim(note) <> '' AND length(note) <= 500),
  race_id text CHECK (race_id IS NULL OR length(race_id) <= 20),
  settles_seq bigint NOT NULL DEFAULT 0
);
CREATE INDEX floor_decisions_by_table ON public.floor_decisions (table_name, id);
ALTER TABLE public.floor_decisions ENABLE ROW LEVEL SECURITY;
CREATE POLICY station_reads_own_decisions ON public.floor_decisions FOR SELECT TO ${STATION_GROUP} USING (table_name = public.station_table());
REVOKE ALL ON public.floor_decisions FROM PUBLIC;
GRANT SELECT ON public.floor_decisions TO ${STATION_GROUP};
-- The status without the decisions, and what flags the table (its kind, its record): filled by the fold's next version.
ALTER TABLE public.floor_table_state ADD COLUMN base_colour_up text, ADD COLUMN flag_kind text, ADD COLUMN flag_seq bigint;
`,
};

import { type Migration, STATION_GROUP } from './shared';

export const migration: Migration = {
  version: 9,
  name: "the seating: who sits where at each table (floor/seating.ts), each station reading only its own table's seats",
  // floor_seating_tables: one row per table the seating names, its version bumped at every change
  // (a station reads that one row each poll, and its seats only when the version moved) and when
  // it was broken. floor_seating_out: the players out, kept. Written by the floor only.
  sql: `
-- Versions from one sequence: a table dropped from the seating and seated again never shows a version a station saw before.
CREATE SEQUENCE public.floor_seating_versions;
CREATE TABLE public.floor_seating_tables (
  table_name text PRIMARY KEY REFERENCES public.floor_tables,
  version bigint NOT NULL,
  broken_at timestamptz,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE public.floor_seating (
  table_name text NOT NULL REFERENCES public.floor_seating_tables ON DELETE CASCADE,
  seat integer NOT NULL CHECK (seat BETWEEN 1 AND 10),
  player text NOT NULL CHECK (length(player) BETWEEN 1 AND 40),
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_name, seat)
);
CREATE TABLE public.floor_seating_out (
  id bigserial PRIMARY KEY,
  table_name text NOT NULL,
  seat integer NOT NULL,
  player text NOT NULL,
  out_by text NOT NULL,
  out_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON public.floor_seating_tables, public.floor_seating, public.floor_seating_out, public.floor_seating_versions FROM PUBLIC;
ALTER TABLE public.floor_seating_tables ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.floor_seating ENABLE ROW LEVEL SECURITY;
CREATE POLICY station_reads_own_seating ON public.floor_seating_tables FOR SELECT TO ${STATION_GROUP} USING (table_name OPERATOR(pg_catalog.=) public.station_table());
CREATE POLICY station_reads_own_seats ON public.floor_seating FOR SELECT TO ${STATION_GROUP} USING (table_name OPERATOR(pg_catalog.=) public.station_table());
GRANT SELECT (table_name, version, broken_at) ON public.floor_seating_tables TO ${STATION_GROUP};
GRANT SELECT (table_name, seat, player) ON public.floor_seating TO ${STATION_GROUP};
`,
};

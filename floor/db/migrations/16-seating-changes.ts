import type { Migration } from './shared';

export const migration: Migration = {
  version: 16,
  name: "the seating's changes kept with who and when, each out, move or break undoable (floor/seating.ts, issue 43)",
  // One row per change of the seating: a player out, moved, a table broken (with the seats it
  // emptied), a seat list loaded, an undo (naming the change it undid; that change names it back).
  // Written by the floor only; no station reads it.
  sql: `
CREATE TABLE public.floor_seating_changes (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  by text NOT NULL CHECK (length(by) BETWEEN 1 AND 64),
  kind text NOT NULL CHECK (kind IN ('out', 'move', 'break', 'load', 'undo')),
  table_name text,
  seat integer,
  to_table text,
  to_seat integer,
  player text,
  seats jsonb,
  undoes bigint REFERENCES public.floor_seating_changes,
  undone_by bigint REFERENCES public.floor_seating_changes
);
CREATE INDEX floor_seating_changes_table ON public.floor_seating_changes (table_name);
CREATE INDEX floor_seating_changes_to_table ON public.floor_seating_changes (to_table);
REVOKE ALL ON public.floor_seating_changes FROM PUBLIC;
`,
};

import type { Migration } from './shared';

export const migration: Migration = {
  version: 12,
  name: "the chip runner's ticks: each table's chips delivered and collected at a break, who ticked them and when, and the chips the sheet said then (floor/runner.ts)",
  // Floor only: no station reads or writes it.
  sql: `
CREATE TABLE public.floor_runner_ticks (
  table_name text NOT NULL,
  after_level integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('delivered', 'collected')),
  ticked_by text NOT NULL,
  ticked_at timestamptz NOT NULL DEFAULT now(),
  chips jsonb NOT NULL,
  PRIMARY KEY (table_name, after_level, kind)
);
`,
};

import type { Migration } from './shared';

export const migration: Migration = {
  version: 20,
  name: "the chip runner's ticks kept, every one: a second tick of a table's chips at a break is a row of its own (it replaced the first), the latest the one the sheet is checked against (floor/runner.ts)",
  // Issue 44: the runner who went again overwrote who ticked first, when, and the chips the sheet
  // said then. The key was (table, break, kind); each tick now has its own id, in the order ticked.
  // Floor only: no station reads or writes it.
  sql: `
ALTER TABLE public.floor_runner_ticks DROP CONSTRAINT floor_runner_ticks_pkey;
ALTER TABLE public.floor_runner_ticks ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY;
CREATE INDEX floor_runner_ticks_by_break ON public.floor_runner_ticks (after_level, table_name, kind, id);
`,
};

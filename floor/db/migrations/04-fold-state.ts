import type { Migration } from './shared';

export const migration: Migration = {
  version: 4,
  name: 'the fold off the request path: each table folded on from a kept replay state, with a version, its bad records kept (floor/fold.ts)',
  // The sums a station's sealed records add up to are the floor's bigints; what the fold kept
  // before (version 0) is folded again. A confirmed race's history entry (some 7 KB) is only
  // ever read back whole (tableRaces, the export), never queried into: kept as json (its text,
  // checked) rather than jsonb, which the fold's first pass spent most of its database time
  // building, and uncompressed.
  sql: `
ALTER TABLE floor_races ALTER COLUMN corrections TYPE bigint, ALTER COLUMN refusals TYPE bigint;
ALTER TABLE floor_races ALTER COLUMN entry TYPE json, ALTER COLUMN entry SET STORAGE EXTERNAL;
ALTER TABLE floor_table_state
  ADD COLUMN fold_version integer NOT NULL DEFAULT 0,
  ADD COLUMN replay jsonb,
  ADD COLUMN problems jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN problem_count integer NOT NULL DEFAULT 0,
  ADD COLUMN fold_error text,
  ADD COLUMN error_seq bigint;
`,
};

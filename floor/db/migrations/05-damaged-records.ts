import type { Migration } from './shared';

export const migration: Migration = {
  version: 5,
  name: 'the damaged records of each table, as the fold found them (the floor page shows them amber)',
  // Kept by the fold beside the table's state, so the status reads them with the table's row
  // instead of searching a table's records (a query planner's choice measured at 450 ms).
  sql: `
ALTER TABLE floor_table_state ADD COLUMN damaged jsonb NOT NULL DEFAULT '[]';
`,
};

import type { Migration } from './shared';

export const migration: Migration = {
  version: 21,
  name: "a race whose confirmation or lines were lost at the station (a damaged journal line) is the floor's 'damaged' race, not a confirmed one; a confirmed race with a card lost carries the mark (floor/fold.ts FoldedRace.damaged)",
  // Issue 44: replay/session.ts ends a race whose end was lost as damaged (HistoryEntry.damaged).
  // `damaged`: null, or { seq, confirmed } as the history entry has it. Floor only: the fold writes it.
  sql: `
ALTER TABLE public.floor_races DROP CONSTRAINT floor_races_status_check;
ALTER TABLE public.floor_races ADD CONSTRAINT floor_races_status_check CHECK (status IN ('racing', 'waiting-to-confirm', 'confirmed', 'abandoned', 'damaged'));
ALTER TABLE public.floor_races ADD COLUMN damaged jsonb;
CREATE INDEX floor_races_damaged ON public.floor_races (table_name, first_seq) WHERE damaged IS NOT NULL;
`,
};

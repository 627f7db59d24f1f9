import type { Migration } from './shared';

export const migration: Migration = {
  version: 13,
  name: "chips exchanged outside a race (TDA 24C late-found, 25B discretionary): each exchange a station recorded, as the fold reads it (floor/fold.ts), on the runner's sheet of the break it was handed out at and in the chip audit",
  // One row per chip-exchange record (its seq): the exchange as recorded, what it gives as
  // exchangeAtEqualValue reads it (given, lost, value_delta: never stored by the station), and
  // after_level, the break whose sheet the table showed when it was recorded. Written and
  // replaced by the fold with the table's races. Floor only: no station reads or writes it.
  sql: `
CREATE TABLE public.floor_exchanges (
  table_name text NOT NULL,
  seq bigint NOT NULL,
  at timestamptz NOT NULL,
  reason text NOT NULL CHECK (reason IN ('late-found', 'discretionary')),
  race_id text,
  seat integer,
  removed bigint NOT NULL,
  count bigint NOT NULL,
  next bigint NOT NULL,
  note text NOT NULL,
  given bigint NOT NULL,
  lost bigint NOT NULL,
  value_delta bigint NOT NULL,
  after_level integer,
  PRIMARY KEY (table_name, seq)
);
`,
};

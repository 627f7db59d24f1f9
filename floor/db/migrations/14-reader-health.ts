import { type Migration, STATION_GROUP } from './shared';

export const migration: Migration = {
  version: 14,
  name: "reader health: each station's verdict on its card reader's last minutes and the counts it was given on (protocol/readerHealth.ts), beside its contact",
  // Written only through station_reader_health (definer), for the caller's own table, as
  // station_seen is: a station has no column grant on station_contact. Every value bounded by the
  // table's checks (a hostile station may send anything): a verdict of three, counts 0 to int4's
  // top, the bad ones among the frames. The floor's page reads it with the table's contact.
  sql: `
ALTER TABLE public.station_contact
  ADD COLUMN reader_verdict pg_catalog.text CHECK (reader_verdict IN ('ok', 'warn', 'quiet')),
  ADD COLUMN reader_frames pg_catalog.int4 CHECK (reader_frames >= 0),
  ADD COLUMN reader_unknown pg_catalog.int4 CHECK (reader_unknown >= 0),
  ADD COLUMN reader_checksum pg_catalog.int4 CHECK (reader_checksum >= 0),
  ADD COLUMN reader_repeats pg_catalog.int4 CHECK (reader_repeats >= 0),
  ADD COLUMN reader_held pg_catalog.int4 CHECK (reader_held >= 0),
  ADD COLUMN reader_at pg_catalog.timestamptz,
  ADD CONSTRAINT station_contact_reader_bad_among_frames CHECK (reader_unknown::pg_catalog.int8 + reader_checksum <= reader_frames);

CREATE FUNCTION public.station_reader_health(for_table pg_catalog.text, health_verdict pg_catalog.text, health_frames pg_catalog.int4, health_unknown pg_catalog.int4, health_checksum pg_catalog.int4, health_repeats pg_catalog.int4, health_held pg_catalog.int4) RETURNS void LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  INSERT INTO public.station_contact (table_name, last_seen, reader_verdict, reader_frames, reader_unknown, reader_checksum, reader_repeats, reader_held, reader_at)
  SELECT t.table_name, pg_catalog.now(), health_verdict, health_frames, health_unknown, health_checksum, health_repeats, health_held, pg_catalog.now() FROM public.floor_tables t
  WHERE t.table_name OPERATOR(pg_catalog.=) for_table AND (t.role_name OPERATOR(pg_catalog.=) SESSION_USER OR public.station_is_floor())
  ON CONFLICT (table_name) DO UPDATE SET last_seen = excluded.last_seen, reader_verdict = excluded.reader_verdict, reader_frames = excluded.reader_frames,
    reader_unknown = excluded.reader_unknown, reader_checksum = excluded.reader_checksum, reader_repeats = excluded.reader_repeats, reader_held = excluded.reader_held, reader_at = excluded.reader_at
$fn$;
REVOKE ALL ON FUNCTION public.station_reader_health(pg_catalog.text, pg_catalog.text, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.station_reader_health(pg_catalog.text, pg_catalog.text, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4) TO ${STATION_GROUP};
`,
};

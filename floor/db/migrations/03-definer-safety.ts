import { RELEASED_CHECKSUMS } from './pinned';
import { DAMAGED_KEPT_BYTES, FAILURE_KEPT_BYTES, FAILURES_KEPT_PER_TABLE, type Migration, SEAL_LENGTH, STATION_CONNECTION_LIMIT, STATION_GROUP } from './shared';

/**
 * The trigger's body as migration 3 re-creates it: migration 1's checks, with every name qualified
 * (it runs as the owner inside a station's session, search_path pinned with pg_temp last).
 */
export const VERIFY_STATION_RECORD = `
CREATE OR REPLACE FUNCTION public.verify_station_record() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  parsed pg_catalog.jsonb;
  header pg_catalog.jsonb;
  header_line pg_catalog.text;
  previous record;
  expected_prev pg_catalog.text;
  chain_kind pg_catalog.text;
  stored_hash pg_catalog.text;
  problem pg_catalog.text;
  checked pg_catalog.bool := true;
  failures_seen pg_catalog.int8;
  stored record;
  raw pg_catalog.bytea;
  after_damage pg_catalog.bool := false;
BEGIN
  IF NEW.table_name IS DISTINCT FROM public.station_table() AND NOT public.station_is_floor() THEN
    RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = pg_catalog.format('a station may send only its own table''s records, not those of %s', NEW.table_name);
  END IF;
  -- A damaged line (the shared contract of push.ts): its raw bytes, sent in base64.
  NEW.damaged := COALESCE(NEW.damaged, false);
  IF NEW.damaged THEN
    BEGIN
      raw := pg_catalog.decode(NEW.line, 'base64');
    EXCEPTION WHEN others THEN
      problem := 'not-json';
    END;
  END IF;
  SELECT r.line, r.damaged, r.hash INTO stored FROM public.station_records r WHERE r.table_name = NEW.table_name AND r.seq = NEW.seq;
  IF FOUND AND problem IS NULL THEN
    IF NOT NEW.damaged AND NOT stored.damaged AND stored.line = NEW.line THEN RETURN NULL; END IF;
    IF NEW.damaged AND stored.damaged AND stored.hash = pg_catalog.encode(pg_catalog.sha256(raw), 'hex') THEN RETURN NULL; END IF;
    problem := 'changed-after-arrival';
  END IF;

  IF problem IS NULL THEN
    SELECT r.seq, r.hash, r.chain, r.damaged INTO previous FROM public.station_records r WHERE r.table_name = NEW.table_name AND r.seq < NEW.seq ORDER BY r.seq DESC LIMIT 1;
    expected_prev := CASE WHEN previous.seq IS NULL THEN NULL ELSE previous.hash END;
    chain_kind := NULLIF(previous.chain, '');
    -- After a damaged line the chain is verified again from this record: its link back cannot be.
    after_damage := COALESCE(previous.damaged, false);
    -- A table's first record on the floor is its seq 1: one planted further on would make the
    -- station believe the floor holds everything before it.
    IF (previous.seq IS NOT NULL AND previous.seq <> NEW.seq - 1) OR (previous.seq IS NULL AND NEW.seq <> 1) THEN problem := 'gap'; END IF;
  END IF;

  IF problem IS NULL AND NEW.headers <> '' THEN
    FOREACH header_line IN ARRAY pg_catalog.string_to_array(NEW.headers, E'\\n') LOOP
      BEGIN
        header := header_line::pg_catalog.jsonb;
      EXCEPTION WHEN others THEN
        problem := 'header-not-json'; EXIT;
      END;
      IF header->>'journal' IS DISTINCT FROM 'chip-race-console' OR header->>'chain' NOT IN ('sha256', 'hmac-sha256') THEN problem := 'header-unknown'; EXIT; END IF;
      IF pg_catalog.right(header_line, ${SEAL_LENGTH}) !~ '^,"hash":"[0-9a-f]{64}"}$' THEN problem := 'no-seal'; EXIT; END IF;
      IF (header->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage THEN problem := 'broken-link'; EXIT; END IF;
      after_damage := false;
      stored_hash := pg_catalog.substr(pg_catalog.right(header_line, ${SEAL_LENGTH}), 10, 64);
      IF header->>'chain' = 'sha256' AND pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.left(header_line, pg_catalog.length(header_line) - ${SEAL_LENGTH}), 'UTF8')), 'hex') <> stored_hash THEN problem := 'bad-seal'; EXIT; END IF;
      expected_prev := stored_hash;
      chain_kind := header->>'chain';
    END LOOP;
  END IF;

  IF problem IS NULL AND NEW.damaged THEN
    NEW.id := pg_catalog.nextval('public.station_records_arrival'::pg_catalog.regclass);
    NEW.evidence := pg_catalog.substring(raw, 1, ${DAMAGED_KEPT_BYTES});
    NEW.evidence_bytes := pg_catalog.length(raw);
    NEW.hash := pg_catalog.encode(pg_catalog.sha256(raw), 'hex');
    NEW.line := '';
    NEW.prev := NULL;
    NEW.chain := COALESCE(chain_kind, '');
    NEW.seal_checked := false;
    NEW.at := NULL;
    NEW.kind := NULL;
    NEW.record := NULL;
    NEW.received_at := pg_catalog.now();
    RETURN NEW;
  END IF;

  IF problem IS NULL THEN
    BEGIN
      parsed := NEW.line::pg_catalog.jsonb;
    EXCEPTION WHEN others THEN
      problem := 'not-json';
    END;
  END IF;
  IF problem IS NULL AND chain_kind IS NULL THEN problem := 'no-header'; END IF;
  IF problem IS NULL AND (pg_catalog.jsonb_typeof(parsed->'seq') IS DISTINCT FROM 'number' OR (parsed->>'seq') <> NEW.seq::pg_catalog.text) THEN problem := 'seq-mismatch'; END IF;
  IF problem IS NULL AND pg_catalog.right(NEW.line, ${SEAL_LENGTH}) !~ '^,"hash":"[0-9a-f]{64}"}$' THEN problem := 'no-seal'; END IF;
  IF problem IS NULL AND (parsed->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage THEN problem := 'broken-link'; END IF;
  IF problem IS NULL THEN
    stored_hash := pg_catalog.substr(pg_catalog.right(NEW.line, ${SEAL_LENGTH}), 10, 64);
    IF chain_kind = 'sha256' THEN
      IF pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(pg_catalog.left(NEW.line, pg_catalog.length(NEW.line) - ${SEAL_LENGTH}), 'UTF8')), 'hex') <> stored_hash THEN problem := 'bad-seal'; END IF;
    ELSE
      checked := false;
    END IF;
  END IF;
  IF problem IS NULL THEN
    BEGIN
      NEW.at := (parsed->>'at')::pg_catalog.timestamptz;
    EXCEPTION WHEN others THEN
      problem := 'bad-time';
    END;
  END IF;

  IF problem IS NOT NULL THEN
    -- Evidence, bounded: the reason, the line's SHA-256 and length, and its first bytes; once a
    -- table holds FAILURES_KEPT_PER_TABLE of them, later ones are only counted, except the one
    -- right after the table's last record: the refusal its station is stopped at, which it must read.
    IF NOT EXISTS (SELECT FROM public.chain_failures f WHERE f.table_name = NEW.table_name AND f.seq = NEW.seq) THEN
      UPDATE public.floor_tables t SET failures_total = t.failures_total + 1 WHERE t.table_name = NEW.table_name RETURNING t.failures_total INTO failures_seen;
      IF failures_seen IS NULL OR failures_seen <= ${FAILURES_KEPT_PER_TABLE}
        OR NEW.seq = COALESCE((SELECT pg_catalog.max(r.seq) FROM public.station_records r WHERE r.table_name = NEW.table_name), 0) + 1 THEN
        INSERT INTO public.chain_failures (table_name, seq, reason, line, line_sha256, line_bytes)
        VALUES (NEW.table_name, NEW.seq, problem, public.first_bytes(NEW.line, ${FAILURE_KEPT_BYTES}), pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(NEW.line, 'UTF8')), 'hex'), pg_catalog.octet_length(NEW.line))
        ON CONFLICT DO NOTHING;
      END IF;
    END IF;
    RETURN NULL;
  END IF;
  NEW.id := pg_catalog.nextval('public.station_records_arrival'::pg_catalog.regclass);
  NEW.hash := stored_hash;
  NEW.prev := parsed->>'prev';
  NEW.chain := chain_kind;
  NEW.seal_checked := checked;
  NEW.record := parsed->'record';
  NEW.kind := parsed->'record'->>'kind';
  NEW.received_at := pg_catalog.now();
  RETURN NEW;
END
$fn$;`;

export const migration: Migration = {
  version: 3,
  name: 'definer functions safe from a station session: search_path pinned, every name qualified, no temporary objects',
  // A SECURITY DEFINER function runs as the schema's owner with the caller's session: PostgreSQL
  // searches the caller's pg_temp first for tables and types unless it is listed, so a station that
  // made a temp table floor_tables or a temp domain jsonb ran its own code as the owner. Every
  // definer function now lists pg_temp last and names every object with its schema, and stations
  // may not make temporary objects at all.
  sql: `
DO $$ BEGIN
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END $$;

CREATE OR REPLACE FUNCTION public.station_table() RETURNS pg_catalog.text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  SELECT t.table_name FROM public.floor_tables t WHERE t.role_name OPERATOR(pg_catalog.=) SESSION_USER
$fn$;

CREATE OR REPLACE FUNCTION public.station_is_floor() RETURNS pg_catalog.bool LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  SELECT pg_catalog.pg_has_role(SESSION_USER, (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) 'public.floor_tables'::pg_catalog.regclass), 'MEMBER')
$fn$;
REVOKE ALL ON FUNCTION public.station_is_floor() FROM PUBLIC;

-- The longest start of a text that fits in a number of UTF-8 bytes (never half a character).
CREATE FUNCTION public.first_bytes(value pg_catalog.text, bytes pg_catalog.int4) RETURNS pg_catalog.text LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  head pg_catalog.text := pg_catalog.left(value, bytes);
BEGIN
  WHILE pg_catalog.octet_length(head) > bytes LOOP
    head := pg_catalog.left(head, pg_catalog.length(head) - GREATEST(1, (pg_catalog.octet_length(head) - bytes) / 4));
  END LOOP;
  RETURN head;
END
$fn$;
REVOKE ALL ON FUNCTION public.first_bytes(pg_catalog.text, pg_catalog.int4) FROM PUBLIC;

ALTER TABLE public.chain_failures ADD COLUMN line_sha256 pg_catalog.text, ADD COLUMN line_bytes pg_catalog.int4;
UPDATE public.chain_failures SET line_sha256 = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(line, 'UTF8')), 'hex'), line_bytes = pg_catalog.octet_length(line), line = public.first_bytes(line, ${FAILURE_KEPT_BYTES});
ALTER TABLE public.chain_failures ADD CONSTRAINT chain_failures_line_bounded CHECK (pg_catalog.octet_length(line) <= ${FAILURE_KEPT_BYTES});
ALTER TABLE public.floor_tables ADD COLUMN failures_total pg_catalog.int8 NOT NULL DEFAULT 0;
-- A damaged line kept as evidence: its first bytes, and (in hash) the SHA-256 of all of them.
ALTER TABLE public.station_records ADD COLUMN damaged pg_catalog.bool NOT NULL DEFAULT false, ADD COLUMN evidence pg_catalog.bytea, ADD COLUMN evidence_bytes pg_catalog.int8;
ALTER TABLE public.station_records ADD CONSTRAINT station_records_evidence_bounded CHECK (evidence IS NULL OR pg_catalog.length(evidence) <= ${DAMAGED_KEPT_BYTES});
GRANT INSERT (damaged) ON public.station_records TO ${STATION_GROUP};
UPDATE public.floor_tables t SET failures_total = (SELECT pg_catalog.count(*) FROM public.chain_failures f WHERE f.table_name = t.table_name);

-- Stations' logins made before: a bounded number of connections each (the floor's own role
-- may not alter roles; a cardroom's set-up gives it chip_race_logins.station_login for that).
DO $$
DECLARE
  station pg_catalog.text;
BEGIN
  FOR station IN SELECT r.rolname FROM pg_catalog.pg_roles r JOIN public.floor_tables t ON t.role_name = r.rolname WHERE r.rolconnlimit < 0 LOOP
    BEGIN
      EXECUTE pg_catalog.format('ALTER ROLE %I CONNECTION LIMIT ${STATION_CONNECTION_LIMIT}', station);
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'station login % keeps no connection limit: make it again with add-table --rotate', station;
    END;
  END LOOP;
END $$;

${VERIFY_STATION_RECORD}

-- Released migrations pinned: each row's checksum (migrate.ts compares it with this code's).
ALTER TABLE public.floor_schema_migrations ADD COLUMN checksum pg_catalog.text;
UPDATE public.floor_schema_migrations SET checksum = CASE version WHEN 1 THEN '${RELEASED_CHECKSUMS[1]}' WHEN 2 THEN '${RELEASED_CHECKSUMS[2]}' END WHERE version IN (1, 2);

CREATE OR REPLACE FUNCTION public.station_seen(for_table pg_catalog.text, behind pg_catalog.int4) RETURNS void LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
  INSERT INTO public.station_contact (table_name, last_seen, behind)
  SELECT t.table_name, pg_catalog.now(), GREATEST(behind, 0) FROM public.floor_tables t
  WHERE t.table_name OPERATOR(pg_catalog.=) for_table AND (t.role_name OPERATOR(pg_catalog.=) SESSION_USER OR public.station_is_floor())
  ON CONFLICT (table_name) DO UPDATE SET last_seen = excluded.last_seen, behind = excluded.behind
$fn$;
`,
};

import { type Migration, SEAL_LENGTH, STATION_GROUP } from './shared';

export const migration: Migration = {
  version: 1,
  name: 'tables, records, verification on arrival, least-privilege stations',
  sql: `
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${STATION_GROUP}') THEN
    CREATE ROLE ${STATION_GROUP} NOLOGIN;
  END IF;
END $$;

CREATE TABLE floor_tables (
  table_name text PRIMARY KEY CHECK (length(table_name) BETWEEN 1 AND 32),
  role_name name UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE station_records (
  table_name text NOT NULL REFERENCES floor_tables,
  seq bigint NOT NULL CHECK (seq >= 1),
  line text NOT NULL CHECK (length(line) <= 65536),
  headers text NOT NULL DEFAULT '' CHECK (length(headers) <= 65536),
  id bigint NOT NULL UNIQUE,
  hash text NOT NULL,
  prev text,
  chain text NOT NULL,
  seal_checked boolean NOT NULL,
  at timestamptz,
  kind text,
  record jsonb,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_name, seq)
);
CREATE SEQUENCE station_records_arrival;

CREATE TABLE chain_failures (
  table_name text NOT NULL,
  seq bigint NOT NULL,
  reason text NOT NULL,
  line text NOT NULL,
  found_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_name, seq)
);

CREATE TABLE station_contact (
  table_name text PRIMARY KEY REFERENCES floor_tables,
  last_seen timestamptz NOT NULL,
  behind integer NOT NULL DEFAULT 0
);

CREATE TABLE floor_clock (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  structure jsonb,
  events jsonb NOT NULL DEFAULT '[]',
  changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO floor_clock DEFAULT VALUES;

-- The table the connected station reports for (null for any other role). The login's name
-- (session_user): inside this definer's function, current_user is the schema's owner.
CREATE FUNCTION station_table() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
  SELECT table_name FROM floor_tables WHERE role_name = session_user
$fn$;

-- Checks a line on arrival against the chain the floor already holds for its table: the line's
-- own seq, its seal (SHA-256 chains; an HMAC's key stays at the station, so only its links are
-- checked), the headers before it, and its link to the line before. A line that fails is not
-- stored: it is kept in chain_failures with the reason, and the insert of the others goes on.
-- The same line sent again is passed over quietly; a different line under a stored seq is a failure.
CREATE FUNCTION verify_station_record() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
DECLARE
  parsed jsonb;
  header jsonb;
  header_line text;
  stored_line text;
  previous record;
  expected_prev text;
  chain_kind text;
  stored_hash text;
  problem text;
  checked boolean := true;
BEGIN
  -- Before anything is stored, even a failure: a station sends for its own table only (the
  -- row-level security's check comes after this trigger, too late for what it writes).
  IF NEW.table_name IS DISTINCT FROM station_table() AND NOT pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = 'floor_tables'::regclass), 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = format('a station may send only its own table''s records, not those of %s', NEW.table_name);
  END IF;
  SELECT line INTO stored_line FROM station_records WHERE table_name = NEW.table_name AND seq = NEW.seq;
  IF FOUND THEN
    IF stored_line = NEW.line THEN RETURN NULL; END IF;
    problem := 'changed-after-arrival';
  END IF;

  IF problem IS NULL THEN
    SELECT seq, hash, chain INTO previous FROM station_records WHERE table_name = NEW.table_name AND seq < NEW.seq ORDER BY seq DESC LIMIT 1;
    expected_prev := CASE WHEN previous.seq IS NULL THEN NULL ELSE previous.hash END;
    chain_kind := previous.chain;
    IF previous.seq IS NOT NULL AND previous.seq <> NEW.seq - 1 THEN problem := 'gap'; END IF;
  END IF;

  -- The headers between the line before and this one (a new journal's, or a change of seal).
  IF problem IS NULL AND NEW.headers <> '' THEN
    FOREACH header_line IN ARRAY string_to_array(NEW.headers, E'\\n') LOOP
      BEGIN
        header := header_line::jsonb;
      EXCEPTION WHEN others THEN
        problem := 'header-not-json'; EXIT;
      END;
      IF header->>'journal' IS DISTINCT FROM 'chip-race-console' OR header->>'chain' NOT IN ('sha256', 'hmac-sha256') THEN problem := 'header-unknown'; EXIT; END IF;
      IF right(header_line, ${SEAL_LENGTH}) !~ '^,"hash":"[0-9a-f]{64}"}$' THEN problem := 'no-seal'; EXIT; END IF;
      IF (header->>'prev') IS DISTINCT FROM expected_prev THEN problem := 'broken-link'; EXIT; END IF;
      stored_hash := substr(right(header_line, ${SEAL_LENGTH}), 10, 64);
      IF header->>'chain' = 'sha256' AND encode(sha256(convert_to(left(header_line, length(header_line) - ${SEAL_LENGTH}), 'UTF8')), 'hex') <> stored_hash THEN problem := 'bad-seal'; EXIT; END IF;
      expected_prev := stored_hash;
      chain_kind := header->>'chain';
    END LOOP;
  END IF;

  IF problem IS NULL THEN
    BEGIN
      parsed := NEW.line::jsonb;
    EXCEPTION WHEN others THEN
      problem := 'not-json';
    END;
  END IF;
  IF problem IS NULL AND chain_kind IS NULL THEN problem := 'no-header'; END IF;
  IF problem IS NULL AND (jsonb_typeof(parsed->'seq') IS DISTINCT FROM 'number' OR (parsed->>'seq') <> NEW.seq::text) THEN problem := 'seq-mismatch'; END IF;
  IF problem IS NULL AND right(NEW.line, ${SEAL_LENGTH}) !~ '^,"hash":"[0-9a-f]{64}"}$' THEN problem := 'no-seal'; END IF;
  IF problem IS NULL AND (parsed->>'prev') IS DISTINCT FROM expected_prev THEN problem := 'broken-link'; END IF;
  IF problem IS NULL THEN
    stored_hash := substr(right(NEW.line, ${SEAL_LENGTH}), 10, 64);
    IF chain_kind = 'sha256' THEN
      IF encode(sha256(convert_to(left(NEW.line, length(NEW.line) - ${SEAL_LENGTH}), 'UTF8')), 'hex') <> stored_hash THEN problem := 'bad-seal'; END IF;
    ELSE
      checked := false;
    END IF;
  END IF;
  IF problem IS NULL THEN
    BEGIN
      NEW.at := (parsed->>'at')::timestamptz;
    EXCEPTION WHEN others THEN
      problem := 'bad-time';
    END;
  END IF;

  IF problem IS NOT NULL THEN
    INSERT INTO chain_failures (table_name, seq, reason, line) VALUES (NEW.table_name, NEW.seq, problem, NEW.line) ON CONFLICT DO NOTHING;
    RETURN NULL;
  END IF;
  NEW.id := nextval('station_records_arrival');
  NEW.hash := stored_hash;
  NEW.prev := parsed->>'prev';
  NEW.chain := chain_kind;
  NEW.seal_checked := checked;
  NEW.record := parsed->'record';
  NEW.kind := parsed->'record'->>'kind';
  NEW.received_at := now();
  RETURN NEW;
END
$fn$;

CREATE TRIGGER verify_on_arrival BEFORE INSERT ON station_records FOR EACH ROW EXECUTE FUNCTION verify_station_record();

-- A station reports that it is there, and how many records it still has to send: only for its
-- own table (the floor's owner, syncing a station's folder itself, for any).
CREATE FUNCTION station_seen(for_table text, behind integer) RETURNS void LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public AS $fn$
  INSERT INTO station_contact (table_name, last_seen, behind)
  SELECT table_name, now(), greatest(behind, 0) FROM floor_tables
  WHERE table_name = for_table AND (role_name = session_user OR pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = 'floor_tables'::regclass), 'MEMBER'))
  ON CONFLICT (table_name) DO UPDATE SET last_seen = excluded.last_seen, behind = excluded.behind
$fn$;

ALTER TABLE station_records ENABLE ROW LEVEL SECURITY;
CREATE POLICY station_inserts_own ON station_records FOR INSERT TO ${STATION_GROUP} WITH CHECK (table_name = station_table());
CREATE POLICY station_reads_own ON station_records FOR SELECT TO ${STATION_GROUP} USING (table_name = station_table());
ALTER TABLE chain_failures ENABLE ROW LEVEL SECURITY;
CREATE POLICY station_reads_own_failures ON chain_failures FOR SELECT TO ${STATION_GROUP} USING (table_name = station_table());

REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
REVOKE ALL ON FUNCTION station_seen(text, integer) FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO ${STATION_GROUP};
GRANT INSERT (table_name, seq, line, headers) ON station_records TO ${STATION_GROUP};
GRANT SELECT (table_name, seq, hash) ON station_records TO ${STATION_GROUP};
GRANT SELECT (table_name, seq, reason) ON chain_failures TO ${STATION_GROUP};
GRANT SELECT ON floor_clock TO ${STATION_GROUP};
GRANT SELECT ON floor_schema_migrations TO ${STATION_GROUP};
GRANT EXECUTE ON FUNCTION station_seen(text, integer) TO ${STATION_GROUP};
GRANT EXECUTE ON FUNCTION station_table() TO ${STATION_GROUP};
`,
};

/**
 * The floor's schema, as numbered migrations applied in order and recorded in
 * `floor_schema_migrations`. A migration once released is never edited: a change is a new one.
 *
 * What the schema holds (one database = one tournament):
 * - `floor_tables`: every table of the tournament, and the login role its station uses;
 * - `station_records`: each station's journal lines as written, byte for byte, unique on table
 *   and seq; the columns after `headers` are filled in by the trigger on arrival, never by a station;
 * - `chain_failures`: lines refused on arrival (a forged, edited or out-of-chain line), kept as evidence;
 * - `station_contact`: when each station was last heard from, and how far behind it said it was;
 * - `floor_clock`: the tournament's structure, the house's rules and the clock's events, written by the floor only.
 * - `floor_seating`, `floor_seating_tables`: who sits where at each table and each table's seating version
 *   (broken or not), written by the floor only; a station reads its own table's (migration 9).
 *
 * Stations are least-privilege: members of `chip_race_station`, they may insert (and read back)
 * only their own table's records, report their own contact, and read the clock. Row-level
 * security enforces "their own"; the verification runs as the schema's owner (SECURITY DEFINER).
 */
/**
 * The SHA-256 of each released migration's text (migrate.ts's migrationChecksum): a database
 * records the checksum of every migration it ran, and a floor whose migration of that version
 * reads otherwise is refused. Migration 3 writes these for the rows older floors recorded.
 */
export const RELEASED_CHECKSUMS: Readonly<Record<number, string>> = {
  1: '04ea407ec32053bbc2d4b735eccfeb25280ff087ab5d257d685fca900112476a',
  2: 'dee9798eb4d78038a860091f5724cbd2977e04e0682f78d86e56d9234d81ad65',
};

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The group role every station's login role belongs to (roles are the server's, not one database's). */
export const STATION_GROUP = 'chip_race_station';

/** How many connections one station's login may hold at once: its link and a sync, with room for reconnects; never the server's all. */
export const STATION_CONNECTION_LIMIT = 8;

/**
 * How long one statement of a station's login may run (its role's statement_timeout). A station's
 * longest legitimate statement is one outbox batch (replication/outbox.ts BATCH_RECORDS, 500
 * records, at most 4 MB of lines) verified on arrival: 0.53–0.57 s for a full 4 MB one on the
 * two-core test machine at a load average of 8–10, and a few seconds at the most loaded the
 * benchmarks saw (floorRoom: 500 stations dealing, lag p95 up to 2.9 s). The link itself gives up on a statement after 15 s (main/floorLink/link.ts queryMs) and
 * sends it again: the server stops one a little later, instead of running it on for nobody.
 */
export const STATION_STATEMENT_TIMEOUT_MS = 20_000;
/** How long a station's statement may wait for a lock (its role's lock_timeout): its inserts wait only on its own other connection's same records, or a floor's migration; the link retries. */
export const STATION_LOCK_TIMEOUT_MS = 5_000;
/** How long a station's session may sit in an open transaction (its role's idle_in_transaction_session_timeout): a station's statements commit each on its own (replication/push.ts), so it never holds one. */
export const STATION_IDLE_IN_TRANSACTION_MS = 10_000;

/** `,"hash":"` + 64 hex digits + `"}`: the seal at the end of every journal line (journal/seal.ts). */
const SEAL_LENGTH = 75;

/** How much of a refused line the floor keeps as evidence (with its SHA-256 and length): enough to read, never a flood. */
export const FAILURE_KEPT_BYTES = 1024;
/** How many refused lines a table keeps; beyond that they are only counted (floor_tables.failures_total). */
export const FAILURES_KEPT_PER_TABLE = 1000;
/** How much of a damaged line the floor keeps as evidence (with the SHA-256 and length of all of it). */
export const DAMAGED_KEPT_BYTES = 4096;

/**
 * The trigger's body as migration 3 re-creates it: migration 1's checks, with every name qualified
 * (it runs as the owner inside a station's session, search_path pinned with pg_temp last).
 */
const VERIFY_STATION_RECORD = `
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

/** The part of `text` from the line starting with `first` to the end of the line starting with `last` after it, exactly once (a released migration's text, to replace in a later one). */
function partOf(text: string, first: string, last: string): string {
  const start = text.indexOf(first);
  const lastLine = text.indexOf(`\n${last}`, start);
  const end = text.indexOf('\n', lastLine + 1);
  if (start < 0 || text.indexOf(first, start + 1) >= 0 || lastLine < 0 || end < 0) throw new Error(`migrations.ts: the trigger's part from "${first}" is not found exactly once`);
  return text.slice(start, end);
}
function replacedOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error('migrations.ts: a part of the trigger to replace is not found exactly once');
  return `${text.slice(0, at)}${to}${text.slice(at + from.length)}`;
}
/** Migration 3's declarations' end and the trigger's first check. */
const OLD_DECLARATIONS = partOf(VERIFY_STATION_RECORD, '  after_damage pg_catalog.bool := false;', '  IF NEW.table_name IS DISTINCT FROM public.station_table()');
const NEW_DECLARATIONS = `  after_damage pg_catalog.bool := false;
  next_after_last pg_catalog.bool;
BEGIN
  -- A station's statement ends at its login's time limit even where the station set its own
  -- statement_timeout (any session may): each line checks the time the statement has taken.
  IF pg_catalog.clock_timestamp() - pg_catalog.statement_timestamp() > interval '${STATION_STATEMENT_TIMEOUT_MS} milliseconds' AND NOT public.station_is_floor() THEN
    RAISE EXCEPTION USING ERRCODE = 'query_canceled', MESSAGE = 'a station''s statement may run ${STATION_STATEMENT_TIMEOUT_MS / 1000} s at most: send fewer records at once';
  END IF;
  IF NEW.table_name IS DISTINCT FROM public.station_table() AND NOT public.station_is_floor() THEN`;
/** Migration 3's refusal: one update of the table's row per refused line. */
const OLD_REFUSAL = partOf(VERIFY_STATION_RECORD, '    IF NOT EXISTS (SELECT FROM public.chain_failures f WHERE f.table_name = NEW.table_name AND f.seq = NEW.seq) THEN', '    END IF;');
const NEW_REFUSAL = `    IF NOT EXISTS (SELECT FROM public.chain_failures f WHERE f.table_name = NEW.table_name AND f.seq = NEW.seq) THEN
      -- Counted and kept once per statement (public.count_refusals, after it): updating the
      -- table's row once per refused line made a batch's cost grow with its square. The count as
      -- the statement found it says whether this line's first bytes may be kept at all.
      SELECT t.failures_total INTO failures_seen FROM public.floor_tables t WHERE t.table_name = NEW.table_name;
      next_after_last := NEW.seq = COALESCE((SELECT pg_catalog.max(r.seq) FROM public.station_records r WHERE r.table_name = NEW.table_name), 0) + 1;
      INSERT INTO public.chain_refusals (backend, table_name, seq, reason, next_after_last, line, line_sha256, line_bytes)
      VALUES (pg_catalog.pg_backend_pid(), NEW.table_name, NEW.seq, problem, next_after_last,
        CASE WHEN failures_seen IS NULL OR failures_seen < ${FAILURES_KEPT_PER_TABLE} OR next_after_last THEN public.first_bytes(NEW.line, ${FAILURE_KEPT_BYTES}) END,
        pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(NEW.line, 'UTF8')), 'hex'), pg_catalog.octet_length(NEW.line));
    END IF;`;

/**
 * The trigger's body as migration 18 re-creates it: migration 3's, with a station's statement
 * bounded in time, and each refused line put aside for public.count_refusals to count and keep
 * once at the statement's end.
 */
const VERIFY_STATION_RECORD_18 = replacedOnce(replacedOnce(VERIFY_STATION_RECORD, OLD_DECLARATIONS, NEW_DECLARATIONS), OLD_REFUSAL, NEW_REFUSAL);
/**
 * The arrival trigger as migration 19 re-creates it (from the body given, so the same change can
 * be made to a later body): the one link a damaged line at the station makes it write. A station
 * whose journal's last line was damaged after the floor took it (a failing disk) links its next
 * record to that line's seal where its end still reads (journal/reader.ts: the floor accepts that
 * as ever); where the seal itself is damaged, it links to the line before it, which is what the
 * floor's copy of the damaged line carries as its `prev`. The floor takes that link (the record
 * directly after, and only the first link of it: a header's or the record's), and marks the row
 * `relinked`: it follows the floor's last record by that record's own link, not by its hash.
 * Nothing else is loosened: any other link is still `broken-link`.
 */
export function relinkAfterStationDamage(body: string): string {
  const edits: ReadonlyArray<readonly [string, string]> = [
    ['  after_damage pg_catalog.bool := false;\n', '  after_damage pg_catalog.bool := false;\n  relink pg_catalog.text;\n'],
    [
      'SELECT r.seq, r.hash, r.chain, r.damaged INTO previous FROM',
      'SELECT r.seq, r.hash, r.chain, r.damaged, r.prev INTO previous FROM',
    ],
    [
      '    after_damage := COALESCE(previous.damaged, false);\n',
      "    after_damage := COALESCE(previous.damaged, false);\n    -- The link the floor's copy of the record before carries: taken once, from the record right after it.\n    IF previous.seq = NEW.seq - 1 AND NOT after_damage THEN relink := previous.prev; END IF;\n",
    ],
    [
      "      IF (header->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage THEN problem := 'broken-link'; EXIT; END IF;\n",
      "      IF (header->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage AND (relink IS NULL OR (header->>'prev') IS DISTINCT FROM relink) THEN problem := 'broken-link'; EXIT; END IF;\n      NEW.relinked := NEW.relinked OR ((header->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage);\n      relink := NULL;\n",
    ],
    [
      "  IF problem IS NULL AND (parsed->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage THEN problem := 'broken-link'; END IF;\n",
      "  IF problem IS NULL AND (parsed->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage AND (relink IS NULL OR (parsed->>'prev') IS DISTINCT FROM relink) THEN problem := 'broken-link'; END IF;\n  IF problem IS NULL THEN NEW.relinked := NEW.relinked OR ((parsed->>'prev') IS DISTINCT FROM expected_prev AND NOT after_damage); END IF;\n",
    ],
    // Set by the trigger alone (a station may not insert the column): false unless relinked above.
    ['  NEW.damaged := COALESCE(NEW.damaged, false);\n', '  NEW.damaged := COALESCE(NEW.damaged, false);\n  NEW.relinked := false;\n'],
  ];
  let sql = body;
  for (const [from, to] of edits) {
    if (sql.split(from).length !== 2) throw new Error(`migration 19: the arrival trigger's text has no single ${JSON.stringify(from.trim().slice(0, 60))}`);
    sql = sql.replace(from, to);
  }
  return sql;
}

export const MIGRATIONS: readonly Migration[] = [
  {
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
  },
  {
    version: 2,
    name: 'the floor console: races and tables folded from the records (floor/fold.ts)',
    // Written by the floor only (its fold), read by the floor's page: no station reads or writes them.
    sql: `
CREATE TABLE floor_races (
  table_name text NOT NULL REFERENCES floor_tables,
  race_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('racing', 'waiting-to-confirm', 'confirmed', 'abandoned')),
  level integer,
  removed bigint NOT NULL,
  next bigint NOT NULL,
  value_delta bigint,
  winners jsonb NOT NULL DEFAULT '[]',
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  corrections integer NOT NULL DEFAULT 0,
  refusals integer NOT NULL DEFAULT 0,
  collect bigint NOT NULL DEFAULT 0,
  bring bigint NOT NULL DEFAULT 0,
  first_seq bigint NOT NULL,
  last_seq bigint NOT NULL,
  entry jsonb,
  PRIMARY KEY (table_name, race_id)
);
CREATE INDEX floor_races_by_start ON floor_races (table_name, first_seq);

CREATE TABLE floor_table_state (
  table_name text PRIMARY KEY REFERENCES floor_tables,
  folded_seq bigint NOT NULL,
  resume_seq bigint NOT NULL,
  failures integer NOT NULL,
  colour_up text NOT NULL,
  open_race text,
  folded_at timestamptz NOT NULL
);
CREATE INDEX station_records_by_kind ON station_records (table_name, kind, seq);
REVOKE ALL ON floor_races, floor_table_state FROM PUBLIC;
`,
  },
  {
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
  },
  {
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
  },
  {
    version: 5,
    name: 'the damaged records of each table, as the fold found them (the floor page shows them amber)',
    // Kept by the fold beside the table's state, so the status reads them with the table's row
    // instead of searching a table's records (a query planner's choice measured at 450 ms).
    sql: `
ALTER TABLE floor_table_state ADD COLUMN damaged jsonb NOT NULL DEFAULT '[]';
`,
  },
  {
    version: 6,
    name: 'the confirmed races\' history entries no longer kept by the fold (the export replays them: floor/fold.ts tableHistory)',
    sql: `
ALTER TABLE public.floor_races DROP COLUMN entry;
`,
  },
  {
    version: 7,
    name: "the chip runner's sheet: each race's chips handed out and taken in as its station's screens say them, and the break each table marked last (floor/fold.ts)",
    // sheet: {"bring": {"100": 3}, "collect": {"25": 9}} (engine/race/summary.ts raceChipSheet), null
    // while the race's result is not known and for an abandoned race. break_marked: the break the
    // table's station marked last (null: none, or unmarked). Filled by the fold's next version.
    sql: `
ALTER TABLE public.floor_races ADD COLUMN sheet jsonb;
ALTER TABLE public.floor_table_state ADD COLUMN break_marked integer;
`,
  },
  {
    version: 8,
    name: "the tournament held by the floor: the house's rules (rule set, decks per shoe) beside the structure every station takes (floor/clock.ts)",
    // {"rules": "tda", "decks": 2}; null or a rule left out: each table's own. Stations read it with
    // the clock (their SELECT on floor_clock covers the new column).
    sql: `
ALTER TABLE public.floor_clock ADD COLUMN house jsonb;
`,
  },
  {
    version: 9,
    name: "the seating: who sits where at each table (floor/seating.ts), each station reading only its own table's seats",
    // floor_seating_tables: one row per table the seating names, its version bumped at every change
    // (a station reads that one row each poll, and its seats only when the version moved) and when
    // it was broken. floor_seating_out: the players out, kept. Written by the floor only.
    sql: `
-- Versions from one sequence: a table dropped from the seating and seated again never shows a version a station saw before.
CREATE SEQUENCE public.floor_seating_versions;
CREATE TABLE public.floor_seating_tables (
  table_name text PRIMARY KEY REFERENCES public.floor_tables,
  version bigint NOT NULL,
  broken_at timestamptz,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE public.floor_seating (
  table_name text NOT NULL REFERENCES public.floor_seating_tables ON DELETE CASCADE,
  seat integer NOT NULL CHECK (seat BETWEEN 1 AND 10),
  player text NOT NULL CHECK (length(player) BETWEEN 1 AND 40),
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_name, seat)
);
CREATE TABLE public.floor_seating_out (
  id bigserial PRIMARY KEY,
  table_name text NOT NULL,
  seat integer NOT NULL,
  player text NOT NULL,
  out_by text NOT NULL,
  out_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON public.floor_seating_tables, public.floor_seating, public.floor_seating_out, public.floor_seating_versions FROM PUBLIC;
ALTER TABLE public.floor_seating_tables ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.floor_seating ENABLE ROW LEVEL SECURITY;
CREATE POLICY station_reads_own_seating ON public.floor_seating_tables FOR SELECT TO ${STATION_GROUP} USING (table_name OPERATOR(pg_catalog.=) public.station_table());
CREATE POLICY station_reads_own_seats ON public.floor_seating FOR SELECT TO ${STATION_GROUP} USING (table_name OPERATOR(pg_catalog.=) public.station_table());
GRANT SELECT (table_name, version, broken_at) ON public.floor_seating_tables TO ${STATION_GROUP};
GRANT SELECT (table_name, seat, player) ON public.floor_seating TO ${STATION_GROUP};
`,
  },
  {
    version: 10,
    name: "disputes settled on the record: the director's decisions on a table (floor/decisions.ts), each station reading its own table's; the fold keeps what flags a table apart from its colour-up",
    // decision: what was decided (DECISIONS); note and decided_by required; race_id the race it is
    // about, when one; settles_seq the table's last record when it was decided: an abandoned race or
    // a call of the floor at or before it is settled (floor/fold.ts settledStatus). A station reads
    // its own table's decisions only (row-level security, as its records), and writes none.
    sql: `
CREATE TABLE public.floor_decisions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  table_name text NOT NULL REFERENCES public.floor_tables (table_name),
  decided_at timestamptz NOT NULL DEFAULT now(),
  decided_by text NOT NULL CHECK (btrim(decided_by) <> '' AND length(decided_by) <= 80),
  decision text NOT NULL CHECK (decision IN ('re-race', 'race-stands', 'chips-adjusted', 'race-closed')),
  note text NOT NULL CHECK (btrim(note) <> '' AND length(note) <= 500),
  race_id text CHECK (race_id IS NULL OR length(race_id) <= 20),
  settles_seq bigint NOT NULL DEFAULT 0
);
CREATE INDEX floor_decisions_by_table ON public.floor_decisions (table_name, id);
ALTER TABLE public.floor_decisions ENABLE ROW LEVEL SECURITY;
CREATE POLICY station_reads_own_decisions ON public.floor_decisions FOR SELECT TO ${STATION_GROUP} USING (table_name = public.station_table());
REVOKE ALL ON public.floor_decisions FROM PUBLIC;
GRANT SELECT ON public.floor_decisions TO ${STATION_GROUP};
-- The status without the decisions, and what flags the table (its kind, its record): filled by the fold's next version.
ALTER TABLE public.floor_table_state ADD COLUMN base_colour_up text, ADD COLUMN flag_kind text, ADD COLUMN flag_seq bigint;
`,
  },
  {
    version: 11,
    name: "the held break: the floor's clock holds at the end of a break with a colour-up until every table is done (floor/hold.ts), each hold and its release kept",
    // held: {"afterLevel": 2, "tables": 3, "since": <epoch ms>} while the clock is held (stations
    // read it with the clock, and say so). floor_break_holds: each break held once per clock start,
    // released by the last table's confirmation ('tables-done'), the option turned off ('option-off')
    // or the director's override ('director'), with the tables still left then. Floor only: no station reads it.
    sql: `
ALTER TABLE public.floor_clock ADD COLUMN hold_breaks boolean NOT NULL DEFAULT false, ADD COLUMN held jsonb;
CREATE TABLE public.floor_break_holds (
  clock_start bigint NOT NULL,
  after_level integer NOT NULL,
  held_at timestamptz NOT NULL DEFAULT now(),
  tables_left integer NOT NULL,
  released_at timestamptz,
  released_by text CHECK (released_by IN ('tables-done', 'option-off', 'director')),
  tables_left_at_release integer,
  PRIMARY KEY (clock_start, after_level)
);
`,
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    version: 15,
    name: 'the flag keeps the race it is about: a decision about another race does not settle it (issue 43)',
    // Filled by the fold (FOLD_VERSION 6 folds every table again); readFloorStatus counts only the
    // decisions naming this race, or none, as settling the flag.
    sql: `
ALTER TABLE public.floor_table_state ADD COLUMN flag_race pg_catalog.text;
`,
  },
  {
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
  },
  {
    version: 17,
    name: 'the breaks each table left with its colour-up finished, so a station leaves a break with the clock and the held break still counts it done (floor/fold.ts LeftFinished)',
    // Filled by the fold (FOLD_VERSION 7 folds every table again): a JSON list of
    // {afterLevel, base, flag}; readFloorStatus settles each flag with the decisions. Floor only.
    sql: `
ALTER TABLE public.floor_table_state ADD COLUMN left_finished jsonb;
`,
  },
  {
    version: 18,
    name: "station logins bounded in time (statement, lock and idle-in-transaction timeouts per login), refusals counted once per statement, not once per refused line",
    // The limits: STATION_STATEMENT_TIMEOUT_MS and its neighbours. Set on every station login made
    // before (stations.ts sets them on each new one): directly where the floor's role may alter
    // roles (a superuser), else through the cardroom set-up's chip_race_logins.station_limits
    // (floor/db/cardroom.sql, run again on a cardroom set up by an earlier version), else said.
    sql: `
CREATE UNLOGGED TABLE public.chain_refusals (
  id pg_catalog.int8 GENERATED ALWAYS AS IDENTITY,
  backend pg_catalog.int4 NOT NULL,
  table_name pg_catalog.text NOT NULL,
  seq pg_catalog.int8 NOT NULL,
  reason pg_catalog.text NOT NULL,
  next_after_last pg_catalog.bool NOT NULL,
  line pg_catalog.text,
  line_sha256 pg_catalog.text NOT NULL,
  line_bytes pg_catalog.int4 NOT NULL
);
CREATE INDEX chain_refusals_by_backend ON public.chain_refusals (backend, id);
REVOKE ALL ON public.chain_refusals FROM PUBLIC;

${VERIFY_STATION_RECORD_18}

-- The refusals of one statement, counted and kept at its end: one update of each table's row.
CREATE FUNCTION public.count_refusals() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  WITH pending AS (
    DELETE FROM public.chain_refusals p WHERE p.backend = pg_catalog.pg_backend_pid() RETURNING p.id, p.table_name, p.seq, p.reason, p.next_after_last, p.line, p.line_sha256, p.line_bytes
  ), fresh AS (
    SELECT DISTINCT ON (p.table_name, p.seq) p.* FROM pending p ORDER BY p.table_name, p.seq, p.id
  ), ranked AS (
    SELECT f.*, pg_catalog.row_number() OVER (PARTITION BY f.table_name ORDER BY f.id) AS nth FROM fresh f
  ), counted AS (
    UPDATE public.floor_tables t SET failures_total = t.failures_total + c.n
    FROM (SELECT r.table_name, pg_catalog.count(*) AS n FROM ranked r GROUP BY r.table_name) c
    WHERE t.table_name = c.table_name
    RETURNING t.table_name, t.failures_total - c.n AS before
  )
  INSERT INTO public.chain_failures (table_name, seq, reason, line, line_sha256, line_bytes)
  SELECT r.table_name, r.seq, r.reason, r.line, r.line_sha256, r.line_bytes
  FROM ranked r LEFT JOIN counted c ON c.table_name = r.table_name
  WHERE r.line IS NOT NULL AND (c.before IS NULL OR c.before + r.nth <= ${FAILURES_KEPT_PER_TABLE} OR r.next_after_last)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$fn$;
REVOKE ALL ON FUNCTION public.count_refusals() FROM PUBLIC;
CREATE TRIGGER count_refusals AFTER INSERT ON public.station_records FOR EACH STATEMENT EXECUTE FUNCTION public.count_refusals();

DO $$
DECLARE
  station pg_catalog.text;
  limits_maker pg_catalog.bool := pg_catalog.to_regprocedure('chip_race_logins.station_limits(text,integer,integer,integer)') IS NOT NULL;
BEGIN
  FOR station IN SELECT r.rolname FROM pg_catalog.pg_roles r JOIN public.floor_tables t ON t.role_name = r.rolname LOOP
    BEGIN
      IF limits_maker THEN
        EXECUTE 'SELECT chip_race_logins.station_limits($1, $2, $3, $4)' USING station, ${STATION_STATEMENT_TIMEOUT_MS}, ${STATION_LOCK_TIMEOUT_MS}, ${STATION_IDLE_IN_TRANSACTION_MS};
      ELSE
        EXECUTE pg_catalog.format('ALTER ROLE %I SET statement_timeout = ${STATION_STATEMENT_TIMEOUT_MS}', station);
        EXECUTE pg_catalog.format('ALTER ROLE %I SET lock_timeout = ${STATION_LOCK_TIMEOUT_MS}', station);
        EXECUTE pg_catalog.format('ALTER ROLE %I SET idle_in_transaction_session_timeout = ${STATION_IDLE_IN_TRANSACTION_MS}', station);
      END IF;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'station login % keeps no time limits yet: run the cardroom set-up again (README); the next add-table gives them', station;
    END;
  END LOOP;
END $$;
`,
  },
  {
    version: 19,
    name: "a station's next record after a line damaged on its disk after the floor took it: linked to that line's seal, or (its seal damaged too) to the link the floor's copy of it carries (relinkAfterStationDamage)",
    // Replaces public.verify_station_record (migration 3's body, VERIFY_STATION_RECORD, with the
    // edits of relinkAfterStationDamage); `relinked` marks a row taken by the floor's copy's link.
    sql: `
ALTER TABLE public.station_records ADD COLUMN relinked pg_catalog.bool NOT NULL DEFAULT false;
${relinkAfterStationDamage(VERIFY_STATION_RECORD_18)}
`,
  },
  {
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
  },
  {
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
  },
];

/** The schema version this code needs. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

import { VERIFY_STATION_RECORD } from './03-definer-safety';
import { FAILURE_KEPT_BYTES, FAILURES_KEPT_PER_TABLE, type Migration, STATION_IDLE_IN_TRANSACTION_MS, STATION_LOCK_TIMEOUT_MS, STATION_STATEMENT_TIMEOUT_MS } from './shared';

/** The part of `text` from the line starting with `first` to the end of the line starting with `last` after it, exactly once (a released migration's text, to replace in a later one). */
function partOf(text: string, first: string, last: string): string {
  const start = text.indexOf(first);
  const lastLine = text.indexOf(`\n${last}`, start);
  const end = text.indexOf('\n', lastLine + 1);
  if (start < 0 || text.indexOf(first, start + 1) >= 0 || lastLine < 0 || end < 0) throw new Error(`migration 18: the trigger's part from "${first}" is not found exactly once`);
  return text.slice(start, end);
}
function replacedOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error('migration 18: a part of the trigger to replace is not found exactly once');
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
export const VERIFY_STATION_RECORD_18 = replacedOnce(replacedOnce(VERIFY_STATION_RECORD, OLD_DECLARATIONS, NEW_DECLARATIONS), OLD_REFUSAL, NEW_REFUSAL);

export const migration: Migration = {
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
};

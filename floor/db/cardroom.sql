-- A cardroom's floor, set up once by PostgreSQL's superuser (docs/floor.md, "Set up a cardroom"):
--   sudo -u postgres psql -v floor_password='…' < floor/db/cardroom.sql
-- Run again (the same line) on a cardroom an earlier version set up, it keeps what is there (the
-- tournament's database, its station logins), gives the floor's role the password given, and
-- brings the rest up to this version's.
--
-- The floor's role owns the tournament's database and nothing more: no CREATEROLE (on PostgreSQL
-- 15 a CREATEROLE role may grant itself pg_execute_server_program and run programs on the server
-- as postgres). It makes its stations' logins through narrow functions owned by a role that
-- cannot log in: they make or re-password a role named chip_race_table_<16 hex> in the station
-- group, bound its statements in time, and end its sessions (a rotated password), and do nothing else.
--
-- The cluster is the cardroom's: its own databases (postgres, template1) let no one but the
-- superuser connect, and the tournament's only its owner and the stations, so a station's login
-- reaches the floor's database and no other, and makes temporary objects nowhere (the floor's
-- migration 3 takes TEMPORARY from PUBLIC in its own).
\set ON_ERROR_STOP on

SELECT 'CREATE ROLE chip_race_station NOLOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'chip_race_station') \gexec
SELECT 'CREATE ROLE chip_race_logins NOLOGIN CREATEROLE' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'chip_race_logins') \gexec
-- What PostgreSQL 16 and later ask of a CREATEROLE role to put new roles in a group.
SELECT 'GRANT chip_race_station TO chip_race_logins WITH ADMIN OPTION' WHERE NOT EXISTS (
  SELECT FROM pg_auth_members WHERE roleid = 'chip_race_station'::regrole AND member = 'chip_race_logins'::regrole AND admin_option) \gexec
-- To end a station login's sessions (chip_race_logins.end_station_sessions, which ends a station's and nobody else's).
SELECT 'GRANT pg_signal_backend TO chip_race_logins' WHERE NOT EXISTS (
  SELECT FROM pg_auth_members WHERE roleid = 'pg_signal_backend'::regrole AND member = 'chip_race_logins'::regrole) \gexec
SELECT 'CREATE ROLE chip_race_floor LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'chip_race_floor') \gexec
ALTER ROLE chip_race_floor PASSWORD :'floor_password';
SELECT 'CREATE DATABASE chip_race OWNER chip_race_floor' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'chip_race') \gexec
REVOKE CONNECT, TEMPORARY ON DATABASE postgres FROM PUBLIC;
REVOKE CONNECT, TEMPORARY ON DATABASE template1 FROM PUBLIC;
REVOKE CONNECT, TEMPORARY ON DATABASE chip_race FROM PUBLIC;
GRANT CONNECT ON DATABASE chip_race TO chip_race_station;

\connect chip_race
-- One transaction for what follows: a floor running while this is run again sees the earlier
-- functions and grants or all of this version's, never a function made and not yet granted.
BEGIN;
SELECT 'CREATE SCHEMA chip_race_logins AUTHORIZATION chip_race_logins' WHERE NOT EXISTS (SELECT FROM pg_namespace WHERE nspname = 'chip_race_logins') \gexec
REVOKE ALL ON SCHEMA chip_race_logins FROM PUBLIC;

-- Whether a role is a station's login: named so, and in the station group (a role of that name
-- outside the group is not these functions' to change).
CREATE OR REPLACE FUNCTION chip_race_logins.station_role(role_name pg_catalog.text)
RETURNS pg_catalog.bool LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF role_name IS NULL OR role_name OPERATOR(pg_catalog.!~) '^chip_race_table_[0-9a-f]{16}$' THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = pg_catalog.format('%s is not a station login''s name (chip_race_table_ and 16 hex digits)', role_name);
  END IF;
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) role_name) THEN
    RETURN false;
  END IF;
  IF NOT EXISTS (
    SELECT FROM pg_catalog.pg_auth_members m
    WHERE m.member OPERATOR(pg_catalog.=) (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) role_name)
      AND m.roleid OPERATOR(pg_catalog.=) (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) 'chip_race_station')
  ) THEN
    RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = pg_catalog.format('%s exists and is not a station login', role_name);
  END IF;
  RETURN true;
END
$fn$;
ALTER FUNCTION chip_race_logins.station_role(pg_catalog.text) OWNER TO chip_race_logins;
REVOKE ALL ON FUNCTION chip_race_logins.station_role(pg_catalog.text) FROM PUBLIC;

-- Makes a station's login, or gives an existing one a new password (the old one stops working).
CREATE OR REPLACE FUNCTION chip_race_logins.station_login(role_name pg_catalog.text, password pg_catalog.text, connection_limit pg_catalog.int4)
RETURNS void LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF password IS NULL OR password OPERATOR(pg_catalog.!~) '^[A-Za-z0-9_-]{16,128}$' THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'a station login''s password is 16 to 128 base64url characters';
  END IF;
  IF connection_limit IS NULL OR connection_limit OPERATOR(pg_catalog.<) 1 OR connection_limit OPERATOR(pg_catalog.>) 32 THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'a station login''s connection limit is 1 to 32';
  END IF;
  IF chip_race_logins.station_role(role_name) THEN
    EXECUTE pg_catalog.format('ALTER ROLE %I LOGIN CONNECTION LIMIT %s PASSWORD %L', role_name, connection_limit, password);
  ELSE
    EXECUTE pg_catalog.format('CREATE ROLE %I LOGIN CONNECTION LIMIT %s PASSWORD %L IN ROLE chip_race_station', role_name, connection_limit, password);
  END IF;
END
$fn$;
ALTER FUNCTION chip_race_logins.station_login(pg_catalog.text, pg_catalog.text, pg_catalog.int4) OWNER TO chip_race_logins;
REVOKE ALL ON FUNCTION chip_race_logins.station_login(pg_catalog.text, pg_catalog.text, pg_catalog.int4) FROM PUBLIC;

-- Bounds a station login's statements in time: its statement, lock and idle-in-transaction
-- timeouts (the floor's floor/db/migrations/shared.ts says which and why), each 1 ms to 10 minutes.
CREATE OR REPLACE FUNCTION chip_race_logins.station_limits(role_name pg_catalog.text, statement_ms pg_catalog.int4, lock_ms pg_catalog.int4, idle_in_transaction_ms pg_catalog.int4)
RETURNS void LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF NOT chip_race_logins.station_role(role_name) THEN
    RAISE EXCEPTION USING ERRCODE = 'undefined_object', MESSAGE = pg_catalog.format('%s is no station login', role_name);
  END IF;
  IF statement_ms IS NULL OR lock_ms IS NULL OR idle_in_transaction_ms IS NULL
    OR LEAST(statement_ms, lock_ms, idle_in_transaction_ms) OPERATOR(pg_catalog.<) 1 OR GREATEST(statement_ms, lock_ms, idle_in_transaction_ms) OPERATOR(pg_catalog.>) 600000 THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'a station login''s time limits are 1 ms to 10 minutes';
  END IF;
  EXECUTE pg_catalog.format('ALTER ROLE %I SET statement_timeout = %s', role_name, statement_ms);
  EXECUTE pg_catalog.format('ALTER ROLE %I SET lock_timeout = %s', role_name, lock_ms);
  EXECUTE pg_catalog.format('ALTER ROLE %I SET idle_in_transaction_session_timeout = %s', role_name, idle_in_transaction_ms);
END
$fn$;
ALTER FUNCTION chip_race_logins.station_limits(pg_catalog.text, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4) OWNER TO chip_race_logins;
REVOKE ALL ON FUNCTION chip_race_logins.station_limits(pg_catalog.text, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4) FROM PUBLIC;

-- Ends every session of a station's login (a rotated password: the old one's sessions go too),
-- waiting up to 5 s for each to be gone. Returns how many were ended.
CREATE OR REPLACE FUNCTION chip_race_logins.end_station_sessions(role_name pg_catalog.text)
RETURNS pg_catalog.int4 LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  ended pg_catalog.int4;
BEGIN
  IF NOT chip_race_logins.station_role(role_name) THEN
    RETURN 0;
  END IF;
  SELECT pg_catalog.count(*) FILTER (WHERE pg_catalog.pg_terminate_backend(a.pid, 5000))::pg_catalog.int4 INTO ended
  FROM pg_catalog.pg_stat_activity a WHERE a.usename OPERATOR(pg_catalog.=) role_name;
  RETURN ended;
END
$fn$;
ALTER FUNCTION chip_race_logins.end_station_sessions(pg_catalog.text) OWNER TO chip_race_logins;
REVOKE ALL ON FUNCTION chip_race_logins.end_station_sessions(pg_catalog.text) FROM PUBLIC;

-- Stops a station login's statement that runs past its limits though the station turned its own
-- timeouts off (statement_timeout and idle_in_transaction_session_timeout are every session's to
-- change; a DO block may catch a cancel): the floor's watchdog (floor/watchdog.ts) calls it every
-- few seconds. Of the sessions of station logins only (named so, in the station group, no
-- superuser), it cancels a statement running longer than statement_ms, ends the session of one the
-- caller cancelled before (cancelled_pids with cancelled_starts, the statement's start in
-- microseconds since 1970: the same statement, still running), and ends a session idle in an open
-- transaction longer than idle_in_transaction_ms. Returns what it stopped; never the statement's text.
-- chip_race_logins reads the sessions' state through pg_read_all_stats (NOLOGIN: only these
-- functions act as it).
SELECT 'GRANT pg_read_all_stats TO chip_race_logins' WHERE NOT EXISTS (
  SELECT FROM pg_auth_members WHERE roleid = 'pg_read_all_stats'::regrole AND member = 'chip_race_logins'::regrole) \gexec
CREATE OR REPLACE FUNCTION chip_race_logins.stop_station_overruns(statement_ms pg_catalog.int4, idle_in_transaction_ms pg_catalog.int4, cancelled_pids pg_catalog.int4[], cancelled_starts pg_catalog.int8[])
RETURNS TABLE (pid pg_catalog.int4, role_name pg_catalog.text, started pg_catalog.int8, running_ms pg_catalog.int8, idle pg_catalog.bool, terminated pg_catalog.bool)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF statement_ms IS NULL OR idle_in_transaction_ms IS NULL
    OR LEAST(statement_ms, idle_in_transaction_ms) OPERATOR(pg_catalog.<) 1 OR GREATEST(statement_ms, idle_in_transaction_ms) OPERATOR(pg_catalog.>) 3600000 THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'a station statement''s and open transaction''s limits are 1 ms to 1 hour';
  END IF;
  IF pg_catalog.cardinality(cancelled_pids) IS DISTINCT FROM pg_catalog.cardinality(cancelled_starts) THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'each cancelled session''s pid with its statement''s start';
  END IF;
  RETURN QUERY
  WITH sessions AS MATERIALIZED (
    SELECT a.pid AS session, r.rolname::pg_catalog.text AS login,
           a.state OPERATOR(pg_catalog.=) ANY (ARRAY['idle in transaction', 'idle in transaction (aborted)']) AS open_idle,
           CASE WHEN a.state OPERATOR(pg_catalog.=) ANY (ARRAY['idle in transaction', 'idle in transaction (aborted)']) THEN a.state_change ELSE a.query_start END AS since,
           (EXTRACT(epoch FROM a.query_start) OPERATOR(pg_catalog.*) 1000000)::pg_catalog.int8 AS statement_start
    FROM pg_catalog.pg_stat_activity a JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.usesysid
    WHERE a.backend_type OPERATOR(pg_catalog.=) 'client backend' AND a.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()
      AND a.state OPERATOR(pg_catalog.=) ANY (ARRAY['active', 'fastpath function call', 'idle in transaction', 'idle in transaction (aborted)'])
      AND NOT r.rolsuper AND r.rolname OPERATOR(pg_catalog.~) '^chip_race_table_[0-9a-f]{16}$'
      AND EXISTS (
        SELECT FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles g ON g.oid OPERATOR(pg_catalog.=) m.roleid
        WHERE m.member OPERATOR(pg_catalog.=) r.oid AND g.rolname OPERATOR(pg_catalog.=) 'chip_race_station')
  ), overruns AS MATERIALIZED (
    SELECT s.session, s.login, s.open_idle, s.statement_start,
           (EXTRACT(epoch FROM pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) s.since) OPERATOR(pg_catalog.*) 1000)::pg_catalog.int8 AS ran,
           s.open_idle OR (s.session, s.statement_start) IN (SELECT u.p, u.t FROM unnest(cancelled_pids, cancelled_starts) AS u(p, t)) AS ending
    FROM sessions s
    WHERE s.since OPERATOR(pg_catalog.<) (pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) pg_catalog.make_interval(secs => (CASE WHEN s.open_idle THEN idle_in_transaction_ms ELSE statement_ms END) OPERATOR(pg_catalog./) 1000.0))
  ), signalled AS MATERIALIZED (
    SELECT o.*, CASE WHEN o.ending THEN pg_catalog.pg_terminate_backend(o.session) ELSE pg_catalog.pg_cancel_backend(o.session) END AS sent FROM overruns o
  )
  SELECT g.session, g.login, g.statement_start, g.ran, g.open_idle, g.ending FROM signalled g WHERE g.sent;
END
$fn$;
ALTER FUNCTION chip_race_logins.stop_station_overruns(pg_catalog.int4, pg_catalog.int4, pg_catalog.int4[], pg_catalog.int8[]) OWNER TO chip_race_logins;
REVOKE ALL ON FUNCTION chip_race_logins.stop_station_overruns(pg_catalog.int4, pg_catalog.int4, pg_catalog.int4[], pg_catalog.int8[]) FROM PUBLIC;

GRANT USAGE ON SCHEMA chip_race_logins TO chip_race_floor;
GRANT EXECUTE ON FUNCTION chip_race_logins.station_login(pg_catalog.text, pg_catalog.text, pg_catalog.int4) TO chip_race_floor;
GRANT EXECUTE ON FUNCTION chip_race_logins.station_limits(pg_catalog.text, pg_catalog.int4, pg_catalog.int4, pg_catalog.int4) TO chip_race_floor;
GRANT EXECUTE ON FUNCTION chip_race_logins.end_station_sessions(pg_catalog.text) TO chip_race_floor;
GRANT EXECUTE ON FUNCTION chip_race_logins.stop_station_overruns(pg_catalog.int4, pg_catalog.int4, pg_catalog.int4[], pg_catalog.int8[]) TO chip_race_floor;
COMMIT;

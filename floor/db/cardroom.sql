-- A cardroom's floor, set up once by PostgreSQL's superuser (README, "Set up a cardroom"):
--   sudo -u postgres psql -v floor_password='…' < floor/db/cardroom.sql
--
-- The floor's role owns the tournament's database and nothing more: no CREATEROLE (on PostgreSQL
-- 15 a CREATEROLE role may grant itself pg_execute_server_program and run programs on the server
-- as postgres). It makes its stations' logins through one narrow function owned by a role that
-- cannot log in: that function makes or re-passwords a role named chip_race_table_<16 hex> in the
-- station group, and does nothing else.
\set ON_ERROR_STOP on

CREATE ROLE chip_race_station NOLOGIN;
CREATE ROLE chip_race_logins NOLOGIN CREATEROLE;
-- What PostgreSQL 16 and later ask of a CREATEROLE role to put new roles in a group.
GRANT chip_race_station TO chip_race_logins WITH ADMIN OPTION;
CREATE ROLE chip_race_floor LOGIN PASSWORD :'floor_password';
CREATE DATABASE chip_race OWNER chip_race_floor;

\connect chip_race
CREATE SCHEMA chip_race_logins AUTHORIZATION chip_race_logins;
REVOKE ALL ON SCHEMA chip_race_logins FROM PUBLIC;

-- Makes a station's login, or gives an existing one a new password (the old one stops working).
CREATE FUNCTION chip_race_logins.station_login(role_name pg_catalog.text, password pg_catalog.text, connection_limit pg_catalog.int4)
RETURNS void LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF role_name IS NULL OR role_name OPERATOR(pg_catalog.!~) '^chip_race_table_[0-9a-f]{16}$' THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = pg_catalog.format('%s is not a station login''s name (chip_race_table_ and 16 hex digits)', role_name);
  END IF;
  IF password IS NULL OR password OPERATOR(pg_catalog.!~) '^[A-Za-z0-9_-]{16,128}$' THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'a station login''s password is 16 to 128 base64url characters';
  END IF;
  IF connection_limit IS NULL OR connection_limit OPERATOR(pg_catalog.<) 1 OR connection_limit OPERATOR(pg_catalog.>) 32 THEN
    RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'a station login''s connection limit is 1 to 32';
  END IF;
  IF EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) role_name) THEN
    -- Only a station's login: a role of that name outside the group is not this function's to change.
    IF NOT EXISTS (
      SELECT FROM pg_catalog.pg_auth_members m
      WHERE m.member OPERATOR(pg_catalog.=) (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) role_name)
        AND m.roleid OPERATOR(pg_catalog.=) (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) 'chip_race_station')
    ) THEN
      RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = pg_catalog.format('%s exists and is not a station login', role_name);
    END IF;
    EXECUTE pg_catalog.format('ALTER ROLE %I LOGIN CONNECTION LIMIT %s PASSWORD %L', role_name, connection_limit, password);
  ELSE
    EXECUTE pg_catalog.format('CREATE ROLE %I LOGIN CONNECTION LIMIT %s PASSWORD %L IN ROLE chip_race_station', role_name, connection_limit, password);
  END IF;
END
$fn$;
ALTER FUNCTION chip_race_logins.station_login(pg_catalog.text, pg_catalog.text, pg_catalog.int4) OWNER TO chip_race_logins;
REVOKE ALL ON FUNCTION chip_race_logins.station_login(pg_catalog.text, pg_catalog.text, pg_catalog.int4) FROM PUBLIC;
GRANT USAGE ON SCHEMA chip_race_logins TO chip_race_floor;
GRANT EXECUTE ON FUNCTION chip_race_logins.station_login(pg_catalog.text, pg_catalog.text, pg_catalog.int4) TO chip_race_floor;

import { createHash, randomBytes } from 'node:crypto';
import type { ClientBase } from 'pg';
import { STATION_CONNECTION_LIMIT, STATION_GROUP, STATION_IDLE_IN_TRANSACTION_MS, STATION_LOCK_TIMEOUT_MS, STATION_STATEMENT_TIMEOUT_MS } from './migrations';

/** The login role of a table's station: derived from its name, so any name (Finnish, Cyrillic, spaces) makes a valid role. */
export function stationRoleOf(table: string): string {
  return `chip_race_table_${createHash('sha256').update(table).digest('hex').slice(0, 16)}`;
}

/** Makes sure the floor knows the table (records for it may then arrive through the floor's own connection). */
export async function ensureTable(client: ClientBase, table: string): Promise<void> {
  await client.query('INSERT INTO floor_tables (table_name) VALUES ($1) ON CONFLICT DO NOTHING', [table]);
}

export interface StationLogin {
  readonly table: string;
  readonly role: string;
  readonly password: string;
}

/** The functions a cardroom's set-up (floor/db/cardroom.sql) gives the floor's role to make station logins with, bound their time and end their sessions. */
const LOGIN_MAKER = 'chip_race_logins.station_login(text,text,integer)';
const LIMITS_MAKER = 'chip_race_logins.station_limits(text,integer,integer,integer)';
const SESSIONS_ENDER = 'chip_race_logins.end_station_sessions(text)';

/** How long add-table waits for a lock before it says so: it never hangs on a station's open transaction. */
const ADD_TABLE_LOCK_TIMEOUT_MS = 5_000;

/** The table has a station login already: a new password only when asked to rotate it. */
export class StationLoginExists extends Error {
  constructor(readonly table: string) {
    super(`table ${table} already has a station login`);
  }
}

/** A cardroom set up by an earlier version: its set-up has no way to bound a login's time or end its sessions. */
export class CardroomSetUpOutdated extends Error {
  constructor() {
    super("the cardroom's set-up is older than this floor (it cannot bound a station login's time nor end its sessions): run its psql line again as docs/floor.md's \"Set up a cardroom\" says, then add the table again");
  }
}

/** add-table waited for a lock longer than it ever should (another add-table for the table, or a floor migration): nothing was changed. */
export class StationLoginBusy extends Error {
  constructor(readonly table: string) {
    super(`table ${table}'s login is being changed by something else right now (another add-table, or a floor starting): nothing was changed, try again`);
  }
}

const found = async (client: ClientBase, signature: string) => (await client.query<{ found: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS found', [signature])).rows[0]?.found === true;

/**
 * Gives a table's station its own login: a role in the station group with a fresh password. A
 * table that has one is refused unless `rotate` (then the password is replaced and every session
 * the login holds is ended, so a leaked one is revoked: the station using the old one is refused,
 * and one already connected with it is cut off). The role can insert and read back only its own
 * table's records (the schema's row-level security), over at most STATION_CONNECTION_LIMIT
 * connections, each statement bounded in time (STATION_STATEMENT_TIMEOUT_MS and its neighbours).
 *
 * Never waits on a station: its locks are taken with a lock timeout (a station's open transaction
 * holds a key-share lock on the table's row, which only a FOR UPDATE would wait for).
 *
 * A cardroom's floor role may not create roles itself: it goes through the set-up's narrow
 * functions. A superuser (the tests' throwaway clusters) creates the role directly.
 */
export async function createStationLogin(client: ClientBase, table: string, { rotate = false }: { readonly rotate?: boolean } = {}): Promise<StationLogin> {
  const role = stationRoleOf(table);
  const password = randomBytes(18).toString('base64url');
  const cardroom = await found(client, LOGIN_MAKER);
  if (cardroom && !((await found(client, LIMITS_MAKER)) && (await found(client, SESSIONS_ENDER)))) throw new CardroomSetUpOutdated();
  await boundStationLogins(client, cardroom);
  await client.query('BEGIN');
  try {
    await client.query(`SET LOCAL lock_timeout = ${ADD_TABLE_LOCK_TIMEOUT_MS}`);
    await ensureTable(client, table);
    // The table's row, locked: two add-table at once for one table make one login, the other is refused.
    const current = await client.query<{ role: string | null; exists: boolean }>('SELECT role_name AS role, EXISTS (SELECT FROM pg_roles WHERE rolname = role_name) AS exists FROM floor_tables WHERE table_name = $1 FOR NO KEY UPDATE', [table]);
    if (current.rows[0]?.role != null && current.rows[0].exists && !rotate) throw new StationLoginExists(table);
    if (cardroom) {
      await client.query('SELECT chip_race_logins.station_login($1, $2, $3)', [role, password, STATION_CONNECTION_LIMIT]);
    } else {
      const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      // Role names and passwords cannot be query parameters; the name is hex, the password base64url.
      const literal = `'${password}'`;
      if (exists.rowCount === 0) await client.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT ${STATION_CONNECTION_LIMIT} PASSWORD ${literal} IN ROLE ${STATION_GROUP}`);
      else await client.query(`ALTER ROLE ${role} LOGIN CONNECTION LIMIT ${STATION_CONNECTION_LIMIT} PASSWORD ${literal}`);
    }
    await limitLogin(client, role, cardroom);
    await client.query('UPDATE floor_tables SET role_name = $2 WHERE table_name = $1', [table, role]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if ((error as { code?: unknown }).code === '55P03') throw new StationLoginBusy(table);
    throw error;
  }
  // After the new password is committed (no session can start with the old one any more): every
  // session the login holds ends, twice over for one that was signing in with the old password
  // as the first pass looked.
  for (let pass = 0; pass < 2; pass += 1) await endStationSessions(client, role, cardroom);
  return { table, role, password };
}

/**
 * Gives every station login of this floor that has none its time limits: those made before they
 * were set at add-table, which migration 18 could not bound on a cardroom set up by an earlier
 * version (its set-up run again gives the floor's role chip_race_logins.station_limits). Returns how many.
 */
export async function boundStationLogins(client: ClientBase, cardroom: boolean): Promise<number> {
  const unbounded = await client.query<{ role: string }>(
    `SELECT r.rolname AS role FROM floor_tables t JOIN pg_roles r ON r.rolname = t.role_name
     WHERE NOT EXISTS (SELECT FROM pg_db_role_setting s WHERE s.setrole = r.oid AND s.setdatabase = 0 AND s.setconfig::text[] @> ARRAY[$1::text])`,
    [`statement_timeout=${STATION_STATEMENT_TIMEOUT_MS}`],
  );
  for (const { role } of unbounded.rows) await limitLogin(client, role, cardroom);
  return unbounded.rows.length;
}

/** Sets a station login's statement, lock and idle-in-transaction timeouts (ALTER ROLE … SET). */
async function limitLogin(client: ClientBase, role: string, cardroom: boolean): Promise<void> {
  if (cardroom) {
    await client.query('SELECT chip_race_logins.station_limits($1, $2, $3, $4)', [role, STATION_STATEMENT_TIMEOUT_MS, STATION_LOCK_TIMEOUT_MS, STATION_IDLE_IN_TRANSACTION_MS]);
    return;
  }
  // The name is hex (stationRoleOf): no quoting needed.
  await client.query(`ALTER ROLE ${role} SET statement_timeout = ${STATION_STATEMENT_TIMEOUT_MS}`);
  await client.query(`ALTER ROLE ${role} SET lock_timeout = ${STATION_LOCK_TIMEOUT_MS}`);
  await client.query(`ALTER ROLE ${role} SET idle_in_transaction_session_timeout = ${STATION_IDLE_IN_TRANSACTION_MS}`);
}

/** Ends every session of a station's login (waiting for each to be gone), through the cardroom's function where the floor's role may not signal others' sessions. Returns how many. */
export async function endStationSessions(client: ClientBase, role: string, cardroom?: boolean): Promise<number> {
  const viaCardroom = cardroom ?? (await found(client, SESSIONS_ENDER));
  const ended = viaCardroom
    ? await client.query<{ n: number }>('SELECT chip_race_logins.end_station_sessions($1) AS n', [role])
    : await client.query<{ n: number }>('SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000))::int AS n FROM pg_stat_activity WHERE usename = $1 AND pid <> pg_backend_pid()', [role]);
  return ended.rows[0]?.n ?? 0;
}

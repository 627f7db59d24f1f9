import { createHash, randomBytes } from 'node:crypto';
import type { ClientBase } from 'pg';
import { STATION_CONNECTION_LIMIT, STATION_GROUP } from './migrations';

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

/** The function a cardroom's set-up (floor/db/cardroom.sql) gives the floor's role to make station logins with. */
const LOGIN_MAKER = 'chip_race_logins.station_login(text,text,integer)';

/** The table has a station login already: a new password only when asked to rotate it. */
export class StationLoginExists extends Error {
  constructor(readonly table: string) {
    super(`table ${table} already has a station login`);
  }
}

/**
 * Gives a table's station its own login: a role in the station group with a fresh password. A
 * table that has one is refused unless `rotate` (then the password is replaced, so a leaked one
 * is revoked by making a new one: the station using the old one is refused). The role can
 * insert and read back only its own table's records (the schema's row-level security), over at
 * most STATION_CONNECTION_LIMIT connections.
 *
 * A cardroom's floor role may not create roles itself: it goes through the set-up's narrow
 * function. A superuser (the tests' throwaway clusters) creates the role directly.
 */
export async function createStationLogin(client: ClientBase, table: string, { rotate = false }: { readonly rotate?: boolean } = {}): Promise<StationLogin> {
  const role = stationRoleOf(table);
  const password = randomBytes(18).toString('base64url');
  await client.query('BEGIN');
  try {
    await ensureTable(client, table);
    // The table's row, locked: two add-table at once for one table make one login, the other is refused.
    const current = await client.query<{ role: string | null; exists: boolean }>('SELECT role_name AS role, EXISTS (SELECT FROM pg_roles WHERE rolname = role_name) AS exists FROM floor_tables WHERE table_name = $1 FOR UPDATE', [table]);
    if (current.rows[0]?.role != null && current.rows[0].exists && !rotate) throw new StationLoginExists(table);
    const maker = await client.query<{ found: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS found', [LOGIN_MAKER]);
    if (maker.rows[0]?.found) {
      await client.query('SELECT chip_race_logins.station_login($1, $2, $3)', [role, password, STATION_CONNECTION_LIMIT]);
    } else {
      const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      // Role names and passwords cannot be query parameters; the name is hex, the password base64url.
      const literal = `'${password}'`;
      if (exists.rowCount === 0) await client.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT ${STATION_CONNECTION_LIMIT} PASSWORD ${literal} IN ROLE ${STATION_GROUP}`);
      else await client.query(`ALTER ROLE ${role} LOGIN CONNECTION LIMIT ${STATION_CONNECTION_LIMIT} PASSWORD ${literal}`);
    }
    await client.query('UPDATE floor_tables SET role_name = $2 WHERE table_name = $1', [table, role]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return { table, role, password };
}

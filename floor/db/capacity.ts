import type { ClientBase } from 'pg';
import { say, type FloorLanguage } from '../page/words';

/**
 * How many connections a cardroom's PostgreSQL must allow, and whether it does.
 *
 * Each station's link (station/floorLink/link.ts) holds one connection while the console runs, idle
 * or not; the floor page holds a pool of its own (floor/pool.ts); PostgreSQL keeps
 * `superuser_reserved_connections` (3 by default) for its superuser; and a margin covers a
 * director's `floor status`, a `sync` from a station's folder, psql, a link reconnecting while
 * the server still counts its old connection. A server short of slots refuses the stations past
 * its limit (SQLSTATE 53300), which then say "the floor is full": Debian's default of 100 leaves
 * room for about 80 tables, so the README's set-up raises it (600 for 500 tables).
 */

/** Connections a station's link holds: one, from its start to its close. */
export const CONNECTIONS_PER_STATION = 1;
/** The floor page's pool (floor/pool.ts `max`). */
export const FLOOR_POOL_CONNECTIONS = 4;

/** The margin over the tables, the floor and the reserved slots: a tenth of the tables, at least 10. */
export function connectionMargin(tables: number): number {
  return Math.max(10, Math.ceil(tables / 10));
}

export interface ConnectionNeed {
  readonly tables: number;
  readonly maxConnections: number;
  readonly reserved: number;
  readonly pool: number;
  readonly margin: number;
  /** Connections the tables need, the reserved ones included: max_connections must be at least this. */
  readonly needed: number;
  /** The setting the director is told to give: `needed` rounded up to a hundred. */
  readonly suggested: number;
  readonly enough: boolean;
}

/** The sizing rule: tables × 1 + the floor's pool + superuser_reserved_connections + the margin. */
export function connectionNeed(tables: number, maxConnections: number, reserved: number): ConnectionNeed {
  const margin = connectionMargin(tables);
  const needed = tables * CONNECTIONS_PER_STATION + FLOOR_POOL_CONNECTIONS + reserved + margin;
  return { tables, maxConnections, reserved, pool: FLOOR_POOL_CONNECTIONS, margin, needed, suggested: Math.ceil(needed / 100) * 100, enough: maxConnections >= needed };
}

/** The server's settings (any role may read them) and the tables that have a station login. */
export async function checkConnections(client: ClientBase, extraTables = 0): Promise<ConnectionNeed> {
  const { rows } = await client.query<{ max: string; reserved: string; tables: number }>(
    "SELECT current_setting('max_connections') AS max, current_setting('superuser_reserved_connections') AS reserved, (SELECT count(*)::int FROM floor_tables WHERE role_name IS NOT NULL) AS tables",
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the database did not answer the connection check');
  return connectionNeed(row.tables + extraTables, Number(row.max), Number(row.reserved));
}

/** What the director reads when the server allows too few: the numbers, and exactly what to change. */
export function capacityWarning(need: ConnectionNeed, language: FloorLanguage): string {
  const params = { max: need.maxConnections, tables: need.tables, needed: need.needed, pool: need.pool, reserved: need.reserved, margin: need.margin, suggested: String(need.suggested) }; // the setting as psql takes it, never grouped (1,000)
  return `${say(language, 'floor.capacity.short', params)} ${say(language, 'floor.capacity.fix', params)}`;
}

/** The director's language for the command line: LC_ALL, LC_MESSAGES, LANG (fi_FI.UTF-8 → fi), else English. */
export function cliLanguage(env: NodeJS.ProcessEnv): FloorLanguage {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const language = value.slice(0, 2).toLowerCase();
    return language === 'fi' || language === 'ru' ? language : 'en';
  }
  return 'en';
}

import type { FloorTarget } from '../../protocol/contract';

/** The floor's host and database as the screens may show them; null for a URL that is not a PostgreSQL one. */
export function floorTargetOf(url: string, table: string, from: FloorTarget['from']): FloorTarget | null {
  let parsed: URL;
  let database: string;
  try {
    parsed = new URL(url);
    database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  } catch {
    // Not a URL, or a database name with a broken %-escape.
    return null;
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') return null;
  if (parsed.hostname === '' || database === '' || database.includes('/')) return null;
  return { host: parsed.port === '' ? parsed.hostname : `${parsed.hostname}:${parsed.port}`, database, table, from };
}

import type { Message } from '../../engine/messages';
import type { FloorTarget } from '../../protocol/contract';
import { parseFloorAddress, shownHosts } from '../../replication/floorAddress';

/**
 * The floor's host (or list of hosts, the primary first, as the URL writes them) and database as
 * the screens may show them; null for a URL that is not a PostgreSQL one.
 */
export function floorTargetOf(url: string, table: string, from: FloorTarget['from']): FloorTarget | null {
  const reading = parseFloorAddress(url);
  if (!reading.ok) return null;
  return { host: shownHosts(reading.address), database: reading.address.database, table, from };
}

/** Why a floor URL is refused, in the screens' words (never the URL itself: it holds the password); null when it is a floor's. */
export function floorUrlProblem(url: string): Message | null {
  const reading = parseFloorAddress(url);
  return reading.ok ? null : reading.problem;
}

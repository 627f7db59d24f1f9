import type { Message } from '../engine/messages';

/** The station's link to the floor as the screens see it: where it goes (never the password), and how it is. */
/** The floor a link goes to, as the screens may see it: never the password. */
export interface FloorTarget {
  readonly host: string;
  readonly database: string;
  readonly table: string;
  /** The settings screen's, or CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE (which override it). */
  readonly from: 'settings' | 'environment';
}

/** Why the floor cannot be reached, as the screens word it (the driver's code is kept as `detail`). */
export const FLOOR_OFFLINE_REASONS = ['unreachable', 'login', 'cleartext', 'md5', 'database', 'schema', 'table', 'full', 'standby', 'other'] as const;
export type FloorOfflineReason = (typeof FLOOR_OFFLINE_REASONS)[number];

/** Why the floor refuses a record on arrival: the codes its check writes (floor/db/migrations/03-definer-safety.ts and later, verify_station_record). */
export const FLOOR_REFUSAL_REASONS = ['changed-after-arrival', 'gap', 'header-not-json', 'header-unknown', 'no-seal', 'broken-link', 'bad-seal', 'not-json', 'no-header', 'seq-mismatch', 'bad-time'] as const;

/**
 * The station's link to the floor. `behind`: the floor is reachable and the records counted are
 * still to send. `refused`: the floor refused record `seq` on arrival (`reason`, its check's code):
 * the chain is broken from there and nothing later is stored.
 */
/** The floor's clock row the station's link refused (station/floorLink/clockRow.ts), said while it stays so; the clock followed last stands. */
export interface FloorClockRefusal {
  readonly clockRefused?: Message;
}

export type FloorLinkState =
  | { readonly state: 'off' }
  | ({ readonly state: 'connecting' | 'connected'; readonly floor: FloorTarget } & FloorClockRefusal)
  | ({ readonly state: 'behind'; readonly floor: FloorTarget; readonly records: number } & FloorClockRefusal)
  | { readonly state: 'offline'; readonly floor: FloorTarget; readonly since: string; readonly reason: FloorOfflineReason; readonly detail: string; readonly records: number }
  | { readonly state: 'refused'; readonly floor: FloorTarget; readonly seq: number; readonly reason: string; readonly records: number };

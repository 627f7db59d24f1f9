/** What the floor's migrations share: the shape of one, and the limits their SQL writes in (several migrations and the floor's code read them). */
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
 * benchmarks saw (floorRoom: 500 stations dealing, lag p95 up to 2.9 s). The link itself gives up on a statement after 15 s (station/floorLink/link.ts queryMs) and
 * sends it again: the server stops one a little later, instead of running it on for nobody.
 */
export const STATION_STATEMENT_TIMEOUT_MS = 20_000;
/** How long a station's statement may wait for a lock (its role's lock_timeout): its inserts wait only on its own other connection's same records, or a floor's migration; the link retries. */
export const STATION_LOCK_TIMEOUT_MS = 5_000;
/** How long a station's session may sit in an open transaction (its role's idle_in_transaction_session_timeout): a station's statements commit each on its own (replication/push.ts), so it never holds one. */
export const STATION_IDLE_IN_TRANSACTION_MS = 10_000;

/** `,"hash":"` + 64 hex digits + `"}`: the seal at the end of every journal line (journal/seal.ts). */
export const SEAL_LENGTH = 75;

/** How much of a refused line the floor keeps as evidence (with its SHA-256 and length): enough to read, never a flood. */
export const FAILURE_KEPT_BYTES = 1024;
/** How many refused lines a table keeps; beyond that they are only counted (floor_tables.failures_total). */
export const FAILURES_KEPT_PER_TABLE = 1000;
/** How much of a damaged line the floor keeps as evidence (with the SHA-256 and length of all of it). */
export const DAMAGED_KEPT_BYTES = 4096;

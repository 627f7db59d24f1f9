import type { ClientBase } from 'pg';
import { STATION_GROUP, STATION_IDLE_IN_TRANSACTION_MS, STATION_STATEMENT_TIMEOUT_MS } from './db/migrations';

/**
 * The floor's watchdog over its stations' statements (issue 44). A station's login has its own
 * statement and idle-in-transaction timeouts (migration 18), but they are the session's to change
 * (`SET statement_timeout = 0` is every user's right) and a cancel is the statement's to catch (a
 * `DO` block's `EXCEPTION WHEN query_canceled` goes on after one): a hostile station could still
 * run a query for ever on each of its connections and slow the floor for every table. Every
 * WATCHDOG_EVERY_MS the floor looks at the server's sessions and, of a station login's only (a
 * role named as stations' are, in the station group, no superuser; never the floor's own sessions
 * nor anyone else's), cancels a statement running past its limit plus WATCHDOG_MARGIN_MS, ends the
 * session whose statement went on after the last pass's cancel, and ends a session idle in an open
 * transaction past its limit plus the margin (a cancel does nothing to one). The margin lets the
 * server's own timeouts go first: the watchdog only stops what they did not.
 *
 * It signals only through what the floor's role may do: on a cardroom (a role with no right to
 * signal other sessions nor to read their state) the set-up's chip_race_logins.stop_station_overruns
 * (floor/db/cardroom.sql), which checks each session's role itself; on a floor whose role may
 * (a superuser: the tests, a home game) directly. With neither (a cardroom set up by an earlier
 * version) it says so once in the floor's log and looks again each pass.
 */

/** How far past a station login's own limits the watchdog lets a statement or an open transaction run. */
export const WATCHDOG_MARGIN_MS = 5_000;
/** How often the watchdog looks. */
export const WATCHDOG_EVERY_MS = 2_000;

export interface WatchdogLimits {
  /** A station's statement running longer than this is cancelled (ended, if the next pass finds it still running). */
  readonly statementMs: number;
  /** A station's session idle in an open transaction longer than this is ended. */
  readonly idleInTransactionMs: number;
}

/** The watchdog's limits: each station limit plus the margin. */
export const WATCHDOG_LIMITS: WatchdogLimits = {
  statementMs: STATION_STATEMENT_TIMEOUT_MS + WATCHDOG_MARGIN_MS,
  idleInTransactionMs: STATION_IDLE_IN_TRANSACTION_MS + WATCHDOG_MARGIN_MS,
};

/** The floor server's option (tests shorten it). */
export interface WatchdogOptions extends Partial<WatchdogLimits> {
  readonly everyMs?: number;
}

/** A station's statement or open transaction the watchdog stopped. */
export interface Overrun {
  readonly pid: number;
  /** The statement's start, in microseconds since 1970 (as text: an int8): with the pid, which statement it was. */
  readonly started: string;
  readonly role: string;
  /** The table whose login it is (null: a station login no table of this floor holds). */
  readonly table: string | null;
  readonly runningMs: number;
  /** Idle in an open transaction (else a statement running). */
  readonly idle: boolean;
  /** The session ended (else the statement cancelled). */
  readonly terminated: boolean;
}

/** How the floor's role may stop a station's statement: the cardroom's function, itself, or not at all. */
export type WatchdogWay = 'cardroom' | 'direct' | null;

/** The cardroom set-up's function (floor/db/cardroom.sql). */
export const OVERRUNS_STOPPER = 'chip_race_logins.stop_station_overruns(integer,integer,integer[],bigint[])';

export async function watchdogWay(client: ClientBase): Promise<WatchdogWay> {
  const found = await client.query<{ cardroom: boolean; direct: boolean }>(
    `SELECT to_regprocedure($1) IS NOT NULL AS cardroom,
            pg_has_role('pg_signal_backend', 'USAGE') AND pg_has_role('pg_read_all_stats', 'USAGE') AS direct`,
    [OVERRUNS_STOPPER],
  );
  const row = found.rows[0];
  return row?.cardroom === true ? 'cardroom' : row?.direct === true ? 'direct' : null;
}

/**
 * The floor's own look where its role may signal others' sessions and read their state: what
 * chip_race_logins.stop_station_overruns does on a cardroom (the same tests, the same signals).
 */
const DIRECT = `
WITH sessions AS MATERIALIZED (
  SELECT a.pid, r.rolname::text AS role_name,
         a.state IN ('idle in transaction', 'idle in transaction (aborted)') AS idle,
         CASE WHEN a.state IN ('idle in transaction', 'idle in transaction (aborted)') THEN a.state_change ELSE a.query_start END AS since,
         (EXTRACT(epoch FROM a.query_start) * 1000000)::int8 AS started
  FROM pg_stat_activity a JOIN pg_roles r ON r.oid = a.usesysid
  WHERE a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()
    AND a.state IN ('active', 'fastpath function call', 'idle in transaction', 'idle in transaction (aborted)')
    AND NOT r.rolsuper AND r.rolname ~ '^chip_race_table_[0-9a-f]{16}$'
    AND EXISTS (SELECT FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid AND g.rolname = '${STATION_GROUP}')
), overruns AS MATERIALIZED (
  SELECT s.pid, s.role_name, s.idle, s.started, (EXTRACT(epoch FROM clock_timestamp() - s.since) * 1000)::int8 AS running_ms,
         s.idle OR (s.pid, s.started) IN (SELECT u.pid, u.started FROM unnest($3::int4[], $4::int8[]) AS u(pid, started)) AS terminated
  FROM sessions s
  WHERE s.since < clock_timestamp() - make_interval(secs => (CASE WHEN s.idle THEN $2::int4 ELSE $1::int4 END) / 1000.0)
), signalled AS MATERIALIZED (
  SELECT o.*, CASE WHEN o.terminated THEN pg_terminate_backend(o.pid) ELSE pg_cancel_backend(o.pid) END AS signalled FROM overruns o
)
SELECT s.pid, s.role_name, s.started, s.running_ms, s.idle, s.terminated FROM signalled s WHERE s.signalled`;

const CARDROOM = 'SELECT o.pid, o.role_name, o.started, o.running_ms, o.idle, o.terminated FROM chip_race_logins.stop_station_overruns($1, $2, $3, $4) o';

/**
 * One look: stops every station statement and open transaction past `limits` (the way given), and
 * returns what it stopped, each with its table. `cancelledBefore`: what the last look cancelled,
 * ended now if still running.
 */
export async function stopOverruns(client: ClientBase, way: 'cardroom' | 'direct', limits: WatchdogLimits, cancelledBefore: readonly Overrun[]): Promise<Overrun[]> {
  const cancelled = cancelledBefore.filter((overrun) => !overrun.terminated && overrun.started !== '');
  const stopped = await client.query<{ pid: number; role_name: string; started: string | null; running_ms: string; idle: boolean; terminated: boolean; table_name: string | null }>(
    `SELECT o.*, t.table_name FROM (${way === 'cardroom' ? CARDROOM : DIRECT}) o LEFT JOIN public.floor_tables t ON t.role_name = o.role_name ORDER BY o.pid`,
    [Math.round(limits.statementMs), Math.round(limits.idleInTransactionMs), cancelled.map((overrun) => overrun.pid), cancelled.map((overrun) => overrun.started)],
  );
  return stopped.rows.map((row) => ({ pid: row.pid, started: row.started ?? '', role: row.role_name, table: row.table_name, runningMs: Number(row.running_ms), idle: row.idle, terminated: row.terminated }));
}

/** What the watchdog says of one stop in the floor's log: the table and its login, never the statement's text. */
function stopLine(overrun: Overrun, counts: { cancelled: number; ended: number }): string {
  const whose = `${overrun.table === null ? 'a station login of no table' : `table ${JSON.stringify(overrun.table)}`} (${overrun.role}, session ${overrun.pid})`;
  const seconds = (overrun.runningMs / 1000).toFixed(1);
  const what = overrun.idle
    ? `ended the session of ${whose}: idle in an open transaction for ${seconds} s`
    : overrun.terminated
      ? `ended the session of ${whose}: its statement ran on after a cancel, ${seconds} s in all`
      : `cancelled a statement of ${whose} running ${seconds} s`;
  return `watchdog: ${what} (so far ${counts.cancelled} cancelled, ${counts.ended} ended)`;
}

export interface Watchdog {
  readonly everyMs: number;
  /** One pass on a connection of the floor's. */
  pass(client: ClientBase): Promise<void>;
  /** What it stopped since the floor started. */
  readonly counts: { readonly cancelled: number; readonly ended: number };
}

export function createWatchdog(options: WatchdogOptions | undefined, log: (line: string) => void): Watchdog {
  const limits: WatchdogLimits = { statementMs: options?.statementMs ?? WATCHDOG_LIMITS.statementMs, idleInTransactionMs: options?.idleInTransactionMs ?? WATCHDOG_LIMITS.idleInTransactionMs };
  const counts = { cancelled: 0, ended: 0 };
  let cancelledBefore: readonly Overrun[] = [];
  let saidUnable = false;
  return {
    everyMs: options?.everyMs ?? WATCHDOG_EVERY_MS,
    counts,
    async pass(client) {
      const way = await watchdogWay(client);
      if (way === null) {
        if (!saidUnable) log(`watchdog: cannot stop a station's statement that runs past its limits: the floor's role may not signal other sessions, and the cardroom's set-up has no ${OVERRUNS_STOPPER.replace(/\(.*$/, '')} (run its psql line again, as docs/floor.md's "Set up a cardroom" says)`);
        saidUnable = true;
        cancelledBefore = [];
        return;
      }
      if (saidUnable) log("watchdog: stopping stations' statements that run past their limits");
      saidUnable = false;
      const stopped = await stopOverruns(client, way, limits, cancelledBefore);
      cancelledBefore = stopped;
      for (const overrun of stopped) {
        if (overrun.terminated) counts.ended += 1;
        else counts.cancelled += 1;
        log(stopLine(overrun, counts));
      }
    },
  };
}

import pg from 'pg';
import { floorPoolConfig, onSilentHost } from '../replication/floorClient';

/** Runs `work` on a connection of the floor's pool (FloorPool.withClient). */
export type WithClient = <T>(work: (client: pg.PoolClient) => Promise<T>) => Promise<T>;

export interface FloorPool {
  readonly withClient: WithClient;
  /** Since when the database has not answered (null: it answered the last time it was asked). */
  unreachableSince(): number | null;
  end(): Promise<void>;
}

/**
 * Whether an error means the connection to the database is gone (the server stopped, restarting or
 * shut down, the network down, a statement cut at the deadline: PostgreSQL's classes 08 and 57P,
 * Node's own error codes, the driver's words for a connection ended), not a refused statement nor
 * an error of the work's own. The pool's requests take it as the database unreachable; the fold
 * stops its pass on it rather than flag the table (floor/fold/store.ts).
 */
export function isConnectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return /^(08|57P)/.test(code) || /^E[A-Z]+$/.test(code);
  return /connection (terminated|ended)|not queryable|Client has encountered a connection error/i.test(String((error as Error | null)?.message ?? ''));
}

/** The floor server's pool: 4 connections, each statement cut past `queryTimeoutMs` (floor/server.ts QUERY_TIMEOUT_MS). */
export function createFloorPool(databaseUrl: string, queryTimeoutMs: number, now: () => number, log: (line: string) => void): FloorPool {
  const pool = new pg.Pool(floorPoolConfig(databaseUrl, { max: 4, connectionTimeoutMillis: 5_000 }, queryTimeoutMs));
  // A connection the server drops (a restart) is replaced on the next request; it is no crash.
  pool.on('error', (error) => log(`database: ${error.message}`));

  let unreachableSince: number | null = null;

  /**
   * Runs `work` on a connection of the pool: every route, the fold, the hold step, the clock's
   * buttons, the exports. While the connection is checked out its own 'error' is taken here (the
   * pool's listener covers idle ones only): the server stopped or crashed under a statement, or
   * between two, ends that statement (it rejects: the page says the database is gone, the fold and
   * the hold step try again on their next pass), never the process. A connection that failed is
   * dropped from the pool, not handed to the next request. A statement unanswered past the
   * deadline (the database's computer gone without a word) has its connection cut
   * (replication/floorClient.ts): it fails the same way. An idle connection to a host of the list
   * that stopped answering so is dropped unused, and the next goes to the list's other hosts.
   */
  const withClient: WithClient = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const checkOut = async (): Promise<pg.PoolClient> => {
      try {
        return await pool.connect();
      } catch (error) {
        unreachableSince ??= now();
        throw error;
      }
    };
    let client = await checkOut();
    while (onSilentHost(client)) {
      client.release(new Error('its host stopped answering'));
      client = await checkOut();
    }
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost ??= error;
      unreachableSince ??= now();
      log(`database: ${error.message}`);
    };
    client.on('error', onError);
    let failed: Error | undefined;
    try {
      const result = await work(client);
      if (lost === undefined) unreachableSince = null;
      return result;
    } catch (error) {
      if (isConnectionLost(error)) {
        unreachableSince ??= now();
        failed = error as Error;
      }
      throw error;
    } finally {
      // Released with the error (the pool ends it) when the connection failed; the pool's own
      // listener is back on it before this one comes off.
      client.release(lost ?? failed);
      client.removeListener('error', onError);
    }
  };

  return { withClient, unreachableSince: () => unreachableSince, end: () => pool.end() };
}

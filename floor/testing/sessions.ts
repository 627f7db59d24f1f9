import type pg from 'pg';
import { connectedClient } from './postgres';

/** The SQLSTATE a promise rejects with (null: it did not reject). */
export async function failureCode(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return String((error as { code?: unknown }).code ?? (error as Error).message);
  }
}

/** The 'error' a connection reports when the server ends it while it sits idle (no query of its own to reject). */
export function endedByServer(client: pg.Client): Promise<string> {
  return new Promise((resolve) => client.once('error', (error: Error & { code?: string }) => resolve(error.code ?? error.message)));
}

/** A statement that catches every cancel and goes on (a DO block is every role's to run): only ending its session stops it. */
export const CANCEL_CATCHER = 'DO $$ BEGIN LOOP BEGIN PERFORM pg_sleep(600); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END $$';

/** A connection's server process id. */
export async function pidOf(client: pg.Client): Promise<number> {
  return (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid as number;
}

/** How a hostile station's overruns ended: the SQLSTATE each got. */
export interface StationOverruns {
  /** `SELECT pg_sleep(600)` with its statement timeout off. */
  readonly sleep: string | null;
  /** How long the sleep ran, as the station saw it (ms). */
  readonly sleptMs: number;
  /** Whether the sleep's connection answered its next statement. */
  readonly answersAfter: boolean;
  /** CANCEL_CATCHER with its statement timeout off. */
  readonly catcher: string | null;
  /** A transaction left open, its idle-in-transaction timeout off: how its session ended. */
  readonly idle: string;
}

/**
 * What a station's login may do to run on for ever, its own limits turned off (they are the
 * session's to change), one after another on connections of its own (pushed to `clients`, for
 * the caller to end): a long sleep, a statement catching every cancel, a transaction left open.
 * Resolves once each has ended: never, while nothing stops them.
 */
export async function overrunAsStation(url: string, clients: pg.Client[]): Promise<StationOverruns> {
  const connection = async () => {
    const client = await connectedClient(url);
    clients.push(client);
    await client.query('SET statement_timeout = 0');
    return client;
  };
  const sleeper = await connection();
  const asked = Date.now();
  const sleep = await failureCode(sleeper.query('SELECT pg_sleep(600)'));
  const sleptMs = Date.now() - asked;
  const answersAfter = (await failureCode(sleeper.query('SELECT 1'))) === null;
  const catcher = await failureCode((await connection()).query(CANCEL_CATCHER));
  const idle = await connection();
  const idleEnded = endedByServer(idle);
  await idle.query('SET idle_in_transaction_session_timeout = 0');
  await idle.query('BEGIN');
  await idle.query('SELECT count(*) FROM station_records');
  return { sleep, sleptMs, answersAfter, catcher, idle: await idleEnded };
}

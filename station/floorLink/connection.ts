import type { Client } from 'pg';
import type { FloorOfflineReason } from '../../protocol/contract';
import { FLOOR_READ_ONLY } from '../../replication/floorAddress';

/** The floor link's connection: its timing, the statement settings, the refusal to answer anything but SCRAM, and why it is offline. */

export interface FloorLinkTiming {
  /** The first wait before connecting again; it doubles up to `retryMaxMs`. */
  readonly retryFirstMs: number;
  readonly retryMaxMs: number;
  /** How often the link looks at the floor while connected: its contact report and the clock. */
  readonly pollMs: number;
  /** How often at most a changing count of records to send is published. */
  readonly countMs: number;
  /** How long a connection attempt may take before it counts as unreachable. */
  readonly connectMs: number;
  /** How long a statement may go unanswered (a network gone without a word) before the connection is given up. */
  readonly queryMs: number;
  /**
   * How often at most the outbox cursor is written while records flow (and once more when they
   * stop, and at close): it only saves a restarted link reading the journal from its start, the
   * floor's last seq being what the sending resumes from, so a write per record (four file
   * operations) would only compete with the journal's own.
   */
  readonly cursorMs: number;
}

export const TIMING: FloorLinkTiming = { retryFirstMs: 500, retryMaxMs: 10_000, pollMs: 3_000, countMs: 1_000, connectMs: 5_000, queryMs: 15_000, cursorMs: 2_000 };

/**
 * The station's commits do not wait for the floor's disk: the floor's copy is a replica of the
 * journal, and a record the floor's server lost in a crash (acknowledged, not yet on its disk) is
 * sent again, since the link resumes from the last record the floor holds (resumePoint), never
 * from its own cursor alone. Waiting for a WAL flush per record (a batch is one record at a dealer's
 * pace) costs the server a wait and a wake-up per record at 500 tables.
 */
export const ASYNC_COMMIT = '-c synchronous_commit=off';

/** The code of the link's own refusal to answer a request for the password in clear text. */
const CLEARTEXT_REFUSED = 'CLEARTEXT-REFUSED';
/** The code of the link's own refusal to answer a request for the password's MD5 hash. */
const MD5_REFUSED = 'MD5-REFUSED';

/** The refusal reason of a floor that holds records this station never wrote, or lacks some it has before the last it holds. */
export const FLOOR_AHEAD = 'floor-ahead';

/**
 * Answers only SCRAM: never a server that asks for the password in clear text (pg_hba `password`)
 * or as its MD5 hash (pg_hba `md5`, whose hash replays as well as the password to whoever reads it
 * on the LAN, and lets them guess the password offline), which a server that is not the floor may
 * do to learn it. The connection is dropped before the driver can answer. The listeners go on the
 * driver's connection before `connect`, so they run before the driver's own.
 */
export function refuseCleartext(client: Client): void {
  const connection = (client as unknown as { connection: NodeJS.EventEmitter & { password: (password: string) => void; stream: { destroy: (error: Error) => void } } }).connection;
  const refuse = (message: string, code: string) => () => {
    connection.password = () => undefined;
    connection.stream.destroy(Object.assign(new Error(message), { code }));
  };
  connection.once('authenticationCleartextPassword', refuse('the floor asked for the password in clear text: not sent', CLEARTEXT_REFUSED));
  connection.once('authenticationMD5Password', refuse('the floor asked for the password as an MD5 hash: not sent (SCRAM only)', MD5_REFUSED));
}

/** The server's words when it has no connection slot left, for a failure that comes without its SQLSTATE. */
const TOO_MANY_CONNECTIONS = /too many (clients|connections)|remaining connection slots are reserved/i;

/**
 * A failure's short reason: what kind of trouble, and the driver's code. A failure without a code
 * (a timeout, a closed socket) has no detail: its message is the driver's English, and the screens
 * say the reason in the dealer's language.
 */
export function offlineReasonOf(error: unknown): { reason: FloorOfflineReason; detail: string } {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const message = String((error as Error | null)?.message ?? error);
  const detail = code.slice(0, 80);
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03'].includes(code)) return { reason: 'unreachable', detail };
  // The server has no connection slot left (max_connections reached: `sorry, too many clients
  // already`, or only the superuser's reserved slots left): the floor is full, not broken.
  if (code === '53300' || TOO_MANY_CONNECTIONS.test(message)) return { reason: 'full', detail };
  if (code === '') return { reason: /timeout|terminated|ended|closed|not queryable/i.test(message) ? 'unreachable' : 'other', detail };
  if (code === '28P01' || code === '28000') return { reason: 'login', detail };
  if (code === CLEARTEXT_REFUSED) return { reason: 'cleartext', detail };
  if (code === MD5_REFUSED) return { reason: 'md5', detail };
  // Every host of the floor's list answered read-only: a standby not promoted (yet).
  if (code === FLOOR_READ_ONLY) return { reason: 'standby', detail: '' };
  if (code === '3D000') return { reason: 'database', detail };
  if (code === '42P01' || code === '42883') return { reason: 'schema', detail };
  // The trigger's refusal of a record for a table that is not this login's (or a table the floor does not know).
  if (code === '42501' || code === '23503') return { reason: 'table', detail };
  return { reason: 'other', detail };
}


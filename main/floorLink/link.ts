import { Socket } from 'node:net';
import type { Client, ClientConfig } from 'pg';

type Driver = (typeof import('pg'))['default'];
import type { FloorLinkState, FloorOfflineReason, FloorTarget, ReaderHealthSummary } from '../../protocol/contract';
import { lastStoredSeq, pushRecords, reportContact, reportReaderHealth } from '../../replication/push';
import { nextBatch, writeCursor, type OutboxCursor } from '../../replication/outbox';
import { floorMismatch, resumePoint } from '../../replication/sync';
import { FLOOR_READ_ONLY, hostUrls, parseFloorAddress, WritableHosts } from '../../replication/floorAddress';
import type { Message } from '../../engine/messages';
import { readClockRow } from './clockRow';
import { floorTargetOf } from './target';

/** The floor's clock as its single row holds it: passed on as read, for the console's clock to follow. */
export interface FloorClockRow {
  readonly structure: unknown;
  readonly events: unknown;
  /** The floor's time (the database server's clock) less the station's, ms, as measured with the row. */
  readonly offsetMs: number;
}

/** This table's seating as the floor holds it (floor/seating.ts): checked by the service before it is taken. */
export interface FloorSeatsRow {
  readonly version: number;
  readonly broken: boolean;
  readonly seats: readonly { readonly seat: unknown; readonly player: unknown }[];
}

/** A decision of the floor's director on this table, as floor_decisions holds it (migration 10). */
export interface FloorDecisionRow {
  readonly id: number;
  readonly at: string;
  readonly by: string;
  readonly decision: string;
  readonly note: string;
  readonly raceId: string | null;
}

/** The most decisions read at a time (the rest next time). */
const DECISIONS_READ_MAX = 50;

/** How far the measured offset may move before the clock is handed on again (a round trip's jitter is far less). */
const OFFSET_MOVED_MS = 1000;

export interface FloorLinkOptions {
  readonly dataDir: string;
  /** The table's name on the floor. */
  readonly table: string;
  /** The floor's PostgreSQL URL (with the station's password). */
  readonly url: string;
  /** Where the URL and table came from (shown with the state). */
  readonly from: FloorTarget['from'];
  /** The journal's last seq when the link starts; `appended` tells it of each one after. */
  readonly journalSeq: number;
  /** Each change of the link's state (a count of records to send at most every `countMs`). */
  readonly onState: (state: FloorLinkState) => void;
  /** The floor's clock row each time it changed (null: the floor has no structure). */
  readonly onFloorClock?: (clock: FloorClockRow | null) => void;
  /**
   * The floor's clock row refused (nested too deep, too large, malformed: ./clockRow.ts), once each
   * time it became so: the clock passed on last stands. null: a row is taken again after a refusal.
   */
  readonly onFloorClockRefused?: (why: Message | null) => void;
  /** This table's seating each time its version moved (null: the floor seats this table no more, or holds no seating). */
  readonly onFloorSeats?: (seats: FloorSeatsRow | null) => void;
  /**
   * The director's decisions on this table the station has not journaled yet (ids above
   * `decisionsAfter()`), oldest first, as the floor's rows hold them: read with the clock, the same
   * cheap way (one small query on the table's index; a station reads only its own table's rows).
   */
  readonly onFloorDecisions?: (decisions: readonly FloorDecisionRow[]) => void;
  readonly decisionsAfter?: () => number;
  /**
   * The card reader's health now (protocol/readerHealth.ts; null: no reader in use), reported with
   * the contact when it changed since last reported on this connection.
   */
  readonly readerHealth?: () => ReaderHealthSummary | null;
  readonly timing?: Partial<FloorLinkTiming>;
  readonly now?: () => Date;
}

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

const TIMING: FloorLinkTiming = { retryFirstMs: 500, retryMaxMs: 10_000, pollMs: 3_000, countMs: 1_000, connectMs: 5_000, queryMs: 15_000, cursorMs: 2_000 };

/**
 * The station's commits do not wait for the floor's disk: the floor's copy is a replica of the
 * journal, and a record the floor's server lost in a crash (acknowledged, not yet on its disk) is
 * sent again, since the link resumes from the last record the floor holds (resumePoint), never
 * from its own cursor alone. Waiting for a WAL flush per record (a batch is one record at a dealer's
 * pace) costs the server a wait and a wake-up per record at 500 tables.
 */
const ASYNC_COMMIT = '-c synchronous_commit=off';

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
function refuseCleartext(client: Client): void {
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

/**
 * The station's live link to the floor. The journal is the outbox (replication/outbox.ts): the link
 * sends what the floor does not hold yet, in the background, woken after each append (never
 * awaited by it: dealing does not wait for the database) and by a retry timer with backoff while
 * the floor cannot be reached. A connection lost is dropped and a fresh one made. The floor
 * refusing a record on arrival stops the sending: nothing after it can be stored (the chain is
 * broken there), so the link says so and waits to be started again.
 */
export class FloorLink {
  private readonly timing: FloorLinkTiming;
  private readonly target: FloorTarget;
  /** The hosts of the floor's list, the primary first (the one that last accepted writes tried first). */
  private readonly hosts: WritableHosts;
  private client: Client | null = null;
  /** The socket of the connection being made: destroyed by close, so a floor that never answers does not hold up closing. */
  private connecting: Socket | null = null;
  private cursor: OutboxCursor | null = null;
  private floorHas = 0;
  private journalSeq: number;
  private state: FloorLinkState;
  /** The state last handed to onState, and when. */
  private published: { state: FloorLinkState; at: number } | null = null;
  private countTimer: NodeJS.Timeout | undefined;
  private behindTimer: NodeJS.Timeout | undefined;
  /** Records appended while connected and not yet known taken, oldest first, with when (Date.now()): what makes the link behind once older than countMs. */
  private unsentSince: Array<{ readonly seq: number; readonly at: number }> = [];
  private pending = false;
  private running: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private readonly pollTimer: NodeJS.Timeout;
  private pollDue = true;
  private clockSeen: string | undefined;
  /** The floor's clock row last refused (its `seen`), so a refusal is said once while the row stays so. */
  private clockRefused: string | undefined;
  /** The version and broken mark of this table's seating last handed on ("none": the floor seats it not). */
  private seatsSeen: string | undefined;
  private offsetSeen = 0;
  /** The reader health last reported on this connection (JSON), so an unchanged one is not written again. */
  private healthSent: string | undefined;
  private closed = false;
  /** The cursor moved since it was last written; when it was written; the timer that writes the last move. */
  private cursorUnsaved = false;
  private cursorSavedAt = 0;
  private cursorTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: FloorLinkOptions,
    private readonly pg: Driver,
  ) {
    this.timing = { ...TIMING, ...options.timing };
    this.retryMs = this.timing.retryFirstMs;
    this.journalSeq = options.journalSeq;
    const target = floorTargetOf(options.url, options.table, options.from);
    const address = parseFloorAddress(options.url);
    if (target === null || !address.ok) throw new Error('the floor link needs a postgres:// URL with a host (or a list of them) and a database');
    this.target = target;
    this.hosts = new WritableHosts(hostUrls(address.address));
    this.state = { state: 'connecting', floor: target };
    this.pollTimer = setInterval(() => {
      this.pollDue = true;
      this.wake();
    }, this.timing.pollMs);
    this.pollTimer.unref();
  }

  /** Starts a link (the `pg` driver is loaded only now: a console without a floor never loads it). */
  static async start(options: FloorLinkOptions): Promise<FloorLink> {
    const pg = (await import('pg')).default;
    const link = new FloorLink(options, pg);
    link.emit();
    link.wake();
    return link;
  }

  get current(): FloorLinkState {
    return this.state;
  }

  /** A record was appended to the journal: the link sends it when it can. Returns at once. */
  appended(seq: number): void {
    if (seq > this.journalSeq) this.journalSeq = seq;
    // Connected, a record is sent at once: only one still not taken after `countMs` makes the link behind.
    if (this.state.state === 'connected') {
      this.unsentSince.push({ seq, at: Date.now() });
      this.checkBehindSoon();
    } else if (this.state.state === 'behind' || this.state.state === 'offline' || this.state.state === 'refused') this.setState({ ...this.state, records: this.toSend() });
    this.wake();
  }

  /**
   * Says "behind" once the oldest record appended while connected is still unsent `countMs` after
   * it was appended; looks again when the next one comes of age. The timer counts from each
   * record's own append, not from the first of a stream: cards dealt steadily to a floor that takes
   * each in time never make the link behind.
   */
  private checkBehindSoon(): void {
    if (this.behindTimer !== undefined) return;
    while (this.unsentSince.length > 0 && (this.unsentSince[0] as { seq: number }).seq <= this.floorHas) this.unsentSince.shift();
    const oldest = this.unsentSince[0];
    if (oldest === undefined || this.state.state !== 'connected') {
      this.unsentSince = [];
      return;
    }
    const wait = oldest.at + this.timing.countMs - Date.now();
    if (wait <= 0) {
      this.unsentSince = [];
      this.setState({ state: 'behind', floor: this.target, records: this.toSend() });
      return;
    }
    this.behindTimer = setTimeout(() => {
      this.behindTimer = undefined;
      this.checkBehindSoon();
    }, wait);
  }

  private toSend(): number {
    return Math.max(0, this.journalSeq - this.floorHas);
  }

  /** Runs the sending once more after the current run (runs never overlap), unless waiting to retry. */
  private wake(): void {
    if (this.closed) return;
    this.pending = true;
    if (this.running !== null || this.retryTimer !== undefined) return;
    this.running = this.pump().finally(() => {
      this.running = null;
    });
  }

  private async pump(): Promise<void> {
    while (this.pending && !this.closed) {
      this.pending = false;
      try {
        await this.round();
        this.retryMs = this.timing.retryFirstMs;
      } catch (error) {
        if (this.closed) return;
        this.failed(error);
        return;
      }
    }
  }

  /** The floor cannot be reached (or refused the connection): offline since the first failure, and again later. */
  private failed(error: unknown): void {
    this.dropClient();
    const since = this.state.state === 'offline' ? this.state.since : (this.options.now?.() ?? new Date()).toISOString();
    const why = offlineReasonOf(error);
    this.setState({ state: 'offline', floor: this.target, since, ...why, records: this.toSend() });
    // A full floor is asked again only after the longest wait: each try costs its server a backend
    // (forked and authenticated before it is refused), and a room of them trying at once took the
    // superuser's reserved slots, refusing the director's psql that makes room (system/floorFull).
    // Each wait is jittered, half to all of it: stations dropped together come back spread out.
    const wait = Math.round((why.reason === 'full' ? this.timing.retryMaxMs : this.retryMs) * (0.5 + Math.random() / 2));
    this.retryMs = Math.min(this.retryMs * 2, this.timing.retryMaxMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.pollDue = true;
      this.wake();
    }, wait);
  }

  private dropClient(): void {
    const client = this.client;
    this.client = null;
    client?.end().catch(() => undefined);
  }

  /**
   * Connects to the floor: to the first host of its list that accepts writes (the primary, else a
   * standby once promoted; the one that last did tried first), each host tried as one floor was,
   * with the same timeouts, the cleartext refusal and a socket close can destroy.
   */
  private async connect(): Promise<Client> {
    const client = await this.hosts.connect((url) => this.connectTo(url), () => this.closed);
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('closed');
    }
    this.client = client;
    this.healthSent = undefined;
    const resumed = await resumePoint(client, this.options.table, this.options.dataDir);
    this.floorHas = resumed.floorHas;
    this.cursor = resumed.cursor;
    this.pollDue = true;
    if (await this.floorLacks(client)) return client;
    if (this.state.state !== 'refused') this.setState(this.toSend() === 0 ? { state: 'connected', floor: this.target } : { state: 'behind', floor: this.target, records: this.toSend() });
    return client;
  }

  /** One host's connection (its URL one host of the floor's list), connected. */
  private async connectTo(url: string): Promise<Client> {
    const socket = new Socket();
    const config: ClientConfig = { connectionString: url, connectionTimeoutMillis: this.timing.connectMs, query_timeout: this.timing.queryMs, keepAlive: true, keepAliveInitialDelayMillis: 10_000, application_name: 'chip-race-station', options: ASYNC_COMMIT, stream: () => socket };
    const client = new this.pg.Client(config);
    refuseCleartext(client);
    client.on('error', (error) => {
      // A connection lost while idle (the server stopped, the network gone): dropped now, made
      // afresh on the retry. A query in flight rejects by itself and lands in `failed` too.
      if (this.client !== client || this.closed) return;
      if (this.running === null) this.failed(error);
      else this.dropClient();
    });
    this.connecting = socket;
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => undefined);
      throw error;
    } finally {
      this.connecting = null;
    }
    return client;
  }

  /**
   * Whether the floor holds records this station never wrote or lacks some it has (see
   * floorMismatch): then the link says so (refused, `floor-ahead`), never "connected", and sends
   * nothing until the floor is put right (looked at again at each poll).
   */
  private async floorLacks(client: Client): Promise<boolean> {
    const seq = await floorMismatch(client, this.options.table, this.journalSeq);
    if (seq === null) {
      if (this.state.state === 'refused' && this.state.reason === FLOOR_AHEAD) this.setState({ state: 'connecting', floor: this.target });
      return false;
    }
    this.setState({ state: 'refused', floor: this.target, seq, reason: FLOOR_AHEAD, records: Math.max(0, this.journalSeq - seq + 1) });
    return true;
  }

  /** One run: connected, everything the journal holds now sent, and (when due) the contact reported and the clock read. */
  private async round(): Promise<void> {
    const client = this.client ?? (await this.connect());
    if (this.pollDue && this.state.state === 'refused' && this.state.reason === FLOOR_AHEAD && !(await this.floorLacks(client))) {
      const resumed = await resumePoint(client, this.options.table, this.options.dataDir);
      this.floorHas = resumed.floorHas;
      this.cursor = resumed.cursor;
    }
    if (this.state.state !== 'refused') await this.send(client);
    // The cursor's last move, once its time is up (the timer's wake-up; a no-op otherwise).
    await this.saveCursor(false);
    if (this.pollDue) {
      this.pollDue = false;
      await reportContact(client, this.options.table, this.toSend());
      await this.reportHealth(client);
      await this.readClock(client);
      await this.readSeats(client);
      await this.readDecisions(client);
    }
  }

  private async reportHealth(client: Client): Promise<void> {
    if (this.options.readerHealth === undefined) return;
    const health = this.options.readerHealth();
    const seen = JSON.stringify(health);
    if (seen === this.healthSent) return;
    // A floor without a place for it (before migration 14) is not asked again on this connection.
    await reportReaderHealth(client, this.options.table, health);
    this.healthSent = seen;
  }

  private async readDecisions(client: Client): Promise<void> {
    const { onFloorDecisions, decisionsAfter } = this.options;
    if (onFloorDecisions === undefined) return;
    const after = decisionsAfter?.() ?? 0;
    let rows: { id: string; at: Date; by: string; decision: string; note: string; race_id: string | null }[];
    try {
      rows = (
        await client.query<{ id: string; at: Date; by: string; decision: string; note: string; race_id: string | null }>(
          `SELECT id, decided_at AS at, decided_by AS by, decision, note, race_id FROM floor_decisions WHERE table_name = $1 AND id > $2 ORDER BY id LIMIT ${DECISIONS_READ_MAX}`,
          [this.options.table, after],
        )
      ).rows;
    } catch (error) {
      // A floor not yet migrated to keep decisions (10) has none.
      if ((error as { code?: unknown }).code === '42P01') return;
      throw error;
    }
    if (rows.length === 0) return;
    onFloorDecisions(rows.map((row) => ({ id: Number(row.id), at: row.at.toISOString(), by: row.by, decision: row.decision, note: row.note, raceId: row.race_id })));
  }

  private async send(client: Client): Promise<void> {
    let cursor = this.cursor as OutboxCursor;
    for (;;) {
      if (this.closed) return;
      const batch = await nextBatch(this.options.dataDir, cursor, this.floorHas);
      if (batch.records.length > 0) {
        const outcome = await pushRecords(client, this.options.table, batch.records);
        const first = outcome.refused[0];
        if (first !== undefined) {
          // Stored up to the record before it (the trigger stores nothing out of chain); the cursor
          // stays where it was, so a link started again meets the same refusal, not a gap.
          this.floorHas = await lastStoredSeq(client, this.options.table);
          this.setState({ state: 'refused', floor: this.target, seq: first.seq, reason: first.reason, records: this.toSend() });
          return;
        }
        this.floorHas = Math.max(this.floorHas, ...batch.records.map((record) => record.seq));
      }
      if (batch.next.offset !== cursor.offset || batch.next.seq !== cursor.seq) {
        cursor = batch.next;
        this.cursor = cursor;
        this.cursorUnsaved = true;
        await this.saveCursor(false);
      }
      if (!batch.more) break;
      this.setState({ state: 'behind', floor: this.target, records: this.toSend() });
    }
    this.journalSeq = Math.max(this.journalSeq, this.floorHas);
    const records = this.toSend();
    if (records === 0) this.setState({ state: 'connected', floor: this.target });
    // Connected, a record appended while this push was under way is the next round's (appended()
    // woke it), not a reason to say "behind": only one still unsent after countMs is (checkBehindSoon).
    // Said at once, a slow floor made the state flicker behind/connected with every push.
    else if (this.state.state === 'connected') this.checkBehindSoon();
    else this.setState({ state: 'behind', floor: this.target, records });
  }

  /**
   * Writes the cursor if it moved, at most every `cursorMs` unless `now` (the last move is
   * written by a timer once that time is up; runs never overlap, so neither do the writes).
   */
  private async saveCursor(now: boolean): Promise<void> {
    if (!this.cursorUnsaved || this.cursor === null) return;
    const wait = this.cursorSavedAt + this.timing.cursorMs - Date.now();
    if (!now && wait > 0) {
      if (this.cursorTimer === undefined && !this.closed) {
        this.cursorTimer = setTimeout(() => {
          this.cursorTimer = undefined;
          this.wake();
        }, wait);
        this.cursorTimer.unref();
      }
      return;
    }
    this.cursorUnsaved = false;
    this.cursorSavedAt = Date.now();
    await writeCursor(this.options.dataDir, this.cursor);
  }

  private async readClock(client: Client): Promise<void> {
    if (this.options.onFloorClock === undefined) return;
    // The floor's time read with its row (the database server's clock, not this computer's: a
    // station an hour off still reaches the break with the floor), taken as of the round trip's middle.
    const sent = this.localNow();
    // The house's rules, the held break and the option to hold read through the row's JSON: a floor not yet migrated to hold them (8, 11) has none, not an error.
    const result = await client.query<{ structure: unknown; events: unknown; house: unknown; held: unknown; hold_breaks: unknown; floor_now: number }>(
      "SELECT structure, events, to_jsonb(clock) -> 'house' AS house, to_jsonb(clock) -> 'held' AS held, to_jsonb(clock) -> 'hold_breaks' AS hold_breaks, extract(epoch FROM clock_timestamp())::float8 * 1000 AS floor_now FROM floor_clock AS clock LIMIT 1",
    );
    const offsetMs = Math.round(Number(result.rows[0]?.floor_now ?? NaN) - (sent + this.localNow()) / 2);
    // Nested, oversized or malformed: refused (a finding, said once), the clock as it was, the link going on.
    const reading = readClockRow(result.rows[0]);
    if ('refused' in reading) {
      if (reading.seen !== this.clockRefused) this.options.onFloorClockRefused?.(reading.refused);
      this.clockRefused = reading.seen;
      return;
    }
    if (this.clockRefused !== undefined) this.options.onFloorClockRefused?.(null);
    this.clockRefused = undefined;
    const { clock, seen } = reading;
    const moved = Number.isFinite(offsetMs) && Math.abs(offsetMs - this.offsetSeen) > OFFSET_MOVED_MS;
    if (seen === this.clockSeen && !moved) return;
    this.clockSeen = seen;
    if (Number.isFinite(offsetMs)) this.offsetSeen = offsetMs;
    this.options.onFloorClock(clock === null ? null : { ...clock, offsetMs: this.offsetSeen });
  }

  /**
   * This table's seating, read only when its version moved: each poll reads one row (the
   * station's own, by row-level security), the seats themselves only after a change. A floor not
   * yet migrated to hold a seating (9) has none, not an error.
   */
  private async readSeats(client: Client): Promise<void> {
    if (this.options.onFloorSeats === undefined) return;
    let head;
    try {
      head = await client.query<{ version: string; broken: boolean }>('SELECT version, broken_at IS NOT NULL AS broken FROM floor_seating_tables WHERE table_name = $1', [this.options.table]);
    } catch (error) {
      if ((error as { code?: unknown }).code !== '42P01') throw error;
      head = { rows: [] };
    }
    const row = head.rows[0];
    const seen = row === undefined ? 'none' : `${row.version}:${row.broken}`;
    if (seen === this.seatsSeen) return;
    if (row === undefined) {
      this.seatsSeen = seen;
      this.options.onFloorSeats(null);
      return;
    }
    const seats = await client.query<{ seat: unknown; player: unknown }>('SELECT seat, player FROM floor_seating WHERE table_name = $1 ORDER BY seat', [this.options.table]);
    this.seatsSeen = seen;
    this.options.onFloorSeats({ version: Number(row.version), broken: row.broken, seats: seats.rows });
  }

  private localNow(): number {
    return (this.options.now?.() ?? new Date()).getTime();
  }

  private setState(state: FloorLinkState): void {
    this.state = state;
    this.emit();
  }

  /**
   * Hands the state on when it changed; a count that only went up or down (records to send) at
   * most every `countMs`, the latest one when that time is up.
   */
  private emit(): void {
    if (this.closed) return;
    const last = this.published;
    const state = this.state;
    if (last !== null && JSON.stringify(last.state) === JSON.stringify(state)) return;
    const now = Date.now();
    const countOnly = last !== null && last.state.state === state.state && JSON.stringify({ ...last.state, records: 0 }) === JSON.stringify({ ...state, records: 0 });
    if (countOnly && now - last.at < this.timing.countMs) {
      if (this.countTimer === undefined) {
        this.countTimer = setTimeout(() => {
          this.countTimer = undefined;
          this.emit();
        }, this.timing.countMs - (now - last.at));
      }
      return;
    }
    clearTimeout(this.countTimer);
    this.countTimer = undefined;
    this.published = { state, at: now };
    this.options.onState(state);
  }

  /** Stops the sending and the timers and ends the connection (a run under way finishes its statement first). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.countTimer);
    clearTimeout(this.behindTimer);
    clearTimeout(this.cursorTimer);
    this.retryTimer = undefined;
    this.connecting?.destroy();
    await this.running?.catch(() => undefined);
    await this.saveCursor(true).catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

import { Socket } from 'node:net';
import type { Client, ClientConfig } from 'pg';

type Driver = (typeof import('pg'))['default'];
import type { FloorLinkState, FloorTarget, ReaderHealthSummary } from '../../protocol/contract';
import { lastStoredSeq, pushRecords, reportContact, reportReaderHealth } from '../../replication/push';
import { nextBatch, writeCursor, type OutboxCursor } from '../../replication/outbox';
import { floorMismatch, resumePoint } from '../../replication/sync';
import { hostUrls, parseFloorAddress, WritableHosts } from '../../replication/floorAddress';
import { inboxFor, type FloorInbox, type FloorInboxTakers } from './inbox';
import { floorTargetOf } from './target';
import { StatePublisher } from './statePublisher';
import { ASYNC_COMMIT, FLOOR_AHEAD, offlineReasonOf, refuseCleartext, TIMING, type FloorLinkTiming } from './connection';

// The rows the inbox hands on, and the connection's parts, as they were named here.
export { FLOOR_AHEAD, offlineReasonOf, type FloorLinkTiming } from './connection';
export type { FloorClockRow, FloorDecisionRow, FloorSeatsRow } from './inbox';

/** The link's options; what it reads of the floor goes to the takers of its inbox (./inbox.ts). */
export interface FloorLinkOptions extends FloorInboxTakers {
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
  /**
   * The card reader's health now (protocol/readerHealth.ts; null: no reader in use), reported with
   * the contact when it changed since last reported on this connection.
   */
  readonly readerHealth?: () => ReaderHealthSummary | null;
  readonly timing?: Partial<FloorLinkTiming>;
  readonly now?: () => Date;
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
  /** The state as handed to onState. */
  private readonly publisher: StatePublisher;
  private behindTimer: NodeJS.Timeout | undefined;
  /** Records appended while connected and not yet known taken, oldest first, with when (Date.now()): what makes the link behind once older than countMs. */
  private unsentSince: Array<{ readonly seq: number; readonly at: number }> = [];
  private pending = false;
  private running: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private readonly pollTimer: NodeJS.Timeout;
  private pollDue = true;
  /** What the floor sends this station (its clock, this table's seating, the director's decisions): read each poll. */
  private readonly inbox: FloorInbox;
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
    this.publisher = new StatePublisher(this.timing.countMs, () => this.state, options.onState);
    this.inbox = inboxFor(options.table, options, options.now);
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
    link.publisher.emit();
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
      await this.inbox.read(client);
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

  private setState(state: FloorLinkState): void {
    this.state = state;
    this.publisher.emit();
  }

  /** Stops the sending and the timers and ends the connection (a run under way finishes its statement first). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.retryTimer);
    this.publisher.close();
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

import type { Message } from '../../engine/messages';
import { boolean, custom, nullable, object, parse, refuse, type Infer } from '../../protocol/schema';
import { readClockRow } from './clockRow';

/**
 * The floor's inbox, the mirror of the outbox (replication/outbox.ts): what the station reads of
 * the floor each poll, its clock, this table's seating and the director's decisions, each row read
 * by its schema here and handed on as one typed message. The service journals what it takes of
 * them as records (replay/floorRecords.ts: `floor-tournament`, `floor-seating`, `floor-decision`).
 * The link (./link.ts) keeps the connection and the outbox's sending, and asks the inbox to read.
 */

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

/**
 * What the inbox hands on, one message per thing read that changed: each row read by its schema
 * (the clock by FLOOR_CLOCK_ROW in ./clockRow.ts, the seating's head by SEATING_HEAD, a decision by
 * DECISION_ROW; the seats' contents and the clock's events the service checks as it takes them).
 */
export type FloorMessage =
  /** The floor's clock row (null: the floor has no structure). */
  | { readonly kind: 'clock'; readonly clock: FloorClockRow | null }
  /** The clock row refused (./clockRow.ts), once each time it became so; null: a row taken again after a refusal. */
  | { readonly kind: 'clock-refused'; readonly why: Message | null }
  /** This table's seating (null: the floor seats it no more, or holds no seating). */
  | { readonly kind: 'seating'; readonly seats: FloorSeatsRow | null }
  /** The director's decisions not journaled yet, oldest first. */
  | { readonly kind: 'decisions'; readonly rows: readonly FloorDecisionRow[] };

/** A connection the inbox reads through (pg's Client, or a test's stand-in). */
export interface InboxQueryable {
  query<Row>(text: string, values?: readonly unknown[]): Promise<{ readonly rows: Row[] }>;
}

/** A column that is not what the floor's schema makes it (a floor of another make, a stand-in). */
const notRow = { key: 'command.notObject' } as const;
/** A bigint column as the driver gives it (text), as a whole number. */
const bigint = custom((value): number => {
  const read = typeof value === 'string' || typeof value === 'number' ? Number(value) : Number.NaN;
  return Number.isSafeInteger(read) ? read : refuse(notRow);
});
const textColumn = custom((value): string => (typeof value === 'string' ? value : refuse(notRow)));
const timestamp = custom((value): string => (value instanceof Date && Number.isFinite(value.getTime()) ? value.toISOString() : refuse(notRow)));

/** A row of floor_decisions as the inbox reads it. */
export const DECISION_ROW = object({ id: bigint, at: timestamp, by: textColumn, decision: textColumn, note: textColumn, race_id: nullable(textColumn) }, notRow, true);
/** The head of this table's seating (floor_seating_tables): its version, and whether the floor broke the table. */
export const SEATING_HEAD = object({ version: bigint, broken: boolean(notRow) }, notRow, true);

/** A decision row as the service takes it. */
export function decisionOf(row: Infer<typeof DECISION_ROW>): FloorDecisionRow {
  return { id: row.id, at: row.at, by: row.by, decision: row.decision, note: row.note, raceId: row.race_id };
}

/** The most decisions read at a time (the rest next time). */
export const DECISIONS_READ_MAX = 50;

/** How far the measured offset may move before the clock is handed on again (a round trip's jitter is far less). */
const OFFSET_MOVED_MS = 1000;

export interface FloorInboxOptions {
  /** The table's name on the floor. */
  readonly table: string;
  /** What is read: only the parts someone takes. */
  readonly reads: { readonly clock: boolean; readonly seating: boolean; readonly decisions: boolean };
  /** The id of the last decision journaled: only those after it are read. */
  readonly decisionsAfter?: () => number;
  readonly deliver: (message: FloorMessage) => void;
  readonly now?: () => Date;
}

/** The messages the station takes as commands (floorCommands.ts FloorTakers): the clock's refusal is the link's state's. */
export type FloorFactMessage = Exclude<FloorMessage, { readonly kind: 'clock-refused' }>;

/**
 * Who takes what the inbox reads (the floor link's options): the station takes every message
 * through `onFloorMessage`, its one way in; a tool or a test taking one kind gives only that kind's
 * taker. Only what someone takes is read.
 */
export interface FloorInboxTakers {
  /** Every message the inbox reads, clock, its refusal, seating and decisions alike, in the order read. */
  readonly onFloorMessage?: (message: FloorMessage) => void;
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
}

/** The inbox for `takers`: each message to the one that takes it. */
export function inboxFor(table: string, takers: FloorInboxTakers, now?: () => Date): FloorInbox {
  const { onFloorMessage, onFloorClock, onFloorClockRefused, onFloorSeats, onFloorDecisions, decisionsAfter } = takers;
  const all = onFloorMessage !== undefined;
  return new FloorInbox({
    table,
    reads: { clock: all || onFloorClock !== undefined, seating: all || onFloorSeats !== undefined, decisions: all || onFloorDecisions !== undefined },
    ...(decisionsAfter === undefined ? {} : { decisionsAfter }),
    ...(now === undefined ? {} : { now }),
    deliver: (message) => {
      onFloorMessage?.(message);
      if (message.kind === 'clock') onFloorClock?.(message.clock);
      else if (message.kind === 'clock-refused') onFloorClockRefused?.(message.why);
      else if (message.kind === 'seating') onFloorSeats?.(message.seats);
      else onFloorDecisions?.(message.rows);
    },
  });
}

const UNDEFINED_TABLE = '42P01';
const isUndefinedTable = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === UNDEFINED_TABLE;

/**
 * Reads the floor's clock, this table's seating and its decisions, each handed on only when it
 * changed (the clock: its row, or the floor's offset moved; the seating: its version; decisions:
 * those after the last journaled). Its memory of what it handed on outlives a connection.
 */
export class FloorInbox {
  private clockSeen: string | undefined;
  /** The floor's clock row last refused (its `seen`), so a refusal is said once while the row stays so. */
  private clockRefused: string | undefined;
  /** The version and broken mark of this table's seating last handed on ("none": the floor seats it not). */
  private seatsSeen: string | undefined;
  private offsetSeen = 0;

  constructor(private readonly options: FloorInboxOptions) {}

  /** One poll's reading, in the order the link has always read them: clock, seating, decisions. */
  async read(client: InboxQueryable): Promise<void> {
    await this.readClock(client);
    await this.readSeats(client);
    await this.readDecisions(client);
  }

  private localNow(): number {
    return (this.options.now?.() ?? new Date()).getTime();
  }

  private async readClock(client: InboxQueryable): Promise<void> {
    if (!this.options.reads.clock) return;
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
      if (reading.seen !== this.clockRefused) this.options.deliver({ kind: 'clock-refused', why: reading.refused });
      this.clockRefused = reading.seen;
      return;
    }
    if (this.clockRefused !== undefined) this.options.deliver({ kind: 'clock-refused', why: null });
    this.clockRefused = undefined;
    const { clock, seen } = reading;
    const moved = Number.isFinite(offsetMs) && Math.abs(offsetMs - this.offsetSeen) > OFFSET_MOVED_MS;
    if (seen === this.clockSeen && !moved) return;
    this.clockSeen = seen;
    if (Number.isFinite(offsetMs)) this.offsetSeen = offsetMs;
    this.options.deliver({ kind: 'clock', clock: clock === null ? null : { ...clock, offsetMs: this.offsetSeen } });
  }

  /**
   * This table's seating, read only when its version moved: each poll reads one row (the
   * station's own, by row-level security), the seats themselves only after a change. A floor not
   * yet migrated to hold a seating (9) has none, not an error.
   */
  private async readSeats(client: InboxQueryable): Promise<void> {
    if (!this.options.reads.seating) return;
    let head: readonly unknown[];
    try {
      head = (await client.query<unknown>('SELECT version, broken_at IS NOT NULL AS broken FROM floor_seating_tables WHERE table_name = $1', [this.options.table])).rows;
    } catch (error) {
      if (!isUndefinedTable(error)) throw error;
      head = [];
    }
    const row = head[0] === undefined ? undefined : parse(SEATING_HEAD, head[0], 'floor_seating_tables');
    const seen = row === undefined ? 'none' : `${row.version}:${row.broken}`;
    if (seen === this.seatsSeen) return;
    if (row === undefined) {
      this.seatsSeen = seen;
      this.options.deliver({ kind: 'seating', seats: null });
      return;
    }
    // The seats' contents are the service's to check (floorSeats.ts), as the floor's rows hold them.
    const seats = await client.query<{ seat: unknown; player: unknown }>('SELECT seat, player FROM floor_seating WHERE table_name = $1 ORDER BY seat', [this.options.table]);
    this.seatsSeen = seen;
    this.options.deliver({ kind: 'seating', seats: { version: row.version, broken: row.broken, seats: seats.rows } });
  }

  /**
   * The director's decisions on this table the station has not journaled yet (ids above
   * `decisionsAfter()`), oldest first: one small query on the table's index (a station reads only
   * its own table's rows). A row its schema refuses is passed by, as the service passes by a
   * decision of a shape it does not keep. A floor not yet migrated to keep decisions (10) has none.
   */
  private async readDecisions(client: InboxQueryable): Promise<void> {
    if (!this.options.reads.decisions) return;
    const after = this.options.decisionsAfter?.() ?? 0;
    let rows: readonly unknown[];
    try {
      rows = (
        await client.query<unknown>(
          `SELECT id, decided_at AS at, decided_by AS by, decision, note, race_id FROM floor_decisions WHERE table_name = $1 AND id > $2 ORDER BY id LIMIT ${DECISIONS_READ_MAX}`,
          [this.options.table, after],
        )
      ).rows;
    } catch (error) {
      if (isUndefinedTable(error)) return;
      throw error;
    }
    if (rows.length === 0) return;
    const decisions: FloorDecisionRow[] = [];
    for (const row of rows) {
      try {
        decisions.push(decisionOf(parse(DECISION_ROW, row, 'floor_decisions')));
      } catch {
        // Passed by (see above).
      }
    }
    if (decisions.length > 0) this.options.deliver({ kind: 'decisions', rows: decisions });
  }
}

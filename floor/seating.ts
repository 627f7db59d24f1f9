import type { ClientBase } from 'pg';
import { inTransaction } from './db/transaction';
import { FloorRefusal } from './refusal';
import { refuse, type SeatRow } from './seatingCsv';
import { MAX_SEATS } from '../protocol/constants';
import { isTableName, tableNameOf } from '../protocol/tableName';

/**
 * The seating the floor holds: who sits in which seat of which table. Read from a seat list (the
 * CSV tournament clocks such as The Tournament Director export: table, seat, player) and edited on
 * the floor page (a player out, moved, a table broken). Each table's station reads its own table's
 * seats (row-level security, migration 9) and takes them as its seats while linked. The seat
 * list's reading is floor/seatingCsv.ts.
 */

export { SEATING_MAX_BYTES, seatingFromCsv, type SeatRow } from './seatingCsv';


/** One table's seating as the floor holds it. */
export interface TableSeating {
  readonly table: string;
  /** New at every change of the table's seats (one sequence for all tables): what a station compares to read them again. */
  readonly version: number;
  /** When the table was broken (all its players out), or null. */
  readonly brokenAt: string | null;
  readonly seats: readonly { readonly seat: number; readonly player: string }[];
}

/** The table's seating row given a new version (made when it had none): every station of the table reads its seats again. */
async function bump(client: ClientBase, table: string, broken = false): Promise<void> {
  await client.query(
    `INSERT INTO floor_seating_tables (table_name, version, broken_at) VALUES ($1, nextval('floor_seating_versions'), CASE WHEN $2 THEN now() END)
     ON CONFLICT (table_name) DO UPDATE SET version = excluded.version, broken_at = CASE WHEN $2 THEN now() ELSE floor_seating_tables.broken_at END, changed_at = now()`,
    [table, broken],
  );
}

/** A table's name as the page's form gave it: composed (NFC) and trimmed, checked where it is used (checkPlace). */
export const typedTableName = (text: string): string => tableNameOf(text) ?? text.trim();

/**
 * Refused unless the floor has a station for each table (issue 44): a login made by `floor
 * add-table`, or records sent (`floor sync`). A seat list, a move or a break naming any other
 * table (a typo: "T7" for "7") would make a table no station reports for, counted as left at
 * every break. `seated`: a table the seating holds already may be named too (a table broken).
 */
export async function checkStations(client: ClientBase, tables: readonly string[], { seated = false }: { readonly seated?: boolean } = {}): Promise<void> {
  const missing = await client.query<{ name: string }>(
    `SELECT n AS name FROM unnest($1::text[]) AS n
     WHERE NOT EXISTS (SELECT FROM floor_tables t WHERE t.table_name = n AND (t.role_name IS NOT NULL OR EXISTS (SELECT FROM station_records r WHERE r.table_name = n)))
       AND NOT ($2 AND EXISTS (SELECT FROM floor_seating_tables s WHERE s.table_name = n))`,
    [tables, seated],
  );
  const names = missing.rows.map((row) => row.name).sort();
  if (names.length === 0) return;
  const shown = names.slice(0, 5).map((name) => `"${name}"`).join(', ');
  refuse({ key: 'floor.seating.noStation', params: { tables: names.length > 5 ? `${shown} …` : shown, n: names.length } });
}

/** Refused unless the table's name and the seat's number are ones the floor takes. */
export function checkPlace(table: string, seat: number): void {
  if (!isTableName(table)) refuse({ key: 'floor.seating.badTable', params: { table: (table as string).slice(0, 40) } });
  if (!Number.isInteger(seat) || seat < 1 || seat > MAX_SEATS) refuse({ key: 'floor.seating.badSeat', params: { seat: String(seat).slice(0, 20), n: MAX_SEATS } });
}

/**
 * Replaces the whole seating with a seat list's, in one transaction: a table no longer named has
 * no seating (its station's own seats come back). Refused, nothing changed, when it names a table
 * the floor has no station for (checkStations).
 */
export async function setSeating(client: ClientBase, rows: readonly SeatRow[], by: string): Promise<{ tables: number; players: number }> {
  const tables = [...new Set(rows.map((row) => row.table))];
  const who = checkBy(by);
  await inTransaction(client, async () => {
    // Kept as a change: what came before it cannot be undone past it (undoSeatingChange).
    await recordChange(client, { by: who, kind: 'load' });
    await client.query('LOCK TABLE floor_seating_tables IN EXCLUSIVE MODE');
    await checkStations(client, tables);
    await client.query('DELETE FROM floor_seating');
    await client.query('DELETE FROM floor_seating_tables WHERE NOT (table_name = ANY($1::text[]))', [tables]);
    for (const table of tables) {
      await bump(client, table);
      await client.query('UPDATE floor_seating_tables SET broken_at = NULL WHERE table_name = $1', [table]);
    }
    await client.query(
      'INSERT INTO floor_seating (table_name, seat, player) SELECT * FROM unnest($1::text[], $2::int[], $3::text[])',
      [rows.map((row) => row.table), rows.map((row) => row.seat), rows.map((row) => row.player)],
    );
  });
  return { tables: tables.length, players: rows.length };
}

/** A player out (busted): the seat is empty from now on, the player kept in floor_seating_out with who said so, the change kept (undoable). */
export async function unseat(client: ClientBase, table: string, seat: number, by: string): Promise<void> {
  checkPlace(table, seat);
  const who = checkBy(by);
  await inTransaction(client, async () => {
    await client.query('LOCK TABLE floor_seating_tables IN EXCLUSIVE MODE');
    const gone = await client.query<{ player: string }>('DELETE FROM floor_seating WHERE table_name = $1 AND seat = $2 RETURNING player', [table, seat]);
    const player = gone.rows[0]?.player;
    if (player === undefined) refuse({ key: 'floor.seating.noSeat', params: { table, seat } });
    await client.query('INSERT INTO floor_seating_out (table_name, seat, player, out_by) VALUES ($1, $2, $3, $4)', [table, seat, player, who]);
    await recordChange(client, { by: who, kind: 'out', table, seat, player });
    await bump(client, table);
  });
}

/** A player moved to an empty seat (at the same table or another one, not a broken one), the change kept (undoable). */
export async function moveSeat(client: ClientBase, fromTable: string, fromSeat: number, toTable: string, toSeat: number, by: string): Promise<void> {
  checkPlace(fromTable, fromSeat);
  checkPlace(toTable, toSeat);
  const who = checkBy(by);
  await inTransaction(client, async () => {
    await client.query('LOCK TABLE floor_seating_tables IN EXCLUSIVE MODE');
    const taken = await client.query<{ player: string }>('SELECT player FROM floor_seating WHERE table_name = $1 AND seat = $2', [toTable, toSeat]);
    if (taken.rows[0] !== undefined) refuse({ key: 'floor.seating.seatTaken', params: { table: toTable, seat: toSeat, player: taken.rows[0].player } });
    const broken = await client.query('SELECT 1 FROM floor_seating_tables WHERE table_name = $1 AND broken_at IS NOT NULL', [toTable]);
    if ((broken.rowCount ?? 0) > 0) refuse({ key: 'floor.seating.broken', params: { table: toTable } });
    const gone = await client.query<{ player: string }>('DELETE FROM floor_seating WHERE table_name = $1 AND seat = $2 RETURNING player', [fromTable, fromSeat]);
    const player = gone.rows[0]?.player;
    if (player === undefined) refuse({ key: 'floor.seating.noSeat', params: { table: fromTable, seat: fromSeat } });
    if (toTable !== fromTable) await checkStations(client, [toTable]);
    await bump(client, fromTable);
    // The table moved to has its seating row first (a table no list named yet gets one).
    if (toTable !== fromTable) await bump(client, toTable);
    await client.query('INSERT INTO floor_seating (table_name, seat, player) VALUES ($1, $2, $3)', [toTable, toSeat, player]);
    await recordChange(client, { by: who, kind: 'move', table: fromTable, seat: fromSeat, toTable, toSeat, player });
  });
}

/** A table broken: every player's seat emptied (the director moves them on), the table marked broken, the seats it emptied kept with the change (undoable). Resolves with the players who sat there. */
export async function breakTable(client: ClientBase, table: string, by: string): Promise<string[]> {
  if (!isTableName(table)) refuse({ key: 'floor.seating.badTable', params: { table: (table as string).slice(0, 40) } });
  const who = checkBy(by);
  return inTransaction(client, async () => {
    await client.query('LOCK TABLE floor_seating_tables IN EXCLUSIVE MODE');
    await checkStations(client, [table], { seated: true });
    const gone = await client.query<{ seat: number; player: string }>('DELETE FROM floor_seating WHERE table_name = $1 RETURNING seat, player', [table]);
    const seats = gone.rows.map(({ seat, player }) => ({ seat, player })).sort((a, b) => a.seat - b.seat);
    await bump(client, table, true);
    await recordChange(client, { by: who, kind: 'break', table, seats });
    return seats.map((row) => row.player);
  });
}

/** Who changed the seating, as the floor keeps it: a name of 1 to BY_MAX characters, no control characters. */
export const BY_MAX = 64;
function checkBy(by: string): string {
  const who = by.trim();
  if (who.length === 0 || who.length > BY_MAX || /\p{Cc}/u.test(who)) throw new FloorRefusal('by', { key: 'floor.seating.byNeeded', params: { max: BY_MAX } });
  return who;
}

/** What the seating's changes may be: a player out, moved, a table broken, a seat list loaded, a change undone. */
export type SeatingChangeKind = 'out' | 'move' | 'break' | 'load' | 'undo';

/** A change of the seating as the floor keeps it (floor_seating_changes, migration 16): who, when, what; for an undo the change it undid, for a change undone the undo. */
export interface SeatingChange {
  readonly id: number;
  readonly at: string;
  readonly by: string;
  readonly kind: SeatingChangeKind;
  readonly table: string | null;
  readonly seat: number | null;
  readonly toTable: string | null;
  readonly toSeat: number | null;
  readonly player: string | null;
  /** A break's: the seats it emptied. */
  readonly seats: readonly { readonly seat: number; readonly player: string }[] | null;
  readonly undoes: number | null;
  readonly undoneBy: number | null;
  /** Whether it can still be undone: an out, move or break not undone and no seat list loaded since. */
  readonly undoable: boolean;
}

type ChangeFields = Pick<SeatingChange, 'by' | 'kind'> & Partial<Pick<SeatingChange, 'table' | 'seat' | 'toTable' | 'toSeat' | 'player' | 'seats' | 'undoes'>>;

async function recordChange(client: ClientBase, change: ChangeFields): Promise<number> {
  const made = await client.query<{ id: string }>(
    'INSERT INTO floor_seating_changes (by, kind, table_name, seat, to_table, to_seat, player, seats, undoes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id',
    [change.by, change.kind, change.table ?? null, change.seat ?? null, change.toTable ?? null, change.toSeat ?? null, change.player ?? null, change.seats === undefined || change.seats === null ? null : JSON.stringify(change.seats), change.undoes ?? null],
  );
  return Number(made.rows[0]?.id);
}

interface ChangeRow {
  id: string;
  at: Date;
  by: string;
  kind: SeatingChangeKind;
  table_name: string | null;
  seat: number | null;
  to_table: string | null;
  to_seat: number | null;
  player: string | null;
  seats: { seat: number; player: string }[] | null;
  undoes: string | null;
  undone_by: string | null;
  undoable: boolean;
}

const CHANGE_COLUMNS = `id, at, by, kind, table_name, seat, to_table, to_seat, player, seats, undoes, undone_by,
  (kind IN ('out', 'move', 'break') AND undone_by IS NULL AND NOT EXISTS (SELECT 1 FROM floor_seating_changes AS later WHERE later.kind = 'load' AND later.id > floor_seating_changes.id)) AS undoable`;

function changeOf(row: ChangeRow): SeatingChange {
  return {
    id: Number(row.id), at: row.at.toISOString(), by: row.by, kind: row.kind, table: row.table_name, seat: row.seat, toTable: row.to_table, toSeat: row.to_seat, player: row.player,
    seats: row.seats, undoes: row.undoes === null ? null : Number(row.undoes), undoneBy: row.undone_by === null ? null : Number(row.undone_by), undoable: row.undoable,
  };
}

/** The changes of a table's seating (those from it or to it), oldest first, the last `limit`. */
export async function readSeatingChanges(client: ClientBase, table: string, limit = 50): Promise<SeatingChange[]> {
  const rows = await client.query<ChangeRow>(`SELECT * FROM (SELECT ${CHANGE_COLUMNS} FROM floor_seating_changes WHERE table_name = $1 OR to_table = $1 ORDER BY id DESC LIMIT $2) AS last ORDER BY id`, [table, limit]);
  return rows.rows.map(changeOf);
}

/** One change of the seating, or null. */
export async function readSeatingChange(client: ClientBase, id: number): Promise<SeatingChange | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const rows = await client.query<ChangeRow>(`SELECT ${CHANGE_COLUMNS} FROM floor_seating_changes WHERE id = $1`, [id]);
  return rows.rows[0] === undefined ? null : changeOf(rows.rows[0]);
}

/** Refused unless the seat is empty, its table not broken, and the player seated nowhere now. */
async function checkFreeFor(client: ClientBase, table: string, seat: number, player: string): Promise<void> {
  const taken = await client.query<{ player: string }>('SELECT player FROM floor_seating WHERE table_name = $1 AND seat = $2', [table, seat]);
  if (taken.rows[0] !== undefined) refuse({ key: 'floor.seating.seatTaken', params: { table, seat, player: taken.rows[0].player } });
  const broken = await client.query('SELECT 1 FROM floor_seating_tables WHERE table_name = $1 AND broken_at IS NOT NULL', [table]);
  if ((broken.rowCount ?? 0) > 0) refuse({ key: 'floor.seating.broken', params: { table } });
  const elsewhere = await client.query<{ table_name: string; seat: number }>('SELECT table_name, seat FROM floor_seating WHERE player = $1 LIMIT 1', [player]);
  const there = elsewhere.rows[0];
  if (there !== undefined) refuse({ key: 'floor.seating.seatedElsewhere', params: { player, table: there.table_name, seat: there.seat } });
}

/**
 * Undoes a player out, a move or a table broken (a change of `table`, the page's), as one more change kept with who and when: the
 * player back in the seat (out), back where they came from (move), every emptied seat filled again
 * and the table no longer broken (break). Refused, nothing changed, when the seating moved on so
 * that it cannot be: the seat taken since, the player seated elsewhere or moved again, a seat list
 * loaded since, the change undone already.
 */
/**
 * A change of `table`'s seating (from it or to it) that can still be undone, read now; refused as
 * the undo would be (no such change of this table, undone already, a load since, not undoable).
 */
export async function undoableChange(client: ClientBase, id: number, table: string): Promise<SeatingChange> {
  const change = await readSeatingChange(client, id);
  if (change === null || (change.table !== table && change.toTable !== table)) return refuse({ key: 'floor.seating.noChange', params: { id: String(id).slice(0, 20) } });
  if (change.undoneBy !== null) refuse({ key: 'floor.seating.undoneAlready', params: { id } });
  if (!change.undoable) refuse({ key: change.kind === 'load' || change.kind === 'undo' ? 'floor.seating.cannotUndo' : 'floor.seating.loadedSince', params: { id } });
  return change;
}

export async function undoSeatingChange(client: ClientBase, id: number, by: string, table: string): Promise<SeatingChange> {
  const who = checkBy(by);
  return inTransaction(client, async () => {
    await client.query('LOCK TABLE floor_seating_tables IN EXCLUSIVE MODE');
    const change = await undoableChange(client, id, table);
    const from = change.table as string;
    if (change.kind === 'out') {
      await checkFreeFor(client, from, change.seat as number, change.player as string);
      await client.query('INSERT INTO floor_seating (table_name, seat, player) VALUES ($1, $2, $3)', [from, change.seat, change.player]);
      await bump(client, from);
    } else if (change.kind === 'move') {
      const there = await client.query<{ player: string }>('SELECT player FROM floor_seating WHERE table_name = $1 AND seat = $2', [change.toTable, change.toSeat]);
      if (there.rows[0]?.player !== change.player) refuse({ key: 'floor.seating.movedSince', params: { player: change.player as string, table: change.toTable as string, seat: change.toSeat as number } });
      await client.query('DELETE FROM floor_seating WHERE table_name = $1 AND seat = $2', [change.toTable, change.toSeat]);
      await checkFreeFor(client, from, change.seat as number, change.player as string);
      await client.query('INSERT INTO floor_seating (table_name, seat, player) VALUES ($1, $2, $3)', [from, change.seat, change.player]);
      await bump(client, from);
      if (change.toTable !== from) await bump(client, change.toTable as string);
    } else {
      await client.query('UPDATE floor_seating_tables SET broken_at = NULL WHERE table_name = $1', [from]);
      for (const { seat, player } of change.seats ?? []) {
        await checkFreeFor(client, from, seat, player);
        await client.query('INSERT INTO floor_seating (table_name, seat, player) VALUES ($1, $2, $3)', [from, seat, player]);
      }
      await bump(client, from);
    }
    const undo = await recordChange(client, { by: who, kind: 'undo', table: from, undoes: change.id });
    await client.query('UPDATE floor_seating_changes SET undone_by = $1 WHERE id = $2', [undo, change.id]);
    return { ...change, undoneBy: undo, undoable: false };
  });
}

/** Every table's seating, by table name, its seats in order. */
export async function readSeating(client: ClientBase): Promise<TableSeating[]> {
  const tables = await client.query<{ table_name: string; version: string; broken_at: Date | null }>('SELECT table_name, version, broken_at FROM floor_seating_tables ORDER BY table_name');
  const seats = await client.query<{ table_name: string; seat: number; player: string }>('SELECT table_name, seat, player FROM floor_seating ORDER BY table_name, seat');
  return tables.rows.map((row) => ({
    table: row.table_name,
    version: Number(row.version),
    brokenAt: row.broken_at === null ? null : row.broken_at.toISOString(),
    seats: seats.rows.filter((seat) => seat.table_name === row.table_name).map(({ seat, player }) => ({ seat, player })),
  }));
}

import type { ClientBase } from 'pg';
import { inTransaction } from './db/transaction';
import type { FloorMessage } from './page/words';
import { FloorRefusal } from './refusal';

/**
 * `floor remove-table` (issue 44): a table the floor holds nothing of removed, such as one a typo
 * made ("T7" for "7", by `add-table` or by a seat list, a move or a break of an older floor). A
 * table is kept, and the refusal says why, when it has sent records (they are its evidence, and
 * its chain goes on from them), when lines of it were refused (kept as evidence), when the
 * director decided on it, or while players sit at it. Otherwise its row goes with everything of
 * it: its seating's row (a broken table's), its contact and its fold; the seating's changes that
 * name it stay, as history. Its station login, if it had one, stays a role that reports for no
 * table (row-level security names a login's table by floor_tables.role_name): it can add and read
 * nothing; `add-table` of the same name again gives it a new password.
 */

const refuse = (message: FloorMessage): never => {
  throw new FloorRefusal('table', message);
};

export async function removeTable(client: ClientBase, table: string): Promise<{ readonly removed: string; readonly hadLogin: boolean }> {
  return inTransaction(client, async () => {
    // The row locked: a record of the table (its key refers to the row) waits for this, and then finds it gone.
    const row = await client.query<{ role_name: string | null }>('SELECT role_name FROM floor_tables WHERE table_name = $1 FOR UPDATE', [table]);
    if (row.rows[0] === undefined) refuse({ key: 'floor.tables.noTable', params: { table } });
    const held = await client.query<{ records: number; failures: number; decisions: number; seated: number }>(
      `SELECT (SELECT count(*)::int FROM station_records WHERE table_name = $1) AS records,
              (SELECT count(*)::int FROM chain_failures WHERE table_name = $1) AS failures,
              (SELECT count(*)::int FROM floor_decisions WHERE table_name = $1) AS decisions,
              (SELECT count(*)::int FROM floor_seating WHERE table_name = $1) AS seated`,
      [table],
    );
    const { records = 0, failures = 0, decisions = 0, seated = 0 } = held.rows[0] ?? {};
    if (records > 0) refuse({ key: 'floor.tables.records', params: { table, n: records } });
    if (failures > 0) refuse({ key: 'floor.tables.failures', params: { table } });
    if (decisions > 0) refuse({ key: 'floor.tables.decisions', params: { table } });
    if (seated > 0) refuse({ key: 'floor.tables.seated', params: { table, n: seated } });
    await client.query(
      `WITH contact AS (DELETE FROM station_contact WHERE table_name = $1),
            state AS (DELETE FROM floor_table_state WHERE table_name = $1),
            races AS (DELETE FROM floor_races WHERE table_name = $1),
            exchanges AS (DELETE FROM floor_exchanges WHERE table_name = $1)
       DELETE FROM floor_seating_tables WHERE table_name = $1`,
      [table],
    );
    await client.query('DELETE FROM floor_tables WHERE table_name = $1', [table]);
    return { removed: table, hadLogin: row.rows[0]?.role_name != null };
  });
}

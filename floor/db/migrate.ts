import { createHash } from 'node:crypto';
import type { ClientBase } from 'pg';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations';

/** Any number would do: it names the lock two floors starting at once take to migrate one after the other. */
const MIGRATION_LOCK = 0x636872;

/** The version of the floor's schema in this database: 0 when it has none yet. */
export async function schemaVersion(client: ClientBase): Promise<number> {
  const table = await client.query<{ exists: boolean }>("SELECT to_regclass('floor_schema_migrations') IS NOT NULL AS exists");
  if (!table.rows[0]?.exists) return 0;
  const row = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM floor_schema_migrations');
  return row.rows[0]?.version ?? 0;
}

/** What a database records of a migration it ran, to know it again: the SHA-256 of its text. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

async function recordsChecksums(client: ClientBase): Promise<boolean> {
  const column = await client.query<{ found: boolean }>(
    "SELECT EXISTS (SELECT FROM pg_attribute WHERE attrelid = to_regclass('floor_schema_migrations') AND attname = 'checksum' AND NOT attisdropped) AS found",
  );
  return column.rows[0]?.found === true;
}

/** Refuses a database whose recorded migration of some version is not this code's (a released migration edited). */
async function checkPinned(client: ClientBase, migrations: readonly Migration[]): Promise<void> {
  if (!(await recordsChecksums(client))) return;
  const recorded = await client.query<{ version: number; checksum: string | null }>('SELECT version, checksum FROM floor_schema_migrations ORDER BY version');
  for (const row of recorded.rows) {
    const migration = migrations.find((candidate) => candidate.version === row.version);
    if (migration === undefined || row.checksum === null) continue;
    const expected = migrationChecksum(migration);
    if (row.checksum !== expected) {
      throw new Error(
        `the floor's database ran a different migration ${row.version} ("${migration.name}") than this floor's (checksum ${row.checksum.slice(0, 12)}…, this floor's ${expected.slice(0, 12)}…): a released migration was edited; run the floor version that made this database`,
      );
    }
  }
}

/**
 * Brings the database's schema to this code's version: every migration due in one transaction,
 * under a lock (two floors starting at once migrate one after the other; a failed migration
 * leaves the database as it was). Refuses a database a newer floor migrated, and one whose
 * recorded migrations differ from this code's (by checksum: released migrations are pinned).
 * Returns the migrations applied.
 */
export async function migrate(client: ClientBase, migrations: readonly Migration[] = MIGRATIONS): Promise<readonly number[]> {
  const applied: number[] = [];
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS floor_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const current = await schemaVersion(client);
    const newest = migrations[migrations.length - 1]?.version ?? 0;
    if (current > newest) throw new Error(`the floor's database is at schema version ${current}, newer than this floor's ${newest}: update the floor`);
    await checkPinned(client, migrations);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      if (await recordsChecksums(client)) await client.query('INSERT INTO floor_schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [migration.version, migration.name, migrationChecksum(migration)]);
      else await client.query('INSERT INTO floor_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      applied.push(migration.version);
    }
    // The rows older floors wrote, checksummed by the migration that added the column.
    if (applied.length > 0) await checkPinned(client, migrations);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return applied;
}

export { SCHEMA_VERSION };

// Released migrations are pinned: a database records each migration's checksum, and a floor whose
// migration of a recorded version reads otherwise is refused before it changes anything.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../testing/postgres';
import { migrate, migrationChecksum, schemaVersion, SCHEMA_VERSION } from './migrate';
import { MIGRATIONS, RELEASED_CHECKSUMS } from './migrations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

describe('the released migrations', () => {
  it('read as they were released (an edit is a new migration, never a change to one of these)', () => {
    const released = Object.keys(RELEASED_CHECKSUMS).map(Number);
    expect(released).toEqual([1, 2]);
    for (const version of released) expect(migrationChecksum(MIGRATIONS.find((migration) => migration.version === version) as (typeof MIGRATIONS)[number]), `migration ${version}`).toBe(RELEASED_CHECKSUMS[version]);
  });
});

describe.runIf(run)('a database remembers the migrations it ran (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let superuser: pg.Client;
  const databases: pg.Client[] = [];
  const database = async (name: string) => {
    await superuser.query(`CREATE DATABASE ${name}`);
    const client = new pg.Client({ connectionString: server.urlFor(new URL(server.url).username, decodeURIComponent(new URL(server.url).password), name) });
    await client.connect();
    databases.push(client);
    return client;
  };
  const recorded = async (client: pg.Client) => (await client.query('SELECT version, checksum FROM floor_schema_migrations ORDER BY version')).rows;
  const expected = MIGRATIONS.map((migration) => ({ version: migration.version, checksum: migrationChecksum(migration) }));

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    superuser = new pg.Client({ connectionString: server.url });
    await superuser.connect();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(databases.map((client) => client.end()));
    await superuser?.end();
    await server?.remove();
  });

  it('records every migration\'s checksum, on a new database and on one an older floor migrated', async () => {
    const fresh = await database('fresh');
    await migrate(fresh);
    expect(await recorded(fresh)).toEqual(expected);
    // A floor of migrations 1 and 2 only (before checksums), then this one.
    const older = await database('older');
    await migrate(older, MIGRATIONS.slice(0, 2));
    expect(await migrate(older)).toEqual(MIGRATIONS.slice(2).map((migration) => migration.version));
    expect(await recorded(older)).toEqual(expected);
  });

  it('refuses a database whose recorded migration differs from this floor\'s, and changes nothing', async () => {
    const client = await database('pinned');
    await migrate(client);
    // This floor's migration 2 edited after release.
    const edited = MIGRATIONS.map((migration) => (migration.version === 2 ? { ...migration, sql: `${migration.sql}\n-- edited` } : migration));
    await expect(migrate(client, edited)).rejects.toThrow(/ran a different migration 2 .*a released migration was edited/);
    // The same with a newer migration to apply: refused before it runs.
    const withNext = [...edited, { version: SCHEMA_VERSION + 1, name: 'next', sql: 'CREATE TABLE should_not_exist (x int)' }];
    await expect(migrate(client, withNext)).rejects.toThrow(/ran a different migration 2/);
    expect((await client.query("SELECT to_regclass('should_not_exist') IS NULL AS absent")).rows).toEqual([{ absent: true }]);
    expect(await schemaVersion(client)).toBe(SCHEMA_VERSION);
    // An edited migration 1 on a database an older floor migrated: refused once the released checksums are written.
    const older = await database('older_edited');
    await migrate(older, MIGRATIONS.slice(0, 2));
    const editedFirst = MIGRATIONS.map((migration) => (migration.version === 1 ? { ...migration, sql: `${migration.sql}\n-- edited` } : migration));
    await expect(migrate(older, editedFirst)).rejects.toThrow(/ran a different migration 1/);
    expect(await schemaVersion(older)).toBe(2);
    await expect(migrate(client)).resolves.toEqual([]);
  });
});

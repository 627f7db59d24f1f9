// Released migrations are pinned: a database records each migration's checksum, and a floor whose
// migration of a recorded version reads otherwise is refused before it changes anything.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../testing/postgres';
import { migrate, migrationChecksum, schemaVersion, SCHEMA_VERSION } from './migrate';
import { MIGRATIONS, RELEASED_CHECKSUMS, type Migration } from './migrations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** The migrations released so far (all pinned): a pin is never removed, so there are never fewer. */
const RELEASED_SO_FAR = 21;
const folder = join(import.meta.dirname, 'migrations');
/** The files in floor/db/migrations/ that are not a migration. */
const NOT_MIGRATIONS = ['index.ts', 'pinned.ts', 'shared.ts'];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, at) => from + at);

/** What differs from the pins: each pinned migration missing or no longer reading as released, by version. */
function releasedEdits(migrations: readonly Migration[], pinned: Readonly<Record<number, string>> = RELEASED_CHECKSUMS): string[] {
  return Object.entries(pinned).flatMap(([version, checksum]) => {
    const migration = migrations.find((candidate) => candidate.version === Number(version));
    if (migration === undefined) return [`migration ${version}: gone`];
    const reads = migrationChecksum(migration);
    return reads === checksum ? [] : [`migration ${version} ("${migration.name}"): reads ${reads}, pinned ${checksum}`];
  });
}

describe('the released migrations', () => {
  it('are every one pinned, 1 to the last released without a gap', () => {
    const pinned = Object.keys(RELEASED_CHECKSUMS).map(Number);
    expect(pinned.length).toBeGreaterThanOrEqual(RELEASED_SO_FAR);
    expect(pinned).toEqual(range(1, pinned.length));
    expect(pinned.length).toBeLessThanOrEqual(MIGRATIONS.length);
  });

  it('read as they were released (an edit is a new migration, never a change to one of these)', () => {
    expect(releasedEdits(MIGRATIONS)).toEqual([]);
  });

  it('an edit to any one of them is named, and only that one', () => {
    for (const version of Object.keys(RELEASED_CHECKSUMS).map(Number)) {
      for (const edit of ['\n-- edited', ' ']) {
        const edited = MIGRATIONS.map((migration) => (migration.version === version ? { ...migration, sql: `${migration.sql}${edit}` } : migration));
        const found = releasedEdits(edited);
        expect(found, `migration ${version} edited`).toHaveLength(1);
        expect(found[0]).toMatch(new RegExp(`^migration ${version} \\(`));
      }
      // A changed character inside, the length kept.
      const swapped = MIGRATIONS.map((migration) => (migration.version === version ? { ...migration, sql: migration.sql.replace('T', 't') } : migration));
      expect(releasedEdits(swapped), `migration ${version}, one letter`).toHaveLength(1);
    }
    expect(releasedEdits(MIGRATIONS.filter((migration) => migration.version !== 7))).toEqual(['migration 7: gone']);
  });

  it('are the files in floor/db/migrations/, NN-short-name.ts each, numbered 1..N as listed', async () => {
    const numbered = readdirSync(folder).filter((file) => !NOT_MIGRATIONS.includes(file)).sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    for (const file of numbered) expect(file, 'a migration\'s file name').toMatch(/^\d{2,}-[a-z0-9]+(-[a-z0-9]+)*\.ts$/);
    expect(numbered.map((file) => Number.parseInt(file, 10))).toEqual(range(1, MIGRATIONS.length));
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(range(1, MIGRATIONS.length));
    for (const [at, file] of numbered.entries()) {
      const module = (await import(join(folder, file))) as { migration?: Migration };
      expect(module.migration?.version, file).toBe(Number.parseInt(file, 10));
      expect(MIGRATIONS[at], `${file} listed in its place`).toBe(module.migration);
    }
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

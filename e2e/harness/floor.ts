import pg from 'pg';
import { createStationLogin } from '../../floor/db/stations';
import { migrate } from '../../floor/db/migrate';
import type { ThrowawayPostgres } from '../../floor/testing/postgres';
import { startLinkedConsole, type RunningConsole } from './console';

/** A floor's database migrated and a station started linked to it as table `table` under a login of its own, as a cardroom sets one up. */
export async function linkedStation(server: ThrowawayPostgres, table: string): Promise<RunningConsole> {
  const admin = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 5_000 });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    await migrate(admin);
    const login = await createStationLogin(admin, table);
    return await startLinkedConsole(server.urlFor(login.role, login.password), table);
  } finally {
    await admin.end();
  }
}

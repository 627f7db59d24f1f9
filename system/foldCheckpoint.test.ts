import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleService } from '../station/service/service';
import { migrate } from '../floor/db/migrate';
import { ensureTable } from '../floor/db/stations';
import { FOLD_VERSION, foldFloor, readFloorStatus } from '../floor/fold';
import { syncStation } from '../replication/sync';
import { TABLE_CHECKPOINT_VERSION } from '../replay/tableProjection';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { playStation } from './testing/stations';

// The floor keeps each table's projection checkpoint (issue 45: replay/tableProjection.ts, in
// floor_table_state.replay): a fold step reads the records after it only, the colour-up status
// records too (they were read again from seq 1 at every step); a checkpoint another fold version
// kept, or one that does not read, is discarded and the table folded again from its first record.

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

describe.runIf(run)('the fold on from a table\'s checkpoint (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const folders: string[] = [];
  const services: ConsoleService[] = [];

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    admin = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 5_000 });
    await admin.connect();
    await migrate(admin);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  const station = async (table: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-checkpoint-'));
    folders.push(dir);
    const service = await playStation(dir, table, 'colour-up-racing');
    services.push(service);
    await ensureTable(admin, table);
    await syncStation(admin, table, dir);
    return { dir, service };
  };
  let misreads = 0;
  const misread = async (service: ConsoleService) => {
    misreads += 1;
    expect((await service.dealCard('race-3', `Z${misreads}`)).ok).toBe(false);
  };
  const tableOf = async (table: string) => (await readFloorStatus(admin)).tables.find((row) => row.table === table);
  const kept = async (table: string) => (await admin.query<{ folded_seq: string; fold_version: number; replay: { version: number; seq: number; reading: unknown } }>('SELECT folded_seq, fold_version, replay FROM floor_table_state WHERE table_name = $1', [table])).rows[0];

  it('reads only the records after the checkpoint: the colour-up status goes on from it with the break\'s records gone from the floor', async () => {
    const { dir, service } = await station('21');
    expect(await foldFloor(admin)).toEqual(['21']);
    const before = await tableOf('21');
    expect(before).toMatchObject({ colourUp: 'racing', sheetAfterLevel: 6, openRace: { raceId: 'race-3', status: 'racing' } });
    const checkpoint = await kept('21');
    expect(checkpoint).toMatchObject({ fold_version: FOLD_VERSION, replay: { version: TABLE_CHECKPOINT_VERSION, seq: Number(checkpoint?.folded_seq) } });
    expect(checkpoint?.replay.reading).not.toBeNull();
    // Every record but the last gone from the floor (as a superuser may: the new record still links
    // to it), the break's mark and its colour-up's races among them: a fold that read the status
    // records from seq 1 again would find no break marked; the one from the checkpoint goes on.
    await admin.query("DELETE FROM station_records WHERE table_name = '21' AND seq < (SELECT max(seq) FROM station_records WHERE table_name = '21')");
    await misread(service);
    expect((await syncStation(admin, '21', dir)).stored).toBe(1);
    expect(await foldFloor(admin)).toEqual(['21']);
    expect(await tableOf('21')).toMatchObject({ colourUp: 'racing', sheetAfterLevel: 6, openRace: { raceId: 'race-3', status: 'racing' }, refusals: (before?.refusals ?? 0) + 1, races: before?.races });
    expect((await kept('21'))?.replay.seq).toBe(Number(checkpoint?.folded_seq) + 1);
  }, 120_000);

  it('discards a checkpoint another fold version kept (the race fold\'s state alone, as 9 kept it), or one that does not read: the table folded again from its first record', async () => {
    await station('22');
    expect(await foldFloor(admin)).toEqual(['22']);
    const right = await tableOf('22');
    const checkpoint = await kept('22');
    // Version 9's: its `replay` the race fold's state, no reading; its numbers other than these.
    await admin.query("UPDATE floor_table_state SET fold_version = 9, replay = replay->'fold', colour_up = 'not-started', base_colour_up = 'not-started' WHERE table_name = '22'");
    await admin.query("UPDATE floor_races SET refusals = 999 WHERE table_name = '22'");
    expect(await foldFloor(admin)).toEqual(['22']);
    expect(await tableOf('22')).toEqual(right);
    expect(await kept('22')).toEqual(checkpoint);
    // This version's, but not a checkpoint it reads: folded again, not a failed fold.
    // (Its last record marked not folded, so the table is due.)
    await admin.query("UPDATE floor_table_state SET replay = '{\"version\": 0}'::jsonb, folded_seq = folded_seq - 1, colour_up = 'not-started', base_colour_up = 'not-started' WHERE table_name = '22'");
    expect(await foldFloor(admin)).toEqual(['22']);
    expect(await tableOf('22')).toEqual(right);
    expect(await kept('22')).toEqual(checkpoint);
  }, 120_000);
});

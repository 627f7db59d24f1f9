import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SettingsInput } from '../../protocol/contract';
import { createStationLogin } from '../../floor/db/stations';
import { startFloorDatabase, type ThrowawayPostgres } from '../../floor/testing/postgres';
import type { ConsoleService } from '../../station/service/service';
import { serviceHarness } from '../../station/service/testing/services';

/** A floor link that tries again and polls fast, so a test sees the floor's changes in a fraction of a second. */
export const FAST_FLOOR_TIMING = { retryFirstMs: 50, retryMaxMs: 400, pollMs: 150, countMs: 100, connectMs: 2_000 } as const;

/**
 * A throwaway floor database for a describe block (started before its tests, removed after), and
 * stations linked to it as the README starts them: a station login of its own, the floor and the
 * table's name from the environment (CHIP_RACE_DATABASE_URL, CHIP_RACE_TABLE), the table set up
 * by its screen's save. Each station's data folder is removed after the block.
 */
export function floorWithStations(prefix: string) {
  const { serviceIn, restart } = serviceHarness({ station: 'table-pc', floorTiming: FAST_FLOOR_TIMING });
  const folders: string[] = [];
  const floor = { server: undefined as unknown as ThrowawayPostgres, admin: undefined as unknown as pg.Client };

  beforeAll(async () => {
    ({ server: floor.server, admin: floor.admin } = await startFloorDatabase());
  }, 120_000);

  afterAll(async () => {
    await floor.admin?.end();
    await floor.server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    folders.push(dir);
    return dir;
  };

  /** A station of `table` linked by the environment, its screen's settings saved. */
  const stationFor = async (table: string, settings: SettingsInput): Promise<ConsoleService> => {
    const login = await createStationLogin(floor.admin, table);
    const service = await serviceIn(folder(), { floor: { url: floor.server.urlFor(login.role, login.password), table } });
    expect(await service.saveSettings(settings)).toEqual({ ok: true, value: null });
    return service;
  };

  return { floor, folder, folders, stationFor, serviceIn, restart };
}

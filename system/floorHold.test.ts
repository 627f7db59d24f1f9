// The held break on a real floor: with the option on, the floor's clock stops at the end of the
// break with a colour-up while a table is not done, every station says the break is held and for
// how many tables, and the last table's confirmation starts the next level; the director's Resume
// overrides a hold, and both are kept with who let the break go and the tables still left.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockSchedule, readClock } from '../engine/clock/clock';
import { tournamentFromCsv } from '../engine/plan/tournament';
import { readStructure } from '../engine/plan/structure';
import type { ConsoleService } from '../station/service/service';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { serviceHarness } from '../station/service/testing/services';
import { actOnFloorClock, readFloorClock, setFloorStructure } from '../floor/clock';
import { createStationLogin } from '../floor/db/stations';
import { setHoldBreaks } from '../floor/hold';
import { startFloorServer, type FloorServer } from '../floor/server';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { until } from '../floor/testing/requests';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const MIN = 60_000;
const { serviceIn } = serviceHarness({ station: 'table-pc', floorTiming: { retryFirstMs: 50, retryMaxMs: 400, pollMs: 150, countMs: 100, connectMs: 2_000 } });

/** The 25s leave at the break after level 2 (it ends 50 minutes into the clock). */
const SHEET = ['chips,25,100,500', 'level,25,50,,20', 'level,50,100,,20', 'break,10', 'level,100,200,,20', 'break,10', 'level,500,1000,,20'].join('\n');
const BREAK_END = 50 * MIN;
const SEATS = [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }];

describe.runIf(run)('the held break (a real PostgreSQL server)', () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let floor: FloorServer;
  const folders: string[] = [];

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    floor = await startFloorServer({ databaseUrl: server.url, log: () => undefined, foldEveryMs: 100, holdEveryMs: 100 });
  }, 120_000);

  afterAll(async () => {
    await floor?.close();
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  const station = async (table: string): Promise<ConsoleService> => {
    const login = await createStationLogin(admin, table);
    const dataDir = mkdtempSync(join(tmpdir(), 'floor-hold-'));
    folders.push(dataDir);
    const service = await serviceIn(dataDir, { floor: { url: server.urlFor(login.role, login.password), table } });
    const { tournament: _kept, ...settings } = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: SEATS, button: 1 } };
    expect(await service.saveSettings(settings)).toEqual({ ok: true, value: null });
    return service;
  };

  /** A table's colour-up run and confirmed: Matti's four 25s make one 100, nothing to race. */
  const colourUp = async (service: ConsoleService) => {
    expect(await service.startColorUp(2, 25)).toEqual({ ok: true, value: null });
    expect(await service.startRace([{ seat: 1, chips: 4, hasOther: true }, { seat: 2, chips: 0, hasOther: true }])).toEqual({ ok: true, value: null });
    const raceId = service.getState().race?.id as string;
    expect(await service.confirmRace(raceId)).toEqual({ ok: true, value: null });
  };

  const clockNow = async () => {
    const clock = await readFloorClock(admin);
    if (clock === null) throw new Error('no clock');
    return { clock, reading: readClock(clockSchedule(readStructure(clock.structure)), clock.events, Date.now()) };
  };

  const holds = async () => (await admin.query('SELECT after_level, tables_left, released_by, tables_left_at_release FROM floor_break_holds ORDER BY held_at')).rows;

  it('holds the clock at the break’s end while a table is not done, says so on the stations, and starts the next level when the last one confirms', async () => {
    const { structure, house } = tournamentFromCsv(SHEET);
    await setFloorStructure(admin, structure, house);
    await setHoldBreaks(admin, true, Date.now());
    const [one, two] = [await station('1'), await station('2')] as [ConsoleService, ConsoleService];
    // In the break after level 2, 4 s before its end: both banners up.
    await actOnFloorClock(admin, { type: 'start' }, Date.now() - BREAK_END + 4_000);
    for (const service of [one, two]) expect(await until('the banner', () => service.getState().colorUp)).toMatchObject({ afterLevel: 2 });
    await colourUp(one);

    // The break's end passes: the floor holds the clock, to the millisecond, for the one table not done.
    const held = await until('the hold', async () => ((await clockNow()).clock.held ?? null), 15_000);
    expect(held).toEqual({ afterLevel: 2, tables: 1 });
    const { reading } = await clockNow();
    expect(reading).toMatchObject({ status: 'paused', elapsedMs: BREAK_END, period: { kind: 'level', level: 3 } });
    for (const service of [one, two]) expect(await until('the hold on the station', () => service.getState().clock.held)).toEqual({ afterLevel: 2, tables: 1 });

    // The last table confirms: the next level starts by itself.
    await colourUp(two);
    await until('the clock going again', async () => ((await clockNow()).reading.status === 'running' ? true : null), 15_000);
    expect((await clockNow()).clock.held).toBeNull();
    for (const service of [one, two]) await until('the hold gone on the station', () => (service.getState().clock.held === null ? true : null));
    expect(await holds()).toEqual([{ after_level: 2, tables_left: 1, released_by: 'tables-done', tables_left_at_release: 0 }]);
  }, 90_000);

  it('lets the director override a hold with Resume, recorded with the tables still left; a break not held again', async () => {
    // The break after level 3 ends 80 minutes into the clock; its colour-up (the 100s) done by neither table.
    await admin.query("UPDATE floor_clock SET events = '[]', held = NULL");
    await admin.query('DELETE FROM floor_break_holds');
    await actOnFloorClock(admin, { type: 'start' }, Date.now() - 80 * MIN + 2_000);
    const plan = await until('the hold', async () => ((await clockNow()).clock.held ?? null), 15_000);
    expect(plan.afterLevel).toBe(3);
    await actOnFloorClock(admin, { type: 'resume' }, Date.now());
    expect((await clockNow()).clock.held).toBeNull();
    expect(await holds()).toEqual([{ after_level: 3, tables_left: plan.tables, released_by: 'director', tables_left_at_release: plan.tables }]);
    // Looked at again and again, the break let go is not held again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await clockNow()).reading.status).toBe('running');
  }, 90_000);
});

// Issue 44: a station forges the director's decision. A station writes a `floor-decision` record
// closing its open colour-up race (its own journal is its own to write: here through the very
// command its link calls, with a decision the floor never made), abandons that race, and sends its
// journal with its own login. The floor takes decisions from floor_decisions only: the table is
// disputed, flagged, not "closed by the floor", the held break waits for it, and its race's record
// lists no such decision. The station's copy of a decision the director did make still closes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleService } from '../station/service/service';
import { actOnFloorClock, setFloorStructure } from '../floor/clock';
import { recordDecision } from '../floor/decisions';
import { createStationLogin } from '../floor/db/stations';
import { floorRaceRecord, foldFloor, readFloorStatus } from '../floor/fold';
import { holdStep, setHoldBreaks, tablesLeftAt } from '../floor/hold';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from '../floor/testing/postgres';
import { syncStation } from '../replication/sync';
import { playStation, TIMED_STRUCTURE } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const MIN = 60_000;

describe.runIf(run)("a station's forged decision (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  const folders: string[] = [];
  const services: ConsoleService[] = [];

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.close()));
    await admin?.end();
    await server?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  /** A station of `table` in its colour-up's race after level 6, its login made as `add-table` makes it. */
  const station = async (table: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'floor-forged-'));
    folders.push(dir);
    const service = await playStation(dir, table, 'colour-up-racing');
    services.push(service);
    const login = await createStationLogin(admin, table);
    const race = service.getState().race?.id;
    if (race === undefined) throw new Error('no race open');
    /** The station's journal sent with its own login, as its link sends it. */
    const send = async () => {
      const client = new pg.Client({ connectionString: server.urlFor(login.role, login.password) });
      client.on('error', () => undefined);
      await client.connect();
      try {
        expect((await syncStation(client, table, dir)).refused).toEqual([]);
      } finally {
        await client.end();
      }
    };
    return { service, race, send };
  };

  it('is no decision: the table stays disputed and flagged, the held break waits for it, its record lists none; the floor\'s own decision copied still closes a table', async () => {
    // Table 7 forges a decision the floor never made (no row in floor_decisions) and abandons its race.
    const seven = await station('7');
    expect(await seven.service.takeFloorDecisions([{ id: 1, decision: 'race-closed', note: 'Table broken: players moved to table 4', by: 'Anna', at: new Date().toISOString(), raceId: seven.race }])).toEqual({ ok: true, value: null });
    expect(seven.service.getState().race).toBeNull();
    await seven.send();

    // Table 9 copies the id of a real decision on it, but not what was decided.
    const nine = await station('9');
    const stands = await recordDecision(admin, { table: '9', decision: 'race-stands', note: 'count checked', by: 'Anna' });
    expect(await nine.service.takeFloorDecisions([{ id: stands.id, decision: 'race-closed', note: stands.note, by: stands.by, at: stands.at, raceId: nine.race }])).toEqual({ ok: true, value: null });
    expect(nine.service.getState().race).toBeNull();
    await nine.send();

    // Table 8: the director really closed its race on the floor, and its station took the decision.
    const eight = await station('8');
    const closed = await recordDecision(admin, { table: '8', decision: 'race-closed', note: 'Table broken', by: 'Ville', raceId: eight.race });
    expect(await eight.service.takeFloorDecisions([{ id: closed.id, decision: closed.decision, note: closed.note, by: closed.by, at: closed.at, raceId: closed.raceId }])).toEqual({ ok: true, value: null });
    expect(eight.service.getState().race).toBeNull();
    await eight.send();

    await foldFloor(admin);
    const status = await readFloorStatus(admin);
    const row = (table: string) => status.tables.find((entry) => entry.table === table);
    expect(row('7')).toMatchObject({ colourUp: 'disputed', flag: { kind: 'disputed', raceId: seven.race }, openRaceClosed: null });
    expect(row('9')).toMatchObject({ colourUp: 'disputed', flag: { kind: 'disputed', raceId: nine.race } });
    expect(row('8')).toMatchObject({ colourUp: 'closed', flag: null });
    // Neither forged table is finished with the break after level 6: the board and the held break wait for both.
    expect(status.progress.left).toBe(2);
    expect(tablesLeftAt(status, 6)).toBe(2);

    // The race's record on the floor page: the forged decision is not the director's, and is not listed; the real one is.
    const eventTypes = async (table: string, race: string) => (await floorRaceRecord(admin, table, race))?.events.map((event) => event.type) ?? [];
    expect(await eventTypes('7', seven.race)).not.toContain('floor-decision');
    expect(await eventTypes('9', nine.race)).not.toContain('floor-decision');
    expect(await eventTypes('8', eight.race)).toContain('floor-decision');

    // The held break as the floor's serve loop runs it: the clock just past the break after level 6, held for tables 7 and 9.
    await setFloorStructure(admin, TIMED_STRUCTURE);
    const now = Date.now();
    await actOnFloorClock(admin, { type: 'start' }, now - 145 * MIN - 30_000);
    await setHoldBreaks(admin, true, now);
    expect(await holdStep(admin, now, async (afterLevel) => tablesLeftAt(await readFloorStatus(admin), afterLevel))).toBe('held');
    expect((await admin.query('SELECT held FROM floor_clock')).rows[0]?.held).toMatchObject({ afterLevel: 6, tables: 2 });

    // The director settles table 7's dispute on the floor: it counts done, 9 is still waited for.
    await recordDecision(admin, { table: '7', decision: 'race-stands', note: 'no decision was made: race stands abandoned', by: 'Anna', raceId: seven.race });
    expect(await holdStep(admin, now + 1_000, async (afterLevel) => tablesLeftAt(await readFloorStatus(admin), afterLevel))).toBe('counted');
  }, 120_000);
});

// The seating the floor holds, followed by the stations: the director loads the seat list (the CSV
// a tournament clock exports) on the floor, two stations linked by the environment (as the README
// starts them) take their own table's seats — names and seats in play — a player busted on the
// floor leaves the station's seats, a table broken has none in play, and a station linked in its
// settings gets its own seats back when the link is turned off. Each station's login reads only its
// own table's seats (floor/db/attacks.test.ts tries the writes).
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ConsoleSettings } from '../protocol/contract';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { floorWithStations } from './testing/floorStations';
import { breakTable, moveSeat, readSeating, seatingFromCsv, setSeating, unseat } from '../floor/seating';
import { createStationLogin, ensureTable } from '../floor/db/stations';
import { floorStatus } from '../floor/fold';
import { tablesLeftAt } from '../floor/hold';
import { startFloorServer } from '../floor/server';
import { journalPath } from '../journal/location';
import { syncStation } from '../replication/sync';
import { playStation, STRUCTURE, tableSettings } from './testing/stations';
import { POSTGRES_AVAILABLE } from '../floor/testing/postgres';
import { ask, until } from '../floor/testing/requests';
import type { ConsoleService } from '../station/service/service';
import { FloorLink, type FloorSeatsRow } from '../station/floorLink/link';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

/** The seat list as a tournament clock exports it: a header, quoted names, CR LF. */
const SEAT_LIST = ['"Table","Seat","Player"', '12,1,"Virtanen, Anna"', '12,4,Korhonen Matti', '12,7,"Pekka ""Pete"" Nieminen"', 'Pöytä 13,2,Ольга', 'Pöytä 13,3,Liisa', ''].join('\r\n');
const OWN_SEATS = [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Seppo' }];
const STATION: ConsoleSettings = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: OWN_SEATS, button: 1 } };
const { tournament: _none, ...STATION_SCREEN } = STATION;
const root = join(import.meta.dirname, '..');

/** `npm run floor -- …` as the README runs it (its exit code, standard output and error). */
function floorCli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'floor', 'cli.ts'), ...args], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}
/** The seatings a station's journal holds, in order (`floor-seating`, the floor's version of each). */
async function readSeatings(dir: string): Promise<{ version: number; broken: boolean; seats: unknown[] }[]> {
  return readFileSync(journalPath(dir), 'utf8').split('\n').slice(1).filter((line) => line.includes('"floor-seating"')).map((line) => (JSON.parse(line) as { record: { seating: { version: number; broken: boolean; seats: unknown[] } } }).record.seating);
}
const seatsOf = (station: ConsoleService) => station.getState().settings.table.seats;
const same = (expected: unknown) => (station: ConsoleService) => () => (JSON.stringify(seatsOf(station)) === JSON.stringify(expected) ? true : null);

describe.runIf(run)('the seating taken from the floor (a real PostgreSQL server)', () => {
  const { floor, folder, folders, stationFor: linkedStation, serviceIn, restart } = floorWithStations('floor-seating-');
  /** A station started as the README starts it: the floor and the table's name from the environment. */
  const stationFor = (table: string): Promise<ConsoleService> => linkedStation(table, STATION_SCREEN);

  it('a seat list loaded on the floor reaches both stations; a player busted, moved and a table broken follow', async () => {
    const [twelve, thirteen] = [await stationFor('12'), await stationFor('Pöytä 13')] as [ConsoleService, ConsoleService];
    const twelveFolder = folders.at(-2) as string;
    for (const station of [twelve, thirteen]) await until('the link', () => station.getState().floorLink.state === 'connected');
    expect(seatsOf(twelve)).toEqual(OWN_SEATS);

    expect(await setSeating(floor.admin, seatingFromCsv(SEAT_LIST), 'test')).toEqual({ tables: 2, players: 5 });
    await until('table 12 seated', same([{ seat: 1, name: 'Virtanen, Anna' }, { seat: 4, name: 'Korhonen Matti' }, { seat: 7, name: 'Pekka "Pete" Nieminen' }])(twelve));
    await until('table 13 seated', same([{ seat: 2, name: 'Ольга' }, { seat: 3, name: 'Liisa' }])(thirteen));
    expect(twelve.getState().settings.seatsFromFloor).toEqual({ own: OWN_SEATS, broken: false });

    // A player busted on the floor leaves the station's seats.
    await unseat(floor.admin, '12', 4, 'test');
    await until('seat 4 out', same([{ seat: 1, name: 'Virtanen, Anna' }, { seat: 7, name: 'Pekka "Pete" Nieminen' }])(twelve));
    // A player moved to another table: out of one station's seats, into the other's.
    await moveSeat(floor.admin, '12', 7, 'Pöytä 13', 9, 'test');
    await until('moved out', same([{ seat: 1, name: 'Virtanen, Anna' }])(twelve));
    await until('moved in', same([{ seat: 2, name: 'Ольга' }, { seat: 3, name: 'Liisa' }, { seat: 9, name: 'Pekka "Pete" Nieminen' }])(thirteen));
    // Table 12 broken: no seat in play there; the station says so.
    expect(await breakTable(floor.admin, '12', 'test')).toEqual(['Virtanen, Anna']);
    await until('broken', () => (twelve.getState().settings.seatsFromFloor?.broken === true ? true : null));
    expect(seatsOf(twelve)).toEqual([]);
    expect(seatsOf(thirteen)).toHaveLength(3);

    // Issue 43: each seating taken is on the station's own record, with the floor's version, and
    // reaches the floor, whose fold passes the records by (no problem, the table's colour-up as it was).
    const journaled = await readSeatings(twelveFolder);
    expect(journaled.map((seating) => seating.seats.length)).toEqual([3, 2, 1, 0]);
    expect(journaled.at(-1)?.broken).toBe(true);
    const versions = journaled.map((seating) => seating.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    await until('the seatings on the floor', async () => ((await floor.admin.query("SELECT count(*)::int AS n FROM station_records WHERE table_name = '12' AND kind = 'floor-seating'")).rows[0] as { n: number }).n === journaled.length || null);
    const table = (await floorStatus(floor.admin)).tables.find((entry) => entry.table === '12');
    expect(table).toMatchObject({ foldProblems: [], foldBehind: 0, colourUp: 'not-started' });
  }, 90_000);

  it('a station linked in its settings gets its own seats back when the link is turned off', async () => {
    const login = await createStationLogin(floor.admin, '21');
    const service = await serviceIn(folder());
    const url = floor.server.urlFor(login.role, login.password);
    expect(await service.saveSettings({ ...STATION_SCREEN, table: { ...STATION.table, name: '21' }, floor: { on: true, url } })).toEqual({ ok: true, value: null });
    await until('the link', () => service.getState().floorLink.state === 'connected');
    await setSeating(floor.admin, [{ table: '21', seat: 5, player: 'Aino' }], 'test');
    await until('seated', same([{ seat: 5, name: 'Aino' }])(service));

    const held = service.getState().settings;
    // A screen may not change the floor's seats, and may turn the link off with them as they are.
    expect(await service.saveSettings({ table: { ...held.table, seats: OWN_SEATS }, source: held.source, floor: { on: true, url } })).toMatchObject({ ok: false, error: { said: { key: 'service.fromFloor.seats' } } });
    expect(await service.saveSettings({ table: held.table, source: held.source, floor: { on: false, url } })).toEqual({ ok: true, value: null });
    await until('its own again', same(OWN_SEATS)(service));
    expect(service.getState().settings.seatsFromFloor).toBeUndefined();
    expect(JSON.parse(readFileSync(join(folders.at(-1) as string, 'settings.json'), 'utf8')).seatsFromFloor).toBeUndefined();
  }, 90_000);

  it('a station\'s login reads only its own table\'s seats', async () => {
    const seven = await createStationLogin(floor.admin, '7');
    await createStationLogin(floor.admin, '8');
    await setSeating(floor.admin, [{ table: '7', seat: 1, player: 'Anna' }, { table: '8', seat: 1, player: 'Pekka' }], 'test');
    const client = new pg.Client({ connectionString: floor.server.urlFor(seven.role, seven.password) });
    await client.connect();
    try {
      expect((await client.query('SELECT table_name, seat, player FROM floor_seating')).rows).toEqual([{ table_name: '7', seat: 1, player: 'Anna' }]);
      await expect(client.query("UPDATE floor_seating SET player = 'x' WHERE table_name = '8'")).rejects.toThrow(/permission denied/);
    } finally {
      await client.end();
    }
  }, 60_000);

  it('loads the seat list from the command line (one JSON line), and refuses a malformed one naming the line, changing nothing', async () => {
    const dir = folder();
    const good = join(dir, 'seats.csv');
    writeFileSync(good, `\uFEFF${SEAT_LIST}`);
    const loaded = await floorCli(['seating', '--database', floor.server.url, '--file', good]);
    expect(loaded).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(loaded.stdout)).toEqual({ tables: 2, players: 5 });
    // `status` says each seated table's players, and a broken table so.
    await breakTable(floor.admin, 'Pöytä 13', 'test');
    const status = JSON.parse((await floorCli(['status', '--database', floor.server.url])).stdout) as { tables: { table: string; players?: number; broken?: boolean }[] };
    expect(status.tables.filter((table) => table.players !== undefined).map(({ table, players, broken }) => ({ table, players, broken }))).toEqual([
      { table: '12', players: 3, broken: undefined },
      { table: 'Pöytä 13', players: 0, broken: true },
    ]);
    await floorCli(['seating', '--database', floor.server.url, '--file', good]);
    const before = await readSeating(floor.admin);
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'table;seat;player\n12;1;Anna\n12;11;Matti\n');
    const refused = await floorCli(['seating', '--database', floor.server.url, '--file', bad]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain('line 3: seat "11" is not a seat number from 1 to 10');
    expect(await readSeating(floor.admin)).toEqual(before);
    for (const args of [['seating'], ['seating', '--file', join(dir, 'missing.csv')], ['status', '--file', good]]) {
      const outcome = await floorCli([...args, '--database', floor.server.url]);
      expect(outcome.code, args.join(' ')).toBe(2);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  }, 120_000);

  it("the link hands its table's seats on only when the floor changed them (one version row read each poll)", async () => {
    const login = await createStationLogin(floor.admin, '31');
    await createStationLogin(floor.admin, '32');
    const rows: (FloorSeatsRow | null)[] = [];
    const link = await FloorLink.start({ dataDir: folder(), table: '31', url: floor.server.urlFor(login.role, login.password), from: 'settings', journalSeq: 0, onState: () => undefined, onFloorSeats: (row) => rows.push(row), timing: { retryFirstMs: 50, retryMaxMs: 400, pollMs: 100, countMs: 100, connectMs: 2_000 } });
    try {
      await until('the first reading', () => rows.length === 1);
      expect(rows).toEqual([null]);
      await setSeating(floor.admin, [{ table: '31', seat: 3, player: 'Aino' }, { table: '32', seat: 1, player: 'Eino' }], 'test');
      await until('the seating', () => rows.length === 2);
      expect(rows[1]).toEqual({ version: expect.any(Number), broken: false, seats: [{ seat: 3, player: 'Aino' }] });
      // Polled again and again, unchanged (another table's change included): not handed on again.
      await unseat(floor.admin, '32', 1, 'test');
      await new Promise((resolve) => setTimeout(resolve, 5 * 100));
      expect(rows).toHaveLength(2);
      await moveSeat(floor.admin, '31', 3, '31', 4, 'test');
      await until('the move', () => rows.length === 3);
      expect(rows[2]).toEqual({ version: expect.any(Number), broken: false, seats: [{ seat: 4, player: 'Aino' }] });
      expect(rows[2]?.version).toBeGreaterThan(rows[1]?.version as number);
      // Dropped from the seating and seated again with other players: a version never seen, handed on.
      await setSeating(floor.admin, [{ table: '32', seat: 1, player: 'Eino' }], 'test');
      await until('dropped', () => rows.length === 4);
      expect(rows[3]).toBeNull();
      await setSeating(floor.admin, [{ table: '31', seat: 6, player: 'Ville' }], 'test');
      await until('seated again', () => rows.length === 5);
      expect(rows[4]).toMatchObject({ seats: [{ seat: 6, player: 'Ville' }] });
    } finally {
      await link.close();
    }
  }, 60_000);

  it('refuses an empty seat out, a move onto a taken seat or a broken table, in keys; a new list mends a broken table', async () => {
    const said = async (work: Promise<unknown>) => work.then(() => 'done', (error: unknown) => (error as { said?: { key: string } }).said?.key);
    for (const table of ['41', '42', '43']) await createStationLogin(floor.admin, table);
    await setSeating(floor.admin, [{ table: '41', seat: 1, player: 'Anna' }, { table: '41', seat: 2, player: 'Eino' }, { table: '42', seat: 1, player: 'Liisa' }], 'test');
    expect(await said(unseat(floor.admin, '41', 5, 'test'))).toBe('floor.seating.noSeat');
    expect(await said(unseat(floor.admin, '41', 11, 'test'))).toBe('floor.seating.badSeat');
    expect(await said(moveSeat(floor.admin, '41', 1, '41', 2, 'test'))).toBe('floor.seating.seatTaken');
    expect(await said(moveSeat(floor.admin, '41', 1, ' 41', 3, 'test'))).toBe('floor.seating.badTable');
    expect(await breakTable(floor.admin, '42', 'test')).toEqual(['Liisa']);
    expect(await said(moveSeat(floor.admin, '41', 1, '42', 3, 'test'))).toBe('floor.seating.broken');
    expect(await said(moveSeat(floor.admin, '41', 1, '41', 3, 'test'))).toBe('done');
    // To a table the floor has no station for (a typo): refused (issue 44); to a table no list named: it is seated from now on.
    expect(await said(moveSeat(floor.admin, '41', 2, '44', 1, 'test'))).toBe('floor.seating.noStation');
    expect(await said(moveSeat(floor.admin, '41', 2, '43', 1, 'test'))).toBe('done');
    expect(await said(moveSeat(floor.admin, '43', 1, '41', 2, 'test'))).toBe('done');
    const seating = await readSeating(floor.admin);
    expect(seating.map((table) => ({ table: table.table, broken: table.brokenAt !== null, seats: table.seats }))).toEqual([
      { table: '41', broken: false, seats: [{ seat: 2, player: 'Eino' }, { seat: 3, player: 'Anna' }] },
      { table: '42', broken: true, seats: [] },
      { table: '43', broken: false, seats: [] },
    ]);
    expect((await floor.admin.query("SELECT player, out_by FROM floor_seating_out WHERE table_name = '41'")).rows).toEqual([]);
    await setSeating(floor.admin, [{ table: '42', seat: 1, player: 'Liisa' }], 'test');
    expect((await readSeating(floor.admin)).map((table) => [table.table, table.brokenAt])).toEqual([['42', null]]);
  }, 60_000);

  it("a table broken while its colour-up race is open: `floor status` names the race", async () => {
    const dir = folder();
    const station = await playStation(dir, '51', 'colour-up-racing');
    try {
      await ensureTable(floor.admin, '51');
      await syncStation(floor.admin, '51', dir);
      await setSeating(floor.admin, [{ table: '51', seat: 1, player: 'Matti' }, { table: '51', seat: 2, player: 'Teppo' }], 'test');
      expect(await breakTable(floor.admin, '51', 'test')).toEqual(['Matti', 'Teppo']);
      const status = JSON.parse((await floorCli(['status', '--database', floor.server.url])).stdout) as { tables: { table: string; colourUp: string; broken?: boolean; brokenWithOpenRace?: string }[] };
      expect(status.tables.find((table) => table.table === '51')).toMatchObject({ colourUp: 'racing', broken: true, brokenWithOpenRace: expect.stringMatching(/^race-\d+$/) });
    } finally {
      await station.close();
    }
  }, 120_000);

  it("a table broken mid-colour-up: the director closes its race on the page with a reason; the floor's status is closed, the station abandons the race with that reason, restarted the same", async () => {
    const dir = folder();
    const login = await createStationLogin(floor.admin, '61');
    const link = { floor: { url: floor.server.urlFor(login.role, login.password), table: '61' } };
    let station = await serviceIn(dir, link);
    const token = 'closed-race-floor-password';
    const page = await startFloorServer({ databaseUrl: floor.server.url, token, log: () => undefined });
    const floorCliStatus = async () => JSON.parse((await floorCli(['status', '--database', floor.server.url])).stdout) as { tables: { table: string; colourUp: string; broken?: boolean; brokenWithOpenRace?: string }[]; progress: Record<string, number> };
    const abandons = () => readFileSync(journalPath(dir), 'utf8').split('\n').slice(1).filter((line) => line.includes('"race-abandon"')).map((line) => (JSON.parse(line) as { record: unknown }).record);
    try {
      for (const done of [station.saveSettings(tableSettings('61')), station.saveStructure(STRUCTURE), station.markBreak(6), station.startColorUp(6, 100)]) expect(await done).toEqual({ ok: true, value: null });
      expect(await station.startRace([{ seat: 1, chips: 7, hasOther: true }, { seat: 2, chips: 2, hasOther: true }, { seat: 3, chips: 2, hasOther: true }])).toEqual({ ok: true, value: null });
      await until('the open race on the floor', async () => ((await floorStatus(floor.admin)).tables.find((table) => table.table === '61')?.openRace?.raceId === 'race-1' ? true : null));
      await setSeating(floor.admin, [{ table: '61', seat: 1, player: 'Matti' }, { table: '61', seat: 2, player: 'Teppo' }, { table: '61', seat: 3, player: 'Johanna' }], 'test');
      await breakTable(floor.admin, '61', 'test');
      expect((await floorCliStatus()).tables.find((table) => table.table === '61')).toMatchObject({ colourUp: 'racing', brokenWithOpenRace: 'race-1' });

      // The director closes the race on the table's page, with a reason.
      const note = 'table broken, players moved to table 4';
      const body = new URLSearchParams({ table: '61', lang: 'en', decision: 'race-closed', race: 'race-1', note, by: 'Anna' }).toString();
      const posted = await ask(page.port, '/decision', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(page.url).origin, authorization: `Bearer ${token}` } });
      expect(posted.status).toBe(303);

      // The station leaves the race: abandoned, the director's note its reason; the decision shown.
      await until('the station abandons the race', () => (station.getState().race === null ? true : null));
      expect(abandons()).toEqual([{ kind: 'race-abandon', raceId: 'race-1', reason: note }]);
      expect(station.getState().floorCalls.decisions.at(-1)).toMatchObject({ decision: 'race-closed', raceId: 'race-1', note, by: 'Anna' });

      // On the floor, before and after the abandon arrived: closed by the floor, nothing left there for the held break.
      await until('the abandon on the floor', async () => ((await floor.admin.query("SELECT 1 FROM station_records WHERE table_name = '61' AND kind = 'race-abandon'")).rowCount ?? 0) > 0);
      const status = await floorStatus(floor.admin);
      const table = status.tables.find((entry) => entry.table === '61');
      expect(table?.colourUp).toBe('closed');
      expect(table?.openRace).toBeNull();
      expect(tablesLeftAt({ tables: [table as NonNullable<typeof table>] }, 6)).toBe(0);
      const cli = await floorCliStatus();
      expect(cli.tables.find((entry) => entry.table === '61')).toMatchObject({ colourUp: 'closed', broken: true });
      expect(cli.tables.find((entry) => entry.table === '61')?.brokenWithOpenRace).toBeUndefined();
      expect(cli.progress.closed).toBe(1);
      expect((await ask(page.port, '/?lang=en', { headers: { authorization: `Bearer ${token}` } })).body).toContain('data-status="closed"><span class="board-count">1</span> closed by the floor');

      // Restarted and linked again: the same state, nothing journaled twice.
      station = await restart(station, dir, link);
      await until('linked again', () => (station.getState().floorLink.state === 'connected' ? true : null));
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(station.getState().race).toBeNull();
      expect(station.getState().floorCalls.decisions.map((decision) => decision.decision)).toEqual(['race-closed']);
      expect(abandons()).toHaveLength(1);
    } finally {
      await page.close();
      await station.close();
    }
  }, 120_000);
});

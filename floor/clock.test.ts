import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLOCK_EVENTS_KEPT, clockSchedule, readClock } from '../engine/clock/clock';
import { readStructure } from '../engine/plan/structure';
import { actOnFloorClock, loadFloorTournament, readFloorClock, setFloorStructure } from './clock';
import { createStationLogin } from './db/stations';
import { isFloorRefusal } from './refusal';
import { startFloorServer, type FloorServer } from './server';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from './testing/postgres';
import { expectFloorSaid } from './testing/said';
import { ask } from './testing/requests';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const root = join(import.meta.dirname, '..');
const MIN = 60_000;
const T0 = Date.UTC(2026, 11, 1, 19, 0);
/** Two 20-minute levels, a 10-minute break after level 2, a 30-minute level. */
const TIMED = { chips: [25, 100, 500], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100, minutes: 20 }, { break: 10 }, { sb: 100, bb: 200, minutes: 30 }] };

async function refusalOf(work: Promise<unknown>): Promise<{ field: string; key: string; reason: string }> {
  try {
    await work;
  } catch (error) {
    if (!isFloorRefusal(error) || error.said === undefined) throw error;
    expectFloorSaid(error);
    return { field: error.field, key: error.said.key, reason: error.reason };
  }
  throw new Error('not refused');
}

function floor(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'floor', 'cli.ts'), ...args], { cwd: root, env: { ...process.env, CHIP_RACE_DATABASE_URL: '' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe.runIf(run)("the floor's tournament clock (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let page: FloorServer;
  let now = T0;
  const folder = mkdtempSync(join(tmpdir(), 'floor-clock-'));

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    page = await startFloorServer({ databaseUrl: server.url, port: 0, now: () => now });
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await admin?.end();
    await server?.remove();
    rmSync(folder, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await admin.query("UPDATE floor_clock SET structure = NULL, events = '[]'");
    now = T0;
  });

  it('refuses to run without a structure, and a structure whose levels have no minutes, in words of every language', async () => {
    expect(await readFloorClock(admin)).toBeNull();
    expect(await refusalOf(actOnFloorClock(admin, { type: 'start' }, T0))).toMatchObject({ key: 'floor.clockNoStructure', field: 'structure' });
    expect(await refusalOf(setFloorStructure(admin, { chips: [25], levels: [{ sb: 25, bb: 50, minutes: 20 }, { sb: 50, bb: 100 }] }))).toMatchObject({ key: 'clock.noMinutes', field: 'levels[1].minutes' });
    expect(await readFloorClock(admin)).toBeNull();
  });

  it('keeps the clock as events in time order, refusing one out of order with the engine’s message', async () => {
    await setFloorStructure(admin, TIMED);
    await actOnFloorClock(admin, { type: 'start' }, T0);
    expect(await refusalOf(actOnFloorClock(admin, { type: 'start' }, T0 + MIN))).toMatchObject({ key: 'clock.order.started' });
    await actOnFloorClock(admin, { type: 'pause' }, T0 + 5 * MIN);
    expect(await refusalOf(actOnFloorClock(admin, { type: 'pause' }, T0 + 6 * MIN))).toMatchObject({ key: 'clock.order.paused' });
    // The floor's own clock set back: the event is not put before the one before it.
    const clock = await actOnFloorClock(admin, { type: 'resume' }, T0 + 2 * MIN);
    expect(clock.events).toEqual([{ type: 'start', at: T0 }, { type: 'pause', at: T0 + 5 * MIN }, { type: 'resume', at: T0 + 5 * MIN }]);
    expect(await refusalOf(actOnFloorClock(admin, { type: 'adjust', by: 601 * MIN }, T0 + 7 * MIN))).toMatchObject({ key: 'clock.event.by' });
    expect((await readFloorClock(admin))?.events).toHaveLength(3);
  });

  it('lets a station read the clock but never change it', async () => {
    await setFloorStructure(admin, TIMED);
    const login = await createStationLogin(admin, 'clock table');
    const station = new pg.Client({ connectionString: server.urlFor(login.role, login.password) });
    station.on('error', () => undefined);
    await station.connect();
    try {
      expect(await readFloorClock(station)).toMatchObject({ structure: TIMED, events: [] });
      await expect(actOnFloorClock(station, { type: 'start' }, T0)).rejects.toThrow(/permission denied/);
      await expect(setFloorStructure(station, TIMED)).rejects.toThrow(/permission denied/);
    } finally {
      await station.end();
    }
  });

  it("runs from the floor page's buttons: from the page's own origin only, a refusal shown in the page's language", async () => {
    const origin = `http://127.0.0.1:${page.port}`;
    const form = (action: string, lang = 'en') => ({ method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: `action=${action}&lang=${lang}` });
    let overview = await ask(page.port, '/');
    expect(overview.body).toContain('data-status="none"');
    expect(overview.body).toContain('No structure loaded');
    // No structure: refused in Finnish, the floor shown again.
    const refused = await ask(page.port, '/clock', form('start', 'fi'));
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('salilla ei ole vielä rakennetta');

    await setFloorStructure(admin, TIMED);
    expect((await ask(page.port, '/clock', { ...form('start'), headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(403);
    expect((await ask(page.port, '/clock', { ...form('start'), headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(403);
    expect((await ask(page.port, '/clock', form('explode'))).status).toBe(400);
    expect((await ask(page.port, '/clock', { ...form('start'), body: 'action=start&lang=en&extra=1' })).status).toBe(400);
    expect((await ask(page.port, '/clock')).status).toBe(405);
    expect((await readFloorClock(admin))?.events).toEqual([]);

    const started = await ask(page.port, '/clock', form('start', 'ru'));
    expect(started.status).toBe(303);
    expect(started.headers.location).toBe('/?lang=ru');
    now = T0 + 15 * MIN;
    expect((await ask(page.port, '/?lang=en')).body).toContain('5:00 left');
    // "+1 min" gives the level a minute more, as on every tournament clock (it took one off).
    expect((await ask(page.port, '/clock', form('more'))).status).toBe(303);
    overview = await ask(page.port, '/?lang=fi');
    expect(overview.body).toContain('data-status="running"');
    // 14 minutes on the clock: level 1, 6 minutes left; the break after level 2 in 26 minutes.
    expect(overview.body).toMatch(/data-testid="clock-period">Taso 1</);
    expect(overview.body).toContain('6:00 jäljellä');
    expect(overview.body).toContain('tauko tason 2 jälkeen 26:00 päästä');
    expect(overview.body).toContain('data-action="more"');
    // "−1 min" takes it off again.
    expect((await ask(page.port, '/clock', form('less'))).status).toBe(303);
    expect((await ask(page.port, '/?lang=en')).body).toContain('5:00 left');
    expect((await ask(page.port, '/clock', form('more'))).status).toBe(303);
    expect(overview.body).toContain('data-action="pause"');
    expect((await ask(page.port, '/clock', form('pause'))).status).toBe(303);
    const again = await ask(page.port, '/clock', form('pause', 'ru'));
    expect(again.status).toBe(409);
    expect(again.body).toContain('data-testid="clock-problem"');
    expect((await readFloorClock(admin))?.events).toEqual([
      { type: 'start', at: T0 },
      { type: 'adjust', at: T0 + 15 * MIN, by: -MIN },
      { type: 'adjust', at: T0 + 15 * MIN, by: MIN },
      { type: 'adjust', at: T0 + 15 * MIN, by: -MIN },
      { type: 'pause', at: T0 + 15 * MIN },
    ]);
  });

  it('never fills: 5,000 presses of ±1 min, then Pause (on the page and the command line) works and the clock reads right', async () => {
    await setFloorStructure(admin, TIMED);
    await actOnFloorClock(admin, { type: 'start' }, T0);
    // A script's (or a bored hand's) presses, 10 ms apart: a minute one way, a minute the other.
    for (let press = 1; press <= 5000; press += 1) await actOnFloorClock(admin, { type: 'adjust', by: press % 2 === 1 ? MIN : -MIN }, T0 + press * 10);
    const held = await readFloorClock(admin);
    expect(held?.events.length).toBeLessThanOrEqual(CLOCK_EVENTS_KEPT);
    // 50 s run, the presses even: 19:10 left in level 1.
    now = T0 + 50_000;
    const origin = `http://127.0.0.1:${page.port}`;
    const paused = await ask(page.port, '/clock', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pause&lang=en' });
    expect(paused.status).toBe(303);
    now = T0 + 60 * MIN;
    const overview = await ask(page.port, '/?lang=en');
    expect(overview.body).toContain('data-status="paused"');
    expect(overview.body).toContain('19:10 left');
    const resumed = await floor(['clock', 'resume', '--database', server.url]);
    expect(resumed.stderr).toBe('');
    const reading = JSON.parse(resumed.stdout) as { status: string; period: { level: number }; msLeft: number };
    expect(reading).toMatchObject({ status: 'running', period: { kind: 'level', level: 1 } });
    // Read a moment after its resume: the paused 19:10, less what has run since.
    expect(reading.msLeft).toBeGreaterThan(19 * MIN);
    expect(reading.msLeft).toBeLessThanOrEqual(19 * MIN + 10_000);
  }, 120_000);

  it('a clock filled by an older floor (5,000 events) takes Pause: compacted, not refused', async () => {
    await setFloorStructure(admin, TIMED);
    const full = [{ type: 'start', at: T0 }, ...Array.from({ length: 4999 }, (_, index) => ({ type: 'adjust', at: T0 + index + 1, by: index % 2 === 0 ? MIN : -MIN }))];
    await admin.query('UPDATE floor_clock SET events = $1', [JSON.stringify(full)]);
    const clock = await actOnFloorClock(admin, { type: 'pause' }, T0 + 5 * MIN);
    // 4,999 presses: one minute more on the clock than off it.
    expect(clock.events).toEqual([{ type: 'start', at: T0 }, { type: 'adjust', at: T0 + 5 * MIN, by: MIN }, { type: 'pause', at: T0 + 5 * MIN }]);
    expect(readClock(clockSchedule(readStructure(TIMED)), clock.events, T0 + 30 * MIN)).toMatchObject({ status: 'paused', elapsedMs: 6 * MIN });
  });

  it('loads a new structure mid-tournament only where the clock stays put: never in a break (or a held one), never moving the clock to another level, never while a race is open', async () => {
    const sheet = (firstMinutes: number) => `chips,25,100,500\nlevel,25,50,,${firstMinutes}\nlevel,50,100,,20\nbreak,10\nlevel,100,200,,30\n`;
    await loadFloorTournament(admin, sheet(20), T0);
    await actOnFloorClock(admin, { type: 'start' }, T0);
    // Ten minutes into level 1: a longer level 1 keeps it level 1, its events kept.
    expect(await loadFloorTournament(admin, sheet(25), T0 + 10 * MIN)).toMatchObject({ events: [{ type: 'start', at: T0 }] });
    // A level 1 of 5 minutes would put the clock in level 2: refused, naming both.
    expect(await refusalOf(loadFloorTournament(admin, sheet(5), T0 + 10 * MIN))).toMatchObject({ key: 'floor.tournament.movesClock', reason: 'the clock is at level 1; by this sheet it would be at level 2: keep the levels up to the current one as they are (change the ones after it)' });
    expect((await readFloorClock(admin))?.structure.levels[0]).toEqual({ sb: 25, bb: 50, minutes: 25 });
    // In the break after level 2 (25 + 20 minutes, then 10): refused, whatever the sheet.
    expect(await refusalOf(loadFloorTournament(admin, sheet(25), T0 + 50 * MIN))).toMatchObject({ key: 'floor.tournament.duringBreak', field: 'structure' });
    // A break the floor holds (floor/hold.ts): refused as well.
    await admin.query(`UPDATE floor_clock SET held = '{"afterLevel": 2, "tables": 1}'`);
    expect(await refusalOf(loadFloorTournament(admin, sheet(25), T0 + 10 * MIN))).toMatchObject({ key: 'floor.tournament.duringBreak' });
    await admin.query('UPDATE floor_clock SET held = NULL');
    // A table's race open (as the fold left it): refused naming the table, until the director closes it on the floor.
    await admin.query("INSERT INTO floor_tables (table_name) VALUES ('race table') ON CONFLICT DO NOTHING");
    await admin.query("INSERT INTO floor_table_state (table_name, folded_seq, resume_seq, failures, colour_up, open_race, folded_at) VALUES ('race table', 0, 0, 0, 'racing', 'race-3', now())");
    try {
      expect(await refusalOf(loadFloorTournament(admin, sheet(30), T0 + 10 * MIN))).toMatchObject({ key: 'floor.tournament.racesOpen', reason: expect.stringContaining('a race is open at table race table') });
      await admin.query("INSERT INTO floor_decisions (table_name, decided_by, decision, note, race_id) VALUES ('race table', 'Anna', 'race-closed', 'table broken', 'race-3')");
      expect((await loadFloorTournament(admin, sheet(30), T0 + 10 * MIN)).structure.levels[0]).toEqual({ sb: 25, bb: 50, minutes: 30 });
    } finally {
      await admin.query("DELETE FROM floor_decisions WHERE table_name = 'race table'");
      await admin.query("DELETE FROM floor_table_state WHERE table_name = 'race table'");
    }
    // A finished tournament takes more levels (the clock goes on in the level it reaches), never a break.
    expect(await refusalOf(loadFloorTournament(admin, `${sheet(30)}level,200,400,,100\nbreak,30\nlevel,300,600,,30\n`, T0 + 200 * MIN))).toMatchObject({ key: 'floor.tournament.movesClock', reason: expect.stringMatching(/^the clock is at the end; by this sheet it would be at the break after level 4/) });
    expect(await loadFloorTournament(admin, `${sheet(30)}level,200,400,,200\n`, T0 + 200 * MIN)).toMatchObject({ events: [{ type: 'start', at: T0 }] });
    // A sheet that is not one: refused naming the line; JSON that is not, naming its line too.
    expect(await refusalOf(loadFloorTournament(admin, 'chips,25,100\nlevel,25,fifty,,20\n', T0))).toMatchObject({ key: 'plan.csv.notWhole', field: 'line 2, big blind' });
    expect(await refusalOf(loadFloorTournament(admin, '{"chips": [25, 100],\n "levels": [25\n 50]}', T0))).toMatchObject({ key: 'floor.tournament.notJson', field: 'file', reason: expect.stringMatching(/^line 3: /) });
    // A token JSON.parse quotes without saying where: refused all the same, without a line.
    expect(await refusalOf(loadFloorTournament(admin, '{"chips": [25, 100],\n "levels": [}', T0))).toMatchObject({ key: 'floor.tournament.notJsonAnywhere', field: 'file' });
    expect(await refusalOf(loadFloorTournament(admin, `chips,25\n${'#'.repeat(300 * 1024)}`, T0))).toMatchObject({ key: 'floor.tournament.tooLarge' });
    // A spreadsheet's byte-order mark is no part of the sheet.
    await admin.query("UPDATE floor_clock SET structure = NULL, events = '[]'");
    expect((await loadFloorTournament(admin, `\uFEFF${sheet(20)}`, T0)).structure.chips).toEqual([25, 100, 500]);
  });

  it('runs from the command line: the structure from the planner’s CSV, the clock started, adjusted and refused', async () => {
    const csv = join(folder, 'structure.csv');
    writeFileSync(csv, 'chips,25,100,500\nlevel,25,50,,20\nlevel,50,100,,20\nbreak,10\nlevel,100,200,,30\n');
    const loaded = await floor(['structure', '--database', server.url, '--file', csv]);
    expect(loaded.stderr).toBe('');
    expect(JSON.parse(loaded.stdout)).toMatchObject({ status: 'idle', period: { kind: 'level', level: 1 }, msLeft: 20 * MIN });
    const started = await floor(['clock', 'start', '--database', server.url]);
    expect(JSON.parse(started.stdout)).toMatchObject({ status: 'running', events: 1 });
    // --minutes N: N more minutes left in the level; fewer when negative (the clock moved on).
    const fewer = JSON.parse((await floor(['clock', 'adjust', '--minutes', '-5', '--database', server.url])).stdout) as { msLeft: number };
    const more = JSON.parse((await floor(['clock', 'adjust', '--minutes', '2', '--database', server.url])).stdout) as { msLeft: number };
    // Twenty minutes less five, less the moments the commands took; then two more.
    expect(fewer.msLeft).toBeGreaterThan(14 * MIN);
    expect(fewer.msLeft).toBeLessThanOrEqual(15 * MIN);
    expect(more.msLeft - fewer.msLeft).toBeGreaterThan(MIN);
    expect(more.msLeft - fewer.msLeft).toBeLessThanOrEqual(2 * MIN);
    const adjusted = await floor(['clock', 'adjust', '--minutes', '-36', '--database', server.url]);
    expect(JSON.parse(adjusted.stdout)).toMatchObject({ status: 'running', period: { kind: 'level', level: 2 }, nextBreak: { afterLevel: 2 } });
    for (const args of [['clock', 'start'], ['clock', 'adjust', '--minutes', '0'], ['clock', 'stop'], ['clock'], ['clock', 'pause', '--minutes', '3'], ['structure'], ['structure', '--file', join(folder, 'missing.csv')]]) {
      const outcome = await floor([...args, '--database', server.url]);
      expect(outcome.code, args.join(' ')).toBe(2);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect((await floor(['clock', 'start', '--database', server.url])).stderr).toContain('the clock is already running');
    // A sheet the floor cannot read: one line saying where, the structure loaded before kept.
    writeFileSync(csv, '{"chips": [25, 100],\n "levels": [25\n 50]}\n');
    const refused = await floor(['structure', '--database', server.url, '--file', csv]);
    expect(refused).toMatchObject({ code: 2, stdout: '', stderr: 'floor: file: line 3: the file starts as JSON but is not JSON there; load the tournament sheet (CSV) or its JSON\n' });
    expect((await readFloorClock(admin))?.structure.chips).toEqual([25, 100, 500]);
  }, 120_000);
});

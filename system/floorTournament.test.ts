// The tournament the floor holds, taken by stations nobody set up: the director loads the
// tournament sheet (structure with minutes, chip set, rule set, decks per shoe) on the floor, two
// stations linked by the environment only (CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE, as the
// README starts them) take it, raise the colour-up banner at the floor's break with the floor's
// plan, refuse a change of what the floor holds, file their races under the floor's name for them,
// and a station linked in its settings gets its own tournament back when the link is turned off.
// The director's sheet uploaded on the floor page is loaded as the command loads it, and a station
// takes it; a bad one is refused in the page's language, the tournament held kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tournamentFromCsv } from '../engine/plan/tournament';
import type { StructureInput } from '../engine/plan/csv';
import type { ConsoleSettings } from '../protocol/contract';
import { DEFAULT_SETTINGS } from '../station/service/settings';
import { floorWithStations } from './testing/floorStations';
import { actOnFloorClock, readFloorClock, setFloorStructure } from '../floor/clock';
import { createStationLogin } from '../floor/db/stations';
import { POSTGRES_AVAILABLE } from '../floor/testing/postgres';
import { ask, until } from '../floor/testing/requests';
import { startFloorServer } from '../floor/server';
import type { ConsoleService } from '../station/service/service';
import { journalPath } from '../journal/location';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const MIN = 60_000;

/** The director's sheet: the structure with minutes, its chips, and the house's rules. */
const SHEET = ['rules,tda', 'decks,2', 'chips,100,500,1000,5000', 'level,100,200,,20', 'level,200,400,,20', 'break,10', 'level,500,1000,,30', 'break,15', 'level,1000,2000,,30'].join('\n');
const SEATS = [{ seat: 1, name: 'Matti' }, { seat: 2, name: 'Teppo' }, { seat: 3, name: 'Seppo' }];
/** A station as a dealer leaves it after naming the seats: no structure, the default chips and rules. */
const STATION: ConsoleSettings = { ...DEFAULT_SETTINGS, table: { ...DEFAULT_SETTINGS.table, seats: SEATS, button: 1 } };
const { tournament: _none, ...STATION_SCREEN } = STATION;
const TOKEN = 'tournament-upload-password';
const BOUNDARY = '----floor-tournament-test';

/** The floor page's upload form as a browser posts it: the page's language and the file. */
const upload = (file: string, lang = 'en') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="lang"\r\n\r\n${lang}\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="tournament.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${BOUNDARY}--\r\n`;

describe.runIf(run)('the tournament taken from the floor (a real PostgreSQL server)', () => {
  const { floor, folder, folders, stationFor: linkedStation, serviceIn } = floorWithStations('floor-tournament-');
  /** A station started as the README starts it: the floor and the table's name from the environment. */
  const stationFor = (table: string): Promise<ConsoleService> => linkedStation(table, STATION_SCREEN);

  it('two stations never given a structure take the floor’s tournament and raise the banner at its break', async () => {
    const stations = [await stationFor('12'), await stationFor('Pöytä 13')];
    for (const station of stations) await until('the link', () => station.getState().floorLink.state === 'connected');
    expect(stations.map((station) => station.getState().settings.tournament?.structure ?? null)).toEqual([null, null]);
    // The table's name is the floor's name for it (CHIP_RACE_TABLE), in its settings and so its history.
    // (Set as the link starts, after the change running then: waited for, as the screens see it come.)
    for (const [index, name] of ['12', 'Pöytä 13'].entries()) await until('the table named', () => stations[index]?.getState().settings.table.name === name);

    const { structure, house } = tournamentFromCsv(SHEET);
    await setFloorStructure(floor.admin, structure, house);
    for (const station of stations) {
      const settings = await until('the floor’s tournament', () => (station.getState().settings.fromFloor ? station.getState().settings : null));
      expect(settings.table).toMatchObject({ chipSet: [100, 500, 1000, 5000], removed: 100, next: 500, rules: 'tda', decks: 2, seats: SEATS });
      expect(settings.tournament?.structure?.levels).toEqual(structure.levels);
      // What the station had is kept aside, to be given back.
      expect(settings.fromFloor).toEqual({ house: { rules: 'tda', decks: 2 }, own: { chipSet: [25, 100, 500, 1000, 5000], removed: 25, next: 100, rules: 'classic', decks: 1, tournament: { structure: null, atBreakAfter: null } } });
      expect(station.getState().plan?.moments).toEqual([2, 3]);
    }

    // What the floor holds is not the station's to change while linked: said in the dealer's language.
    const [first, second] = stations as [ConsoleService, ConsoleService];
    expect(await first.saveStructure({ ...structure, levels: structure.levels.slice(0, 2) } as StructureInput)).toMatchObject({ ok: false, error: { said: { key: 'service.fromFloor.tournament' } } });
    const held = first.getState().settings;
    expect(await first.saveSettings({ table: { ...held.table, rules: 'classic' }, source: held.source })).toMatchObject({ ok: false, error: { said: { key: 'service.fromFloor.tournament' } } });
    // What the floor does not hold stays the dealer's: a seat's name, the dealer on duty.
    expect(await first.saveSettings({ table: { ...held.table, dealer: 'Anna' }, source: held.source })).toEqual({ ok: true, value: null });
    expect(first.getState().settings.fromFloor?.house).toEqual({ rules: 'tda', decks: 2 });

    // The director starts the clock a minute before the break after level 2: both banners come up, with the floor's plan.
    await actOnFloorClock(floor.admin, { type: 'start' }, Date.now() - 39 * MIN);
    await actOnFloorClock(floor.admin, { type: 'adjust', by: 2 * MIN }, Date.now());
    for (const station of stations) {
      expect(await until('the banner', () => station.getState().colorUp)).toEqual({ afterLevel: 2, done: [], running: null });
      expect(station.getState().plan?.proposal).toMatchObject({ afterLevel: 2, races: [{ removed: 100, next: 500 }] });
    }
    expect(second.getState().settings.tournament?.atBreakAfter).toBe(2);
  }, 90_000);

  it('a station linked in its settings gets its own tournament back when the link is turned off', async () => {
    await floor.admin.query("UPDATE floor_clock SET structure = NULL, house = NULL, events = '[]'");
    const login = await createStationLogin(floor.admin, '21');
    const service = await serviceIn(folder());
    const own: StructureInput = { chips: [25, 100, 500, 1000, 5000], levels: [{ sb: 25, bb: 50, minutes: 15 }, { break: 5 }, { sb: 50, bb: 100, minutes: 15 }] };
    const url = floor.server.urlFor(login.role, login.password);
    expect(await service.saveSettings({ ...STATION_SCREEN, table: { ...STATION.table, name: '21' }, floor: { on: true, url } })).toEqual({ ok: true, value: null });
    expect(await service.saveStructure(own)).toEqual({ ok: true, value: null });
    await until('the link', () => service.getState().floorLink.state === 'connected');

    const { structure, house } = tournamentFromCsv(SHEET);
    await setFloorStructure(floor.admin, structure, house);
    const taken = await until('the floor’s tournament', () => service.getState().settings.fromFloor);
    expect(taken.own.tournament?.structure?.levels).toEqual(own.levels);
    expect(service.getState().settings.table.chipSet).toEqual([100, 500, 1000, 5000]);
    // Issue 43: the floor's tournament is on the station's record, once; its settings file holds only its own.
    const dir = folders.at(-1) as string;
    const journaled = readFileSync(journalPath(dir), 'utf8').split('\n').filter((line) => line.includes('"floor-tournament"')).map((line) => (JSON.parse(line) as { record: { tournament: { structure: StructureInput } } }).record.tournament);
    expect(journaled.map((tournament) => tournament.structure.levels)).toEqual([structure.levels]);
    const file = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as { fromFloor?: unknown; table: { chipSet: number[] }; tournament: { structure: { levels: unknown } } };
    expect(file.fromFloor).toBeUndefined();
    expect(file.table.chipSet).toEqual([25, 100, 500, 1000, 5000]);
    expect(file.tournament.structure.levels).toEqual(own.levels);

    const held = service.getState().settings;
    expect(await service.saveSettings({ table: held.table, source: held.source, floor: { on: false, url } })).toEqual({ ok: true, value: null });
    await until('its own again', () => (service.getState().settings.fromFloor === undefined ? true : null));
    const settings = service.getState().settings;
    expect(settings.table).toMatchObject({ chipSet: [25, 100, 500, 1000, 5000], removed: 25, next: 100, rules: 'classic', decks: 1, name: '21' });
    expect(settings.tournament?.structure?.levels).toEqual(own.levels);
    // And its own again after a restart: the settings file holds what the screens show.
    expect(JSON.parse(readFileSync(join(folders.at(-1) as string, 'settings.json'), 'utf8')).fromFloor).toBeUndefined();
  }, 90_000);
  it('the sheet uploaded on the floor page is loaded as the command loads it and a station takes it; a bad one is refused in Finnish, the tournament kept; only from the page, signed in', async () => {
    await floor.admin.query("UPDATE floor_clock SET structure = NULL, house = NULL, events = '[]'");
    const page = await startFloorServer({ databaseUrl: floor.server.url, port: 0, token: TOKEN, log: () => undefined });
    try {
      const station = await stationFor('31');
      await until('the link', () => station.getState().floorLink.state === 'connected');
      const origin = `http://127.0.0.1:${page.port}`;
      const signedIn = { authorization: `Bearer ${TOKEN}` };
      const post = (body: string, headers: Record<string, string> = { origin, ...signedIn }) => ask(page.port, '/tournament', { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers }, body });

      // Through the page's one gate: no Origin, another site's, no sign-in; and too large a file.
      expect((await post(upload(SHEET), signedIn)).status).toBe(403);
      expect((await post(upload(SHEET), { origin: 'http://evil.example', ...signedIn })).status).toBe(403);
      const unsigned = await post(upload(SHEET, 'fi'), { origin, 'accept-language': 'fi' });
      expect(unsigned.status).toBe(401);
      expect(unsigned.body).toContain('Sali: kirjaudu');
      expect((await post(upload(`${SHEET}\n${'#'.repeat(300 * 1024)}`))).status).toBe(400);
      expect(await readFloorClock(floor.admin)).toBeNull();

      // The page's link from the clock's note, which still names the command.
      const overview = await ask(page.port, '/?lang=en', { headers: signedIn });
      expect(overview.body).toContain('No structure loaded: upload the tournament sheet on its page, or load it with npm run floor -- structure');
      expect(overview.body).toContain('href="/tournament?lang=en" data-testid="tournament-link"');

      const loaded = await post(upload(`\uFEFF${SHEET}`, 'fi'));
      expect(loaded.status).toBe(303);
      expect(loaded.headers.location).toBe('/tournament?lang=fi&loaded=1');
      // What was loaded, said on the page it returns to (issue 43).
      expect((await ask(page.port, loaded.headers.location as string, { headers: signedIn })).body).toMatch(/data-testid="tournament-loaded">Ladattu: tasoja \d+, taukoja \d+</);
      const { structure } = tournamentFromCsv(SHEET);
      expect(await readFloorClock(floor.admin)).toMatchObject({ structure, house: { rules: 'tda', decks: 2 }, events: [] });
      const settings = await until('the floor’s tournament', () => (station.getState().settings.fromFloor ? station.getState().settings : null));
      expect(settings.table).toMatchObject({ chipSet: [100, 500, 1000, 5000], rules: 'tda', decks: 2, seats: SEATS });
      expect(settings.tournament?.structure?.levels).toEqual(structure.levels);
      const shown = await ask(page.port, '/tournament?lang=en', { headers: signedIn });
      expect(shown.body).not.toContain('http-equiv="refresh"');
      expect(shown.body).toContain('<tr data-level="4"><th scope="row">4</th><td class="num">1,000</td><td class="num">2,000</td><td class="num">—</td><td class="num">30</td></tr>');
      expect(shown.body).toContain('data-testid="tournament-rules">TDA rule<');

      // A bad sheet: refused in the form's language naming the line, the tournament and the station's as they were.
      const refused = await post(upload(SHEET.replace('level,500,1000,,30', 'level,500,tuhat,,30'), 'fi'));
      expect(refused.status).toBe(409);
      expect(refused.body).toContain('<html lang="fi">');
      expect(refused.body).toContain('data-testid="tournament-problem">rivi 7, iso blindi: &quot;tuhat&quot; ei ole kokonaisluku<');
      expect(refused.body).toContain('<tr data-level="4">');
      const clock = await readFloorClock(floor.admin);
      expect(clock).toMatchObject({ structure, house: { rules: 'tda', decks: 2 } });
      // In the break after level 2 (20 + 20 minutes in): a good sheet refused too, in Russian.
      await actOnFloorClock(floor.admin, { type: 'start' }, Date.now() - 41 * MIN);
      const inBreak = await post(upload(SHEET.replace('break,15', 'break,20'), 'ru'));
      expect(inBreak.status).toBe(409);
      expect(inBreak.body).toContain('часы на перерыве после уровня 2');
      expect((await readFloorClock(floor.admin))?.structure).toEqual(structure);
      expect(station.getState().settings.tournament?.structure?.levels).toEqual(structure.levels);
    } finally {
      await page.close();
    }
  }, 90_000);
});

// Issue 44: phantom tables. A seat list, "Move to" or "Break the table" naming a table no station
// reports for (a typo: "T7" for "7") made a permanent floor table, counted as left at every break:
// the held break waited for it until the director pressed Resume, and nothing removed it. Now the
// floor refuses such a name (page and command line, in the form's language), the held break does
// not wait for a table never heard from, and `floor remove-table` removes a table the floor holds
// nothing of (or says why it will not).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStationLogin } from '../floor/db/stations';
import { foldFloor, readFloorStatus } from '../floor/fold';
import { tablesLeftAt } from '../floor/hold';
import { readSeating, setSeating } from '../floor/seating';
import { POSTGRES_AVAILABLE } from '../floor/testing/postgres';
import { ask } from '../floor/testing/requests';
import { syncStation } from '../replication/sync';
import { floorWithPage } from './testing/floorPage';
import { dealUntilComplete, playStation } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const BOUNDARY = '----floor-phantom-test';
const upload = (file: string, lang: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="lang"\r\n\r\n${lang}\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="seats.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${BOUNDARY}--\r\n`;

describe.runIf(run)('phantom tables (a real PostgreSQL server)', () => {
  const { floor, folder, formHeaders, floorCommand, closeAfter } = floorWithPage('phantom-token-0123456789', 'floor-phantom-');
  const post = (path: string, body: string, type: string) => ask(floor.page.port, path, { method: 'POST', headers: formHeaders(type), body });
  const form = 'application/x-www-form-urlencoded';
  const tables = async () => (await floor.admin.query<{ table_name: string }>('SELECT table_name FROM floor_tables ORDER BY table_name')).rows.map((row) => row.table_name);

  it('a seat list, a move or a break naming a table the floor has no station for is refused, clearly, in every language, and makes no table', async () => {
    await createStationLogin(floor.admin, '7');
    await createStationLogin(floor.admin, '8');
    const before = await tables();
    expect(before).toEqual(['7', '8']);
    // The seat list with a typo, from the page in each language and from the command line.
    const list = '7,1,Anna\n7,2,Matti\nT7,3,Pekka\n8,1,Liisa\n';
    const said = { en: 'the floor has no station for table "T7": make its login with "floor add-table --table NAME" first, or correct the name', fi: 'salissa ei ole asemaa pöydälle "T7"', ru: 'в зале нет станции для стола "T7"' } as const;
    for (const language of ['en', 'fi', 'ru'] as const) {
      const refused = await post('/seating', upload(list, language), `multipart/form-data; boundary=${BOUNDARY}`);
      expect(refused.status).toBe(409);
      expect(refused.body.replaceAll('&quot;', '"')).toContain(said[language]);
    }
    const file = join(folder(), 'seats.csv');
    writeFileSync(file, '7,1,Anna\nT7,3,Pekka\nT8,1,Liisa\n');
    const cli = await floorCommand('seating', '--file', file);
    expect(cli).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('the floor has no station for tables "T7", "T8"') });
    expect(await tables()).toEqual(before);
    expect(await readSeating(floor.admin)).toEqual([]);

    // The list as it should be: loaded.
    expect((await post('/seating', upload('7,1,Anna\n7,2,Matti\n8,1,Liisa\n', 'en'), `multipart/form-data; boundary=${BOUNDARY}`)).status).toBe(303);
    // "Move to" T7: refused at the question and when said yes to, nothing moved.
    const asked = await post('/seat', 'action=move&table=7&seat=2&to-table=T7&to-seat=3&lang=fi', form);
    expect(asked.status).toBe(409);
    expect(asked.body.replaceAll('&quot;', '"')).toContain('salissa ei ole asemaa pöydälle "T7"');
    expect((await post('/seat', 'action=move&table=7&seat=2&to-table=T7&to-seat=3&confirm=yes&by=Anna%20K&lang=en', form)).status).toBe(409);
    // "Break the table" of a table the floor does not have: refused, no table made.
    expect((await post('/seat', 'action=break&table=T7&confirm=yes&by=Anna%20K&lang=en', form)).status).toBe(404);
    expect(await tables()).toEqual(before);
    expect((await readSeating(floor.admin)).map((table) => [table.table, table.seats.map((seat) => seat.player)])).toEqual([['7', ['Anna', 'Matti']], ['8', ['Liisa']]]);
    // A move between tables that have stations goes on as before.
    expect((await post('/seat', 'action=move&table=7&seat=2&to-table=8&to-seat=3&confirm=yes&by=Anna%20K&lang=en', form)).status).toBe(303);
  });

  it('the held break does not wait for a table never heard from; `floor remove-table` removes it, and keeps a table that has anything on the floor, saying why', async () => {
    // Table 12 finished its colour-up at the break after level 6.
    const dir = folder();
    const service = await playStation(dir, '12', 'colour-up-racing');
    closeAfter(() => service.close());
    await dealUntilComplete(service, 'race-3');
    expect((await service.confirmRace('race-3')).ok).toBe(true);
    await createStationLogin(floor.admin, '12');
    await syncStation(floor.admin, '12', dir);
    // A table a typo made on an older floor (its seat list's "T12"), seated and broken since; and a login made for a typo ("12 ").
    await floor.admin.query("INSERT INTO floor_tables (table_name) VALUES ('T12')");
    await floor.admin.query("INSERT INTO floor_seating_tables (table_name, version, broken_at) VALUES ('T12', nextval('floor_seating_versions'), now())");
    await createStationLogin(floor.admin, 'Table 12');
    await foldFloor(floor.admin);
    const status = await readFloorStatus(floor.admin);
    // Tables 7 and 8 (the test before) never sent anything either: the break waits for none of them.
    expect(tablesLeftAt(status, 6)).toBe(0);
    expect(status.progress.left).toBe(0);
    expect(status.tables.find((table) => table.table === '12')).toMatchObject({ colourUp: 'done', sheetAfterLevel: 6, heardFrom: true });
    expect(status.tables.find((table) => table.table === 'T12')).toMatchObject({ colourUp: 'not-started', heardFrom: false });

    // `floor status` says which tables no station was ever heard from (those remove-table can remove).
    const listed = JSON.parse((await floorCommand('status')).stdout) as { tables: { table: string; heardFrom?: boolean }[] };
    expect(listed.tables.filter((table) => table.heardFrom === false).map((table) => table.table)).toEqual(['7', '8', 'T12', 'Table 12']);
    // Removed by the command line: the typo's table, and the login made for a typo.
    expect(await floorCommand('remove-table', '--table', 'T12')).toEqual({ code: 0, stdout: '{"removed":"T12","hadLogin":false}\n', stderr: '' });
    expect(await floorCommand('remove-table', '--table', 'Table 12')).toEqual({ code: 0, stdout: '{"removed":"Table 12","hadLogin":true}\n', stderr: '' });
    expect(await tables()).toEqual(['12', '7', '8']);
    // Kept, each saying why: records sent, players seated, no such table.
    const records = (await floor.admin.query<{ n: number }>("SELECT count(*)::int AS n FROM station_records WHERE table_name = '12'")).rows[0]?.n;
    expect(await floorCommand('remove-table', '--table', '12')).toEqual({ code: 2, stdout: '', stderr: `floor: table: table 12 has ${records} records on the floor: a table that sent records is kept (they are its evidence)\n` });
    expect(await floorCommand('remove-table', '--table', '8')).toEqual({ code: 2, stdout: '', stderr: 'floor: table: 2 players sit at table 8: move them, or load a corrected seat list, first\n' });
    expect(await floorCommand('remove-table', '--table', 'T12')).toEqual({ code: 2, stdout: '', stderr: 'floor: table: the floor has no table T12\n' });
    expect(await tables()).toEqual(['12', '7', '8']);
    // The typo's table is gone from the seating too; the others' seats are as they were.
    expect((await readSeating(floor.admin)).map((table) => table.table)).toEqual(['7', '8']);
    // Named again by a seat list: refused (no station), not made again.
    await expect(setSeating(floor.admin, [{ table: 'T12', seat: 1, player: 'Anna' }], 'test')).rejects.toThrow(/no station for table "T12"/);
  }, 120_000);
});

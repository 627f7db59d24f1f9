// Issue 44, the low items about names: a Latin-1 seat list was taken with its names mangled to
// U+FFFD; a table name with a text-direction control, or spelt decomposed (NFD), was taken as a
// table of its own. Now every entry (the station's settings, `floor add-table`, the seat list from
// the page and the command line, "Move to") takes one rule (protocol/tableName.ts): such controls
// refused, a name filed composed (NFC), and a file that is not UTF-8 refused, saying so.
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsoleService } from '../station/service/service';
import { stationRoleOf } from '../floor/db/stations';
import { readSeating } from '../floor/seating';
import { POSTGRES_AVAILABLE } from '../floor/testing/postgres';
import { ask } from '../floor/testing/requests';
import { floorWithPage } from './testing/floorPage';
import { tableSettings } from './testing/stations';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const BOUNDARY = '----floor-names-test';
const COMPOSED = 'Pöytä 12';
const DECOMPOSED = COMPOSED.normalize('NFD');

describe.runIf(run)('table names and seat lists as people give them (a real PostgreSQL server)', () => {
  const { floor, folder, formHeaders, floorCommand } = floorWithPage('table-names-token-0123456789', 'floor-names-');
  const admin = () => floor.admin;

  /** The seat list's form posted with the file's bytes as they are (a Latin-1 file is not text a string holds). */
  const uploadBytes = (file: Buffer, lang: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="lang"\r\n\r\n${lang}\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="seats.csv"\r\nContent-Type: text/csv\r\n\r\n`),
        file,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]);
      const req = request({ host: '127.0.0.1', port: floor.page.port, path: '/seating', method: 'POST', headers: { host: `127.0.0.1:${floor.page.port}`, ...formHeaders(`multipart/form-data; boundary=${BOUNDARY}`), 'content-length': body.length } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('`add-table` files a name composed, and refuses one with a text-direction control', async () => {
    const made = await floorCommand('add-table', '--table', DECOMPOSED);
    expect(made.code).toBe(0);
    expect(new URL(made.stdout.trim()).username).toBe(stationRoleOf(COMPOSED));
    expect((await admin().query('SELECT table_name FROM floor_tables')).rows).toEqual([{ table_name: COMPOSED }]);
    expect((await floorCommand('add-table', '--table', '7')).code).toBe(0);
    for (const name of ['\u202E21', '7\u200B', 'T\u20667\u2069']) {
      const refused = await floorCommand('add-table', '--table', name);
      expect(refused).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('--table must be a table name of 1 to 32 characters, no control or invisible formatting characters') });
    }
    expect((await admin().query('SELECT table_name FROM floor_tables ORDER BY 1')).rows.map((row) => row.table_name)).toEqual(['7', COMPOSED]);
  });

  it('a Latin-1 seat list is refused, from the page and the command line, saying so; a UTF-8 one spelling a name either way seats the one table', async () => {
    const latin1 = Buffer.from(`Table;Seat;Player\n7;1;Anna\n7;2;Jürgen Müller\n${COMPOSED};1;Åsa\n`, 'latin1');
    const page = await uploadBytes(latin1, 'fi');
    expect(page.status).toBe(409);
    expect(page.body.replaceAll('&quot;', '"')).toContain('rivi 3: tiedosto ei ole UTF-8-tekstiä (tallennettu Latin-1- tai Windows-1252-muodossa?): tallenna se muodossa "CSV UTF-8" ja lataa uudelleen');
    const file = join(folder(), 'seats.csv');
    writeFileSync(file, latin1);
    expect(await floorCommand('seating', '--file', file)).toEqual({ code: 2, stdout: '', stderr: 'floor: seating: line 3: the file is not UTF-8 text (saved as Latin-1 or Windows-1252?): save it as "CSV UTF-8" and load it again\n' });
    expect(await readSeating(admin())).toEqual([]);

    // The same list in UTF-8, the table spelt decomposed on one line and composed on another: one table.
    writeFileSync(file, `Table;Seat;Player\n7;1;Anna\n7;2;Jürgen Müller\n${DECOMPOSED};1;Åsa\n${COMPOSED};2;Ольга\n`, 'utf8');
    expect(await floorCommand('seating', '--file', file)).toEqual({ code: 0, stdout: '{"tables":2,"players":4}\n', stderr: '' });
    expect((await readSeating(admin())).map((table) => [table.table, table.seats.map((seat) => seat.player)])).toEqual([['7', ['Anna', 'Jürgen Müller']], [COMPOSED, ['Åsa', 'Ольга']]]);

    // "Move to" the table spelt decomposed: the player lands at the composed one.
    const form = new URLSearchParams({ action: 'move', table: '7', seat: '2', 'to-table': DECOMPOSED, 'to-seat': '3', confirm: 'yes', by: 'Anna K', lang: 'en' }).toString();
    const moved = await ask(floor.page.port, '/seat', { method: 'POST', headers: formHeaders('application/x-www-form-urlencoded'), body: form });
    expect(moved.status).toBe(303);
    expect((await readSeating(admin())).find((table) => table.table === COMPOSED)?.seats).toEqual([{ seat: 1, player: 'Åsa' }, { seat: 2, player: 'Ольга' }, { seat: 3, player: 'Jürgen Müller' }]);
    expect((await admin().query('SELECT table_name FROM floor_tables ORDER BY 1')).rows.map((row) => row.table_name)).toEqual(['7', COMPOSED]);
  });

  it("the station's settings take the table's name by the same rule: a text-direction control refused, a decomposed name kept composed", async () => {
    const service = await ConsoleService.start({ dataDir: folder(), clock: () => new Date('2026-12-01T20:00:00Z'), station: 'pc-names' });
    try {
      const refused = await service.saveSettings(tableSettings('\u202E21'));
      expect(refused).toMatchObject({ ok: false, error: { field: 'table.name', said: { key: 'settings.tableName' } } });
      expect(await service.saveSettings(tableSettings(DECOMPOSED))).toEqual({ ok: true, value: null });
      expect(service.getState().settings.table.name).toBe(COMPOSED);
    } finally {
      await service.close();
    }
  });
});

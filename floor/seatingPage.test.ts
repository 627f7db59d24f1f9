// The seating's forms on the floor page, as raw requests: from the floor's own page only (Origin),
// behind the token, strict about what they carry (a multipart upload with only its fields, a
// seat's form with only its action's); a refusal shown on the page in the form's language.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from './testing/postgres';
import { ask } from './testing/requests';
import { readSeating } from './seating';
import { startFloorServer, type FloorServer } from './server';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';
const TOKEN = 'seating-token-0123456789';
const BOUNDARY = '----floor-seating-test';

const upload = (file: string, lang = 'en', boundary = BOUNDARY) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="lang"\r\n\r\n${lang}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="seats.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`;

describe.runIf(run)("the floor page's seating forms (a real PostgreSQL server)", () => {
  let server: ThrowawayPostgres;
  let admin: pg.Client;
  let floor: FloorServer;
  let origin: string;
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    ({ server, admin } = await startFloorDatabase());
    floor = await startFloorServer({ databaseUrl: server.url, port: 0, token: TOKEN, log: () => undefined });
    origin = `http://127.0.0.1:${floor.port}`;
  }, 120_000);

  afterAll(async () => {
    await floor?.close();
    await admin?.end();
    await server?.remove();
  });

  const post = (path: string, body: string, type: string, headers: Record<string, string> = { origin, ...auth }) => ask(floor.port, path, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
  const multipart = `multipart/form-data; boundary=${BOUNDARY}`;
  const form = 'application/x-www-form-urlencoded';

  it('takes a seat list from the page, and refuses one from elsewhere, without the token, or malformed', async () => {
    expect((await post('/seating', upload('7,1,Anna\n'), multipart, auth)).status).toBe(403);
    expect((await post('/seating', upload('7,1,Anna\n'), multipart, { origin, 'accept-language': 'fi' })).status).toBe(401);
    expect((await post('/seating', upload('7,1,Anna\n'), form)).status).toBe(400);
    expect((await post('/seating', upload('7,1,Anna\n').replace('name="lang"', 'name="debug"'), multipart)).status).toBe(400);
    expect((await post('/seating', upload('x'.repeat(300 * 1024)), multipart)).status).toBe(400);
    expect(await readSeating(admin)).toEqual([]);
    const refused = await post('/seating', upload('7,1,Anna\n7,1,Matti\n', 'ru'), multipart);
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('<html lang="ru">');
    expect(refused.body).toContain('строка 2: место 1 стола 7 указано дважды (впервые в строке 1)');
    const loaded = await post('/seating', upload('7,1,Anna\n7,2,Matti\n8,1,Pekka\n', 'fi'), multipart);
    expect(loaded.status).toBe(303);
    expect(loaded.headers.location).toBe('/seating?lang=fi&loaded=1');
    expect((await readSeating(admin)).map((table) => [table.table, table.seats.length])).toEqual([['7', 2], ['8', 1]]);
    // The page it returns to says what was loaded, in the form's language (issue 43); the page itself does not.
    expect((await ask(floor.port, loaded.headers.location as string, { headers: auth })).body).toContain('data-testid="seating-loaded">Ladattu: pelaajia 3, pöytiä 2<');
    const page = await ask(floor.port, '/seating?lang=en', { headers: auth });
    expect(page.body).not.toContain('seating-loaded');
    expect(page.body).toContain('3 players');
    expect(page.body).not.toContain('http-equiv="refresh"');
    expect((await ask(floor.port, '/seat', { headers: auth })).status).toBe(405);
  });

  it("a seat's forms: Out, Move to, Break the table (ticked), each strict; a refusal on the table's page", async () => {
    expect((await post('/seat', 'action=out&table=7&seat=1&lang=en', form, auth)).status).toBe(403);
    expect((await post('/seat', 'action=out&table=7&seat=1&extra=1', form)).status).toBe(400);
    expect((await post('/seat', 'action=drop&table=7', form)).status).toBe(400);
    const noSeat = await post('/seat', 'action=out&table=7&seat=9&lang=fi', form);
    expect(noSeat.status).toBe(409);
    expect(noSeat.body).toContain('pöydän 7 paikalla 9 ei ole pelaajaa');
    const out = await post('/seat', 'action=out&table=7&seat=1&lang=en', form);
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/table?table=7&lang=en');
    expect((await admin.query('SELECT table_name, seat, player, out_by FROM floor_seating_out')).rows).toEqual([{ table_name: '7', seat: 1, player: 'Anna', out_by: 'floor page' }]);
    expect((await post('/seat', 'action=move&table=7&seat=2&to-table=8&to-seat=3&lang=en', form)).status).toBe(303);
    const unticked = await post('/seat', 'action=break&table=8&lang=en', form);
    expect(unticked.status).toBe(409);
    expect(unticked.body).toContain('tick the box to confirm the table is broken');
    expect((await post('/seat', 'action=break&table=8&confirm=yes&lang=en', form)).status).toBe(303);
    expect((await readSeating(admin)).map((table) => ({ table: table.table, broken: table.brokenAt !== null, seats: table.seats }))).toEqual([
      { table: '7', broken: false, seats: [] },
      { table: '8', broken: true, seats: [] },
    ]);
    const page = await ask(floor.port, '/table?table=8&lang=en', { headers: auth });
    expect(page.body).toContain('data-testid="table-broken">Broken<');
  });
});

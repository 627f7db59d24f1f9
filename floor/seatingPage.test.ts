// The seating's forms on the floor page, as raw requests: from the floor's own page only (Origin),
// behind the token, strict about what they carry (a multipart upload with only its fields, a
// seat's form with only its action's); a refusal shown on the page in the form's language.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_AVAILABLE, startFloorDatabase, type ThrowawayPostgres } from './testing/postgres';
import { ask } from './testing/requests';
import { readSeating } from './seating';
import { createStationLogin } from './db/stations';
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
    // The tables the seat lists name have their stations' logins (issue 44: a seat list naming another table is refused).
    for (const table of ['7', '8']) await createStationLogin(admin, table);
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

  it("a seat's forms: Out, Move to, Break the table, each strict and asked once (with who), kept with who and when, each undone from the page; a refusal on the table's page", async () => {
    expect((await post('/seat', 'action=out&table=7&seat=1&lang=en', form, auth)).status).toBe(403);
    expect((await post('/seat', 'action=out&table=7&seat=1&extra=1', form)).status).toBe(400);
    expect((await post('/seat', 'action=drop&table=7', form)).status).toBe(400);
    const noSeat = await post('/seat', 'action=out&table=7&seat=9&lang=fi', form);
    expect(noSeat.status).toBe(409);
    expect(noSeat.body).toContain('pöydän 7 paikalla 9 ei ole pelaajaa');
    const seats = async () => (await readSeating(admin)).map((table) => ({ table: table.table, broken: table.brokenAt !== null, seats: table.seats.map((seat) => `${seat.seat} ${seat.player}`) }));
    const before = await seats();

    // Out, tapped: nothing happens yet; the table's page asks, naming the player, with a field for who.
    const asked = await post('/seat', 'action=out&table=7&seat=1&lang=en', form);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('data-testid="seat-confirm"');
    expect(asked.body).toContain('Take Anna (seat 1) out of table 7?');
    expect(asked.body).toMatch(/<input type="hidden" name="confirm" value="yes">/);
    expect(await seats()).toEqual(before);
    // Said yes without a name: refused, nothing changed.
    const nameless = await post('/seat', 'action=out&table=7&seat=1&confirm=yes&by=%20&lang=ru', form);
    expect(nameless.status).toBe(409);
    expect(nameless.body).toContain('укажите, кто вы: имя (не длиннее 64 знаков)');
    expect(await seats()).toEqual(before);
    const out = await post('/seat', 'action=out&table=7&seat=1&confirm=yes&by=Anna%20K&lang=en', form);
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/table?table=7&lang=en');
    expect((await admin.query('SELECT table_name, seat, player, out_by FROM floor_seating_out')).rows).toEqual([{ table_name: '7', seat: 1, player: 'Anna', out_by: 'Anna K' }]);

    // Move, asked first too (and a taken seat refused at the question, before a name is asked for).
    expect((await post('/seat', 'action=move&table=7&seat=2&to-table=7&to-seat=2&lang=en', form)).body).toContain('table 7 seat 2 is taken by Matti');
    const moveAsked = await post('/seat', 'action=move&table=7&seat=2&to-table=8&to-seat=3&lang=fi', form);
    expect(moveAsked.body).toContain('Siirretäänkö Matti pöydän 7 paikalta 2 pöydän 8 paikalle 3?');
    expect((await post('/seat', 'action=move&table=7&seat=2&to-table=8&to-seat=3&confirm=yes&by=Anna%20K&lang=en', form)).status).toBe(303);

    // Break: asked with every player it moves out; the old tick box is no confirmation.
    const breakAsked = await post('/seat', 'action=break&table=8&lang=en', form);
    expect(breakAsked.status).toBe(200);
    expect(breakAsked.body).toContain('Break table 8? Every player leaves it: 1 Pekka, 3 Matti.');
    expect((await post('/seat', 'action=break&table=8&confirm=yes&by=Anna%20K&lang=en', form)).status).toBe(303);
    expect(await seats()).toEqual([
      { table: '7', broken: false, seats: [] },
      { table: '8', broken: true, seats: [] },
    ]);
    const page = await ask(floor.port, '/table?table=8&lang=en', { headers: auth });
    expect(page.body).toContain('data-testid="table-broken">Broken<');

    // The changes, each with who and when, on the table's page; each one undoable from there.
    const changes = (await admin.query<{ id: string; kind: string; by: string }>("SELECT id, kind, by FROM floor_seating_changes WHERE kind <> 'load' ORDER BY id")).rows;
    expect(changes.map((change) => [change.kind, change.by])).toEqual([['out', 'Anna K'], ['move', 'Anna K'], ['break', 'Anna K']]);
    const [outId, moveId, breakId] = changes.map((change) => change.id);
    expect(page.body).toMatch(new RegExp(`data-testid="seat-change" data-id="${moveId}" data-kind="move">[^<]+ Anna K: Matti moved from table 7, seat 2 to table 8, seat 3`));
    expect(page.body).toMatch(new RegExp(`data-testid="seat-change" data-id="${breakId}" data-kind="break">[^<]+ Anna K: table 8 broken: 1 Pekka, 3 Matti`));
    // Undo asks once too; another table's change is not this page's to undo.
    expect((await post('/seat', `action=undo&table=7&change=${breakId}&lang=en`, form)).body).toContain(`the seating has no change ${breakId}`);
    const undoAsked = await post('/seat', `action=undo&table=8&change=${breakId}&lang=en`, form);
    expect(undoAsked.body).toContain(`Undo change ${breakId}: table 8 broken: 1 Pekka, 3 Matti?`);
    expect((await post('/seat', `action=undo&table=8&change=${breakId}&confirm=yes&by=Ville&lang=en`, form)).status).toBe(303);
    expect(await seats()).toEqual([
      { table: '7', broken: false, seats: [] },
      { table: '8', broken: false, seats: ['1 Pekka', '3 Matti'] },
    ]);
    // Undone once only; the move undone puts Matti back at table 7, the out puts Anna back.
    expect((await post('/seat', `action=undo&table=8&change=${breakId}&confirm=yes&by=Ville&lang=en`, form)).body).toContain(`change ${breakId} was undone already`);
    expect((await post('/seat', `action=undo&table=7&change=${moveId}&confirm=yes&by=Ville&lang=en`, form)).status).toBe(303);
    expect((await post('/seat', `action=undo&table=7&change=${outId}&confirm=yes&by=Ville&lang=en`, form)).status).toBe(303);
    expect(await seats()).toEqual([
      { table: '7', broken: false, seats: ['1 Anna', '2 Matti'] },
      { table: '8', broken: false, seats: ['1 Pekka'] },
    ]);
    const undone = await ask(floor.port, '/table?table=7&lang=fi', { headers: auth });
    expect(undone.body).toMatch(new RegExp(`data-id="${outId}" data-kind="out" data-undone="true">[^<]+ Anna K: Anna pudonnut paikalta 1 — <em data-testid="seat-change-undone">perui Ville klo `));
    expect(undone.body).not.toContain(`name="change" value="${outId}"`);
    // A seat list loaded since: what came before it can no longer be undone.
    expect((await post('/seat', 'action=out&table=7&seat=2&confirm=yes&by=Anna%20K&lang=en', form)).status).toBe(303);
    const lastOut = (await admin.query<{ id: string }>("SELECT max(id) AS id FROM floor_seating_changes WHERE kind = 'out'")).rows[0]?.id;
    expect((await post('/seating', upload('7,1,Anna\n7,2,Matti\n8,1,Pekka\n'), multipart)).status).toBe(303);
    expect((await post('/seat', `action=undo&table=7&change=${lastOut}&lang=en`, form)).body).toContain(`a seat list was loaded after change ${lastOut}: it can no longer be undone`);
  });

});

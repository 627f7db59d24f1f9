import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleService } from '../station/service/service';
import { migrate } from '../floor/db/migrate';
import { ensureTable } from '../floor/db/stations';
import { FLOOR_CSP, GUESS_SPACING_MS, startFloorServer, type FloorServer } from '../floor/server';
import { syncStation } from '../replication/sync';
import { POSTGRES_AVAILABLE, startFloorDatabase, startThrowawayPostgres, type ThrowawayPostgres } from '../floor/testing/postgres';
import { playStation } from './testing/stations';
import { makeCardroomCa } from '../floor/testing/ca';
import { ask, until } from '../floor/testing/requests';

const run = POSTGRES_AVAILABLE || process.env.CI === 'true';

describe('the floor page refuses to start where it should not', () => {
  it('will not listen beyond loopback without a token, nor with a short one', async () => {
    await expect(startFloorServer({ databaseUrl: 'postgres://a:b@127.0.0.1:1/x', host: '0.0.0.0' })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0: .*token/);
    await expect(startFloorServer({ databaseUrl: 'postgres://a:b@127.0.0.1:1/x', host: '0.0.0.0', token: 'short' })).rejects.toThrow(/12 to 512 characters/);
  });
});

describe.runIf(run)('the floor page (a real PostgreSQL server)', () => {
  let database: ThrowawayPostgres;
  let admin: pg.Client;
  let open: FloorServer;
  let guarded: FloorServer;
  const folders: string[] = [];
  const services: ConsoleService[] = [];
  const TOKEN = 'cardroom-floor-password-1';
  /** A table named to break out of the page's HTML, and to run as a formula in a spreadsheet. */
  const HOSTILE = '=HYPERLINK("x")<script>';

  beforeAll(async () => {
    database = await startThrowawayPostgres();
    admin = new pg.Client({ connectionString: database.url });
    admin.on('error', () => undefined);
    await admin.connect();
    await migrate(admin);
    for (const [table, script] of [['7', 'colour-up-racing'], [HOSTILE, 'abandoned'], ['9', 'abandoned']] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'floor-page-'));
      folders.push(dir);
      services.push(await playStation(dir, table.slice(0, 32), script));
      await ensureTable(admin, table);
      await syncStation(admin, table, dir);
    }
    // Table 9's station sent a forged line after its races (as the trigger records one): its races' chain is broken.
    await admin.query("INSERT INTO chain_failures (table_name, seq, reason, line) VALUES ('9', 999, 'broken-link', '{}')");
    await admin.query("UPDATE station_contact SET behind = 5 WHERE table_name = '7'");
    await ensureTable(admin, 'forged');
    await admin.query("INSERT INTO chain_failures (table_name, seq, reason, line) VALUES ('forged', 4, 'bad-seal', '{}')");
    open = await startFloorServer({ databaseUrl: database.url, log: () => undefined });
    guarded = await startFloorServer({ databaseUrl: database.url, token: TOKEN, log: () => undefined });
  }, 120_000);

  afterAll(async () => {
    await open?.close();
    await guarded?.close();
    await Promise.all(services.map((service) => service.close()));
    await admin?.end();
    await database?.remove();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('shows every table, the totals, the colour-up, the chain failure in red, and escapes what stations named', async () => {
    const page = await ask(open.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(FLOOR_CSP);
    expect(FLOOR_CSP).toContain("default-src 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).toContain('data-table="7"');
    expect(page.body).toContain('=HYPERLINK(&quot;x&quot;)&lt;script&gt;');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('data-testid="total-races">6<');
    expect(page.body).toContain('behind by 5 records');
    expect(page.body).toMatch(/<tr class="failed" data-table="9">[\s\S]*?disputed/);
    expect(page.body).toContain('racing');
    expect(page.body).toMatch(/<tr class="failed" data-table="forged">/);
    expect(page.body).toMatch(/data-testid="chain-failures"[\s\S]*record 4: the record was changed after it was written/);
    expect(page.body).toContain('<meta http-equiv="refresh" content="5">');
    const css = await ask(open.port, '/floor.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('speaks the language asked for (?lang=, else Accept-Language), numbers grouped its way', async () => {
    expect((await ask(open.port, '/?lang=fi')).body).toContain('<html lang="fi">');
    expect((await ask(open.port, '/', { headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' } })).body).toMatch(/<html lang="ru">[\s\S]*Все столы турнира/);
    expect((await ask(open.port, '/', { headers: { 'accept-language': 'de-DE' } })).body).toContain('<html lang="en">');
    expect((await ask(open.port, '/?lang=fi')).body).toContain('Arvonnat');
  });

  it('opens a table and a race\'s full record: cards as cards with seat, round and source, the void, the refusal, the confirmation, the chain', async () => {
    const table = await ask(open.port, '/table?table=7&lang=en');
    expect(table.status).toBe(200);
    expect(table.body).toContain('/race?table=7&amp;race=race-1');
    const record = await ask(open.port, '/race?table=7&race=race-1');
    expect(record.status).toBe(200);
    expect(record.body).toContain('Chip race record: race-1');
    expect(record.body).toContain('Table: 7');
    expect(record.body).toMatch(/<td>A♥ to Seat 1 — Matti<\/td><td>typed<\/td>/);
    expect(record.body).toMatch(/Voided: Q♠ of Seat \d+ — [A-Za-z]+ \(exposed\)/);
    expect(record.body).toMatch(/Refused Zz: <span(?: lang="en")?>/);
    expect(record.body).toContain('Confirmed');
    expect(record.body).toContain('data-testid="race-chain">intact<');
    expect(record.body).toMatch(/data-testid="race-counts"[\s\S]*<td>Seat 1 — Matti<\/td><td class="num">7<\/td><td>yes<\/td>/);
    expect(record.body).toContain('pc-7');
    const hostile = await ask(open.port, `/race?table=${encodeURIComponent(HOSTILE)}&race=race-2`);
    expect(hostile.status).toBe(200);
    expect(hostile.body).toContain('Abandoned');
    expect(hostile.body).not.toContain('<script>');
    expect((await ask(open.port, '/race?table=9&race=race-1')).body).toContain('data-testid="race-chain">broken<');
    expect((await ask(open.port, '/race?table=7&race=race-99')).status).toBe(404);
    expect((await ask(open.port, '/table?table=nobody')).status).toBe(404);
  });

  it('exports the whole tournament as CSV (the console\'s columns, led by the table, formula-safe) and JSON', async () => {
    const csv = await ask(open.port, '/export.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    // The byte-order mark Excel needs to read UTF-8, and each time's local reading (the floor's time zone) beside it.
    expect(csv.body.startsWith('\uFEFFfloor table,')).toBe(true);
    expect(lines[0]).toMatch(/^floor table,race,table,level,station,started,started local,confirmed,confirmed local,/);
    expect(lines.filter((line) => line.startsWith('7,'))).toHaveLength(2);
    // As the console's own export writes a cell a spreadsheet would run: quoted, behind an apostrophe.
    expect(lines.filter((line) => line.startsWith(`"'=HYPERLINK(""x"")<script>",`))).toHaveLength(2);
    const json = JSON.parse((await ask(open.port, '/export.json')).body) as { tables: { table: string; races: unknown[]; chain: string }[]; totalValueDelta: number };
    expect(json.tables.map((table) => [table.table, table.races.length, table.chain])).toEqual([[HOSTILE, 2, 'intact'], ['7', 2, 'intact'], ['9', 2, 'broken'], ['forged', 0, 'broken']]);
    expect(json.tables[2]?.races.map((race) => (race as { chain: string }).chain)).toEqual(['broken', 'broken']);
    expect(lines.filter((line) => line.startsWith('9,'))).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith('9,')).every((line) => line.includes(',"broken: record 999 does not match the seal the record after it carries'))).toBe(true);
  });

  it('refuses a wrong Host, a wrong Origin, another method, a bad query, an unknown route', async () => {
    expect((await ask(open.port, '/', { headers: { host: 'evil.example:80' } })).status).toBe(421);
    expect((await ask(open.port, '/', { headers: { host: `attacker.test:${open.port}` } })).status).toBe(421);
    expect((await ask(open.port, '/', { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await ask(open.port, '/', { headers: { origin: `http://127.0.0.1:${open.port}` } })).status).toBe(200);
    expect((await ask(open.port, '/login', { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x' })).status).toBe(403);
    expect((await ask(open.port, '/', { method: 'POST', headers: { origin: `http://127.0.0.1:${open.port}` } })).status).toBe(405);
    expect((await ask(open.port, '/', { method: 'DELETE' })).status).toBe(405);
    expect((await ask(open.port, `/?lang=${'x'.repeat(5000)}`)).status).toBe(400);
    expect((await ask(open.port, '/?lang=%zz')).status).toBe(400);
    expect((await ask(open.port, '/?lang=de')).status).toBe(400);
    expect((await ask(open.port, '/?lang=en&lang=fi')).status).toBe(400);
    expect((await ask(open.port, '/?debug=1')).status).toBe(400);
    expect((await ask(open.port, '/race?table=7&race=../../etc')).status).toBe(400);
    expect((await ask(open.port, `/table?table=${'x'.repeat(40)}`)).status).toBe(400);
    const missing = await ask(open.port, '/admin');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-security-policy']).toBe(FLOOR_CSP);
  });

  it('says each refusal in plain text in the asker\'s language: its ?lang=, else Accept-Language, else English', async () => {
    const body = async (path: string, headers: Record<string, string> = {}, method = 'GET') => (await ask(open.port, path, { method, headers })).body;
    expect(await body('/', { host: 'evil.example:80' })).toBe('misdirected request: the floor answers only to its own address\n');
    expect(await body('/', { host: 'evil.example:80', 'accept-language': 'fi-FI' })).toBe('väärin ohjattu pyyntö: sali vastaa vain omaan osoitteeseensa\n');
    expect(await body('/?lang=ru', { origin: 'http://evil.example' })).toBe('запрещено: запрос с другого сайта отклонён\n');
    expect(await body('/?lang=ru&debug=1')).toBe('неверный запрос: неожиданный параметр запроса debug\n');
    expect(await body('/?lang=de', { 'accept-language': 'fi' })).toBe('virheellinen pyyntö: lang on en, fi tai ru\n');
    expect(await body('/', { 'accept-language': 'ru' }, 'DELETE')).toBe('метод не разрешён: только GET и HEAD\n');
    expect(await body('/clock', { 'accept-language': 'fi' })).toBe('menetelmä ei sallittu: kello ottaa vain painikkeidensa POST-pyynnöt\n');
  });

  it('on the cardroom LAN answers to this machine\'s interface addresses and its --name, and still refuses any other Host (DNS rebinding)', async () => {
    const authority = await makeCardroomCa('floor.local', '127.0.0.1');
    const lan = await startFloorServer({ databaseUrl: database.url, host: '0.0.0.0', token: TOKEN, names: ['floor.local', 'Floor-2.cardroom.lan'], tls: { cert: readFileSync(authority.cert), key: readFileSync(authority.key) }, log: () => undefined });
    const ca = readFileSync(authority.caCert);
    try {
      const authorization = `Bearer ${TOKEN}`;
      // This machine's own addresses, sent as the Host a LAN client would send, to the loopback listener.
      const addresses = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []).filter((entry) => !entry.internal && !entry.address.startsWith('fe80'));
      expect(addresses.length).toBeGreaterThan(0);
      for (const entry of addresses) {
        const host = entry.family === 'IPv6' ? `[${entry.address}]:${lan.port}` : `${entry.address}:${lan.port}`;
        expect((await ask(lan.port, '/', { headers: { host, authorization }, ca })).status, host).toBe(200);
      }
      for (const host of [`floor.local:${lan.port}`, `FLOOR.local:${lan.port}`, `floor-2.cardroom.lan:${lan.port}`]) expect((await ask(lan.port, '/', { headers: { host, authorization }, ca })).status, host).toBe(200);
      const origin = `https://floor.local:${lan.port}`;
      expect((await ask(lan.port, '/', { headers: { host: `floor.local:${lan.port}`, origin, authorization }, ca })).status).toBe(200);
      expect((await ask(lan.port, '/', { headers: { host: `floor.local:${lan.port}`, origin: `http://floor.local:${lan.port}`, authorization }, ca })).status).toBe(403);
      // A name nobody gave, a given name on another port, an address not this machine's: refused.
      for (const host of [`attacker.test:${lan.port}`, 'floor.local:80', `floor.local.attacker.test:${lan.port}`, `192.168.255.254:${lan.port}`, 'floor.local']) expect((await ask(lan.port, '/', { headers: { host, authorization }, ca })).status, host).toBe(421);
    } finally {
      await lan.close();
      rmSync(authority.dir, { recursive: true, force: true });
    }
    await expect(startFloorServer({ databaseUrl: database.url, names: ['floor.local/x'], log: () => undefined })).rejects.toThrow(/not a host name/);
  });

  it('with a token: every request needs it (Bearer or the sign-in cookie); a wrong one is 401', async () => {
    const port = guarded.port;
    const none = await ask(port, '/');
    expect(none.status).toBe(401);
    expect(none.body).toContain('<form method="post" action="/login">');
    expect((await ask(port, '/export.json')).status).toBe(401);
    expect((await ask(port, '/', { headers: { authorization: 'Bearer wrong-token-of-some-length' } })).status).toBe(401);
    expect((await ask(port, '/', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const origin = `http://127.0.0.1:${port}`;
    const wrong = await ask(port, '/login', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=nope&lang=fi' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('Väärä salasana.');
    expect((await ask(port, '/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${TOKEN}` })).status).toBe(403);
    expect((await ask(port, '/login', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${'x'.repeat(5000)}` })).status).toBe(400);
    const signed = await ask(port, '/login', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(TOKEN)}&lang=en` });
    expect(signed.status).toBe(303);
    const cookie = (signed.headers['set-cookie'] as string[])[0] as string;
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    const withCookie = await ask(port, '/', { headers: { cookie: cookie.split(';')[0] as string } });
    expect(withCookie.status).toBe(200);
    expect((await ask(port, '/', { headers: { cookie: `chip-race-floor-${port}=wrong` } })).status).toBe(401);
  });

  it('signs in with any printable token (openssl rand -base64\'s + / =, a %, a space, non-ASCII), by the form\'s cookie and by Bearer', async () => {
    const tokens = [execFileSync('openssl', ['rand', '-base64', '18'], { encoding: 'utf8' }).trim(), 'Ab+/cd==%41 ef+gh/ij==', 'pöytä 7 + kassa/2 = 100%'];
    for (const token of tokens) {
      const floor = await startFloorServer({ databaseUrl: database.url, token, log: () => undefined });
      try {
        const origin = `http://127.0.0.1:${floor.port}`;
        const signed = await ask(floor.port, '/login', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, lang: 'en' }).toString() });
        expect(signed.status, token).toBe(303);
        const cookie = ((signed.headers['set-cookie'] as string[])[0] as string).split(';')[0] as string;
        // The cookie carries a proof of the token, never the token itself.
        expect(cookie).not.toContain(encodeURIComponent(token));
        expect((await ask(floor.port, '/', { headers: { cookie } })).status, token).toBe(200);
        expect((await ask(floor.port, '/', { headers: { authorization: `Bearer ${Buffer.from(token, 'utf8').toString('latin1')}` } })).status, token).toBe(200);
      } finally {
        await floor.close();
      }
    }
    await expect(startFloorServer({ databaseUrl: database.url, token: 'twelve chars\nand a newline', log: () => undefined })).rejects.toThrow(/printable/);
  });

  it('answers wrong tokens slowly, one after another per address, logs each (time and address, never the guess), and a right one still signs in', async () => {
    const lines: string[] = [];
    const floor = await startFloorServer({ databaseUrl: database.url, token: TOKEN, log: (line) => lines.push(line) });
    try {
      const origin = `http://127.0.0.1:${floor.port}`;
      const guesses = 20;
      const started = Date.now();
      // All at once, as a script would: 6,900 a second before.
      const answers = await Promise.all(
        Array.from({ length: guesses }, (_, index) =>
          index % 2 === 0
            ? ask(floor.port, '/login', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: `token=guess-number-${index}` })
            : ask(floor.port, '/', { headers: { authorization: `Bearer guess-number-${index}` } }),
        ),
      );
      const elapsed = Date.now() - started;
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: guesses }, () => 401));
      expect(elapsed).toBeGreaterThanOrEqual(guesses * GUESS_SPACING_MS - 50);
      const wrong = lines.filter((line) => /wrong token/.test(line));
      expect(wrong).toHaveLength(guesses);
      for (const line of wrong) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z wrong token from (::ffff:)?127\.0\.0\.1$/);
      expect(lines.join('\n')).not.toContain('guess-number');
      const signed = await ask(floor.port, '/login', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(TOKEN)}` });
      expect(signed.status).toBe(303);
      // Once the wrong ones are paid for, a signed-in page waits for nothing.
      const cookie = ((signed.headers['set-cookie'] as string[])[0] as string).split(';')[0] as string;
      const quick = Date.now();
      expect((await ask(floor.port, '/', { headers: { cookie } })).status).toBe(200);
      expect(Date.now() - quick).toBeLessThan(GUESS_SPACING_MS);
    } finally {
      await floor.close();
    }
  }, 30_000);

  it('never writes station data: the station records are the same before and after every page', async () => {
    const before = await admin.query('SELECT table_name, seq, line FROM station_records ORDER BY table_name, seq');
    for (const path of ['/', '/table?table=7', '/race?table=7&race=race-3', '/export.csv', '/export.json']) expect((await ask(open.port, path)).status).toBe(200);
    const after = await admin.query('SELECT table_name, seq, line FROM station_records ORDER BY table_name, seq');
    expect(after.rows).toEqual(before.rows);
  });
});

describe.runIf(run)('the floor page outlives its database (a real PostgreSQL server, stopped and started)', () => {
  let database: ThrowawayPostgres;
  let floor: FloorServer;

  beforeAll(async () => {
    const started = await startFloorDatabase();
    database = started.server;
    await ensureTable(started.admin, '7');
    await started.admin.query("UPDATE station_contact SET behind = 3 WHERE table_name = '7'");
    await started.admin.end();
    floor = await startFloorServer({ databaseUrl: database.url, log: () => undefined });
  }, 120_000);

  afterAll(async () => {
    await floor?.close();
    await database?.remove();
  });

  it('keeps its last view, says since when the database is unreachable in the page\'s language, refreshes, and comes back by itself', async () => {
    const before = await ask(floor.port, '/?lang=en');
    expect(before.status).toBe(200);
    expect(before.body).toContain('data-table="7"');
    expect(before.body).not.toContain('database-unreachable');
    await database.stop();
    try {
      const stopped = Date.now();
      for (const [language, words] of [['en', 'The floor cannot reach its database since'], ['fi', 'Sali ei tavoita tietokantaansa'], ['ru', 'Зал не может связаться со своей базой данных с']] as const) {
        const during = await ask(floor.port, `/?lang=${language}`);
        expect(during.status).toBe(503);
        expect(during.headers['content-type']).toMatch(/^text\/html/);
        expect(during.body).toContain(`<html lang="${language}">`);
        expect(during.body).toContain('<meta http-equiv="refresh" content="5">');
        expect(during.body).toMatch(new RegExp(`data-testid="database-unreachable"><h2>${words}`));
        // The last view: the table, its link, the clock's section.
        expect(during.body).toContain('data-table="7"');
        expect(during.body).toContain('data-testid="floor-clock"');
      }
      // Since when: the first failure, not each request's time.
      const since = /since ([^<]+)\./.exec((await ask(floor.port, '/?lang=en')).body)?.[1] as string;
      expect(Math.abs(new Date(since).getTime() - stopped)).toBeLessThan(5_000);
      const table = await ask(floor.port, '/table?table=7&lang=fi');
      expect(table.status).toBe(503);
      expect(table.body).toContain('Sali ei tavoita tietokantaansa');
      expect(table.body).toContain('<meta http-equiv="refresh" content="5">');
    } finally {
      await database.start();
    }
    const after = await until('the floor back', async () => {
      const answer = await ask(floor.port, '/?lang=en');
      return answer.status === 200 ? answer : null;
    }, 30_000);
    expect(after?.body).not.toContain('database-unreachable');
    expect(after?.body).toContain('data-table="7"');
  }, 90_000);
});

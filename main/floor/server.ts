import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import pg from 'pg';
import { allowedHosts, readCookie } from '../web/access';
import { keyMatches } from '../web/key';
import { isInputError } from '../../engine/errors';
import { ENGINE_CATALOGS, formatMessage, type MessageLanguage } from '../../engine/messages';
import { isLoopbackHost, listenOn } from '../web/loopback';
import { actOnFloorClock, readFloorClock, type ClockAction } from './clock';
import { isTableName } from './db/stations';
import { floorCsv, floorJson } from './export';
import { floorRaceRecord, foldFloor, readFloorStatus, tableRaces } from './fold';
import { clockSection, FLOOR_CSS, renderLogin, renderMessage, renderOverview, renderRaceRecord, renderTable } from './page/render';
import { FLOOR_WORDS, languageOf, type FloorLanguage } from './page/words';

/**
 * The floor page: every table of the tournament, server-side rendered, read-only. Who may use it:
 *
 * - `Host` must be one of the floor's own names with its port (DNS rebinding: main/web/access.ts);
 * - `Origin`, when a browser sends one, must be the floor's own page (another site's script is
 *   refused), and a POST (the sign-in form, the clock's buttons: the only ones) must carry it;
 * - on loopback nobody else is asked; on any other address the floor starts only with a token
 *   (a password), and then every request shows it: `Authorization: Bearer`, or the cookie the
 *   sign-in form sets (compared in constant time, main/web/key.ts keyMatches).
 *
 * No route writes station data: the pages and the exports only read what the background fold
 * wrote (the fold writes only the floor's own summary tables; the clock's buttons only the floor's clock).
 */

export interface FloorServerOptions {
  readonly databaseUrl: string;
  /** 127.0.0.1 by default; another address only with a token. */
  readonly host?: string;
  readonly port?: number;
  readonly token?: string;
  readonly log?: (line: string) => void;
  /** The clock the link states are judged by (tests). */
  readonly now?: () => number;
  /** How long the background fold rests between passes (ms). */
  readonly foldEveryMs?: number;
}

export interface FloorServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The background fold's rest between passes, and the most one pass folds before it lets the next begin. */
const FOLD_EVERY_MS = 250;
const FOLD_PASS_BUDGET_MS = 2000;

/** The shortest token the floor takes for the LAN: a password guessed in minutes would guard nothing. */
export const TOKEN_MIN_LENGTH = 12;
const TOKEN_MAX_LENGTH = 512;
/** The longest request target the floor reads: its own links are far shorter. */
export const MAX_TARGET_LENGTH = 2048;
const MAX_FORM_BYTES = 4096;

/** Only same-origin styles, no script, no frames, forms only to the floor itself. */
export const FLOOR_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': FLOOR_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Not no-referrer: under it a browser sends `Origin: null` with the page's own forms (the
  // sign-in, the clock's buttons), which the Origin check must refuse. same-origin sends the
  // floor's origin to itself and nothing to anyone else.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** Query parameters each page takes; any other (or one given twice) is a bad request. */
const PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  '/': ['lang'],
  '/table': ['lang', 'table'],
  '/race': ['lang', 'table', 'race'],
  '/export.csv': [],
  '/export.json': [],
  '/floor.css': [],
  '/login': ['lang'],
  '/clock': [],
};

/** The clock's buttons: what each posts, and what it does. */
const CLOCK_ACTIONS: Readonly<Record<string, ClockAction>> = {
  start: { type: 'start' },
  pause: { type: 'pause' },
  resume: { type: 'resume' },
  back: { type: 'adjust', by: -60_000 },
  forward: { type: 'adjust', by: 60_000 },
};

const RACE_ID = /^race-[1-9][0-9]{0,8}$/;

class BadRequest extends Error {}

function parseTarget(url: string | undefined): { path: string; query: Map<string, string> } {
  if (url === undefined || url.length > MAX_TARGET_LENGTH || !url.startsWith('/') || url.startsWith('//')) throw new BadRequest('bad request target');
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const search = mark < 0 ? '' : url.slice(mark + 1);
  const allowed = PARAMETERS[path];
  if (allowed === undefined) return { path, query: new Map() };
  const query = new Map<string, string>();
  if (search !== '') {
    for (const part of search.split('&')) {
      const equals = part.indexOf('=');
      const rawName = equals < 0 ? part : part.slice(0, equals);
      const rawValue = equals < 0 ? '' : part.slice(equals + 1);
      let name: string;
      let value: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
        value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
      } catch {
        throw new BadRequest('malformed query');
      }
      if (!allowed.includes(name) || query.has(name)) throw new BadRequest(`unexpected query parameter ${name.slice(0, 20)}`);
      query.set(name, value);
    }
  }
  const lang = query.get('lang');
  if (lang !== undefined && !(lang in FLOOR_WORDS)) throw new BadRequest('lang is en, fi or ru');
  const table = query.get('table');
  if (table !== undefined && !isTableName(table)) throw new BadRequest('not a table name');
  const race = query.get('race');
  if (race !== undefined && !RACE_ID.test(race)) throw new BadRequest('not a race id');
  return { path, query };
}

export async function startFloorServer(options: FloorServerOptions): Promise<FloorServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token;
  const log = options.log ?? ((line: string) => process.stderr.write(`floor: ${line}\n`));
  const now = options.now ?? Date.now;
  if (token !== undefined && (token.length < TOKEN_MIN_LENGTH || token.length > TOKEN_MAX_LENGTH)) throw new Error(`the floor's token must be ${TOKEN_MIN_LENGTH} to ${TOKEN_MAX_LENGTH} characters`);
  const lan = !isLoopbackHost(host);
  if (lan && token === undefined) throw new Error(`refusing to listen on ${host}: the floor serves the cardroom's network only behind a token (--token or CHIP_RACE_FLOOR_TOKEN)`);

  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4, connectionTimeoutMillis: 5_000 });
  // A connection the server drops (a restart) is replaced on the next request; it is no crash.
  pool.on('error', (error) => log(`database: ${error.message}`));

  let hosts: ReadonlySet<string> = new Set();
  let origins: ReadonlySet<string> = new Set();
  let cookie = 'chip-race-floor';

  const send = (response: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}, head = false) => {
    response.writeHead(status, { ...HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra });
    response.end(head ? undefined : body);
  };
  const html = 'text/html; charset=utf-8';
  const text = 'text/plain; charset=utf-8';

  const authorised = (request: IncomingMessage): boolean => {
    if (token === undefined) return true;
    const header = request.headers.authorization;
    if (typeof header === 'string' && header.startsWith('Bearer ')) return keyMatches(token, header.slice(7));
    const cookieHeader = request.headers.cookie;
    return keyMatches(token, readCookie(typeof cookieHeader === 'string' ? cookieHeader : undefined, cookie));
  };

  const withClient = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const hostHeader = request.headers.host;
    if (typeof hostHeader !== 'string' || !hosts.has(hostHeader.toLowerCase())) {
      send(response, 421, text, 'misdirected request: the floor answers only to its own address\n');
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && (Array.isArray(origin) || !origins.has(origin.toLowerCase()))) {
      send(response, 403, text, 'forbidden: a request from another site is refused\n');
      return;
    }
    const method = request.method ?? 'GET';
    let target: ReturnType<typeof parseTarget>;
    try {
      target = parseTarget(request.url);
    } catch (error) {
      send(response, 400, text, `bad request: ${(error as Error).message}\n`);
      return;
    }
    const { path, query } = target;
    const language: FloorLanguage = languageOf(query.get('lang') ?? null, typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined);
    const words = FLOOR_WORDS[language];
    const head = method === 'HEAD';

    if (path === '/login' && method === 'POST') {
      // The only POST: it must come from the floor's own page.
      if (origin === undefined) {
        send(response, 403, text, 'forbidden: a form must come from the floor\'s own page\n');
        return;
      }
      const form = await readForm(request);
      if (form === null) {
        send(response, 400, text, 'bad request: the form is too large or malformed\n');
        return;
      }
      const formLanguage = languageOf(form.get('lang') ?? null, undefined);
      if (token === undefined || !keyMatches(token, form.get('token') ?? null)) {
        send(response, 401, html, renderLogin(formLanguage, true));
        return;
      }
      send(response, 303, text, '', { Location: `/?lang=${formLanguage}`, 'Set-Cookie': `${cookie}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/` });
      return;
    }
    if (path === '/clock' && method === 'POST') {
      // The clock's buttons: from the floor's own page only, by whoever may see the floor.
      if (origin === undefined) {
        send(response, 403, text, 'forbidden: a form must come from the floor\'s own page\n');
        return;
      }
      if (!authorised(request)) {
        send(response, 401, html, renderLogin(language, false));
        return;
      }
      const form = await readForm(request);
      const action = form === null ? undefined : CLOCK_ACTIONS[form.get('action') ?? ''];
      if (form === null || action === undefined || form.size > 2) {
        send(response, 400, html, renderMessage(language, words.badRequest));
        return;
      }
      const formLanguage = languageOf(form.get('lang') ?? null, undefined);
      try {
        await withClient((client) => actOnFloorClock(client, action, now()));
      } catch (error) {
        if (!isInputError(error) || error.said === undefined) throw error;
        // Refused (paused twice, no structure): the floor again, the refusal in its language.
        const said = error.said;
        const page = await withClient(async (client) => {
          const clock = await readFloorClock(client);
          return renderOverview(await readFloorStatus(client), formLanguage, now(), clockSection(clock, formLanguage, now(), formatMessage(said, formLanguage, ENGINE_CATALOGS[formLanguage as MessageLanguage])));
        });
        send(response, 409, html, page);
        return;
      }
      send(response, 303, text, '', { Location: `/?lang=${formLanguage}` });
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      send(response, 405, text, 'method not allowed: GET and HEAD only\n', { Allow: 'GET, HEAD' });
      return;
    }
    if (path === '/floor.css') {
      send(response, 200, 'text/css; charset=utf-8', FLOOR_CSS, {}, head);
      return;
    }
    if (!authorised(request)) {
      send(response, 401, html, renderLogin(language, false), {}, head);
      return;
    }
    if (path === '/login') {
      send(response, 200, html, renderLogin(language, false), {}, head);
      return;
    }
    if (path === '/clock') {
      send(response, 405, text, 'method not allowed: the clock takes its buttons\' POST only\n', { Allow: 'POST' }, head);
      return;
    }
    if (PARAMETERS[path] === undefined) {
      send(response, 404, html, renderMessage(language, words.notFound), {}, head);
      return;
    }
    if (path === '/') {
      const { status, clock } = await withClient(async (client) => ({ status: await readFloorStatus(client), clock: await readFloorClock(client) }));
      send(response, 200, html, renderOverview(status, language, now(), clockSection(clock, language, now())), {}, head);
      return;
    }
    if (path === '/export.csv' || path === '/export.json') {
      const body = await withClient(async (client) => (path === '/export.csv' ? floorCsv(client) : floorJson(client)));
      const csv = path === '/export.csv';
      send(response, 200, csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8', body, { 'Content-Disposition': `attachment; filename="floor.${csv ? 'csv' : 'json'}"` }, head);
      return;
    }
    const table = query.get('table');
    if (table === undefined) {
      send(response, 400, html, renderMessage(language, words.badRequest), {}, head);
      return;
    }
    if (path === '/table') {
      const found = await withClient(async (client) => {
        const status = await readFloorStatus(client);
        const row = status.tables.find((entry) => entry.table === table);
        return row === undefined ? null : { row, races: await tableRaces(client, table) };
      });
      if (found === null) send(response, 404, html, renderMessage(language, words.notFound), {}, head);
      else send(response, 200, html, renderTable(found.row, found.races, language, now()), {}, head);
      return;
    }
    const race = query.get('race');
    if (race === undefined) {
      send(response, 400, html, renderMessage(language, words.badRequest), {}, head);
      return;
    }
    const record = await withClient(async (client) => floorRaceRecord(client, table, race));
    if (record === null) send(response, 404, html, renderMessage(language, words.notFound), {}, head);
    else send(response, 200, html, renderRaceRecord(table, record, language), {}, head);
  }

  const server: Server = createServer({ requireHostHeader: false, maxHeaderSize: 16 * 1024 }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`${request.method ?? ''} ${(request.url ?? '').slice(0, 100)}: ${(error as Error).message}`);
      if (!response.headersSent) send(response, 503, text, 'the floor cannot read its database just now\n');
      else response.destroy();
    });
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const address = await listenOn(server, options.port ?? 0, host, log);
  const shownHost = address.shownHost;
  hosts = allowedHosts({ port: address.port, boundHost: shownHost, listenHost: host, allowNonLoopback: lan });
  origins = new Set([...hosts].map((name) => `http://${name}`));
  // Cookies ignore ports: two floors on one machine each need a name of their own.
  cookie = `chip-race-floor-${address.port}`;

  // The fold, off the request path: a pass now (so a floor started on folded records shows them
  // at once), then one pass after another, each table in transactions of its own; the pages read
  // what is folded and say how far behind it is.
  const foldEvery = options.foldEveryMs ?? FOLD_EVERY_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let folding: Promise<void> = Promise.resolve();
  const foldPass = () => withClient((client) => foldFloor(client, FOLD_PASS_BUDGET_MS)).then(
    () => undefined,
    (error: unknown) => log(`fold: ${(error as Error).message}`),
  );
  const foldOn = () => {
    if (stopped) return;
    folding = foldPass().then(() => {
      if (!stopped) timer = setTimeout(foldOn, foldEvery);
    });
  };
  folding = foldPass();
  await folding;
  timer = setTimeout(foldOn, foldEvery);
  return {
    url: `http://${shownHost}:${address.port}/`,
    port: address.port,
    async close() {
      stopped = true;
      clearTimeout(timer);
      await folding;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await pool.end();
    },
  };
}

/** The sign-in form's fields, or null when it is too large or not a form. */
async function readForm(request: IncomingMessage): Promise<Map<string, string> | null> {
  const type = request.headers['content-type'];
  if (typeof type !== 'string' || !type.startsWith('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
    if (fields.has(name)) return null;
    fields.set(name, value);
  }
  return fields;
}

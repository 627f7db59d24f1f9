// The floor server's route table and its one dispatcher, without a database: every route says who
// may use it, and the sign-in is checked in one place, the same way for every route that needs
// it (the table is iterated, so a route added later is covered without a line here).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, type Answer } from '../testing/requests';
import { createDispatcher, NOT_FOUND } from './dispatch';
import { QUERY_CHECKS, type FloorHttp, type Route } from './route';
import { ROUTES } from './routes';
import { createSignIn } from './signIn';

const TOKEN = 'routes-token-0123456789';

// A route cannot be declared without saying who may use it.
// @ts-expect-error: `who` is required
const noWho: Route = { method: 'GET', path: '/nobody', parameters: {}, handler: () => undefined };
// Nor with a parameter the floor has no check for.
// @ts-expect-error: `debug` is no query parameter of the floor's
const oddParameter: Route = { method: 'GET', path: '/odd', parameters: { debug: 'optional' }, who: 'anyone', handler: () => undefined };

/** A query that passes QUERY_CHECKS, with each required parameter of the route. */
const VALUES: Readonly<Record<string, string>> = { lang: 'en', table: '7', race: 'race-1', sep: ';', level: '3', loaded: '1' };
const target = (route: Route) => {
  const required = Object.entries(route.parameters).filter(([, need]) => need === 'required').map(([name]) => `${name}=${encodeURIComponent(VALUES[name] as string)}`);
  return required.length === 0 ? route.path : `${route.path}?${required.join('&')}`;
};
const key = (route: Route) => `${route.method} ${route.path}`;

describe('the route table', () => {
  it('declares who may use every route, and each method and path once', () => {
    expect(noWho.path).toBe('/nobody');
    expect(oddParameter.path).toBe('/odd');
    for (const route of ROUTES) expect(['anyone', 'signed-in'], key(route)).toContain(route.who);
    expect(new Set(ROUTES.map(key)).size).toBe(ROUTES.length);
    // Only the stylesheet and the sign-in form are anyone's.
    expect(ROUTES.filter((route) => route.who === 'anyone').map(key).sort()).toEqual(['GET /floor.css', 'POST /login']);
    expect(NOT_FOUND.who).toBe('signed-in');
  });

  it('checks every parameter a route takes', () => {
    for (const route of ROUTES) for (const name of Object.keys(route.parameters)) expect(Object.keys(QUERY_CHECKS), `${key(route)} ${name}`).toContain(name);
  });
});

describe('the dispatcher', () => {
  let server: Server;
  let port: number;
  let origin: string;
  /** The handlers called, and the database asked: never, for a request refused. */
  const called: string[] = [];
  let databaseAsked = 0;
  const fake = (handle: (route: Route) => Route['handler']): Route[] => ROUTES.map((route) => ({ ...route, handler: handle(route) }));
  const recording = fake((route) => ({ response }) => {
    called.push(key(route));
    response.writeHead(299).end();
  });
  let routes: readonly Route[] = ROUTES;

  beforeAll(async () => {
    const signIn = createSignIn(TOKEN, () => undefined);
    const floor: FloorHttp = {
      now: Date.now,
      log: () => undefined,
      withClient: () => {
        databaseAsked += 1;
        return Promise.reject(new Error('no database here'));
      },
      signIn,
      streamExport: () => Promise.reject(new Error('no exports here')),
      saw: () => undefined,
    };
    let allowed = { hosts: new Set<string>(), origins: new Set<string>() };
    server = createServer((request, response) => {
      createDispatcher(routes, floor, () => allowed)(request, response).catch(() => response.writeHead(503).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    origin = `http://127.0.0.1:${port}`;
    allowed = { hosts: new Set([`127.0.0.1:${port}`]), origins: new Set([origin]) };
    signIn.listening(port, 'http');
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = (route: Route, headers: Record<string, string> = {}): Promise<Answer> =>
    route.method === 'GET'
      ? ask(port, target(route), { headers })
      : ask(port, target(route), { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: 'lang=en' });

  it('refuses every route but the anyone ones without the sign-in, the same way, before its handler or the database', async () => {
    const unknown = { ...NOT_FOUND, path: '/no-such-page' } as const;
    const guarded = [...ROUTES.filter((route) => route.who !== 'anyone'), unknown];
    expect(guarded.length).toBeGreaterThan(15);
    routes = ROUTES;
    const refusals = new Set<string>();
    for (const route of guarded) {
      const answer = await send(route, { 'accept-language': 'en' });
      expect(answer.status, key(route)).toBe(401);
      expect(answer.headers['content-security-policy'], key(route)).toContain("default-src 'none'");
      refusals.add(answer.body);
      // A cookie that is not the sign-in's is refused the same way.
      const wrong = await send(route, { 'accept-language': 'en', cookie: `chip-race-floor-${port}=not-it` });
      expect(wrong.status, key(route)).toBe(401);
      refusals.add(wrong.body);
    }
    expect(refusals.size).toBe(1);
    expect([...refusals][0]).toContain('<form');
    expect(databaseAsked).toBe(0);
  });

  it('calls each handler once the sign-in is shown, and never without it', async () => {
    routes = recording;
    called.length = 0;
    for (const route of recording) if (route.who !== 'anyone') expect((await send(route)).status, key(route)).toBe(401);
    expect(called).toEqual([]);
    for (const route of recording) expect((await send(route, { authorization: `Bearer ${TOKEN}` })).status, key(route)).toBe(299);
    expect(called).toEqual(recording.map(key));
    // The anyone routes need nothing shown.
    called.length = 0;
    for (const route of recording.filter((entry) => entry.who === 'anyone')) expect((await send(route)).status, key(route)).toBe(299);
    expect(called).toEqual(['GET /floor.css', 'POST /login']);
    routes = ROUTES;
  });

  it('answers a path no route has 404 once signed in, a method none has 405, a form from elsewhere 403', async () => {
    routes = ROUTES;
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect((await ask(port, '/no-such-page', { headers: bearer })).status).toBe(404);
    expect((await ask(port, '/no-such-page?lang=xx', { headers: bearer })).status).toBe(404);
    const put = await ask(port, '/', { method: 'PUT', headers: bearer });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    expect((await ask(port, '/no-such-page', { method: 'POST', headers: { origin, ...bearer } })).status).toBe(405);
    for (const route of ROUTES.filter((entry) => entry.method === 'POST')) {
      const answer = await ask(port, route.path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...bearer }, body: 'lang=en' });
      expect(answer.status, key(route)).toBe(403);
      const elsewhere = await ask(port, route.path, { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded', ...bearer }, body: 'lang=en' });
      expect(elsewhere.status, key(route)).toBe(403);
    }
    expect(databaseAsked).toBe(0);
  });

  it('refuses a parameter no route of the path takes, on every method, and a required one missing', async () => {
    routes = ROUTES;
    const bearer = { authorization: `Bearer ${TOKEN}` };
    for (const route of ROUTES) {
      const odd = await ask(port, `${route.path}?debug=1`, { method: route.method, headers: { origin, ...bearer } });
      expect(odd.status, key(route)).toBe(400);
      expect(odd.headers['content-type'], key(route)).toBe('text/plain; charset=utf-8');
    }
    for (const route of ROUTES.filter((entry) => Object.values(entry.parameters).includes('required'))) {
      const missing = await ask(port, route.path, { headers: bearer });
      expect(missing.status, key(route)).toBe(400);
      expect(missing.headers['content-type'], key(route)).toBe('text/html; charset=utf-8');
    }
    expect((await ask(port, '/race?table=7&race=nope', { headers: bearer })).status).toBe(400);
    expect(databaseAsked).toBe(0);
  });
});

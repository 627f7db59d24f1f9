import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderLogin, renderMessage } from '../page/render';
import { languageOf } from '../page/words';
import { BadRequest, HTML, MAX_TARGET_LENGTH, plain, send } from './answer';
import { QUERY_CHECKS, type FloorHttp, type QueryName, type Route } from './route';
import { tooManyGuesses } from './signIn';

/**
 * The floor server's one way in: a request matched against the route table (floor/http/routes.ts)
 * and checked in this order, each refusal the same for every route:
 *
 * 1. `Host` one of the floor's own names with its port (DNS rebinding: station/web/access.ts), else 421;
 * 2. `Origin`, when a browser sends one, the floor's own page (another site's script), else 403;
 * 3. the target readable and its query the path's (QUERY_CHECKS), else 400;
 * 4. a method the path has a route for, else 405 (GET and HEAD: a path no route has is 404, after 6);
 * 5. a POST from the floor's own page: its Origin shown, else 403;
 * 6. the sign-in, for every route but the 'anyone' ones: 429 while the address's guesses wait,
 *    else 401 with the sign-in page;
 * 7. the route's required parameters, else 400;
 *
 * then the route's handler.
 */

/** The answer to a GET of a path no route has, once signed in: nothing is said of what the floor holds to whoever has not. */
export const NOT_FOUND: Route = {
  method: 'GET',
  path: '/',
  parameters: {},
  who: 'signed-in',
  handler: ({ response, language, head }) => send(response, 404, HTML, renderMessage(language, 'floor.page.notFound'), {}, head),
};

/** The query parameters a path takes: those of its routes, whatever their method; undefined for a path no route has. */
function pathParameters(routes: readonly Route[], path: string): ReadonlySet<string> | undefined {
  const own = routes.filter((route) => route.path === path);
  return own.length === 0 ? undefined : new Set(own.flatMap((route) => Object.keys(route.parameters)));
}

/** The request's path and query, its query checked against the path's routes (a path no route has: no query read). */
export function parseTarget(routes: readonly Route[], url: string | undefined): { path: string; query: Map<string, string> } {
  if (url === undefined || url.length > MAX_TARGET_LENGTH || !url.startsWith('/') || url.startsWith('//')) throw new BadRequest({ key: 'floor.http.why.target' });
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const search = mark < 0 ? '' : url.slice(mark + 1);
  const allowed = pathParameters(routes, path);
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
        throw new BadRequest({ key: 'floor.http.why.query' });
      }
      if (!allowed.has(name) || query.has(name)) throw new BadRequest({ key: 'floor.http.why.parameter', params: { name: name.slice(0, 20) } });
      query.set(name, value);
    }
  }
  for (const [name, check] of Object.entries(QUERY_CHECKS)) {
    const value = query.get(name);
    if (check !== null && value !== undefined && !check.ok(value)) throw new BadRequest({ key: check.why });
  }
  return { path, query };
}

/** The route for a method and path: GET's answers HEAD; undefined for none. */
export function findRoute(routes: readonly Route[], method: string, path: string): Route | undefined {
  const asked = method === 'HEAD' ? 'GET' : method;
  return routes.find((route) => route.method === asked && route.path === path);
}

export interface Dispatcher {
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
}

/** The dispatcher over `routes`; `hosts` and `origins` are asked each request (known once the floor listens). */
export function createDispatcher(routes: readonly Route[], floor: FloorHttp, allowed: () => { readonly hosts: ReadonlySet<string>; readonly origins: ReadonlySet<string> }): Dispatcher {
  return async (request, response) => {
    const { hosts, origins } = allowed();
    const hostHeader = request.headers.host;
    if (typeof hostHeader !== 'string' || !hosts.has(hostHeader.toLowerCase())) {
      plain(request, response, 421, 'floor.http.misdirected');
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && (Array.isArray(origin) || !origins.has(origin.toLowerCase()))) {
      plain(request, response, 403, 'floor.http.otherSite');
      return;
    }
    const method = request.method ?? 'GET';
    let target: ReturnType<typeof parseTarget>;
    try {
      target = parseTarget(routes, request.url);
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      plain(request, response, 400, 'floor.http.badRequest', { why: { message: error.said } });
      return;
    }
    const { path, query } = target;
    const accept = request.headers['accept-language'];
    const language = languageOf(query.get('lang') ?? null, typeof accept === 'string' ? accept : undefined);
    const head = method === 'HEAD';
    let route = findRoute(routes, method, path);
    if (route === undefined) {
      if (method !== 'GET' && method !== 'HEAD') {
        plain(request, response, 405, 'floor.http.method', undefined, { Allow: 'GET, HEAD' });
        return;
      }
      route = NOT_FOUND;
    }
    // A form: from the floor's own page only.
    if (route.method === 'POST' && origin === undefined) {
      plain(request, response, 403, 'floor.http.formOrigin');
      return;
    }
    // The sign-in check, the one for every route.
    if (route.who !== 'anyone') {
      const shown = await floor.signIn.authorised(request);
      if (shown === 'busy') {
        tooManyGuesses(request, response);
        return;
      }
      if (shown !== 'right') {
        send(response, 401, HTML, renderLogin(language, false), {}, head);
        return;
      }
    }
    for (const [name, need] of Object.entries(route.parameters) as [QueryName, 'optional' | 'required'][]) {
      if (need === 'required' && !query.has(name)) {
        send(response, 400, HTML, renderMessage(language, 'floor.page.badRequest'), {}, head);
        return;
      }
    }
    await route.handler({ request, response, query, language, head }, floor);
  };
}

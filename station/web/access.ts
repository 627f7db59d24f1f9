import type { IncomingHttpHeaders } from 'node:http';
import { keyMatches } from '../../net/keys';
import { readCookie } from '../../net/cookies';
import { allowedHosts, type HostOptions } from '../../net/hosts';

/**
 * Who browser mode answers. Three checks, each against a different attacker:
 *
 * - `Host` must be one of the console's own names with its port. A web page can point a DNS name
 *   it controls at 127.0.0.1 (DNS rebinding) and then read the console as its own origin; its
 *   requests still carry its own name in `Host`, so they are refused (421).
 * - `Origin`, when a browser sends one, must be the console's own page: another site's script
 *   (or a sandboxed frame, Origin `null`) is refused (403). The WebSocket must always name it.
 * - The browser key (station/web/key.ts), from the `?key=` of the address the console printed or from
 *   the cookie that address sets: other users of the machine, and their processes, share loopback
 *   but cannot read the key (403 without it).
 *
 * The player display has a key of its own (its address goes to the room's TV): it opens the
 * display's page at DISPLAY_PATH, the page's files, and the bridge as `role=display` (read-only),
 * and nothing else: the console's page and its command socket refuse it.
 */

export type BridgeRole = 'console' | 'display';

export interface AccessOptions extends HostOptions {
  readonly key: string;
  /** The player display's key (station/web/key.ts, loadDisplayKey); none: only the console's key opens anything. */
  readonly displayKey?: string;
}

export type HttpVerdict =
  | { readonly kind: 'refuse'; readonly status: 400 | 403 | 405 | 421; readonly message: string; readonly page?: 'key' }
  | { readonly kind: 'redirect'; readonly location: string; readonly cookie: string }
  | { readonly kind: 'serve'; readonly path: string };

export type UpgradeVerdict =
  | { readonly kind: 'refuse'; readonly status: 400 | 403 | 404 | 421; readonly message: string }
  | { readonly kind: 'accept'; readonly role: BridgeRole };

/** The request's parts the checks read. */
export interface RequestLike {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/** Cookies ignore ports: two consoles on one machine each need a name of their own. */
export function cookieName(port: number): string {
  return `chip-race-key-${port}`;
}

/** The display key's cookie, beside the console's (a browser may hold both). */
export function displayCookieName(port: number): string {
  return `chip-race-display-${port}`;
}

/** Where the display key's address opens the player display (the console's page, shown as the display by its `#/display`). */
export const DISPLAY_PATH = '/display';

/** The built page's files (scripts, styles): served to the display too, which runs the same page. */
const ASSETS_PREFIX = '/assets/';

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

export interface Access {
  readonly hosts: ReadonlySet<string>;
  readonly cookieName: string;
  checkHttp(request: RequestLike): HttpVerdict;
  checkUpgrade(request: RequestLike): UpgradeVerdict;
}

export function createAccess(options: AccessOptions): Access {
  const hosts = allowedHosts(options);
  const origins = new Set([...hosts].map((host) => `http://${host}`));
  const name = cookieName(options.port);
  const shown = [...hosts].filter((host) => host.endsWith(`:${options.port}`)).join(', ');
  const misdirected = `misdirected request: this console answers only as ${shown}`;

  const hostAllowed = (headers: IncomingHttpHeaders) => {
    const host = single(headers.host);
    return host !== undefined && hosts.has(host.toLowerCase());
  };
  const originAllowed = (origin: string) => origins.has(origin.toLowerCase());
  /** The request target as a URL; only origin-form (`/path?query`) is taken. */
  const target = (url: string | undefined): URL | null => {
    if (url === undefined || !url.startsWith('/') || url.startsWith('//')) return null;
    try {
      // `/\host` reads as `//host`: a target naming another host is none of ours.
      const parsed = new URL(url, 'http://console.invalid');
      return parsed.host === 'console.invalid' ? parsed : null;
    } catch {
      return null;
    }
  };
  const cookieKey = (headers: IncomingHttpHeaders) => readCookie(single(headers.cookie), name);
  const displayName = displayCookieName(options.port);
  const displayKey = options.displayKey;
  const isDisplayKey = (given: string | null | undefined) => displayKey !== undefined && keyMatches(displayKey, given);
  const displayCookieKey = (headers: IncomingHttpHeaders) => readCookie(single(headers.cookie), displayName);
  /** The path as sent, not as URL normalised it: serveStatic refuses `..` rather than resolve it. */
  const sentPath = (request: RequestLike) => (request.url as string).split('?')[0] as string;
  const displayOnly = { kind: 'refuse', status: 403, message: 'forbidden: the player display\'s key opens the display only', page: 'key' } as const;

  return {
    hosts,
    cookieName: name,
    checkHttp(request) {
      if (!hostAllowed(request.headers)) return { kind: 'refuse', status: 421, message: misdirected };
      const origin = request.headers.origin;
      // Navigations send no Origin; a script on another site (or a sandboxed page: "null") does.
      if (origin !== undefined && (Array.isArray(origin) || !originAllowed(origin))) {
        return { kind: 'refuse', status: 403, message: 'forbidden: a request from another site is refused' };
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') return { kind: 'refuse', status: 405, message: 'method not allowed: GET and HEAD only' };
      const url = target(request.url);
      if (url === null) return { kind: 'refuse', status: 400, message: 'bad request target' };
      const keys = url.searchParams.getAll('key');
      if (keys.length > 0) {
        // The address the console printed: set the cookie and take the key out of the address bar
        // (and out of the history). A wrong key is refused even beside a good cookie.
        if (keys.length === 1 && url.pathname === DISPLAY_PATH && isDisplayKey(keys[0])) {
          url.searchParams.delete('key');
          return { kind: 'redirect', location: `${DISPLAY_PATH}${url.search}`, cookie: `${displayName}=${displayKey}; HttpOnly; SameSite=Strict; Path=/` };
        }
        if (keys.length === 1 && isDisplayKey(keys[0])) return displayOnly;
        if (keys.length !== 1 || !keyMatches(options.key, keys[0])) return { kind: 'refuse', status: 403, message: 'forbidden: wrong key', page: 'key' };
        url.searchParams.delete('key');
        return {
          kind: 'redirect',
          // One leading slash only: `//host` (or `/\host`, which URL reads as that) would leave the console.
          location: `/${url.pathname.replace(/^\/+/, '')}${url.search}`,
          cookie: `${name}=${options.key}; HttpOnly; SameSite=Strict; Path=/`,
        };
      }
      const path = sentPath(request);
      if (keyMatches(options.key, cookieKey(request.headers))) return { kind: 'serve', path: url.pathname === DISPLAY_PATH ? '/' : path };
      if (!isDisplayKey(displayCookieKey(request.headers))) return { kind: 'refuse', status: 403, message: 'forbidden: no key', page: 'key' };
      // The display's key: its page and the page's files, never the console at `/`.
      if (url.pathname === DISPLAY_PATH) return { kind: 'serve', path: '/' };
      return path.startsWith(ASSETS_PREFIX) ? { kind: 'serve', path } : displayOnly;
    },
    checkUpgrade(request) {
      if (!hostAllowed(request.headers)) return { kind: 'refuse', status: 421, message: misdirected };
      const url = target(request.url);
      if (url === null || url.pathname !== '/bridge') return { kind: 'refuse', status: 404, message: 'not found: the bridge is at /bridge' };
      // A WebSocket from another site would ride on the dealer's browser: only our own page may connect.
      const origin = request.headers.origin;
      if (typeof origin !== 'string' || !originAllowed(origin)) return { kind: 'refuse', status: 403, message: 'forbidden: only the console\'s own page may open the bridge' };
      const keys = url.searchParams.getAll('key');
      const given = keys.length === 0 ? cookieKey(request.headers) : keys.length === 1 ? keys[0] : null;
      const roles = url.searchParams.getAll('role');
      if (roles.length > 1 || (roles.length === 1 && roles[0] !== 'console' && roles[0] !== 'display')) {
        return { kind: 'refuse', status: 400, message: 'bad request: role is console or display' };
      }
      const role = roles[0] === 'display' ? 'display' : 'console';
      if (keyMatches(options.key, given)) return { kind: 'accept', role };
      // The display's key opens the display's socket, which only shows: no command goes through it.
      const display = keys.length === 0 ? displayCookieKey(request.headers) : given;
      if (isDisplayKey(display)) return role === 'display' ? { kind: 'accept', role } : { kind: 'refuse', status: 403, message: 'forbidden: the player display\'s key opens the display only' };
      return { kind: 'refuse', status: 403, message: 'forbidden: the bridge needs the console\'s key' };
    },
  };
}

/**
 * The page every request without the key gets: it is served before the console's screens (and
 * their translations) load, so it says it in the console's three languages itself.
 */
export const KEY_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Chip Race Console: open the address the console printed</title>
</head>
<body>
<main>
<h1>Chip Race Console</h1>
<p lang="en">Open the address the console printed when it started (in the window where it runs): it carries a key, <code>?key=…</code>, that lets this browser in. Without the key this address does not open.</p>
<p lang="fi">Avaa osoite, jonka konsoli tulosti käynnistyessään (ikkunassa, jossa se on käynnissä): siinä on avain, <code>?key=…</code>, jolla tämä selain pääsee sisään. Ilman avainta tämä osoite ei aukea.</p>
<p lang="ru">Откройте адрес, который консоль вывела при запуске (в окне, где она работает): в нём есть ключ, <code>?key=…</code>, по которому этот браузер пускают. Без ключа этот адрес не открывается.</p>
</main>
</body>
</html>
`;

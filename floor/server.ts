import { networkInterfaces } from 'node:os';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { allowedHosts } from '../net/hosts';
import { isLoopbackHost, listenOn } from '../net/loopback';
import { clockSection, outageBanner, renderOutage, renderOverview } from './page/render';
import { languageOf, type FloorLanguage } from './page/words';
import type { WatchdogOptions } from './watchdog';
import { startFloorDaemon } from './daemon';
import { createFloorPool } from './pool';
import { HTML, plain, requestLanguage, send } from './http/answer';
import { createDispatcher, parseTarget } from './http/dispatch';
import { createStreamExport } from './http/exports';
import type { FloorHttp, LastView } from './http/route';
import { ROUTES } from './http/routes';
import { checkToken, createSignIn } from './http/signIn';

export { FLOOR_CSP, MAX_TARGET_LENGTH } from './http/answer';
export { EXPORT_STALL_MS, writable } from './http/exports';
export { GUESS_SPACING_MS, TOKEN_MIN_LENGTH } from './http/signIn';

/**
 * The floor page: every table of the tournament, server-side rendered, read-only. Who may use it:
 *
 * - `Host` must be one of the floor's own names with its port (DNS rebinding: station/web/access.ts):
 *   its loopback names, its bound address, this machine's interface addresses when bound to all of
 *   them, and the names given with `--name`;
 * - `Origin`, when a browser sends one, must be the floor's own page (another site's script is
 *   refused), and a POST (the sign-in form, the clock's buttons, the tournament's and the seating's forms: the only ones) must carry it;
 * - on loopback nobody else is asked; on any other address the floor starts only with a token
 *   (a password) and over HTTPS (its certificate and key), and then every request shows it:
 *   `Authorization: Bearer`, or the cookie the sign-in form sets (floor/http/signIn.ts).
 *
 * The routes are a table (floor/http/routes.ts), each with its query parameters and who may use
 * it, matched and checked by one dispatcher (floor/http/dispatch.ts). The fold, the held break and
 * the watchdog run beside the routes in the floor's daemon (floor/daemon.ts), started once the
 * server listens and stopped before it closes.
 */

export interface FloorServerOptions {
  readonly databaseUrl: string;
  /** 127.0.0.1 by default; another address only with a token. */
  readonly host?: string;
  readonly port?: number;
  readonly token?: string;
  /** The names the floor answers to besides its addresses (`--name floor.local`): the cardroom's DNS or mDNS names for it. */
  readonly names?: readonly string[];
  /** HTTPS: the floor's certificate and key (PEM). Required off loopback: the token and the page would travel in clear. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  readonly log?: (line: string) => void;
  /** The clock the link states are judged by (tests). */
  readonly now?: () => number;
  /** How long the background fold rests between passes (ms). */
  readonly foldEveryMs?: number;
  /** How often the floor looks whether to hold or let go a break (tests: faster). */
  readonly holdEveryMs?: number;
  /** How long one statement on the floor's database may go unanswered before its connection is cut and the database said unreachable (QUERY_TIMEOUT_MS). */
  readonly queryTimeoutMs?: number;
  /** The watchdog over the stations' statements (floor/watchdog.ts): its limits and pace (tests: shorter). */
  readonly watchdog?: WatchdogOptions;
}

export interface FloorServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * How long one statement of the floor's may go unanswered: past it the connection is cut and the
 * page says the database cannot be reached (a floor computer gone without a word: power, cable).
 * On the bench's floor (bench/floor.ts: 100 tables × 50 races, and a table whose open race holds
 * 40,000 records), on a 2-CPU machine under a load of 7: the status query took 92 ms at most (40
 * median), a fold step's write 32 ms, the longest of all, the fold's read of 20,000 records of the
 * open race's table, 217 ms, an export's 212 ms. 10 s is 45 times that (a slower computer, a
 * server busy with stations' statements, themselves cut at their login's statement_timeout), and
 * what a director waits at most before the page says so.
 */
export const QUERY_TIMEOUT_MS = 10_000;

/** A name given with `--name`: a DNS name such as floor.local. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export function isHostName(name: string): boolean {
  return HOST_NAME.test(name);
}

/**
 * This machine's interface addresses, as a LAN client's Host header names them: a floor bound to
 * every interface (0.0.0.0, ::) is reached by any of them. An IP literal cannot be rebound by DNS,
 * so each is safe to answer to; a zone (`%eth0`) is no part of a Host header.
 */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address.replace(/%.*$/, '')));
}

export async function startFloorServer(options: FloorServerOptions): Promise<FloorServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token;
  const log = options.log ?? ((line: string) => process.stderr.write(`floor: ${line}\n`));
  const now = options.now ?? Date.now;
  checkToken(token);
  const lan = !isLoopbackHost(host);
  if (lan && token === undefined) throw new Error(`refusing to listen on ${host}: the floor serves the cardroom's network only behind a token (--token or CHIP_RACE_FLOOR_TOKEN)`);
  if (lan && options.tls === undefined) throw new Error(`refusing to listen on ${host} without HTTPS: add --tls-cert FILE --tls-key FILE (docs/floor.md makes them with the cardroom's own certificate authority)`);
  const names = options.names ?? [];
  for (const name of names) if (!isHostName(name)) throw new Error(`--name ${JSON.stringify(name.slice(0, 64))} is not a host name (such as floor.local)`);

  const pool = createFloorPool(options.databaseUrl, options.queryTimeoutMs ?? QUERY_TIMEOUT_MS, now, log);
  const signIn = createSignIn(token, log);
  /** The overview's data as last read: shown, with the outage banner, while the database is gone. */
  let lastView: LastView | null = null;
  const floor: FloorHttp = {
    now,
    log,
    withClient: pool.withClient,
    signIn,
    streamExport: createStreamExport(log),
    saw: (view) => {
      lastView = view;
    },
  };
  let allowed: { hosts: ReadonlySet<string>; origins: ReadonlySet<string> } = { hosts: new Set(), origins: new Set() };
  const dispatch = createDispatcher(ROUTES, floor, () => allowed);

  /**
   * The answer while the database is gone: the page in its language, 503, refreshing itself, with
   * the banner saying since when; the overview keeps its last view (the clock still counting).
   */
  const sendOutage = (request: IncomingMessage, response: ServerResponse, since: number) => {
    let path = '/';
    let language: FloorLanguage;
    try {
      const target = parseTarget(ROUTES, request.url);
      path = target.path;
      language = languageOf(target.query.get('lang') ?? null, typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined);
    } catch {
      language = requestLanguage(request);
    }
    const banner = outageBanner(language, since, path === '/' && lastView !== null ? lastView.at : null);
    const body = path === '/' && lastView !== null ? renderOverview(lastView.status, language, now(), clockSection(lastView.clock, language, now()), banner) : renderOutage(language, banner);
    send(response, 503, HTML, body, { 'Retry-After': '5' }, request.method === 'HEAD');
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    dispatch(request, response).catch((error: unknown) => {
      log(`${request.method ?? ''} ${(request.url ?? '').slice(0, 100)}: ${(error as Error).message}`);
      const since = pool.unreachableSince();
      if (response.headersSent) response.destroy();
      else if (since !== null) sendOutage(request, response, since);
      else plain(request, response, 503, 'floor.http.unreadable');
    });
  };
  const serverOptions = { requireHostHeader: false, maxHeaderSize: 16 * 1024 };
  const server: Server = options.tls === undefined ? createServer(serverOptions, listener) : createHttpsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, listener);
  const scheme = options.tls === undefined ? 'http' : 'https';
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const address = await listenOn(server, options.port ?? 0, host, log);
  const shownHost = address.shownHost;
  const everyInterface = host === '0.0.0.0' || host === '::';
  const hosts = allowedHosts({ port: address.port, boundHost: shownHost, listenHost: host, allowNonLoopback: lan, names: [...(everyInterface ? interfaceAddresses() : []), ...names] });
  allowed = { hosts, origins: new Set([...hosts].map((name) => `${scheme}://${name}`)) };
  signIn.listening(address.port, scheme);

  const daemon = await startFloorDaemon({ withClient: pool.withClient, log, now, foldEveryMs: options.foldEveryMs, holdEveryMs: options.holdEveryMs, watchdog: options.watchdog });
  return {
    url: `${scheme}://${shownHost}:${address.port}/`,
    port: address.port,
    async close() {
      await daemon.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await pool.end();
    },
  };
}

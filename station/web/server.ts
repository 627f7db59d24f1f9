import { createServer, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CommandResult, ConsoleState } from '../../protocol/contract';
import { BRIDGE_REQUEST, type BridgeMessage } from '../../protocol/commands';
import { parse } from '../../protocol/schema';
import { StateFeed } from '../ipc/stateFeed';
import { dispatch, type CommandTarget } from '../ipc/validate';
import { createAccess, DISPLAY_PATH, KEY_PAGE, type BridgeRole } from './access';
import { isKeyFormat } from './key';
import { checkListenHost, listenOn } from '../../net/loopback';
import { SECURITY_HEADERS, serveStatic } from './static';
import { exportFormatOf, separatorAsked, serveExport, type ExportSource } from './exportRoute';

export interface WebServerOptions {
  /** getState first: a page that connects is sent the state as it is at that moment. historyExport: the download at /export/history.{csv,json}. */
  readonly service: { getState(): ConsoleState; onState(listener: (state: ConsoleState) => void): () => void } & CommandTarget & ExportSource;
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  /** The browser key (station/web/key.ts): every request must show it, as `?key=` or the cookie it sets. */
  readonly key: string;
  /** The player display's own key (station/web/key.ts): it opens the display, read-only, and nothing else. */
  readonly displayKey?: string;
  readonly host?: string;
  readonly port?: number;
  readonly allowNonLoopback?: boolean;
  /** Where a problem with one connection is reported (one line each); standard error by default. */
  readonly log?: (line: string) => void;
}

export interface WebServer {
  /** The console's address without the key (start.ts prints it with `?key=`). */
  readonly url: string;
  /** The player display's address without its key (start.ts prints it with `?key=` and `#/display`). */
  readonly displayUrl: string;
  close(): Promise<void>;
}

/**
 * The largest message a page may send, in bytes. The largest a page of ours sends is saveSettings
 * with the largest settings the service accepts: 10 seats of 40-character names, 12 chips, a
 * 4096-character port path, a structure of 500 levels with 16-digit amounts and an override at
 * every moment, each text in characters JSON writes six bytes long (`\u0001`). That is 67,295
 * bytes (server.test.ts builds it), already over the 64 KiB this once was. 256 KiB leaves almost
 * four times that and still bounds what one client can make the server hold. Anything larger is
 * no page of ours: that socket is closed (1009), and nothing else is affected.
 */
export const MAX_MESSAGE_BYTES = 256 * 1024;

/** What the display's socket answers to every command: it shows the state and changes nothing. */
export const DISPLAY_REFUSAL: CommandResult<never> = { ok: false, error: { field: 'role', message: 'refused: the player display is read-only' } };

function send(socket: WebSocket, message: BridgeMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/** A whole HTTP response written straight to a socket (upgrade refusals, unreadable requests), with the security headers. */
function writeRaw(socket: Duplex, status: number, message: string): void {
  const body = `${message}\n`;
  const headers: Record<string, string | number> = {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  };
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join('\r\n');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // destroy once written: the client may not close its side, and the connection is of no more use.
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
}

function answer(response: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer | undefined): void {
  response.writeHead(status, { ...SECURITY_HEADERS, ...headers });
  response.end(body);
}

/**
 * Browser mode: the built console over http on loopback, and the service behind a WebSocket at
 * /bridge speaking the same validated commands as the Electron preload. Who may use either is
 * station/web/access.ts. A client that sends what it should not (a message too large, a text frame
 * that is not UTF-8, an HTTP request that cannot be parsed) loses its own connection; the server
 * and every other page carry on.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  const allowNonLoopback = options.allowNonLoopback ?? false;
  checkListenHost(host, allowNonLoopback);
  if (!isKeyFormat(options.key)) throw new Error('browser mode needs a browser key: 32 random bytes in base64url (station/web/key.ts, loadBrowserKey)');
  if (options.displayKey !== undefined && (!isKeyFormat(options.displayKey) || options.displayKey === options.key)) throw new Error('the player display needs a key of its own: 32 random bytes in base64url (station/web/key.ts, loadDisplayKey)');
  const log = options.log ?? ((line: string) => process.stderr.write(`web: ${line}\n`));
  // Made once the port is known (port 0 picks one): nothing can connect before that.
  let access: ReturnType<typeof createAccess> | null = null;

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  // ws refuses a handshake it cannot read (no Sec-WebSocket-Key, another version); this writes that refusal with our headers.
  sockets.on('wsClientError', (error: Error, socket: Duplex) => writeRaw(socket, 400, `bad request: ${error.message}`));
  sockets.on('error', (error: Error) => log(`bridge: ${error.message}`));

  // requireHostHeader off: Node's own refusal of a request without Host has none of our headers; access.ts refuses it (421).
  const server: Server = createServer({ requireHostHeader: false }, (request, response) => {
    const verdict = access?.checkHttp(request) ?? { kind: 'refuse', status: 421, message: 'misdirected request' };
    if (verdict.kind === 'refuse') {
      if (verdict.page === 'key') answer(response, verdict.status, { 'Content-Type': 'text/html; charset=utf-8' }, request.method === 'HEAD' ? undefined : KEY_PAGE);
      else answer(response, verdict.status, { 'Content-Type': 'text/plain; charset=utf-8', ...(verdict.status === 405 ? { Allow: 'GET, HEAD' } : {}) }, `${verdict.message}\n`);
      return;
    }
    if (verdict.kind === 'redirect') {
      answer(response, 303, { Location: verdict.location, 'Set-Cookie': verdict.cookie, 'Content-Type': 'text/plain; charset=utf-8' }, undefined);
      return;
    }
    const format = exportFormatOf(verdict.path);
    if (format !== null) {
      const separator = separatorAsked(request.url);
      if (separator === null) {
        answer(response, 400, { 'Content-Type': 'text/plain; charset=utf-8' }, request.method === 'HEAD' ? undefined : 'bad request: sep is "," or ";" (comma, semicolon)\n');
        return;
      }
      void serveExport(response, request.method, options.service, format, log, separator);
      return;
    }
    void serveStatic(options.rendererDir, verdict.path).then(
      (result) => {
        response.writeHead(result.status, result.headers);
        response.end(request.method === 'HEAD' ? undefined : result.body);
      },
      (error: unknown) => {
        log(`serving ${verdict.path}: ${String(error)}`);
        if (!response.headersSent) answer(response, 500, { 'Content-Type': 'text/plain; charset=utf-8' }, 'internal error\n');
        else response.destroy();
      },
    );
  });
  // A request Node cannot parse (or a connection that fails under it) ends that connection only.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way cannot be followed by another one: that connection just ends.
    const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || answering) socket.destroy();
    else writeRaw(socket, 400, 'bad request');
  });

  server.on('upgrade', (request, socket: Duplex, head: Buffer) => {
    // An error on a socket nobody listens to would end the process: this one is only dropped.
    socket.on('error', () => socket.destroy());
    const verdict = access?.checkUpgrade(request) ?? { kind: 'refuse', status: 421, message: 'misdirected request' };
    if (verdict.kind === 'refuse') {
      writeRaw(socket, verdict.status, verdict.message);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => connected(client, verdict.role));
  });

  // Each page gets the whole state when it connects, then only what changed (station/ipc/stateFeed).
  const feeds = new Map<WebSocket, StateFeed>();
  const stopState = options.service.onState((state) => {
    for (const feed of feeds.values()) feed.push(state);
  });

  function connected(client: WebSocket, role: BridgeRole): void {
    // A frame over maxPayload or a text frame that is not UTF-8 is an 'error' on this socket; ws
    // has already begun closing it (1009 or 1007). Without a listener it would end the process.
    client.on('error', (error: Error) => {
      log(`a ${role} page's connection was closed: ${error.message}`);
      client.terminate();
    });
    const feed = new StateFeed((message) => send(client, message));
    feeds.set(client, feed);
    client.on('close', () => feeds.delete(client));
    feed.push(options.service.getState());
    client.on('message', (data) => {
      let request: { id: number; method?: unknown; args?: unknown };
      try {
        request = parse(BRIDGE_REQUEST, JSON.parse(data.toString()));
      } catch {
        return; // not our protocol (not JSON, no object, no id): nothing to answer
      }
      const id = request.id;
      // The player display only shows: none of its calls reach the service, not even getState
      // (its client answers that from the states it is pushed).
      if (role === 'display') {
        send(client, { type: 'result', id, result: DISPLAY_REFUSAL });
        return;
      }
      void dispatch(options.service, request.method, request.args).then(
        (result) => send(client, { type: 'result', id, result }),
        (error: unknown) => send(client, { type: 'result', id, result: { ok: false, error: { field: 'service', message: String(error) } } }),
      );
    });
  }

  const address = await listenOn(server, options.port ?? 0, host, log);
  const shownHost = address.shownHost;
  access = createAccess({ port: address.port, key: options.key, ...(options.displayKey === undefined ? {} : { displayKey: options.displayKey }), boundHost: shownHost, listenHost: host, allowNonLoopback });
  return {
    url: `http://${shownHost}:${address.port}/`,
    displayUrl: `http://${shownHost}:${address.port}${DISPLAY_PATH}`,
    async close() {
      stopState();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A download still streaming (an export to a slow browser) is cut rather than waited for.
      server.closeAllConnections();
      await closed;
    },
  };
}

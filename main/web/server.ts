import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { BridgeMessage, ConsoleState } from '../ipc/contract';
import { StateFeed } from '../ipc/stateFeed';
import { dispatch, type CommandTarget } from '../ipc/validate';
import { checkListenHost } from './loopback';
import { serveStatic } from './static';

export interface WebServerOptions {
  /** getState first: a page that connects is sent the state as it is at that moment. */
  readonly service: { getState(): ConsoleState; onState(listener: (state: ConsoleState) => void): () => void } & CommandTarget;
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  readonly host?: string;
  readonly port?: number;
  readonly allowNonLoopback?: boolean;
}

export interface WebServer {
  readonly url: string;
  close(): Promise<void>;
}

const MAX_MESSAGE = 64 * 1024;

/** A WebSocket from another site would ride on the dealer's browser: only our own page may connect. */
function sameOrigin(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  return origin !== undefined && origin === `http://${request.headers.host}`;
}

function send(socket: WebSocket, message: BridgeMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/**
 * Browser mode: the built console over http on loopback, and the service behind a WebSocket at
 * /bridge speaking the same validated commands as the Electron preload.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  checkListenHost(host, options.allowNonLoopback ?? false);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    void serveStatic(options.rendererDir, request.url ?? '/').then((result) => {
      response.writeHead(result.status, result.headers);
      response.end(request.method === 'HEAD' ? undefined : result.body);
    });
  });
  server.on('upgrade', (request, socket, head) => {
    if (request.url !== '/bridge' || !sameOrigin(request)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client, request));
  });
  // Each page gets the whole state when it connects, then only what changed (main/ipc/stateFeed).
  const feeds = new Map<WebSocket, StateFeed>();
  const stopState = options.service.onState((state) => {
    for (const feed of feeds.values()) feed.push(state);
  });
  sockets.on('connection', (client: WebSocket) => {
    const feed = new StateFeed((message) => send(client, message));
    feeds.set(client, feed);
    client.on('close', () => feeds.delete(client));
    feed.push(options.service.getState());
    client.on('message', (data) => {
      let request: { id?: unknown; method?: unknown; args?: unknown };
      try {
        request = JSON.parse(data.toString()) as typeof request;
      } catch {
        return; // not our protocol: nothing to answer
      }
      if (typeof request !== 'object' || request === null || !Number.isSafeInteger(request.id)) return;
      const id = request.id as number;
      void dispatch(options.service, request.method, request.args).then(
        (result) => send(client, { type: 'result', id, result }),
        (error: unknown) => send(client, { type: 'result', id, result: { ok: false, error: { field: 'service', message: String(error) } } }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    async close() {
      stopState();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

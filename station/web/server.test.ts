import { spawn } from 'node:child_process';
import { request, type OutgoingHttpHeaders } from 'node:http';
import { rawRequest, type RawResponse } from './testing/rawRequest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RULE_SET_NAMES } from '../../engine/race/rules';
import { BUILT_IN_PROFILES } from '../../hardware/profile';
import type { ConsoleSettings, ConsoleState } from '../../protocol/contract';
import type { BridgeMessage } from '../../protocol/commands';
import { ConsoleService } from '../service/service';
import { readSettings } from '../service/settings';
import { cookieName, displayCookieName } from './access';
import { newKey } from './key';
import { checkListenHost, isLoopbackHost } from '../../net/loopback';
import { DISPLAY_REFUSAL, MAX_MESSAGE_BYTES, startWebServer, type WebServer } from './server';
import { resolveStaticPath, SECURITY_HEADERS } from './static';

const rendererDir = mkdtempSync(join(tmpdir(), 'renderer-'));
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Chip Race Console</title>');

/** A service and browser mode in front of it, on a data folder of its own. */
interface Running {
  readonly service: ConsoleService;
  readonly server: WebServer;
  readonly key: string;
  readonly port: number;
  /** What the server reported about bad connections. */
  readonly log: string[];
  /** The headers of our own page's requests: its Host and its key's cookie. */
  readonly own: Record<string, string>;
}

async function startRunning(): Promise<Running> {
  const service = await ConsoleService.start({ dataDir: mkdtempSync(join(tmpdir(), 'web-data-')) });
  const key = newKey();
  const log: string[] = [];
  const server = await startWebServer({ service, rendererDir, key, log: (line) => log.push(line) });
  const port = Number(new URL(server.url).port);
  return { service, server, key, port, log, own: { host: `127.0.0.1:${port}`, cookie: `${cookieName(port)}=${key}` } };
}

async function stopRunning(running: Running | undefined): Promise<void> {
  await running?.server.close();
  await running?.service.close();
}

const raw = rawRequest;

/** A WebSocket handshake with exactly these headers: 101 if the server takes it, else its refusal. */
function handshake(port: number, path: string, headers: OutgoingHttpHeaders): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const sent = request({
      host: '127.0.0.1',
      port,
      path,
      setHost: false,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    });
    sent.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '' });
    });
    sent.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

function expectSecurityHeaders(response: RawResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers[name.toLowerCase()], `${response.status}: ${name}`).toBe(value);
}

/** A bridge connection with what the server pushed to it (the whole state, patches), collected from its first message. */
interface Bridge {
  readonly socket: WebSocket;
  readonly pushed: BridgeMessage[];
}

/** The bridge as a page opens it: its own origin, and the key (as a test or the bench presents it, in the query). */
function openBridge(running: Running, query = `key=${running.key}`, origin = running.server.url.slice(0, -1), options: { skipUTF8Validation?: boolean } = {}): Promise<Bridge> {
  const socket = new WebSocket(`${running.server.url.replace('http', 'ws')}bridge?${query}`, { origin, ...options });
  // Listening before the socket opens: the whole state may come in the same packet as the handshake.
  const pushed: BridgeMessage[] = [];
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as BridgeMessage;
    if (message.type !== 'result') pushed.push(message);
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, pushed }));
    socket.once('error', reject);
  });
}

function call(socket: WebSocket, id: number, method: string, args: unknown[]): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as BridgeMessage;
      if (message.type === 'result' && message.id === id) {
        socket.off('message', onMessage);
        resolve(message.result);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, method, args }));
  });
}

function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) resolve(-1);
    socket.once('close', (code) => resolve(code));
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('browser mode', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startRunning();
  });
  afterAll(() => stopRunning(running));

  it('listens on loopback and serves the console with the strict security headers', async () => {
    expect(running.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await raw(running.port, '/', running.own);
    expect(response.status).toBe(200);
    expect(response.body).toContain('Chip Race Console');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('never serves a file outside the renderer folder', async () => {
    expect(resolveStaticPath('/srv/app', '/../etc/passwd')).toBeNull();
    expect(resolveStaticPath('/srv/app', '/assets/app.js')).toBe(join('/srv/app', 'assets/app.js'));
    expect(resolveStaticPath('/srv/app', '/%2e%2e/%2e%2e/etc/passwd')).toBeNull();
    expect(resolveStaticPath('/srv/app', '/%E0%A4%A')).toBeNull();
    expect((await raw(running.port, '/%2e%2e/%2e%2e/etc/passwd', running.own)).status).toBe(400);
    expect((await raw(running.port, '/../../etc/passwd', running.own)).status).toBe(400);
    expect((await fetch(running.server.url, { method: 'POST' })).status).toBe(405);
  });

  it('runs validated commands over the WebSocket bridge; pushes the whole state on connecting, then only what changed', async () => {
    const { service } = running;
    const { socket, pushed } = await openBridge(running);
    expect(await call(socket, 1, 'dealCard', ['race-1', 7])).toMatchObject({ ok: false, error: { field: 'card', message: 'must be text' } });
    // Browser mode saves no file itself: the page downloads the export from /export/history.csv (exportRoute.test.ts).
    expect(await call(socket, 2, 'exportHistory', ['csv'])).toMatchObject({ ok: false, error: { field: 'format', said: { key: 'service.history.exportNoDialog' } } });
    const settings = service.getState().settings;
    expect(await call(socket, 3, 'saveSettings', [{ ...settings, language: 'fi' }])).toEqual({ ok: true, value: null });
    expect(pushed).toHaveLength(2);
    expect(pushed[0]).toEqual({ type: 'state', state: plain({ ...service.getState(), settings }) });
    expect(pushed[1]).toEqual({ type: 'patch', patch: { settings: plain(service.getState().settings) } });
    expect(service.getState().settings.language).toBe('fi');
    socket.close();
  });

  it('refuses a WebSocket from another origin', async () => {
    await expect(openBridge(running, `key=${running.key}`, 'http://evil.example')).rejects.toThrow(/403/);
  });

  it('refuses to listen beyond loopback unless explicitly allowed', async () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('127.8.9.10')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('192.168.1.5')).toBe(false);
    expect(() => checkListenHost('0.0.0.0', false)).toThrow(/loopback/);
    expect(() => checkListenHost('0.0.0.0', true)).not.toThrow();
    await expect(startWebServer({ service: running.service, rendererDir, key: running.key, host: '0.0.0.0' })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0/);
  });

  it('does not start without a proper browser key', async () => {
    for (const key of ['', 'secret', 'x'.repeat(43).replace(/x$/, '!')]) {
      await expect(startWebServer({ service: running.service, rendererDir, key })).rejects.toThrow(/needs a browser key/);
    }
  });
});

describe('DNS rebinding: only the console’s own names, with its port, are answered', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startRunning();
  });
  afterAll(() => stopRunning(running));

  /** Host values a page on another name would send (the first ones as DNS rebinding sends them), and broken ones. */
  const forgedHosts = (port: number): string[] => [
    'evil.example',
    `evil.example:${port}`,
    `127.0.0.1:${port === 65535 ? port - 1 : port + 1}`,
    'localhost.evil.example',
    `localhost.evil.example:${port}`,
    `127.0.0.1.evil.example:${port}`,
    '127.0.0.1',
    'localhost',
    `127.0.0.2:${port}`,
    `[::1]`,
    `localhost.:${port}`,
    `127.0.0.1:${port}@evil.example`,
    '',
  ];
  const ownHosts = (port: number) => [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LocalHost:${port}`];

  it('refuses every other Host on plain HTTP with 421 (key or not), and takes its own names', async () => {
    const { port, own } = running;
    for (const host of forgedHosts(port)) {
      const headers = { ...own, host };
      for (const path of ['/', `/?key=${running.key}`, '/assets/app.js']) {
        const response = await raw(port, path, headers);
        expect(response.status, `Host ${JSON.stringify(host)} ${path}`).toBe(421);
        expectSecurityHeaders(response);
        expect(response.body).toBe(`misdirected request: this console answers only as 127.0.0.1:${port}, localhost:${port}, [::1]:${port}\n`);
      }
    }
    for (const host of ownHosts(port)) expect((await raw(port, '/', { ...own, host })).status, host).toBe(200);
    // No Host at all is none of its names either.
    const response = await raw(port, '/', { cookie: own.cookie });
    expect(response.status).toBe(421);
    expectSecurityHeaders(response);
  });

  it('refuses every other Host on the WebSocket upgrade with 421, even with the right Origin and key', async () => {
    const { port, key } = running;
    for (const host of forgedHosts(port)) {
      const response = await handshake(port, `/bridge?key=${key}`, { host, origin: `http://127.0.0.1:${port}` });
      expect(response.status, `Host ${JSON.stringify(host)}`).toBe(421);
      expectSecurityHeaders(response);
    }
    const response = await handshake(port, `/bridge?key=${key}`, { origin: `http://127.0.0.1:${port}` });
    expect(response.status).toBe(421);
    expectSecurityHeaders(response);
    for (const host of ownHosts(port)) {
      expect((await handshake(port, `/bridge?key=${key}`, { host, origin: `http://${host.toLowerCase()}` })).status, host).toBe(101);
    }
  });

  it('refuses a page of another origin on plain HTTP (403); navigations, which send no Origin, and its own origin pass', async () => {
    const { port, own } = running;
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`, `http://localhost.evil.example:${port}`, `http://127.0.0.1:${port}/`]) {
      const response = await raw(port, '/', { ...own, origin });
      expect(response.status, origin).toBe(403);
      expectSecurityHeaders(response);
    }
    expect((await raw(port, '/', { ...own, origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await raw(port, '/', { ...own, origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await raw(port, '/', own)).status).toBe(200);
  });

  it('opens the bridge only for an Origin of its own names: another site, "null", none, another port or scheme are refused with 403', async () => {
    const { port, key } = running;
    const own = { host: `127.0.0.1:${port}` };
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', undefined, `http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`, `http://localhost.evil.example:${port}`, 'http://127.0.0.1']) {
      const headers: OutgoingHttpHeaders = { ...own };
      if (origin !== undefined) headers.origin = origin;
      const response = await handshake(port, `/bridge?key=${key}`, headers);
      expect(response.status, `Origin ${JSON.stringify(origin)}`).toBe(403);
      expectSecurityHeaders(response);
    }
    // Not merely the Host it was sent: a page of one of its names may connect under another.
    expect((await handshake(port, `/bridge?key=${key}`, { ...own, origin: `http://localhost:${port}` })).status).toBe(101);
    expect((await handshake(port, `/bridge?key=${key}`, { ...own, origin: `http://127.0.0.1:${port}` })).status).toBe(101);
  });
});

describe('the browser key', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startRunning();
  });
  afterAll(() => stopRunning(running));

  it('answers a request without the key with a 403 page saying, in English, Finnish and Russian, to open the printed address', async () => {
    const { port } = running;
    for (const headers of [{ host: `127.0.0.1:${port}` }, { host: `127.0.0.1:${port}`, cookie: `${cookieName(port)}=${newKey()}` }, { host: `127.0.0.1:${port}`, cookie: `${cookieName(port + 1)}=${running.key}` }]) {
      for (const path of ['/', '/index.html', '/assets/app.js', '/?view=display', '/no-such-file']) {
        const response = await raw(port, path, headers);
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expectSecurityHeaders(response);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.headers['set-cookie']).toBeUndefined();
        expect(response.body).toContain('Open the address the console printed when it started');
        expect(response.body).toContain('Avaa osoite, jonka konsoli tulosti käynnistyessään');
        expect(response.body).toContain('Откройте адрес, который консоль вывела при запуске');
        expect(response.body).not.toContain(running.key);
      }
    }
  });

  it('takes the printed address: sets an HttpOnly, SameSite=Strict cookie named for the port, and redirects (303) to the same path without the key', async () => {
    const { port, key } = running;
    const host = { host: `127.0.0.1:${port}` };
    const response = await raw(port, `/?key=${key}`, host);
    expect(response.status).toBe(303);
    expectSecurityHeaders(response);
    expect(response.headers.location).toBe('/');
    expect(response.headers['set-cookie']).toEqual([`chip-race-key-${port}=${key}; HttpOnly; SameSite=Strict; Path=/`]);
    // The other parts of the address stay (the player display's `?view=display`; a fragment never reaches the server).
    expect((await raw(port, `/?view=display&key=${key}`, host)).headers.location).toBe('/?view=display');
    expect((await raw(port, `/index.html?key=${key}&lang=fi`, host)).headers.location).toBe('/index.html?lang=fi');
    // The redirect cannot be turned to leave the console.
    expect((await raw(port, `//evil.example/?key=${key}`, host)).status).toBe(400);
    expect((await raw(port, `/\\evil.example/?key=${key}`, host)).status).toBe(400);
    // With the cookie, the page is served.
    const cookie = (response.headers['set-cookie']?.[0] ?? '').split(';')[0] as string;
    expect((await raw(port, '/', { ...host, cookie: `other=1; ${cookie}` })).status).toBe(200);
    // HEAD as GET.
    expect((await raw(port, `/?key=${key}`, host, 'HEAD')).status).toBe(303);
  });

  it('refuses a wrong key, a repeated one, or one beside a good cookie', async () => {
    const { port, key, own } = running;
    const host = { host: `127.0.0.1:${port}` };
    for (const path of [`/?key=${newKey()}`, '/?key=', `/?key=${key.slice(0, -1)}`, `/?key=${key}x`, `/?key=${key}&key=${key}`, `/?key=${encodeURIComponent(`${key} `)}`]) {
      const response = await raw(port, path, host);
      expect(response.status, path).toBe(403);
      expect(response.headers['set-cookie'], path).toBeUndefined();
    }
    expect((await raw(port, `/?key=${newKey()}`, own)).status).toBe(403);
  });

  it('opens the bridge only with the key, as the cookie or a `key` parameter', async () => {
    const { port, key } = running;
    const page = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };
    for (const [path, headers] of [
      ['/bridge', page],
      [`/bridge?key=${newKey()}`, page],
      ['/bridge?key=', page],
      [`/bridge?key=${key}&key=${key}`, page],
      ['/bridge', { ...page, cookie: `${cookieName(port)}=${newKey()}` }],
      ['/bridge', { ...page, cookie: `${cookieName(port + 1)}=${key}` }],
      // The parameter decides when there is one: a wrong one is not rescued by the cookie.
      [`/bridge?key=${newKey()}`, { ...page, cookie: `${cookieName(port)}=${key}` }],
    ] as const) {
      const response = await handshake(port, path, headers);
      expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      expectSecurityHeaders(response);
      expect(response.body).toBe("forbidden: the bridge needs the console's key\n");
    }
    expect((await handshake(port, `/bridge?key=${key}`, page)).status).toBe(101);
    expect((await handshake(port, '/bridge', { ...page, cookie: `${cookieName(port)}=${key}` })).status).toBe(101);
  });
});

describe('security headers on every answer', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startRunning();
  });
  afterAll(() => stopRunning(running));

  it('on 405, 400, 403, 421, 404, the 303 redirect and every refusal written on an upgrade socket', async () => {
    const { port, key, own } = running;
    const page = { host: own.host, origin: `http://${own.host}` };
    const answers: [number, RawResponse][] = [
      [405, await raw(port, '/', own, 'POST')],
      [405, await raw(port, '/', own, 'DELETE')],
      [400, await raw(port, '/../etc/passwd', own)],
      [403, await raw(port, '/', { host: own.host })],
      [421, await raw(port, '/', { ...own, host: 'evil.example' })],
      [404, await raw(port, '/no-such-file.js', own)],
      [303, await raw(port, `/?key=${key}`, { host: own.host })],
      [421, await handshake(port, `/bridge?key=${key}`, { ...page, host: 'evil.example' })],
      [404, await handshake(port, `/elsewhere?key=${key}`, page)],
      [403, await handshake(port, `/bridge?key=${key}`, { host: own.host })],
      [403, await handshake(port, '/bridge', page)],
      [400, await handshake(port, `/bridge?key=${key}&role=admin`, page)],
      // Refusals ws makes of a handshake it cannot read.
      [400, await handshake(port, `/bridge?key=${key}`, { ...page, 'sec-websocket-version': '12' })],
      [400, await handshake(port, `/bridge?key=${key}`, { ...page, 'sec-websocket-key': 'short' })],
    ];
    for (const [status, response] of answers) {
      expect(response.status).toBe(status);
      expectSecurityHeaders(response);
    }
    expect(answers[0]?.[1].headers.allow).toBe('GET, HEAD');
  });

  it('on the 400 for a request that is not HTTP at all', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connectTcp(running.port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nNot a header line\r\n\r\n'));
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(answer).toContain(`\r\n${name}: ${value}\r\n`);
    expect((await raw(running.port, '/', running.own)).status).toBe(200);
  });
});

/** A WebSocket handshake over a plain TCP socket, so that frames can be written byte by byte. */
async function rawBridge(running: Pick<Running, 'port' | 'key'>): Promise<{ write(frame: Buffer): void; received: Promise<Buffer> }> {
  const socket = connectTcp(running.port, '127.0.0.1');
  const chunks: Buffer[] = [];
  const received = new Promise<Buffer>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
  // Handled here too: a test that fails before it awaits `received` should not add an unhandled error.
  received.catch(() => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    [
      `GET /bridge?key=${running.key} HTTP/1.1`,
      `Host: 127.0.0.1:${running.port}`,
      `Origin: http://127.0.0.1:${running.port}`,
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      '',
      '',
    ].join('\r\n'),
  );
  await until(() => Buffer.concat(chunks).includes('\r\n\r\n'), 'the handshake');
  expect(Buffer.concat(chunks).toString('latin1').split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
  return { write: (frame) => socket.write(frame), received };
}

/** A masked client frame (FIN set) with a payload of under 126 bytes. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] as number)));
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]);
}

/** The close code in the server's frames after the handshake, or null if it sent no close frame. */
function closeCode(received: Buffer): number | null {
  let at = received.indexOf('\r\n\r\n') + 4;
  while (at + 2 <= received.length) {
    const opcode = (received[at] as number) & 0x0f;
    let length = (received[at + 1] as number) & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = received.readUInt16BE(at + 2);
      start = at + 4;
    } else if (length === 127) {
      length = Number(received.readBigUInt64BE(at + 2));
      start = at + 10;
    }
    if (opcode === 0x8) return received.readUInt16BE(start);
    at = start + length;
  }
  return null;
}

describe('one bad frame costs only its own connection', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startRunning();
  });
  afterAll(() => stopRunning(running));

  /** A second page, well behaved, still gets the state, its answers, and what changes; HTTP still serves. */
  async function expectStillServing(language: 'fi' | 'ru'): Promise<void> {
    const { socket, pushed } = await openBridge(running);
    await until(() => pushed.length === 1, 'the whole state');
    expect(pushed[0]?.type).toBe('state');
    expect(await call(socket, 1, 'getState', [])).toEqual(plain(running.service.getState()));
    const settings = running.service.getState().settings;
    expect(await call(socket, 2, 'saveSettings', [{ ...settings, language }])).toEqual({ ok: true, value: null });
    await until(() => pushed.length === 2, 'the change pushed');
    expect(pushed[1]).toEqual({ type: 'patch', patch: { settings: plain({ ...settings, language }) } });
    socket.close();
    expect((await raw(running.port, '/', running.own)).status).toBe(200);
  }

  it(`closes a socket that sends a message over ${MAX_MESSAGE_BYTES} bytes (1009); other pages are served on`, async () => {
    const { socket: bystander, pushed: bystanderPushes } = await openBridge(running);
    await until(() => bystanderPushes.length === 1, 'the bystander’s state');
    const { socket: bad } = await openBridge(running);
    bad.on('error', () => undefined);
    const code = closed(bad);
    bad.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x20), { binary: false });
    expect(await code).toBe(1009);
    expect(running.log.some((line) => /Max payload size exceeded/.test(line))).toBe(true);
    await expectStillServing('fi');
    // The page that was connected all along got the change too.
    await until(() => bystanderPushes.length === 2, 'the bystander’s patch');
    expect(bystander.readyState).toBe(bystander.OPEN);
    bystander.close();
  });

  it('closes a socket that sends a 3-byte text frame that is not UTF-8 (1007); other pages are served on', async () => {
    const bad = await rawBridge(running);
    bad.write(clientFrame(0x1, Buffer.from([0xc3, 0x28, 0xff])));
    expect(closeCode(await bad.received)).toBe(1007);
    expect(running.log.some((line) => /invalid UTF-8/i.test(line))).toBe(true);
    await expectStillServing('ru');
  });

  it('the same frame from a ws client that skips its own checks', async () => {
    const { socket: bad } = await openBridge(running, undefined, undefined, { skipUTF8Validation: true });
    bad.on('error', () => undefined);
    const code = closed(bad);
    bad.send(Buffer.from([0xed, 0xa0, 0x80]), { binary: false });
    expect(await code).toBe(1007);
    await expectStillServing('fi');
  });
});

describe('a bad client does not end browser mode’s process', () => {
  it('in a process of its own, as start.ts runs it: an oversized message, a text frame that is not UTF-8 and a request that is not HTTP leave it serving', async () => {
    const script = fileURLToPath(new URL('./testing/webProcess.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, mkdtempSync(join(tmpdir(), 'web-child-')), rendererDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const lines = createInterface({ input: child.stdout });
      const logged: string[] = [];
      const started = await new Promise<{ url: string; key: string }>((resolve, reject) => {
        lines.on('line', (line) => {
          const message = JSON.parse(line) as { url?: string; key?: string; log?: string };
          if (message.log !== undefined) logged.push(message.log);
          else resolve(message as { url: string; key: string });
        });
        void exited.then((code) => reject(new Error(`browser mode exited with ${code} before it listened: ${stderr}`)));
      });
      const port = Number(new URL(started.url).port);
      const page = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };
      // Each step fails at once, saying so, if the process ends under it.
      const alive = <T>(step: string, promise: Promise<T>): Promise<T> =>
        Promise.race([promise, exited.then((code) => Promise.reject(new Error(`browser mode's process ended (exit ${code}) at: ${step}`)))]);

      const oversized = new WebSocket(`ws://127.0.0.1:${port}/bridge?key=${started.key}`, { origin: page.origin });
      oversized.on('error', () => undefined);
      await new Promise((resolve) => oversized.once('open', resolve));
      const oversizedClosed = closed(oversized);
      oversized.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x20), { binary: false });
      expect(await alive('the oversized message', oversizedClosed)).toBe(1009);

      const notUtf8 = await alive('connecting after the oversized message', rawBridge({ port, key: started.key }));
      notUtf8.write(clientFrame(0x1, Buffer.from([0xc3, 0x28, 0xff])));
      expect(closeCode(await alive('the frame that is not UTF-8', notUtf8.received))).toBe(1007);

      const notHttp = await alive('the request that is not HTTP', new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connectTcp(port, '127.0.0.1', () => socket.write('\x16\x03\x01 not http at all\r\n\r\n'));
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      }));
      expect(notHttp.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');

      // Still there, still serving: a well-behaved page gets its state and its answers.
      expect(child.exitCode).toBeNull();
      const good = new WebSocket(`ws://127.0.0.1:${port}/bridge?key=${started.key}`, { origin: page.origin });
      const pushed: BridgeMessage[] = [];
      good.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as BridgeMessage;
        if (message.type !== 'result') pushed.push(message);
      });
      await alive('a good page connecting', new Promise((resolve) => good.once('open', resolve)));
      await until(() => pushed.length === 1, 'the whole state');
      expect(await call(good, 1, 'getState', [])).toMatchObject({ settings: { language: 'en' } });
      good.close();
      expect((await raw(port, '/', { host: page.host, cookie: `${cookieName(port)}=${started.key}` })).status).toBe(200);
      expect(child.exitCode).toBeNull();
      expect(logged.join('\n')).toMatch(/Max payload size exceeded[\s\S]*invalid UTF-8/i);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);
});

describe('the player display’s socket is read-only', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startRunning();
  });
  afterAll(() => stopRunning(running));

  it('is pushed the state as a page is, and every command it sends is refused before the service sees it', async () => {
    const { service } = running;
    const before = plain(service.getState());
    const { socket: display, pushed } = await openBridge(running, `key=${running.key}&role=display`);
    await until(() => pushed.length === 1, 'the display’s state');
    expect(pushed[0]).toEqual({ type: 'state', state: before });

    // Real commands, each with valid arguments (the console socket below runs the same ones).
    // Seats 1–3 in play (a console never set up has none).
    const held = service.getState().settings;
    const settings = { ...held, language: 'fi', table: { ...held.table, seats: [1, 2, 3].map((seat) => ({ seat, name: '' })) } };
    const counts = [
      { seat: 1, chips: 7, hasOther: true },
      { seat: 2, chips: 2, hasOther: true },
      { seat: 3, chips: 2, hasOther: true },
    ];
    expect(await call(display, 1, 'saveSettings', [settings])).toEqual(DISPLAY_REFUSAL);
    expect(await call(display, 2, 'startRace', [counts])).toEqual(DISPLAY_REFUSAL);
    expect(await call(display, 3, 'getState', [])).toEqual(DISPLAY_REFUSAL);
    expect(await call(display, 4, 'exportHistory', ['csv'])).toEqual(DISPLAY_REFUSAL);
    expect(await call(display, 5, 'no-such-command', [])).toEqual(DISPLAY_REFUSAL);
    expect(DISPLAY_REFUSAL).toEqual({ ok: false, error: { field: 'role', message: 'refused: the player display is read-only' } });
    expect(plain(service.getState())).toEqual(before);
    expect(pushed).toHaveLength(1);

    // The console's own socket runs them, and the display is shown what they changed.
    const { socket: consoleSocket } = await openBridge(running, `key=${running.key}&role=console`);
    expect(await call(consoleSocket, 1, 'saveSettings', [settings])).toEqual({ ok: true, value: null });
    expect(await call(consoleSocket, 2, 'startRace', [counts])).toEqual({ ok: true, value: null });
    expect(service.getState().race).not.toBeNull();
    await until(() => (pushed.at(-1) as { patch?: Partial<ConsoleState> } | undefined)?.patch?.race != null, 'the race pushed to the display');
    expect(service.getState().settings.language).toBe('fi');
    display.close();
    consoleSocket.close();
  });

  it('refuses a role it does not know', async () => {
    const response = await handshake(running.port, `/bridge?key=${running.key}&role=admin`, { host: running.own.host, origin: `http://${running.own.host}` });
    expect(response.status).toBe(400);
    expect(response.body).toBe('bad request: role is console or display\n');
  });
});

describe('a structure nested 60,000 deep over the bridge', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startRunning();
  });
  afterAll(() => stopRunning(running));

  it('is refused in words (120 KB, under the message limit), and the console goes on', async () => {
    const { socket } = await openBridge(running);
    const held = running.service.getState().settings;
    const text = `{"id":1,"method":"saveSettings","args":[${JSON.stringify({ ...held, table: { ...held.table, seats: [{ seat: 1, name: '' }] } }).slice(0, -1)},"tournament":{"structure":{"levels":${'['.repeat(60_000)}1${']'.repeat(60_000)}},"atBreakAfter":null}}]}`;
    expect(text.length).toBeLessThan(MAX_MESSAGE_BYTES);
    const answer = new Promise<unknown>((resolve) => socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as BridgeMessage;
      if (message.type === 'result' && message.id === 1) resolve(message.result);
    }));
    socket.send(text);
    expect(await answer).toEqual({ ok: false, error: { field: 'settings', message: 'nested more than 64 levels deep (lists or objects inside each other); nothing the console reads goes that deep', said: { key: 'value.tooDeep', params: { n: 64 } } } });
    expect(await call(socket, 2, 'getState', [])).toMatchObject({ settings: { language: held.language } });
    socket.close();
  });
});

describe('the player display’s own key opens the display and nothing else', () => {
  let running: Running;
  let displayKey: string;
  let server: WebServer;
  let port: number;
  beforeAll(async () => {
    const base = await startRunning();
    await base.server.close();
    displayKey = newKey();
    server = await startWebServer({ service: base.service, rendererDir, key: base.key, displayKey, log: (line) => base.log.push(line) });
    port = Number(new URL(server.url).port);
    running = { ...base, server, port, own: { host: `127.0.0.1:${port}`, cookie: `${cookieName(port)}=${base.key}` } };
  });
  afterAll(() => stopRunning(running));

  it('the display’s address sets the display’s cookie and opens the display page; the console’s page, other files and a wrong path refuse it', async () => {
    const host = { host: running.own.host };
    expect(server.displayUrl).toBe(`http://127.0.0.1:${port}/display`);
    const opened = await raw(port, `/display?key=${displayKey}`, host);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe('/display');
    expect(opened.headers['set-cookie']).toEqual([`${displayCookieName(port)}=${displayKey}; HttpOnly; SameSite=Strict; Path=/`]);
    const cookie = `${displayCookieName(port)}=${displayKey}`;
    const page = await raw(port, '/display', { ...host, cookie });
    expect(page.status).toBe(200);
    expect(page.body).toBe('<!doctype html><title>Chip Race Console</title>');
    // The page's own files load (a missing one is a plain 404, as for the console).
    expect((await raw(port, '/assets/no-such.js', { ...host, cookie })).status).toBe(404);
    for (const path of ['/', '/index.html', '/?view=display', '/favicon.ico']) {
      const refused = await raw(port, path, { ...host, cookie });
      expect([path, refused.status]).toEqual([path, 403]);
      expect(refused.body).toContain('Open the address the console printed');
      expectSecurityHeaders(refused);
    }
    // Nor does the display's key given at another address open the console.
    for (const path of [`/?key=${displayKey}`, `/index.html?key=${displayKey}`]) expect((await raw(port, path, host)).status).toBe(403);
    // The console's key still opens everything, the display's page too.
    expect((await raw(port, '/', { ...host, cookie: running.own.cookie })).status).toBe(200);
    expect((await raw(port, '/display', { ...host, cookie: running.own.cookie })).status).toBe(200);
  });

  it('opens the display’s socket (read-only) and never the console’s command socket', async () => {
    const origin = `http://${running.own.host}`;
    const cookie = `${displayCookieName(port)}=${displayKey}`;
    for (const path of ['/bridge', '/bridge?role=console']) {
      const refused = await handshake(port, path, { host: running.own.host, origin, cookie });
      expect([path, refused.status, refused.body]).toEqual([path, 403, 'forbidden: the player display\'s key opens the display only\n']);
    }
    expect((await handshake(port, `/bridge?key=${displayKey}`, { host: running.own.host, origin })).status).toBe(403);
    expect((await handshake(port, '/bridge?role=display', { host: running.own.host, origin, cookie })).status).toBe(101);
    const { socket, pushed } = await openBridge(running, `key=${displayKey}&role=display`);
    await until(() => pushed.length === 1, 'the display’s state');
    expect(await call(socket, 1, 'startRace', [[{ seat: 1, chips: 7, hasOther: true }]])).toEqual(DISPLAY_REFUSAL);
    socket.close();
  });

  it('must be a key of its own', async () => {
    await expect(startWebServer({ service: running.service, rendererDir, key: running.key, displayKey: running.key })).rejects.toThrow(/the player display needs a key of its own/);
    await expect(startWebServer({ service: running.service, rendererDir, key: running.key, displayKey: 'short' })).rejects.toThrow(/the player display needs a key of its own/);
  });
});

/**
 * The largest settings the service accepts: every text at its longest in the characters JSON
 * writes longest (a control character is `\u0001`, six bytes), every number at its largest, every
 * list at its longest. The structure is the one part that could grow without bound; engine/plan
 * bounds it (500 levels and breaks, 12 chips, no keys of its own).
 */
function largestSettings(): ConsoleSettings {
  const worst = (length: number) => '\u0001'.repeat(length);
  const tableChips = [1, ...Array.from({ length: 10 }, (_, index) => 99_999_990 + index), 100_000_000];
  const big = Number.MAX_SAFE_INTEGER;
  // The structure plays with the table's chips (the chip set is kept once, in the table).
  const structureChips = tableChips;
  const levels = Array.from({ length: 500 }, () => ({ sb: big, bb: big, ante: big }));
  // No breaks: every level but the last is a moment, and each has an override (none leaving).
  const overrides = Object.fromEntries(Array.from({ length: 499 }, (_, index) => [String(index + 1), [] as number[]]));
  return {
    table: {
      seats: Array.from({ length: 10 }, (_, index) => ({ seat: index + 1, name: worst(40) })),
      button: 10,
      chipSet: tableChips,
      removed: 1,
      next: 100_000_000,
      rules: [...RULE_SET_NAMES].sort((a, b) => b.length - a.length)[0] as ConsoleSettings['table']['rules'],
      decks: 8,
    },
    // Manual entry keeps a path as entered (a serial source needs one from /): 4096 characters.
    source: { kind: 'manual', path: worst(4096), baud: 4_000_000, decoder: Object.keys(BUILT_IN_PROFILES).sort((a, b) => b.length - a.length)[0] as string },
    language: 'en',
    tournament: {
      structure: { chips: structureChips, levels, startingStack: big, rebuys: { amount: big, untilLevel: big }, overrides },
      atBreakAfter: 499,
    },
  };
}

describe('the largest message a page sends fits the bridge', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startRunning();
  });
  afterAll(() => stopRunning(running));

  it('saveSettings with the largest valid settings: accepted by readSettings, far below maxPayload, saved over the bridge', async () => {
    const settings = largestSettings();
    expect(() => readSettings(settings)).not.toThrow();
    // One more level, chip or key would be refused: this is the largest of its kind.
    const structure = settings.tournament?.structure as NonNullable<NonNullable<ConsoleSettings['tournament']>['structure']>;
    expect(() => readSettings({ ...settings, tournament: { structure: { ...structure, levels: [...structure.levels, { sb: 1, bb: 1 }] }, atBreakAfter: null } })).toThrow(/at most 500 levels and breaks/);
    expect(() => readSettings({ ...settings, tournament: { structure: { ...structure, chips: [...structure.chips, Number.MAX_SAFE_INTEGER + 1] }, atBreakAfter: null } })).toThrow(/at most 12 chips/);
    const message = JSON.stringify({ id: Number.MAX_SAFE_INTEGER, method: 'saveSettings', args: [settings] });
    const bytes = Buffer.byteLength(message);
    expect(bytes).toBeGreaterThan(64 * 1024); // over the bridge's old limit
    expect(bytes * 3).toBeLessThan(MAX_MESSAGE_BYTES);
    const { socket } = await openBridge(running);
    expect(await call(socket, 1, 'saveSettings', [settings])).toEqual({ ok: true, value: null });
    expect(running.service.getState().settings.tournament?.structure?.levels).toHaveLength(500);
    socket.close();
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { BridgeMessage } from '../ipc/contract';
import { ConsoleService } from '../service/service';
import { checkListenHost, isLoopbackHost } from './loopback';
import { startWebServer, type WebServer } from './server';
import { resolveStaticPath } from './static';

let service: ConsoleService;
let server: WebServer;
const rendererDir = mkdtempSync(join(tmpdir(), 'renderer-'));

beforeAll(async () => {
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Chip Race Console</title>');
  service = await ConsoleService.start({ dataDir: mkdtempSync(join(tmpdir(), 'web-data-')) });
  server = await startWebServer({ service, rendererDir });
});
afterAll(async () => {
  await server.close();
  await service.close();
});

/** A request with the path exactly as written: fetch would normalise the dots away first. */
function rawStatus(path: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: new URL(server.url).port, path }, (response) => {
      response.resume();
      resolve(response.statusCode);
    })
      .on('error', reject)
      .end();
  });
}

function connect(origin: string): Promise<WebSocket> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}bridge`, { origin });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
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

describe('browser mode', () => {
  it('listens on loopback and serves the console with the strict security headers', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Chip Race Console');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('never serves a file outside the renderer folder', async () => {
    expect(resolveStaticPath('/srv/app', '/../etc/passwd')).toBeNull();
    expect(resolveStaticPath('/srv/app', '/assets/app.js')).toBe(join('/srv/app', 'assets/app.js'));
    expect(resolveStaticPath('/srv/app', '/%2e%2e/%2e%2e/etc/passwd')).toBeNull();
    expect(resolveStaticPath('/srv/app', '/%E0%A4%A')).toBeNull();
    expect(await rawStatus('/%2e%2e/%2e%2e/etc/passwd')).toBe(400);
    expect(await rawStatus('/../../etc/passwd')).toBe(400);
    expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
  });

  it('runs validated commands over the WebSocket bridge; pushes the whole state on connecting, then only what changed', async () => {
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}bridge`, { origin: server.url.slice(0, -1) });
    const pushed: BridgeMessage[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as BridgeMessage;
      if (message.type !== 'result') pushed.push(message);
    });
    await new Promise((resolve) => socket.once('open', resolve));
    expect(await call(socket, 1, 'dealCard', [7])).toEqual({ ok: false, error: { field: 'card', message: 'must be text' } });
    expect(await call(socket, 2, 'exportHistory', ['csv'])).toMatchObject({ ok: true });
    const settings = service.getState().settings;
    expect(await call(socket, 3, 'saveSettings', [{ ...settings, language: 'fi' }])).toEqual({ ok: true, value: null });
    expect(pushed).toHaveLength(2);
    expect(pushed[0]).toEqual({ type: 'state', state: JSON.parse(JSON.stringify({ ...service.getState(), settings })) });
    expect(pushed[1]).toEqual({ type: 'patch', patch: { settings: JSON.parse(JSON.stringify(service.getState().settings)) } });
    expect(service.getState().settings.language).toBe('fi');
    socket.close();
  });

  it('refuses a WebSocket from another origin', async () => {
    await expect(connect('http://evil.example')).rejects.toThrow(/403/);
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
    await expect(startWebServer({ service, rendererDir, host: '0.0.0.0' })).rejects.toThrow(/refusing to listen on 0\.0\.0\.0/);
  });
});

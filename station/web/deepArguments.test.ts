// Issue 44 (low): `saveStructure` nested 40,000 deep answered a raw RangeError (the argument's size
// check, JSON.stringify, recursed). Refused now before anything walks it, with the usual clear
// refusal in the dealer's language, on every way in: the screen's own call (the preload hands it to
// IPC's structured clone, which recurses too), the service's check of an IPC call, and the
// browser-mode WebSocket bridge (a raw message from a hostile page). The floor's upload: floor/structureBounds.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ENGINE_CATALOGS, type Message } from '../../engine/messages';
import { formatMessage } from '../../engine/messages/message';
import { MAX_NESTING } from '../../engine/validate';
import { commandCalls, COMMAND_NAMES, type BridgeMessage } from '../../protocol/commands';
import type { CommandResult } from '../../protocol/contract';
import { ConsoleService } from '../service/service';
import { newKey } from './key';
import { startWebServer, type WebServer } from './server';
import { cookieName } from './access';
import { dispatch } from '../ipc/validate';

const DEPTH = 40_000;
/** Lists `depth` deep, built without recursion. */
function deep(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}
/** The same as JSON text, as a hostile page sends it (JSON.stringify of it would overflow here too). */
const deepText = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

const TOO_DEEP = { key: 'value.tooDeep', params: { n: MAX_NESTING } };
const MESSAGE = 'nested more than 64 levels deep (lists or objects inside each other); nothing the console reads goes that deep';

function expectRefusedTooDeep(result: unknown, field: string): void {
  expect(result).toEqual({ ok: false, error: { field, message: MESSAGE, said: TOO_DEEP } });
  const said = (result as { error: { said: Message } }).error.said;
  expect(formatMessage(said, 'fi', ENGINE_CATALOGS.fi)).toContain('sisäkkäin yli 64 tasoa');
  expect(formatMessage(said, 'ru', ENGINE_CATALOGS.ru)).toContain('вложено глубже 64 уровней');
}

describe('a command argument nested 40,000 deep', () => {
  let service: ConsoleService;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'deep-arguments-'));
    service = await ConsoleService.start({ dataDir });
  });

  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused by the service’s check of an IPC call (saveStructure, saveSettings, anywhere inside), never reaching the service; nothing changes', async () => {
    const before = service.getState().settings;
    expectRefusedTooDeep(await dispatch(service, 'saveStructure', [deep(DEPTH)]), 'structure');
    expectRefusedTooDeep(await dispatch(service, 'saveStructure', [{ chips: deep(DEPTH), levels: [{ sb: 25, bb: 50 }] }]), 'structure');
    expectRefusedTooDeep(await dispatch(service, 'saveSettings', [{ ...before, tournament: { structure: { chips: [25], levels: deep(DEPTH) }, atBreakAfter: null } }]), 'settings');
    expectRefusedTooDeep(await dispatch(service, 'startRace', [deep(DEPTH)]), 'counts');
    expect(service.getState().settings).toBe(before);
  });

  it('is refused by the screen’s own call before it is handed to the channel (IPC would clone it, recursing), for every command', async () => {
    const handed: string[] = [];
    const calls = commandCalls(async (name) => {
      handed.push(name);
      return { ok: true, value: null };
    });
    expectRefusedTooDeep(await calls.saveStructure(deep(DEPTH) as never), 'structure');
    for (const name of COMMAND_NAMES) {
      const call = calls[name] as (...args: unknown[]) => Promise<CommandResult>;
      expect(await call(deep(DEPTH))).toMatchObject({ ok: false, error: { said: TOO_DEEP } });
    }
    expect(handed).toEqual([]);
    // What nests no deeper than the limit is handed on as it was.
    expect(await calls.saveStructure(deep(MAX_NESTING - 1) as never)).toEqual({ ok: true, value: null });
    expect(handed).toEqual(['saveStructure']);
  });

  describe('over the browser-mode WebSocket bridge', () => {
    let server: WebServer;
    let key: string;

    beforeAll(async () => {
      key = newKey();
      server = await startWebServer({ service, rendererDir: dataDir, key, log: () => undefined });
    });

    afterAll(async () => {
      await server?.close();
    });

    it('answers the raw message with the refusal, and the bridge goes on answering', async () => {
      const port = Number(new URL(server.url).port);
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}bridge`, { origin: server.url.slice(0, -1), headers: { cookie: `${cookieName(port)}=${key}` } });
      const answers = new Map<number, unknown>();
      const waiting = new Map<number, () => void>();
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as BridgeMessage;
        if (message.type !== 'result') return;
        answers.set(message.id, message.result);
        waiting.get(message.id)?.();
      });
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      const answer = (id: number, text: string) =>
        new Promise<unknown>((resolve) => {
          waiting.set(id, () => resolve(answers.get(id)));
          socket.send(text);
        });
      try {
        expectRefusedTooDeep(await answer(1, `{"id":1,"method":"saveStructure","args":[${deepText(DEPTH)}]}`), 'structure');
        expectRefusedTooDeep(await answer(2, `{"id":2,"method":"saveSettings","args":[{"tournament":${deepText(DEPTH)}}]}`), 'settings');
        expect(await answer(3, '{"id":3,"method":"setLanguage","args":["fi"]}')).toEqual({ ok: true, value: null });
      } finally {
        socket.close();
      }
    });
  });
});

// Each command is defined once, in protocol/commands.ts's table: every other list of the commands
// — the functions the dealer window's preload exposes, the browser bridge client's methods, the
// names the validator accepts, the IPC handlers main registers — is derived from it (and the player
// display's read-only calls, renderer/api/index.ts, by the same commandCalls as the bridge's). Each is taken here from the running code and must be exactly the
// table's names; a command added or dropped in the table reaches all of them, and none has one
// of its own.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { COMMAND_NAMES, COMMANDS, type CommandName, type ConsoleCommands } from '../protocol/commands';
import type { ConsoleService } from '../station/service/service';
import { API_KEY } from '../protocol/constants';
import { commandChannel } from '../station/ipc/channels';
import { checkCall, type CommandTarget } from '../station/ipc/validate';
import { registerIpc } from '../station/electron/ipc';
import { createBridgeApi, type WebSocketLike } from '../renderer/api/bridge';

const tableNames = (): string[] => Object.keys(COMMANDS).sort();

/**
 * The commands the console has, written out: the one list here that is not derived from the
 * table, so that deleting a command from it (or adding one) fails this test rather than
 * shrinking every derived list with it. A command added or removed on purpose is added or
 * removed here too.
 */
const EXPECTED_COMMANDS = [
  'getState', 'saveSettings', 'markBreak', 'startColorUp', 'setLanguage', 'setClockSound', 'setResultMinutes', 'setCountStack', 'saveStructure',
  'clockStart', 'clockPause', 'clockResume', 'clockAdjust', 'previewRace', 'startRace', 'saveCountDrafts',
  'dealCard', 'dealScan', 'readScan', 'voidCards', 'confirmRace', 'abandonRace', 'recordChipExchange', 'callFloor', 'takeHeldCard', 'discardHeldCard',
  'listPorts', 'startGame', 'gameAction', 'closeGame', 'exportHistory', 'historyPage', 'raceRecord',
  'importProfile', 'registerDeck', 'mapSeats', 'detectReader',
] as const;

/**
 * At the type level: the service's public members are the table's commands and these, and no
 * other. A command deleted from the table leaves its handler here uncovered, which fails the
 * typecheck (`npx tsc -p tsconfig.node.json`) at `everyHandlerIsACommand`.
 */
type ServiceOwnMembers = 'onState' | 'followFloorClock' | 'followFloorSeats' | 'takeFloorDecisions' | 'history' | 'historyExport' | 'close';
type HandlersNotInTable = Exclude<keyof ConsoleService, CommandName | ServiceOwnMembers>;
const everyHandlerIsACommand: [HandlersNotInTable] extends [never] ? true : HandlersNotInTable = true;
/** And each handler takes what its command's signature (its arguments' schemas) gives it. */
type HandlersTakeTheirArguments = { readonly [Name in CommandName]: (...args: Parameters<ConsoleCommands[Name]>) => unknown };
const handlersTakeTheirArguments = (service: ConsoleService): HandlersTakeTheirArguments => service;

/** The functions station/electron/preload.ts exposes, loaded with a stand-in electron module; each with the channel it invokes. */
async function preloadCommands(): Promise<Map<string, unknown>> {
  const exposed: Record<string, (...args: unknown[]) => Promise<unknown>>[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, (...args: unknown[]) => Promise<unknown>>) => key === API_KEY && exposed.push(api) },
    ipcRenderer: { invoke: async (channel: string) => channel, on: () => undefined, removeListener: () => undefined },
  };
  vi.resetModules();
  vi.doMock('electron', () => electron);
  await import('../station/electron/preload');
  vi.doUnmock('electron');
  const [api] = exposed;
  if (api === undefined) throw new Error('the preload exposed nothing under the API key');
  const { onStateMessage, ...commands } = api;
  expect(typeof onStateMessage).toBe('function');
  return new Map(await Promise.all(Object.entries(commands).map(async ([name, call]) => [name, await call()] as const)));
}

/** A socket that opens at once and keeps what is sent. */
class OpenSocket implements WebSocketLike {
  readyState = 1;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { readonly data: unknown }) => void) | null = null;
  readonly sent: { method: string }[] = [];
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { method: string });
  }
  close(): void {
    this.readyState = 3;
  }
}

describe('each command is defined once, in the table', () => {
  const bridges: Array<{ close(): void }> = [];
  afterAll(() => {
    for (const bridge of bridges) bridge.close();
  });

  it('the table holds exactly the commands the console has (none deleted, none added unseen)', () => {
    expect(COMMAND_NAMES).toEqual(EXPECTED_COMMANDS);
    expect(everyHandlerIsACommand).toBe(true);
    expect(typeof handlersTakeTheirArguments).toBe('function');
  });

  it('the table names each command once, and COMMAND_NAMES is its list', () => {
    expect([...COMMAND_NAMES].sort()).toEqual(tableNames());
    expect(new Set(COMMAND_NAMES).size).toBe(COMMAND_NAMES.length);
  });

  it("the dealer window's preload exposes exactly the table's commands, each on its own channel", async () => {
    const commands = await preloadCommands();
    expect([...commands.keys()].sort()).toEqual(tableNames());
    for (const [name, channel] of commands) expect(channel, name).toBe(commandChannel(name as CommandName));
  });

  it("the browser bridge client has exactly the table's commands, each sending its own name", () => {
    const socket = new OpenSocket();
    const bridge = createBridgeApi({ url: 'ws://127.0.0.1:1/bridge', createSocket: () => socket, requestTimeoutMs: 60_000 });
    bridges.push(bridge);
    socket.onopen?.({});
    const { onState, onConnection, onStateRefusal, close, ...commands } = bridge as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const own of [onState, onConnection, onStateRefusal, close]) expect(typeof own).toBe('function');
    expect(Object.keys(commands).sort()).toEqual(tableNames());
    for (const [name, call] of Object.entries(commands)) {
      void call().catch(() => undefined);
      expect(socket.sent.at(-1)?.method, name).toBe(name);
    }
  });

  it("the validator accepts exactly the table's names, and nothing an object inherits", () => {
    const candidates = new Set([...COMMAND_NAMES, ...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'deleteEverything', 'getstate', '']);
    const accepted = [...candidates].filter((name) => {
      const checked = checkCall(name, []);
      return checked.ok || checked.error.field !== 'method';
    });
    expect(accepted.sort()).toEqual(tableNames());
  });

  it("main registers one IPC handler per command of the table, and only those", () => {
    const channels: string[] = [];
    const service = {} as CommandTarget;
    registerIpc({ handle: (channel) => channels.push(channel), removeHandler: () => undefined }, service, 'file:///app/index.html', () => true);
    expect(channels.sort()).toEqual(COMMAND_NAMES.map(commandChannel).sort());
  });
});

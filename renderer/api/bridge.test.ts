import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STATE_MESSAGE_MAX_CHARS, type CommandError, type ConsoleState } from '../../protocol/contract';
import type { BridgeRequest } from '../../protocol/commands';
import { makeState } from '../testing/fixtures';
import { bridgeUrl, ConnectionLostError, createBridgeApi, type BridgeRole, type ConnectionStatus, type WebSocketLike } from './bridge';

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket implements WebSocketLike {
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { readonly data: unknown }) => void) | null = null;
  readonly sent: BridgeRequest[] = [];
  closed = false;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(JSON.parse(data) as BridgeRequest);
  }

  close(): void {
    this.closed = true;
    this.readyState = 3;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }

  message(value: unknown): void {
    this.onmessage?.({ data: JSON.stringify(value) });
  }

  reply(index: number, result: unknown): void {
    const request = this.sent[index];
    if (request === undefined) throw new Error(`no request ${index}`);
    this.message({ type: 'result', id: request.id, result });
  }
}

function setup(retryDelaysMs = [100, 200, 400], role?: BridgeRole) {
  const sockets: FakeSocket[] = [];
  const statuses: ConnectionStatus[] = [];
  const refused: CommandError[] = [];
  const api = createBridgeApi({
    url: 'ws://127.0.0.1:5173/bridge',
    ...(role === undefined ? {} : { role }),
    retryDelaysMs,
    requestTimeoutMs: 5000,
    onRefused: (error) => refused.push(error),
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
  });
  api.onConnection((status) => statuses.push(status));
  const latest = (): FakeSocket => {
    const socket = sockets.at(-1);
    if (socket === undefined) throw new Error('no socket');
    return socket;
  };
  return { api, sockets, statuses, latest, refused };
}

describe('bridgeUrl', () => {
  it('uses ws on http and wss on https, on the page host', () => {
    expect(bridgeUrl({ protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/bridge');
    expect(bridgeUrl({ protocol: 'https:', host: 'console.example' })).toBe('wss://console.example/bridge');
  });
});

describe('createBridgeApi', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects to the URL and reports connecting, then open', () => {
    const { sockets, statuses, latest } = setup();
    expect(sockets).toHaveLength(1);
    expect(latest().url).toBe('ws://127.0.0.1:5173/bridge');
    expect(statuses).toEqual(['connecting']);
    latest().open();
    expect(statuses).toEqual(['connecting', 'open']);
  });

  it('sends {id, method, args} and resolves with the matching result', async () => {
    const { api, latest } = setup();
    latest().open();
    const dealt = api.dealCard('race-1', 'as');
    const voided = api.voidCards('race-1', 1, 'manual correction');
    expect(latest().sent).toEqual([
      { id: 1, method: 'dealCard', args: ['race-1', 'as'] },
      { id: 2, method: 'voidCards', args: ['race-1', 1, 'manual correction'] },
    ]);
    // Answers may come in any order: they are matched by id.
    latest().reply(1, { ok: false, error: { field: 'count', message: 'only 0 dealt' } });
    latest().reply(0, { ok: true, value: null });
    await expect(dealt).resolves.toEqual({ ok: true, value: null });
    await expect(voided).resolves.toEqual({ ok: false, error: { field: 'count', message: 'only 0 dealt' } });
  });

  it('passes every command name through', async () => {
    const { api, latest } = setup();
    latest().open();
    const calls = [
      api.getState(),
      api.saveSettings(makeState().settings),
      api.previewRace([]),
      api.startRace([]),
      api.dealCard('race-1', 'Ah'),
      api.voidCards('race-1', 2, 'x'),
      api.confirmRace('race-1'),
      api.abandonRace('race-1', 'why'),
      api.takeHeldCard('race-1', 1),
      api.discardHeldCard('race-1', 1),
      api.listPorts(),
      api.exportHistory('csv'),
      api.historyPage(null, 20),
      api.raceRecord('race-1'),
      api.startGame('chicago', ['A', 'B']),
      api.gameAction('game-1', { type: 'next-deal' }),
      api.closeGame('game-1', 'done'),
    ];
    expect(latest().sent.map((request) => request.method)).toEqual([
      'getState', 'saveSettings', 'previewRace', 'startRace', 'dealCard', 'voidCards', 'confirmRace', 'abandonRace', 'takeHeldCard', 'discardHeldCard',
      'listPorts', 'exportHistory', 'historyPage', 'raceRecord', 'startGame', 'gameAction', 'closeGame',
    ]);
    expect(latest().sent[5]?.args).toEqual(['race-1', 2, 'x']);
    latest().sent.forEach((_request, index) => latest().reply(index, { ok: true, value: null }));
    await Promise.all(calls);
  });

  it('hands pushed states to every listener until it is removed', () => {
    const { api, latest } = setup();
    latest().open();
    const first: ConsoleState[] = [];
    const second: ConsoleState[] = [];
    const stop = api.onState((state) => first.push(state));
    api.onState((state) => second.push(state));
    const state = makeState();
    latest().message({ type: 'state', state });
    stop();
    latest().message({ type: 'state', state });
    expect(first).toEqual([state]);
    expect(second).toEqual([state, state]);
  });

  it('merges pushed patches into the whole state it was sent first, keeping the parts not named', () => {
    const { api, latest, refused } = setup();
    latest().open();
    const seen: ConsoleState[] = [];
    api.onState((state) => seen.push(state));
    const state = makeState();
    // A patch before any whole state has nothing to apply to.
    latest().message({ type: 'patch', patch: { lastInput: null } });
    latest().message({ type: 'state', state });
    const lastInput = { type: 'unknown', raw: '??', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } } as const;
    latest().message({ type: 'patch', patch: { lastInput } });
    expect(seen).toEqual([state, { ...state, lastInput }]);
    expect(seen[1]?.history).toBe(seen[0]?.history);
    expect(seen[1]?.settings).toBe(seen[0]?.settings);
    // A patch naming a part no state has is not from the service.
    latest().message({ type: 'patch', patch: { admin: true } });
    expect(seen).toHaveLength(2);
    expect(refused.map((error) => [error.field, error.said?.key])).toEqual([['patch.admin', 'stateMessage.unknownPart']]);
  });

  it('ignores malformed messages and answers to unknown ids', async () => {
    const { api, latest, refused } = setup();
    latest().open();
    const seen: ConsoleState[] = [];
    api.onState((state) => seen.push(state));
    const call = api.confirmRace('race-1');
    latest().onmessage?.({ data: 'not json' });
    latest().message({ type: 'state' });
    latest().message({ type: 'result', id: 999, result: { ok: true, value: null } });
    latest().message({ hello: 'world' });
    latest().reply(0, { ok: true, value: null });
    await expect(call).resolves.toEqual({ ok: true, value: null });
    expect(seen).toEqual([]);
    // Text that is no JSON is dropped unsaid; a message of no known shape is refused in keys.
    expect(refused.map((error) => [error.field, error.said?.key])).toEqual([
      ['state', 'stateMessage.object'],
      ['type', 'stateMessage.type'],
    ]);
  });

  it('refuses a state message of the wrong shape, of an unknown kind or too long, and keeps the last good state', async () => {
    const { api, latest, refused } = setup(undefined, 'display');
    latest().open();
    const seen: ConsoleState[] = [];
    api.onState((state) => seen.push(state));
    const state = makeState();
    latest().message({ type: 'state', state });
    latest().message({ type: 'patch', patch: { race: 'race-1' } });
    latest().message({ type: 'state', state: { ...state, inputs: 'none' } });
    latest().message({ type: 'replace', state });
    latest().onmessage?.({ data: JSON.stringify({ type: 'patch', patch: {} }).padEnd(STATE_MESSAGE_MAX_CHARS + 1, ' ') });
    expect(seen).toEqual([state]);
    await expect(api.getState()).resolves.toEqual(state);
    expect(refused.map((error) => [error.field, error.said?.key])).toEqual([
      ['patch.race', 'stateMessage.objectOrNull'],
      ['state.inputs', 'stateMessage.listMax'],
      ['type', 'stateMessage.type'],
      ['message', 'stateMessage.tooLarge'],
    ]);
    expect(refused[2]?.message).toBe('must be state or patch (got "replace")');
  });

  it('refuses calls while not connected, without queueing them', async () => {
    const { api, latest } = setup();
    await expect(api.dealCard('race-1', 'as')).rejects.toBeInstanceOf(ConnectionLostError);
    latest().open();
    expect(latest().sent).toEqual([]);
  });

  it('fails calls in flight when the socket drops, reports lost, and reconnects with growing delays', async () => {
    const { api, sockets, statuses, latest } = setup([100, 200, 400]);
    latest().open();
    const pending = api.dealCard('race-1', 'as');
    latest().drop();
    await expect(pending).rejects.toBeInstanceOf(ConnectionLostError);
    expect(statuses).toEqual(['connecting', 'open', 'lost']);

    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    latest().drop(); // the reconnect attempt fails too
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    latest().open();
    expect(statuses.at(-1)).toBe('open');
    const again = api.dealCard('race-1', 'kh');
    latest().reply(0, { ok: true, value: null });
    await expect(again).resolves.toEqual({ ok: true, value: null });

    // After a successful open the delays start over.
    latest().drop();
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(4);
  });

  it('keeps the last delay for every further attempt', () => {
    const { sockets, latest } = setup([100, 200]);
    latest().drop();
    vi.advanceTimersByTime(100);
    latest().drop();
    vi.advanceTimersByTime(200);
    latest().drop();
    vi.advanceTimersByTime(200);
    expect(sockets).toHaveLength(4);
  });

  it('treats an error on an unopened socket as a drop', () => {
    const { sockets, latest } = setup([50]);
    latest().readyState = 3;
    latest().onerror?.({});
    vi.advanceTimersByTime(50);
    expect(sockets).toHaveLength(2);
  });

  it('fails a call that is never answered and starts a fresh socket', async () => {
    const { api, sockets, statuses, latest } = setup([10]);
    latest().open();
    const call = api.listPorts();
    vi.advanceTimersByTime(5000);
    await expect(call).rejects.toBeInstanceOf(ConnectionLostError);
    expect(sockets[0]?.closed).toBe(true);
    expect(statuses.at(-1)).toBe('lost');
    vi.advanceTimersByTime(10);
    expect(sockets).toHaveLength(2);
  });

  it('stops reconnecting once closed', () => {
    const { api, sockets, latest } = setup([10]);
    latest().open();
    api.close();
    expect(sockets[0]?.closed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(1);
  });
});

describe('the player display’s client (role display)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects to /bridge?role=display; the console’s client names no role', () => {
    expect(setup(undefined, 'display').latest().url).toBe('ws://127.0.0.1:5173/bridge?role=display');
    expect(setup(undefined, 'console').latest().url).toBe('ws://127.0.0.1:5173/bridge');
    const sockets: FakeSocket[] = [];
    createBridgeApi({ url: 'ws://127.0.0.1:5173/bridge?key=k', role: 'display', createSocket: (url) => sockets[sockets.push(new FakeSocket(url)) - 1] as FakeSocket });
    expect(sockets[0]?.url).toBe('ws://127.0.0.1:5173/bridge?key=k&role=display');
  });

  it('answers getState from the pushed states without sending it, resolving once the first state arrives', async () => {
    const { api, latest } = setup(undefined, 'display');
    latest().open();
    let answered: ConsoleState | undefined;
    const first = api.getState().then((state) => (answered = state));
    await Promise.resolve();
    expect(answered).toBeUndefined();
    const state = makeState();
    latest().message({ type: 'state', state });
    await expect(first).resolves.toEqual(state);
    // Later calls answer at once with the state as merged from the patches since.
    const lastInput = { type: 'unknown', raw: '??', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } } as const;
    latest().message({ type: 'patch', patch: { lastInput } });
    await expect(api.getState()).resolves.toEqual({ ...state, lastInput });
    expect(latest().sent).toEqual([]);
  });

  it('still sends every other command (the server refuses them) and hands back its answer', async () => {
    const { api, latest } = setup(undefined, 'display');
    latest().open();
    const saved = api.saveSettings(makeState().settings);
    expect(latest().sent.map((request) => request.method)).toEqual(['saveSettings']);
    const refusal = { ok: false, error: { field: 'role', message: 'refused: the player display is read-only' } };
    latest().reply(0, refusal);
    await expect(saved).resolves.toEqual(refusal);
  });

  it('after a reconnect answers with the state the new connection is pushed, never the one from before the drop', async () => {
    const { api, latest } = setup([10], 'display');
    latest().open();
    const before = makeState();
    latest().message({ type: 'state', state: before });
    latest().drop();
    await expect(api.getState()).rejects.toBeInstanceOf(ConnectionLostError);
    vi.advanceTimersByTime(10);
    latest().open();
    const answer = api.getState();
    const after = { ...makeState(), lastInput: { type: 'unknown', raw: 'x', reason: 'not a card code', said: { key: 'hardware.decoder.notACardCode' } } } as const;
    latest().message({ type: 'state', state: after });
    const answered = await answer;
    expect(answered).toEqual(after);
    expect(answered).not.toEqual(before);
  });

  it('fails a waiting getState when the socket drops, and when no state comes in time (then starts a fresh socket)', async () => {
    const { api, sockets, latest } = setup([10], 'display');
    latest().open();
    const dropped = api.getState();
    latest().drop();
    await expect(dropped).rejects.toBeInstanceOf(ConnectionLostError);
    vi.advanceTimersByTime(10);
    latest().open();
    const stale = api.getState();
    vi.advanceTimersByTime(5000);
    await expect(stale).rejects.toThrow('no state from the console service');
    expect(sockets[1]?.closed).toBe(true);
    vi.advanceTimersByTime(10);
    expect(sockets).toHaveLength(3);
  });

  it('the console’s client sends getState as every other call', () => {
    const { api, latest } = setup();
    latest().open();
    void api.getState();
    expect(latest().sent).toEqual([{ id: 1, method: 'getState', args: [] }]);
  });
});

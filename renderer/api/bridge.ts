import { commandCalls, type BridgeMessage, type BridgeRequest, type CommandName, type ConsoleApi } from '../../protocol/commands';
import { readStateMessage, type CommandError, type ConsoleState } from '../../protocol/contract';
import { createStateMerge } from '../../protocol/stateMerge';
import { createStateRefusals, type StateRefusalSource } from './stateRefusals';

/**
 * The console API over a WebSocket, for browser mode (`npm run web`): the same calls as the
 * Electron preload, as JSON requests `{id, method, args}` answered by `{type:'result', id, result}`,
 * with the state pushed whole on connecting and then as patches of what changed (merged here, so
 * `onState` listeners always get whole states). When the socket drops, calls in flight fail
 * with ConnectionLostError and the client reconnects with a growing delay.
 *
 * The player display connects as `role: 'display'` (`/bridge?role=display`): the server pushes it
 * the state and refuses every command it sends, so this client answers `getState` itself, from
 * the states it is pushed.
 *
 * Every state message is read by its schema (protocol/contract.ts, `readStateMessage`) before it
 * is merged: one refused (of the wrong shape, of an unknown kind, too long) is dropped and said
 * (`onRefused`, the log by default; `onStateRefusal` for the screens), and the page keeps its
 * last good state.
 */

/** `connecting` before the first open, `open` while connected, `lost` after a drop until reconnected. */
export type ConnectionStatus = 'connecting' | 'open' | 'lost';

export interface ConnectionSource {
  /** Calls `listener` with the current status now and with every change; returns the function that stops it. */
  onConnection(listener: (status: ConnectionStatus) => void): () => void;
}

export type BridgeApi = ConsoleApi & ConnectionSource & StateRefusalSource & { close(): void };

/** The part of the browser's WebSocket the client uses (so tests can hand in a fake). */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** What the page is: the dealer's console, or the players' display, which only shows the state. */
export type BridgeRole = 'console' | 'display';

export interface BridgeOptions {
  readonly url: string;
  /** `console` by default. */
  readonly role?: BridgeRole;
  readonly createSocket?: (url: string) => WebSocketLike;
  /** Delays before each reconnect attempt; the last one repeats. */
  readonly retryDelaysMs?: readonly number[];
  /** A call with no answer after this long fails (the socket is then treated as dropped). */
  readonly requestTimeoutMs?: number;
  /** Told of each state message refused (it is dropped, the last good state kept); the log by default. */
  readonly onRefused?: (error: CommandError) => void;
}

/** A call could not be answered because the connection to the console service was lost. */
export class ConnectionLostError extends Error {
  constructor(message = 'connection to the console service lost') {
    super(message);
    this.name = 'ConnectionLostError';
  }
}

const OPEN = 1;
const DEFAULT_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000];
const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** `url` with `?role=display` for the display (the console's own socket needs no parameter). */
function roleUrl(url: string, role: BridgeRole): string {
  if (role === 'console') return url;
  return `${url}${url.includes('?') ? '&' : '?'}role=${role}`;
}

/** A call's answer (anything else the server sends is a state message). */
function isResult(value: unknown): value is Extract<BridgeMessage, { type: 'result' }> {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'result' && typeof (value as { id?: unknown }).id === 'number';
}

/** The bridge address for a page served at `location`: `ws://host/bridge`, or `wss://` over https. */
export function bridgeUrl(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge`;
}

export function createBridgeApi(options: BridgeOptions): BridgeApi {
  const role = options.role ?? 'console';
  const url = roleUrl(options.url, role);
  const createSocket = options.createSocket ?? ((address: string) => new WebSocket(address) as unknown as WebSocketLike);
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const refusals = createStateRefusals(options.onRefused);

  const stateListeners = new Set<(state: ConsoleState) => void>();
  const mergeState = createStateMerge();
  const connectionListeners = new Set<(status: ConnectionStatus) => void>();
  const pending = new Map<number, Pending>();
  /** The display's getState calls waiting for the state the current socket is pushed first. */
  const stateWaiters = new Set<Pending>();
  /** The latest merged state, and whether the current socket has been pushed its whole state yet. */
  let latest: ConsoleState | null = null;
  let fresh = false;
  let status: ConnectionStatus = 'connecting';
  let socket: WebSocketLike | null = null;
  let nextId = 1;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  function setStatus(next: ConnectionStatus): void {
    if (next === status) return;
    status = next;
    for (const listener of [...connectionListeners]) listener(next);
  }

  function failPending(): void {
    for (const [id, call] of pending) {
      clearTimeout(call.timer);
      pending.delete(id);
      call.reject(new ConnectionLostError());
    }
    for (const waiter of stateWaiters) {
      clearTimeout(waiter.timer);
      stateWaiters.delete(waiter);
      waiter.reject(new ConnectionLostError());
    }
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer !== null) return;
    const delay = retryDelays[Math.min(attempt, retryDelays.length - 1)] ?? 1000;
    attempt += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      open();
    }, delay);
  }

  function dropped(which: WebSocketLike): void {
    if (which !== socket) return;
    socket = null;
    which.onopen = which.onclose = which.onerror = which.onmessage = null;
    failPending();
    if (closed) return;
    setStatus('lost');
    scheduleReconnect();
  }

  function receive(data: unknown): void {
    const text = typeof data === 'string' ? data : String(data);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (!isResult(parsed)) {
      const read = readStateMessage(parsed, text.length);
      if (!read.ok) {
        refusals.refused(read.error);
        return;
      }
      const message = read.value;
      refusals.taken(message);
      const state = mergeState(message);
      if (state === null) return;
      latest = state;
      // Each connection starts with a whole state: until it comes, what the display holds may be from before a drop.
      if (message.type === 'state') fresh = true;
      for (const listener of [...stateListeners]) listener(state);
      if (fresh) {
        for (const waiter of stateWaiters) {
          clearTimeout(waiter.timer);
          waiter.resolve(state);
        }
        stateWaiters.clear();
      }
      return;
    }
    const call = pending.get(parsed.id);
    if (call === undefined) return;
    pending.delete(parsed.id);
    clearTimeout(call.timer);
    call.resolve(parsed.result);
  }

  function open(): void {
    if (closed) return;
    let created: WebSocketLike;
    try {
      created = createSocket(url);
    } catch {
      setStatus(status === 'connecting' ? 'connecting' : 'lost');
      scheduleReconnect();
      return;
    }
    socket = created;
    fresh = false;
    created.onopen = () => {
      if (created !== socket) return;
      attempt = 0;
      setStatus('open');
    };
    created.onmessage = (event) => {
      if (created === socket) receive(event.data);
    };
    created.onerror = () => {
      // A close event follows; some environments omit it, so make sure the socket is dropped.
      if (created === socket && created.readyState !== OPEN) dropped(created);
    };
    created.onclose = () => dropped(created);
  }

  function call(method: CommandName, args: readonly unknown[]): Promise<unknown> {
    const current = socket;
    if (current === null || status !== 'open' || current.readyState !== OPEN) {
      return Promise.reject(new ConnectionLostError());
    }
    const id = nextId;
    nextId += 1;
    const request: BridgeRequest = { id, method, args };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new ConnectionLostError(`no answer to ${method} from the console service`));
        // An unanswered call means the link is stale: start over with a fresh socket.
        if (socket === current) {
          current.close();
          dropped(current);
        }
      }, requestTimeout);
      pending.set(id, { resolve, reject, timer });
      try {
        current.send(JSON.stringify(request));
      } catch {
        clearTimeout(timer);
        pending.delete(id);
        reject(new ConnectionLostError());
      }
    });
  }

  /** The display's getState: the state it was last pushed, once the current socket has been pushed one (the server would refuse the call). */
  function localState(): Promise<unknown> {
    const current = socket;
    if (current === null || status !== 'open' || current.readyState !== OPEN) return Promise.reject(new ConnectionLostError());
    if (fresh && latest !== null) return Promise.resolve(latest);
    return new Promise((resolve, reject) => {
      const waiter: Pending = {
        resolve,
        reject,
        timer: setTimeout(() => {
          stateWaiters.delete(waiter);
          reject(new ConnectionLostError('no state from the console service'));
          // No state pushed after connecting: the link is stale, as for an unanswered call.
          if (socket === current) {
            current.close();
            dropped(current);
          }
        }, requestTimeout),
      };
      stateWaiters.add(waiter);
    });
  }

  // One function per command of the table (protocol/commands.ts).
  const commands = commandCalls((name, args) => (role === 'display' && name === 'getState' ? localState() : call(name, args)));

  const api = {
    ...commands,
    ...refusals.source,
    onState(listener: (state: ConsoleState) => void) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
    onConnection(listener: (status: ConnectionStatus) => void) {
      connectionListeners.add(listener);
      listener(status);
      return () => {
        connectionListeners.delete(listener);
      };
    },
    close() {
      closed = true;
      if (retryTimer !== null) clearTimeout(retryTimer);
      retryTimer = null;
      const current = socket;
      if (current !== null) {
        dropped(current);
        current.close();
      }
    },
  } as BridgeApi;

  open();
  return api;
}

/**
 * The station's real kernel for the screens' tests (renderer/): a ConsoleService started in this
 * process on a fresh temporary data folder, on a clock the test moves, and offered to the page
 * exactly as the dealer window's preload offers it (station/electron/preload.ts): one function per
 * command of the table (protocol/commands.ts `commandCalls`), every call checked by the command
 * boundary (station/ipc/validate.ts `dispatch`) before the service sees it, and the state sent as
 * messages (a whole state, then patches: station/ipc/stateFeed.ts) from the service's listeners.
 *
 * The one module of station/ the renderer's tests may import (scripts/eslint-layers.js): the page
 * gets the preload's API and nothing else of the station, so a screen test sees the service's own
 * answers, refusals included, without re-stating them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandCalls, type CommandName, type PreloadApi } from '../../protocol/commands';
import { commandLog, type CommandLog } from '../../protocol/testing/commandLog';
import type { ConsoleState, PortInfo, StateMessage } from '../../protocol/contract';
import { mergeState } from '../../protocol/stateMerge';
import { StateFeed } from '../ipc/stateFeed';
import { dispatch } from '../ipc/validate';
import type { ShoeEvent } from '../../hardware/events';
import type { CardSourceRequest } from '../service/cardSource';
import type { ClockTimers } from '../service/clock';
import type { ChooseExportFile } from '../service/historyCommands';
import type { ReaderDetector } from '../service/readerDetection';
import { ConsoleService } from '../service/service';

/** The moment the station's clock starts at unless told (the screens' fixtures' evening). */
export const IN_PROCESS_T0 = Date.parse('2024-05-04T18:30:00.000Z');

export interface InProcessOptions {
  /** Where the clock starts (ms since the epoch). */
  readonly at?: number;
  /**
   * The station's clock is the process's own (Date.now, which a test's fake timers may set, as they
   * set the page's): for screens that count time by the page's clock against the service's events.
   * `advance` then moves nothing.
   */
  readonly systemClock?: boolean;
  /** What listPorts answers. */
  readonly ports?: readonly PortInfo[];
  /** "Find the settings for this reader": none given, a detection never ends by itself. */
  readonly detectReader?: ReaderDetector;
  /** Where an export is saved (the Electron save dialog's answer); none: the page downloads it (browser mode). */
  readonly chooseExportFile?: ChooseExportFile;
}

/**
 * `calls`: the page's. `cann`: the page's `method` answers `result`, the service not asked: for what
 * the service answers only in trouble a test cannot cause in-process (a journal write failing, say).
 * Behaviour the service has is to be caused, not canned.
 */
export interface InProcessStation extends CommandLog {
  /** What the preload exposes to the page. */
  readonly api: PreloadApi;
  /** A command run as the page would run it (through the command boundary), not counted among the page's calls: a test's own arranging. */
  run(method: CommandName, ...args: unknown[]): Promise<unknown>;
  /** The service's state now. */
  state(): ConsoleState;
  /** The station's clock, moved on (both its wall clock and its monotonic one); the tournament clock's timer fires if it is due. */
  advance(ms: number): void;
  /** Resolves once nothing the page sent (nor a read from the shoe) is running any more (the page's answers then wait only on the page): whether one was. */
  idle(): Promise<boolean>;
  /**
   * The serial card source as the service opened it (the port, the profile in force, a
   * registration's decoder), or null while none is open: the test is the reader on that port, and
   * `emit` hands the service what the reader decoded (a card, an unreadable code, a device message,
   * the port's status), exactly as hardware's pipeline does.
   */
  shoe(): { readonly request: CardSourceRequest; emit(event: ShoeEvent): void } | null;
  /** Page listeners attached to the state messages. */
  listenerCount(): number;
  /** Stops the service and removes its data folder. */
  close(): Promise<void>;
}

/** "Find the settings for this reader" on a port nobody sends to: it listens until stopped, and has found nothing. */
const listenUntilStopped: ReaderDetector = ({ signal }) =>
  new Promise((resolve) => {
    const done = () => resolve({ ok: true, found: [], tried: 0, total: 0 });
    if (signal?.aborted === true) done();
    else signal?.addEventListener('abort', done, { once: true });
  });

/** A value as it crosses IPC (structured clone): what cannot cross fails here as it would there. */
const crossed = <T>(value: T): T => structuredClone(value);

export async function startInProcessStation(options: InProcessOptions = {}): Promise<InProcessStation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'chip-race-screen-'));
  let now = options.at ?? IN_PROCESS_T0;
  let monotonic = 0;
  // The tournament clock's one timer, fired when the test's clock passes it.
  let timer: { fire: () => void; at: number } | null = null;
  const timers: ClockTimers = {
    set: (fire, ms) => {
      const handle = { fire, at: now + ms };
      timer = handle;
      return handle;
    },
    clear: (handle) => {
      if (timer === handle) timer = null;
    },
  };
  // The serial port's reader is the test: the service's request and its emit kept while open.
  let shoe: { readonly request: CardSourceRequest; emit(event: ShoeEvent): void } | null = null;
  let service: ConsoleService;
  try {
    service = await ConsoleService.start({
      dataDir,
      ...(options.systemClock === true ? {} : { clock: () => new Date(now), monotonic: () => monotonic }),
      timers,
      station: 'screen-test',
      listPorts: () => Promise.resolve(options.ports ?? []),
      cardSources: (request, emit) => {
        const opened = { request, emit };
        shoe = opened;
        return {
          stop: () => {
            if (shoe === opened) shoe = null;
            return Promise.resolve();
          },
        };
      },
      detectReader: options.detectReader ?? listenUntilStopped,
      ...(options.chooseExportFile === undefined ? {} : { chooseExportFile: options.chooseExportFile }),
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  // The state messages as the preload keeps them (station/electron/preload/stateMessages.ts): merged
  // as they come, so a page that subscribes later starts from the whole state.
  let merged: ConsoleState | null = null;
  const pageListeners = new Set<(message: StateMessage) => void>();
  const feed = new StateFeed((message) => {
    const sent = crossed(message);
    const next = mergeState(merged, sent);
    if (next === null) return;
    merged = next;
    for (const listener of [...pageListeners]) listener(sent);
  });
  feed.restart(service.getState());
  const stopState = service.onState((state) => feed.push(state));

  const log = commandLog();
  const running = new Set<Promise<unknown>>();
  /** Work the test set going (the page's commands, a read from the shoe), kept until it settles. */
  const track = <T>(work: Promise<T>): Promise<T> => {
    running.add(work);
    const done = () => running.delete(work);
    work.then(done, done);
    return work;
  };
  const run = async (method: CommandName, args: readonly unknown[]) => crossed(await dispatch(service, method, crossed([...args])));
  const api: PreloadApi = {
    ...commandCalls((name, args) => {
      log.calls.push({ method: name, args });
      if (log.canned.has(name)) return Promise.resolve(crossed(log.canned.get(name)));
      return track(run(name, args));
    }),
    onStateMessage(listener) {
      pageListeners.add(listener);
      if (merged !== null) listener({ type: 'state', state: merged });
      return () => {
        pageListeners.delete(listener);
      };
    },
  };

  let closed = false;
  return {
    api,
    calls: log.calls,
    callsOf: log.callsOf,
    cann: log.cann,
    clearCanned: log.clearCanned,
    run: (method, ...args) => run(method, args),
    state: () => service.getState(),
    advance(ms) {
      now += ms;
      monotonic += ms;
      const due = timer;
      if (due !== null && due.at <= now) {
        timer = null;
        due.fire();
      }
    },
    async idle() {
      const busy = running.size > 0;
      while (running.size > 0) await Promise.allSettled([...running]);
      return busy;
    },
    shoe: () => {
      const open = shoe;
      if (open === null) return null;
      return {
        request: open.request,
        emit(event) {
          open.emit(event);
          // What the read set going runs in the service's one queue: a command queued behind it
          // (listPorts answers from the queue) settles once it has, so idle() waits for it too.
          track(service.listPorts());
        },
      };
    },
    listenerCount: () => pageListeners.size,
    async close() {
      if (closed) return;
      closed = true;
      stopState();
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A state-only stand-in for the console service, for the screen tests whose state the real kernel
 * (kernelApi.ts: the station's service in-process) cannot reach in-process: a floor link's states,
 * a damaged journal's findings and records, an RFID reader's progress, a service that never
 * answers. It pushes the state the test gives and answers each command with the answer the test
 * states for it (`answers`, `cann`); a command the test gave no answer answers that it has none. It
 * computes nothing the service would compute: no rules, no checks, no state of its own making.
 * A test of the service's behaviour belongs on the real kernel.
 */
import type { ConsoleState } from '../../protocol/contract';
import type { CommandName, ConsoleApi } from '../../protocol/commands';
import { commandCalls } from '../../protocol/commands';
import { commandLog, type CommandLog } from '../../protocol/testing/commandLog';
import { makeState } from './fixtures';

export interface StubApiOptions {
  /** The state the stub holds (default: makeState()). getState answers it, onState sends it. */
  readonly state?: ConsoleState;
  /** What each command answers, as the test states it (getState answers the state held). */
  readonly answers?: Partial<Readonly<Record<CommandName, unknown>>>;
}

/** `cann`: the state untouched. */
export interface StubApi extends ConsoleApi, CommandLog {
  /** The state the stub holds now. */
  current: ConsoleState;
  /** Replaces the state and pushes it to the listeners, as the service does after a change. */
  push(state: ConsoleState): void;
  /** Listeners currently attached through onState. */
  listenerCount(): number;
}

/** What a command the test gave no answer answers: it is not the stub's to decide. */
const unanswered = (method: CommandName) => ({ ok: false, error: { field: 'stub', message: `${method} has no answer in this test's stub: state it, or test on the real kernel (renderer/testing/kernelApi.ts)` } });

export function createStubApi(options: StubApiOptions = {}): StubApi {
  let current = options.state ?? makeState();
  const listeners = new Set<(state: ConsoleState) => void>();
  const log = commandLog(options.answers);
  const answer = (method: CommandName): unknown => {
    if (log.canned.has(method)) return log.canned.get(method);
    return method === 'getState' ? current : unanswered(method);
  };
  const commands = commandCalls((method, args) => {
    log.calls.push({ method, args });
    return Promise.resolve(answer(method));
  });
  return {
    ...commands,
    calls: log.calls,
    callsOf: log.callsOf,
    cann: log.cann,
    clearCanned: log.clearCanned,
    get current() {
      return current;
    },
    set current(state: ConsoleState) {
      current = state;
    },
    push: (state) => {
      current = state;
      for (const listener of [...listeners]) listener(state);
    },
    listenerCount: () => listeners.size,
    onState(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  } as StubApi;
}

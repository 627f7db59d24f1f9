/**
 * An in-memory ConsoleApi for the screen tests that give the screen a state the real kernel
 * (kernelApi.ts: the station's service in-process) cannot reach in-process: the floor link's, a
 * damaged journal's, an RFID reader's progress, records crafted to show. It keeps that state,
 * records every call, can be told to answer any call with a canned result, and still re-states the
 * few commands those tests send (fakeRaceCommands.ts, fakeGameCommands.ts, fakeSettingsCommands.ts,
 * fakeDeviceCommands.ts, over fakeStation.ts); every other command answers that it is not faked.
 * A test of the service's behaviour belongs on the real kernel.
 */
import type { ConsoleState } from '../../protocol/contract';
import type { CommandName, ConsoleApi } from '../../protocol/commands';
import { deviceCommands } from './fakeDeviceCommands';
import { gameCommands } from './fakeGameCommands';
import { raceCommands } from './fakeRaceCommands';
import { settingsCommands } from './fakeSettingsCommands';
import { createFakeStation, push, type FakeApiOptions, type FakeHandlers } from './fakeStation';

export type { FakeApiOptions } from './fakeStation';

export interface FakeCall {
  readonly method: CommandName;
  readonly args: readonly unknown[];
}

export interface FakeApi extends ConsoleApi {
  readonly calls: FakeCall[];
  /** The state the fake holds now. */
  current: ConsoleState;
  /** Calls of one method, by their argument lists. */
  callsOf(method: CommandName): (readonly unknown[])[];
  /** From now on `method` answers `result` (until `clearCanned`), without touching the state. */
  cann(method: CommandName, result: unknown): void;
  clearCanned(method?: CommandName): void;
  /** Replaces the state and pushes it to the listeners, as the service does after a change. */
  push(state: ConsoleState): void;
  /** Listeners currently attached through onState. */
  listenerCount(): number;
}

/** Commands the fake no longer re-states: a test that needs them runs on the real kernel (kernelApi.ts). */
function notFaked<Name extends CommandName>(names: readonly Name[]): FakeHandlers<Name> {
  const refusal = (name: Name) => () => ({ ok: false, error: { field: 'fake', message: `${name} is not in the fake service: test it on the real kernel (renderer/testing/kernelApi.ts)` } });
  return Object.fromEntries(names.map((name) => [name, refusal(name)])) as FakeHandlers<Name>;
}

export function createFakeApi(options: FakeApiOptions = {}): FakeApi {
  const station = createFakeStation(options);
  const calls: FakeCall[] = [];
  const canned = new Map<CommandName, unknown>();
  // Every command of the table, each from its domain's file (a command missing fails to compile);
  // those whose tests run on the real kernel (kernelApi.ts) answer only that they are not faked.
  const handlers: FakeHandlers = {
    getState: () => station.current,
    ...notFaked(['clockStart', 'clockPause', 'clockResume', 'clockAdjust', 'markBreak', 'setClockSound', 'setResultMinutes', 'setCountStack', 'voidCards', 'abandonRace', 'discardHeldCard', 'exportHistory', 'gameAction', 'closeGame']),
    ...settingsCommands(station),
    ...raceCommands(station),
    ...gameCommands(station),
    ...deviceCommands(station),
  };

  const commands = Object.fromEntries(
    (Object.keys(handlers) as CommandName[]).map((method) => [
      method,
      (...args: unknown[]) => {
        calls.push({ method, args });
        if (canned.has(method)) return Promise.resolve(canned.get(method));
        return Promise.resolve((handlers[method] as (...list: unknown[]) => unknown)(...args));
      },
    ]),
  );

  const fake = {
    ...commands,
    calls,
    get current() {
      return station.current;
    },
    set current(state: ConsoleState) {
      station.current = state;
    },
    callsOf: (method: CommandName) => calls.filter((entry) => entry.method === method).map((entry) => entry.args),
    cann: (method: CommandName, result: unknown) => {
      canned.set(method, result);
    },
    clearCanned: (method?: CommandName) => {
      if (method === undefined) canned.clear();
      else canned.delete(method);
    },
    push: (state: ConsoleState) => push(station, state),
    listenerCount: () => station.listeners.size,
    onState(listener: (state: ConsoleState) => void) {
      station.listeners.add(listener);
      return () => {
        station.listeners.delete(listener);
      };
    },
  };
  return fake as unknown as FakeApi;
}

/**
 * An in-memory ConsoleApi for the screen's tests: it keeps a ConsoleState, runs races on the real
 * (pure) engine, records every call, and can be told to answer any call with a canned result.
 */
import type {
  CommandName,
  CommandResult,
  ConsoleApi,
  ConsoleSettings,
  ConsoleState,
  PortInfo,
  SeatCount,
} from '../../main/ipc/contract';
import { isInputError } from '../../engine/errors';
import { applyRaceEvent, startRace, type RaceState } from '../../engine/race/race';
import { raceSummary } from '../../engine/race/summary';
import { makeEngineRace, makeRaceView, makeState, type RaceInput } from './fixtures';

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

export interface FakeApiOptions {
  readonly state?: ConsoleState;
  readonly ports?: readonly PortInfo[];
  /** Start mid-race: the engine race for this input, shown as `state.race`. */
  readonly race?: RaceInput & { readonly corrections?: number };
}

function refused(error: unknown): CommandResult<never> {
  if (isInputError(error)) return { ok: false, error: { field: error.field, message: error.reason } };
  throw error;
}

export function createFakeApi(options: FakeApiOptions = {}): FakeApi {
  const calls: FakeCall[] = [];
  const canned = new Map<CommandName, unknown>();
  const listeners = new Set<(state: ConsoleState) => void>();
  let race: RaceState | null = options.race === undefined ? null : makeEngineRace(options.race);
  let raceNumber = race === null ? 0 : 1;
  let corrections = options.race?.corrections ?? options.race?.voids ?? 0;
  let current = options.state ?? makeState();
  if (options.race !== undefined) current = { ...current, race: makeRaceView(options.race) };

  function push(state: ConsoleState): void {
    current = state;
    for (const listener of [...listeners]) listener(state);
  }

  function engineInput(settings: ConsoleSettings, counts: readonly SeatCount[]) {
    const { table } = settings;
    return {
      rules: table.rules,
      removed: table.removed,
      next: table.next,
      button: table.button,
      decks: table.decks,
      seats: counts.map(({ seat, chips, hasOther }) => ({
        seat,
        name: table.seats.find((entry) => entry.seat === seat)?.name ?? '',
        chips,
        other: hasOther ? table.next : 0,
      })),
    };
  }

  function pushRace(next: RaceState, counts?: readonly SeatCount[]): void {
    race = next;
    const previous = current.race;
    push({
      ...current,
      race: {
        id: previous?.id ?? `race-${raceNumber}`,
        startedAt: previous?.startedAt ?? '2024-05-04T18:30:00.000Z',
        counts: counts ?? previous?.counts ?? [],
        names: Object.fromEntries(next.setup.seats.map(({ seat, name }) => [seat, name])),
        summary: raceSummary(next),
        corrections,
      },
    });
  }

  const handlers: { [Name in CommandName]: (...args: never[]) => unknown } = {
    getState: () => current,
    saveSettings: (settings: ConsoleSettings) => {
      push({ ...current, settings });
      return { ok: true, value: null };
    },
    previewRace: (counts: readonly SeatCount[]) => {
      try {
        return { ok: true, value: raceSummary(startRace(engineInput(current.settings, counts))) };
      } catch (error) {
        return refused(error);
      }
    },
    startRace: (counts: readonly SeatCount[]) => {
      if (race !== null) return { ok: false, error: { field: 'race', message: 'a race is already in progress' } };
      try {
        const started = startRace(engineInput(current.settings, counts));
        raceNumber += 1;
        corrections = 0;
        push({ ...current, race: null });
        pushRace(started, counts);
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    dealCard: (code: string) => {
      try {
        pushRace(applyRaceEvent(race, { type: 'card', card: code }));
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    voidCards: (count: number, reason: string) => {
      try {
        const next = applyRaceEvent(race, { type: 'void', count, reason });
        corrections += count;
        pushRace(next);
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    confirmRace: () => {
      const view = current.race;
      if (race === null || view === null) return { ok: false, error: { field: 'race', message: 'no race to confirm' } };
      if (race.progress.status !== 'complete') return { ok: false, error: { field: 'race', message: 'the race is not complete' } };
      race = null;
      push({
        ...current,
        race: null,
        history: [
          { id: view.id, startedAt: view.startedAt, confirmedAt: '2024-05-04T18:34:00.000Z', names: view.names, summary: view.summary, corrections: view.corrections },
          ...current.history,
        ],
      });
      return { ok: true, value: null };
    },
    abandonRace: () => {
      if (race === null) return { ok: false, error: { field: 'race', message: 'no race to abandon' } };
      race = null;
      push({ ...current, race: null });
      return { ok: true, value: null };
    },
    listPorts: () => ({ ok: true, value: options.ports ?? [] }),
    exportHistory: (format: 'csv' | 'json') => ({
      ok: true,
      value: format === 'json' ? JSON.stringify(current.history) : `id,confirmedAt\n${current.history.map((entry) => `${entry.id},${entry.confirmedAt}`).join('\n')}`,
    }),
    // The points game is not simulated here: its screens are tested against the real service.
    startGame: () => ({ ok: false, error: { field: 'game', message: 'not simulated by the fake api' } }),
    gameAction: () => ({ ok: false, error: { field: 'game', message: 'not simulated by the fake api' } }),
    closeGame: () => ({ ok: false, error: { field: 'game', message: 'not simulated by the fake api' } }),
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
      return current;
    },
    set current(state: ConsoleState) {
      current = state;
    },
    callsOf: (method: CommandName) => calls.filter((entry) => entry.method === method).map((entry) => entry.args),
    cann: (method: CommandName, result: unknown) => {
      canned.set(method, result);
    },
    clearCanned: (method?: CommandName) => {
      if (method === undefined) canned.clear();
      else canned.delete(method);
    },
    push,
    listenerCount: () => listeners.size,
    onState(listener: (state: ConsoleState) => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  return fake as unknown as FakeApi;
}

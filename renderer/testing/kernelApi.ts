/**
 * The screens' tests on the station's real kernel: a ConsoleService started in-process (a fresh
 * data folder, a clock the test moves; station/testing/inProcessApi.ts, the one module of station/
 * the renderer's tests may import), offered through the preload's API and read by the page as in
 * the dealer's window (renderer/api `fromPreload`). Every command passes the command boundary and
 * the service's own checks, so a screen sees the service's real answers and refusals.
 *
 * A test arranges its start through the same commands (the settings saved, a race started and
 * dealt, a game played), not by writing a state: what the screen is shown is what the service made.
 */
import { afterEach } from 'vitest';
import type { CommandName, ConsoleApi } from '../../protocol/commands';
import type { ConsoleSettings, ConsoleState, SeatCount } from '../../protocol/contract';
import type { MatchEvent } from '../../engine/poker/match';
import { startInProcessStation, type InProcessOptions, type InProcessStation } from '../../station/testing/inProcessApi';
import { fromPreload } from '../api';
import { FINNISH_COUNTS, makeSettings, type RaceInput } from './fixtures';

export interface KernelApiOptions extends InProcessOptions {
  /** The settings saved before the page connects (default: the Finnish example's table, makeSettings()). */
  readonly settings?: ConsoleSettings;
  /** Profile files imported (importProfile) before the settings are saved, as the dealer imports them. */
  readonly importProfiles?: readonly unknown[];
  /** The station's own tournament clock started (clockStart) once the settings are saved: they must hold a timed structure. */
  readonly clockStarted?: boolean;
  /** The break marked (markBreak) once the settings are saved, before any race: the settings must hold a structure. */
  readonly markBreak?: number | null;
  /** Confirmed races before the page connects: each started on these counts and dealt these cards. */
  readonly history?: readonly { readonly counts?: readonly SeatCount[]; readonly cards: readonly string[] }[];
  /**
   * A race open when the page connects: started on `counts` (default the Finnish example's), `cards`
   * dealt, the last `voids` voided; the table's rules, chips, button, decks and seats given here are
   * saved with the settings first.
   */
  readonly race?: Pick<RaceInput, 'rules' | 'removed' | 'next' | 'button' | 'decks' | 'seats' | 'counts' | 'cards' | 'voids'>;
  /** Points games played and closed before the page connects (oldest first): each its start, then its events. */
  readonly games?: readonly (readonly MatchEvent[])[];
  /** A points game open when the page connects: its start, then its events (as the screen sends them). */
  readonly game?: readonly MatchEvent[];
}

export interface KernelApi extends ConsoleApi {
  readonly station: InProcessStation;
  /** The service's state now. */
  readonly current: ConsoleState;
  /** The page's calls, in order. */
  readonly calls: InProcessStation['calls'];
  /** The page's calls of one command, by their argument lists. */
  callsOf(method: CommandName): (readonly unknown[])[];
  /** See InProcessStation.cann: for trouble a test cannot cause in-process only. */
  cann(method: CommandName, result: unknown): void;
  clearCanned(method?: CommandName): void;
  /** Listeners the page's stores have attached to the state (onState). */
  listenerCount(): number;
}

const open = new Set<InProcessStation>();

// Each test's station stopped and its data folder removed once the test is done.
afterEach(async () => {
  const stations = [...open];
  open.clear();
  await Promise.all(stations.map((station) => station.close()));
});

/** Resolves once no station of this test runs a command the page sent: whether one did. */
export async function stationsIdle(): Promise<boolean> {
  return (await Promise.all([...open].map((station) => station.idle()))).includes(true);
}

/** A command a test arranges with, which must be taken. */
async function taken(station: InProcessStation, method: CommandName, ...args: unknown[]): Promise<void> {
  const result = (await station.run(method, ...args)) as { ok: boolean; error?: unknown };
  if (!result.ok) throw new Error(`arranging the test: ${method} was refused: ${JSON.stringify(result.error)}`);
}

/** A points game started and played: its id. */
async function playGame(station: InProcessStation, game: readonly MatchEvent[]): Promise<string> {
  const [start, ...events] = game;
  if (start?.type !== 'start') throw new Error('arranging the test: a game begins with its start');
  await taken(station, 'startGame', start.game, start.players, ...(start.options === undefined ? [] : [start.options]));
  const id = station.state().game?.id ?? '';
  // Cards as the dealer deals them (dealCard), the rest as the screen's actions.
  for (const event of events) await (event.type === 'card' ? taken(station, 'dealCard', id, event.card) : taken(station, 'gameAction', id, event));
  return id;
}

export async function createKernelApi(options: KernelApiOptions = {}): Promise<KernelApi> {
  const station = await startInProcessStation(options);
  open.add(station);
  const settings = options.settings ?? makeSettings();
  const { counts: _counts, cards: _cards, voids: _voids, ...table } = options.race ?? {};
  const { language, tournament, display, ...input } = { ...settings, table: { ...settings.table, ...table } };
  for (const profile of options.importProfiles ?? []) await taken(station, 'importProfile', profile);
  await taken(station, 'saveSettings', { ...input, language, ...(tournament === undefined ? {} : { tournament }), ...(display === undefined ? {} : { display }) });
  if (options.clockStarted === true) await taken(station, 'clockStart');
  if (options.markBreak !== undefined) await taken(station, 'markBreak', options.markBreak);
  for (const race of options.history ?? []) {
    await taken(station, 'startRace', race.counts ?? FINNISH_COUNTS);
    const id = station.state().race?.id ?? '';
    for (const card of race.cards) await taken(station, 'dealCard', id, card);
    await taken(station, 'confirmRace', id);
  }
  if (options.race !== undefined) {
    await taken(station, 'startRace', options.race.counts ?? FINNISH_COUNTS);
    const id = station.state().race?.id ?? '';
    for (const card of options.race.cards ?? []) await taken(station, 'dealCard', id, card);
    if ((options.race.voids ?? 0) > 0) await taken(station, 'voidCards', id, options.race.voids, 'manual correction');
  }
  for (const game of options.games ?? []) {
    const id = await playGame(station, game);
    await taken(station, 'closeGame', id, 'played');
    station.advance(60 * 60_000);
  }
  if (options.game !== undefined) await playGame(station, options.game);
  const api = fromPreload(station.api);
  // The page's own listeners (the preload's one subscription is fromPreload's, for the page's life).
  let listeners = 0;
  return {
    ...api,
    onState(listener) {
      listeners += 1;
      const stop = api.onState(listener);
      let stopped = false;
      return () => {
        if (!stopped) listeners -= 1;
        stopped = true;
        stop();
      };
    },
    station,
    get current() {
      return station.state();
    },
    calls: station.calls,
    callsOf: (method: CommandName) => station.callsOf(method),
    cann: (method: CommandName, result: unknown) => station.cann(method, result),
    clearCanned: (method?: CommandName) => station.clearCanned(method),
    listenerCount: () => listeners,
  };
}

/**
 * What the screens' fake service holds between calls (fakeApi.ts): the state it pushes, the race
 * and the points game on the real (pure) engine, the history and the colour-up marked; and the
 * steps its command handlers share (fakeRaceCommands.ts, fakeSettingsCommands.ts, fakeGameCommands.ts).
 */
import type { ColorUpProgress, ColorUpRace, CommandResult, ConsoleSettings, ConsoleState, HistoryEntry, PortInfo, RaceRecord, SeatCount } from '../../protocol/contract';
import type { CommandName } from '../../protocol/commands';
import { isInputError } from '../../engine/errors';
import { englishText } from '../../engine/messages';
import { racedOffSaid } from '../../protocol/colorUp';
import type { RaceState } from '../../engine/race/race';
import { raceViewSummary } from '../../protocol/views';
import type { MatchEvent, MatchState } from '../../engine/poker/match';
import { makeEngineRace, makeHistory, makeRaceView, makeState, type RaceInput } from './fixtures';
import { gameViewOf, playMatch } from './gameFixtures';

export interface FakeApiOptions {
  readonly state?: ConsoleState;
  readonly ports?: readonly PortInfo[];
  /** Start mid-race: the engine race for this input, shown as `state.race`. */
  readonly race?: RaceInput & { readonly corrections?: number };
  /** Start mid-game: the engine game after these events (the first one its start), shown as `state.game`. */
  readonly game?: readonly MatchEvent[];
  /** Confirmed races already in the history (oldest first): the state shows their totals and the latest. */
  readonly history?: readonly HistoryEntry[];
  /** What raceRecord answers (by race id). */
  readonly records?: Readonly<Record<string, RaceRecord>>;
}

/** One command's handler as the fake runs it (its arguments as the screen sent them). */
export type FakeHandlers<Names extends CommandName = CommandName> = { [Name in Names]: (...args: never[]) => unknown };

export interface FakeStation {
  readonly options: FakeApiOptions;
  current: ConsoleState;
  race: RaceState | null;
  raceNumber: number;
  corrections: number;
  game: MatchState | null;
  gameNumber: number;
  readonly history: HistoryEntry[];
  /** The colour-up of the break marked last, as the service journals it (a state given at a break counts as marked). */
  marked: { afterLevel: number | null; races: Map<string, ColorUpRace>; done: ColorUpProgress['done'] };
  readonly listeners: Set<(state: ConsoleState) => void>;
}

export function createFakeStation(options: FakeApiOptions): FakeStation {
  const race = options.race === undefined ? null : makeEngineRace(options.race);
  let current = options.state ?? makeState();
  if (options.race !== undefined) current = { ...current, race: makeRaceView(options.race) };
  const history = [...(options.history ?? [])];
  if (options.history !== undefined) current = { ...current, history: makeHistory(history) };
  const game = options.game === undefined ? null : playMatch(options.game);
  if (game !== null) current = { ...current, game: gameViewOf(game, 'game-1') };
  return {
    options,
    current,
    race,
    raceNumber: race === null ? 0 : 1,
    corrections: options.race?.corrections ?? options.race?.voids ?? 0,
    game,
    gameNumber: game === null ? 0 : 1,
    history,
    marked: { afterLevel: current.settings.tournament?.atBreakAfter ?? null, races: new Map(), done: current.colorUp?.done ?? [] },
    listeners: new Set(),
  };
}

export function refused(error: unknown): CommandResult<never> {
  // As the service passes it on: the English, and the refusal's key and parameters when it has them.
  if (isInputError(error)) return { ok: false, error: error.said === undefined ? { field: error.field, message: error.reason } : { field: error.field, message: error.reason, said: error.said } };
  throw error;
}

/**
 * The service's refusal of a second race of chips already raced off at the break marked (here: by
 * a race of its colour-up, the only races the fake keeps for it), or null.
 */
export function racedOff(station: FakeStation, removed: number): CommandResult<never> | null {
  const { afterLevel, done } = station.marked;
  const race = done.find((entry) => entry.removed === removed);
  if (afterLevel === null || race === undefined) return null;
  const said = racedOffSaid(removed, afterLevel, race.raceId, race.confirmedAt);
  return { ok: false, error: { field: 'removed', message: englishText(said), said } };
}

/** Replaces the state and pushes it to the listeners, as the service does after a change. */
export function push(station: FakeStation, state: ConsoleState): void {
  station.current = state;
  for (const listener of [...station.listeners]) listener(state);
}

/** The colour-up progress the state shows: the marked break's, while the settings are on it. */
export function colorUpOf(station: FakeStation, settings: ConsoleSettings, openRace: string | null): ColorUpProgress | null {
  const at = settings.tournament?.atBreakAfter ?? null;
  if (at === null || at !== station.marked.afterLevel) return null;
  return { afterLevel: at, done: station.marked.done, running: (openRace === null ? undefined : station.marked.races.get(openRace)) ?? null };
}

/** The engine's race input for these counts on the saved table. */
export function engineInput(settings: ConsoleSettings, counts: readonly SeatCount[]) {
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

/** Commands name what they act on, as the service checks: a race or game that is not open is refused. */
export function stale(station: FakeStation, target: string): CommandResult<never> | null {
  const open = station.current.race?.id ?? station.current.game?.id ?? null;
  if (open === null) return { ok: false, error: { field: 'race', message: 'no race is open: start one from the counts screen' } };
  return target === open ? null : { ok: false, error: { field: 'race', message: `${target} is not open (${open} is): this screen was out of date` } };
}

/** The race as the state shows it after `next` (its counts kept from the view before unless given). */
export function pushRace(station: FakeStation, next: RaceState, counts?: readonly SeatCount[]): void {
  station.race = next;
  const previous = station.current.race;
  const id = previous?.id ?? `race-${station.raceNumber}`;
  push(station, {
    ...station.current,
    race: {
      id,
      startedAt: previous?.startedAt ?? '2024-05-04T18:30:00.000Z',
      counts: counts ?? previous?.counts ?? [],
      names: Object.fromEntries(next.setup.seats.map(({ seat, name }) => [seat, name])),
      summary: raceViewSummary(next),
      corrections: station.corrections,
    },
    colorUp: colorUpOf(station, station.current.settings, id),
  });
}

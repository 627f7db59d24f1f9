/**
 * An in-memory ConsoleApi for the screen's tests: it keeps a ConsoleState, runs races and points
 * games on the real (pure) engine, records every call, and can be told to answer any call with a
 * canned result.
 */
import type {
  ColorUpProgress,
  ColorUpRace,
  CommandResult,
  ConsoleSettings,
  ConsoleState,
  GameAction,
  HistoryEntry,
  PortInfo,
  Language,
  RaceRecord,
  SeatCount,
  SeatCountDraft,
  SettingsInput,
} from '../../protocol/contract';
import type { CommandName, ConsoleApi } from '../../protocol/commands';
import { colorUpStepOf, tableWithChips } from '../../protocol/colorUp';
import type { StructureInput } from '../../engine/plan/csv';
import { parseCard } from '../../engine/cards';
import { isInputError } from '../../engine/errors';
import { planColorUps } from '../../engine/plan/planner';
import { adjustForMinutesLeft, foldClock, type ClockEvent } from '../../engine/clock/clock';
import { scheduleOf } from '../../protocol/clock';
import { applyRaceEvent, startRace, type RaceState } from '../../engine/race/race';
import { raceSummary } from '../../engine/race/summary';
import { raceViewSummary } from '../../protocol/views';
import { applyMatchEvent, type MatchEvent, type MatchState } from '../../engine/poker/match';
import { makeEngineRace, makeHistory, makePlanView, makeProfileInfo, makeRaceView, makeState, type RaceInput } from './fixtures';
import { gameHistoryOf, gameViewOf, playMatch } from './gameFixtures';

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
  /** Start mid-game: the engine game after these events (the first one its start), shown as `state.game`. */
  readonly game?: readonly MatchEvent[];
  /** Confirmed races already in the history (oldest first): the state shows their totals and the latest. */
  readonly history?: readonly HistoryEntry[];
  /** What raceRecord answers (by race id). */
  readonly records?: Readonly<Record<string, RaceRecord>>;
}

function refused(error: unknown): CommandResult<never> {
  // As the service passes it on: the English, and the refusal's key and parameters when it has them.
  if (isInputError(error)) return { ok: false, error: error.said === undefined ? { field: error.field, message: error.reason } : { field: error.field, message: error.reason, said: error.said } };
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
  const history: HistoryEntry[] = [...(options.history ?? [])];
  if (options.history !== undefined) current = { ...current, history: makeHistory(history) };
  let game: MatchState | null = options.game === undefined ? null : playMatch(options.game);
  let gameNumber = game === null ? 0 : 1;
  if (game !== null) current = { ...current, game: gameViewOf(game, `game-${gameNumber}`) };

  /** The colour-up of the break marked last, as the service journals it (a state given at a break counts as marked). */
  let marked: { afterLevel: number | null; races: Map<string, ColorUpRace>; done: ColorUpProgress['done'] } = { afterLevel: current.settings.tournament?.atBreakAfter ?? null, races: new Map(), done: current.colorUp?.done ?? [] };

  function colorUpOf(settings: ConsoleSettings, openRace: string | null): ColorUpProgress | null {
    const at = settings.tournament?.atBreakAfter ?? null;
    if (at === null || at !== marked.afterLevel) return null;
    return { afterLevel: at, done: marked.done, running: (openRace === null ? undefined : marked.races.get(openRace)) ?? null };
  }

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
        summary: raceViewSummary(next),
        corrections,
      },
      colorUp: colorUpOf(current.settings, previous?.id ?? `race-${raceNumber}`),
    });
  }

  /** Commands name what they act on, as the service checks: a race or game that is not open is refused. */
  function stale(target: string): CommandResult<never> | null {
    const open = current.race?.id ?? current.game?.id ?? null;
    if (open === null) return { ok: false, error: { field: 'race', message: 'no race is open: start one from the counts screen' } };
    return target === open ? null : { ok: false, error: { field: 'race', message: `${target} is not open (${open} is): this screen was out of date` } };
  }

  /** Applies a game event on the engine and pushes the new view; refusals as the service words them. */
  function applyGame(event: MatchEvent): CommandResult {
    if (game === null) return { ok: false, error: { field: 'game', message: 'no game is open: start one first' } };
    try {
      game = applyMatchEvent(game, event);
      push({ ...current, game: gameViewOf(game, `game-${gameNumber}`) });
      return { ok: true, value: null };
    } catch (error) {
      return refused(error);
    }
  }

  /** Settings as the service checks them (main/service/settings.ts); `accepted` runs once they are taken. */
  function saveAll(settings: ConsoleSettings, accepted?: () => void): CommandResult {
    // The structure as the service checks it (main/service/settings.ts): planned, or refused naming
    // the field (the message is the reason alone, as for every InputError the service refuses).
    const tournament = settings.tournament;
    if (tournament?.structure) {
      let moments: readonly number[];
      try {
        moments = planColorUps(tournament.structure).moments;
      } catch (error) {
        if (isInputError(error)) {
          const field = `tournament.structure.${error.field}`;
          return { ok: false, error: { field, message: error.reason } };
        }
        throw error;
      }
      if (tournament.atBreakAfter !== null && !moments.includes(tournament.atBreakAfter)) {
        const message = `level ${tournament.atBreakAfter} is not followed by a break in the structure`;
        return { ok: false, error: { field: 'tournament.atBreakAfter', message } };
      }
    }
    if (!current.profiles.some((entry) => entry.name === settings.source.decoder)) {
      return { ok: false, error: { field: 'source.decoder', message: `there is no device profile "${settings.source.decoder}": choose a built-in one, or import the profile file first` } };
    }
    if (current.registration !== null && JSON.stringify(settings.source) !== JSON.stringify(current.settings.source)) {
      return { ok: false, error: { field: 'source', message: 'a deck is being registered on this card source: finish or stop the registration first' } };
    }
    accepted?.();
    push({ ...current, settings, plan: tournament === undefined ? current.plan : makePlanView(tournament), colorUp: colorUpOf(settings, current.race?.id ?? null) });
    return { ok: true, value: null };
  }

  /** The station's own clock as the service runs it (main/service/clock.ts): an event at the page's time, refused out of order. */
  function clockEvent(make: (at: number) => ClockEvent): CommandResult {
    const { schedule, problem } = scheduleOf(current.settings.tournament?.structure ?? null);
    if (schedule === null) return { ok: false, error: { field: 'tournament', message: problem === null ? 'no tournament structure is saved: save the structure first' : 'a level has no length in minutes' } };
    const event = make(Date.now());
    const events = event.type === 'start' && current.clock.events.length === 0 ? [event] : [...current.clock.events, event];
    try {
      foldClock(events, schedule.totalMs);
    } catch (error) {
      return refused(error);
    }
    push({ ...current, clock: { source: 'local', schedule, events, problem: null } });
    return { ok: true, value: null };
  }

  const handlers: { [Name in CommandName]: (...args: never[]) => unknown } = {
    getState: () => current,
    clockStart: () => clockEvent((at) => ({ type: 'start', at })),
    clockPause: () => clockEvent((at) => ({ type: 'pause', at })),
    clockResume: () => clockEvent((at) => ({ type: 'resume', at })),
    clockAdjust: (minutes: number) => clockEvent((at) => ({ type: 'adjust', at, by: adjustForMinutesLeft(minutes) })),
    saveSettings: (input: SettingsInput) => {
      // What the screen left out stays as saved; a kept structure takes the table's chips (kept once).
      const kept = current.settings.tournament;
      const settings: ConsoleSettings = {
        ...input,
        language: input.language ?? current.settings.language,
        tournament: input.tournament ?? (kept?.structure ? { ...kept, structure: { ...kept.structure, chips: input.table.chipSet } } : kept),
      };
      return saveAll(settings);
    },
    markBreak: (afterLevel: number | null) => {
      const tournament = current.settings.tournament;
      if (!tournament?.structure) return { ok: false, error: { field: 'tournament', message: 'no tournament structure is saved: save the structure first' } };
      const result = saveAll({ ...current.settings, tournament: { ...tournament, atBreakAfter: afterLevel } }, () => {
        marked = { afterLevel, races: new Map(), done: [] };
      });
      return result;
    },
    startColorUp: (afterLevel: number, removed: number) => {
      if (current.settings.tournament?.atBreakAfter !== afterLevel) return { ok: false, error: { field: 'afterLevel', message: `the tournament is not on the break after level ${afterLevel}: this screen was out of date` } };
      if (race !== null) return { ok: false, error: { field: 'race', message: `race ${current.race?.id ?? ''} is still open: confirm or abandon it first` } };
      const step = current.plan?.proposal?.races.find((entry) => entry.removed === removed);
      if (step === undefined) return { ok: false, error: { field: 'removed', message: `the colour-up after level ${afterLevel} has no race taking ${removed} off` } };
      return saveAll({ ...current.settings, table: { ...current.settings.table, removed: step.removed, next: step.next } });
    },
    setLanguage: (language: Language) => (language === current.settings.language ? { ok: true, value: null } : saveAll({ ...current.settings, language })),
    saveStructure: (structure: StructureInput) => {
      const at = current.settings.tournament?.atBreakAfter ?? null;
      const moments = (() => {
        try {
          return planColorUps(structure).moments;
        } catch {
          return [];
        }
      })();
      const table = Array.isArray(structure.chips) ? tableWithChips(current.settings.table, structure.chips) : current.settings.table;
      return saveAll({ ...current.settings, table, tournament: { structure, atBreakAfter: at !== null && moments.includes(at) ? at : null } });
    },
    previewRace: (counts: readonly SeatCount[]) => {
      try {
        return { ok: true, value: raceSummary(startRace(engineInput(current.settings, counts))) };
      } catch (error) {
        return refused(error);
      }
    },
    // As the service keeps them: for the next race, refused while one is open.
    saveCountDrafts: (counts: readonly SeatCountDraft[]) => {
      if (race !== null) return { ok: false, error: { field: 'race', message: `race ${current.race?.id ?? ''} is open: the counts typed are for the next race, and were not kept` } };
      push({ ...current, countDrafts: [...counts].sort((a, b) => a.seat - b.seat) });
      return { ok: true, value: null };
    },
    startRace: (counts: readonly SeatCount[]) => {
      if (race !== null) return { ok: false, error: { field: 'race', message: 'a race is already in progress' } };
      try {
        const started = startRace(engineInput(current.settings, counts));
        raceNumber += 1;
        const proposal = current.plan?.proposal ?? null;
        const step = proposal !== null && proposal.afterLevel === marked.afterLevel ? colorUpStepOf(proposal, marked.done.map((done) => done.removed), started.setup.removed, started.setup.next) : null;
        if (step !== null) marked.races.set(`race-${raceNumber}`, { raceId: `race-${raceNumber}`, ...step });
        corrections = 0;
        push({ ...current, race: null, countDrafts: [] });
        pushRace(started, counts);
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    dealCard: (target: string, code: string) => {
      const refusal = stale(target);
      if (refusal !== null) return refusal;
      if (game !== null) return applyGame({ type: 'card', card: code });
      try {
        pushRace(applyRaceEvent(race, { type: 'card', card: code }));
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    // As the service decodes a scan with the text decoder: the symbology prefix off, then a card
    // code; text that is no card is refused as the decoder's, a card is dealt (or refused, naming the card read) as any.
    dealScan: (target: string, raw: string) => {
      const code = raw.trim().replace(/^\][A-Za-z][0-9A-Za-z]/, '').trim();
      const card = parseCard(code);
      if (card !== null) {
        const result = handlers.dealCard(target as never, code as never) as CommandResult;
        return result.ok ? result : { ok: false, error: { ...result.error, card } };
      }
      return stale(target) ?? { ok: false, error: { field: 'scan', message: `${JSON.stringify(raw)}: not a card code (decoder text)` } };
    },
    voidCards: (raceId: string, count: number, reason: string) => {
      const refusal = stale(raceId);
      if (refusal !== null) return refusal;
      try {
        const next = applyRaceEvent(race, { type: 'void', count, reason });
        corrections += count;
        pushRace(next);
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    confirmRace: (raceId: string) => {
      const view = current.race;
      if (race === null || view === null) return { ok: false, error: { field: 'race', message: 'no race to confirm' } };
      const refusal = stale(raceId);
      if (refusal !== null) return refusal;
      if (race.progress.status !== 'complete') return { ok: false, error: { field: 'race', message: 'the race is not complete' } };
      race = null;
      const first = history.length * 20 + 1;
      history.push({
        id: view.id, startedAt: view.startedAt, confirmedAt: '2024-05-04T18:34:00.000Z', names: view.names, summary: view.summary, corrections: view.corrections,
        voided: [], refusals: 0, seqs: { first, last: first + view.summary.cards.length + 1 },
      });
      const colorUpRace = marked.races.get(view.id);
      if (colorUpRace !== undefined) marked = { ...marked, done: [...marked.done, { ...colorUpRace, confirmedAt: '2024-05-04T18:34:00.000Z' }] };
      push({ ...current, race: null, history: makeHistory(history), colorUp: colorUpOf(current.settings, null) });
      return { ok: true, value: null };
    },
    abandonRace: (raceId: string) => {
      if (race === null) return { ok: false, error: { field: 'race', message: 'no race to abandon' } };
      const refusal = stale(raceId);
      if (refusal !== null) return refusal;
      race = null;
      push({ ...current, race: null });
      return { ok: true, value: null };
    },
    takeHeldCard: (target: string, heldId: number) => {
      const first = current.held[0];
      if (first === undefined || first.id !== heldId || first.target !== target) return { ok: false, error: { field: 'held', message: 'that card is not the first one waiting any more' } };
      push({ ...current, held: current.held.slice(1) });
      return handlers.dealCard(target as never, first.card as never);
    },
    discardHeldCard: (target: string, heldId: number) => {
      const first = current.held[0];
      if (first === undefined || first.id !== heldId || first.target !== target) return { ok: false, error: { field: 'held', message: 'that card is not the first one waiting any more' } };
      push({ ...current, held: current.held.slice(1) });
      return { ok: true, value: null };
    },
    listPorts: () => ({ ok: true, value: options.ports ?? [] }),
    exportHistory: (format: 'csv' | 'json') => ({
      ok: true,
      value: format === 'json' ? JSON.stringify(history) : `id,confirmedAt\n${history.map((entry) => `${entry.id},${entry.confirmedAt}`).join('\n')}`,
    }),
    historyPage: (before: number | null, count: number) => {
      const end = before ?? history.length;
      const start = Math.max(0, end - count);
      return { ok: true, value: { total: history.length, start, entries: history.slice(start, end) } };
    },
    importProfile: (profile: unknown) => {
      // As the service reads a profile file (hardware's readProfile, then the stored name's rule).
      if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) return { ok: false, error: { field: 'profile', message: 'must be a JSON object with "framing" and "decoder"' } };
      const file = profile as Record<string, unknown>;
      const framing = file.framing as { kind?: unknown } | undefined;
      if (typeof framing !== 'object' || framing === null) return { ok: false, error: { field: 'profile.framing', message: 'must be an object with a "kind": lines, stx-etx or silence' } };
      if (!['lines', 'stx-etx', 'silence'].includes(String(framing.kind))) {
        return { ok: false, error: { field: 'profile.framing.kind', message: `unknown framing ${JSON.stringify(framing.kind)}; choose lines, stx-etx or silence` } };
      }
      const name = typeof file.name === 'string' ? file.name.trim() : 'custom';
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(name)) return { ok: false, error: { field: 'profile.name', message: `must be 1 to 40 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(name)})` } };
      if (current.profiles.some((entry) => entry.builtIn && entry.name === name)) return { ok: false, error: { field: 'profile.name', message: `"${name}" is the name of a built-in profile: give yours another` } };
      const info = makeProfileInfo({ ...file, name });
      push({ ...current, profiles: [...current.profiles.filter((entry) => entry.name !== name), info] });
      return { ok: true, value: info };
    },
    registerDeck: (name: string | null) => {
      // As the service checks it (main/service/service.ts), on the saved card source.
      if (name === null) {
        if (current.registration !== null) push({ ...current, registration: null });
        return { ok: true, value: null };
      }
      if (race !== null) return { ok: false, error: { field: 'race', message: `race ${current.race?.id ?? ''} is open: register the deck between races` } };
      const { source } = current.settings;
      if (source.kind !== 'serial' || source.path === '') return { ok: false, error: { field: 'source', message: 'register the deck with the reader connected: choose the serial card source and its port first' } };
      const base = current.profiles.find((entry) => entry.name === source.decoder);
      if ((base?.profile.decoder as { kind?: unknown } | undefined)?.kind !== 'uid') {
        return { ok: false, error: { field: 'source.decoder', message: `the profile ${source.decoder} does not read RFID tags: choose rfid (or a profile that reads tag IDs) first` } };
      }
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(name)) return { ok: false, error: { field: 'name', message: `must be 1 to 40 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(name)})` } };
      push({ ...current, registration: { name, registered: 0, total: 52, next: 'As', problem: null } });
      return { ok: true, value: null };
    },
    raceRecord: (raceId: string) => {
      const record = options.records?.[raceId];
      return record === undefined ? { ok: false, error: { field: 'race', message: `${raceId} is not in the journal` } } : { ok: true, value: record };
    },
    startGame: (name: string, players: readonly string[], houseOptions?: unknown) => {
      if (race !== null) return { ok: false, error: { field: 'race', message: 'a race is open: confirm or abandon it first' } };
      if (game !== null) return { ok: false, error: { field: 'game', message: 'a game is still open: close it first' } };
      try {
        game = applyMatchEvent(null, { type: 'start', game: name, players, ...(houseOptions === undefined ? {} : { options: houseOptions }) });
        gameNumber += 1;
        push({ ...current, game: gameViewOf(game, `game-${gameNumber}`) });
        return { ok: true, value: null };
      } catch (error) {
        return refused(error);
      }
    },
    gameAction: (gameId: string, action: GameAction) => stale(gameId) ?? applyGame(action),
    closeGame: (gameId: string) => {
      if (game === null) return { ok: false, error: { field: 'game', message: 'no game is open' } };
      const refusal = stale(gameId);
      if (refusal !== null) return refusal;
      const entry = gameHistoryOf(game, `game-${gameNumber}`);
      game = null;
      push({ ...current, game: null, games: [...current.games, entry] });
      return { ok: true, value: null };
    },
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

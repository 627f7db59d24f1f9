import { defineStore } from 'pinia';
import { computed, reactive, ref, shallowRef } from 'vue';
import { countingSettingsOf, displaySettingsOf, type CommandError, type ConsoleState, type GameView, type PortInfo, type RaceView } from '../../protocol/contract';
import type { ConsoleApi } from '../../protocol/commands';
import { hasConnection, hasStateRefusals, type ConnectionStatus } from '../api';
import { createCommandRunner, type CommandEffects } from './commandRunner';
import { useHistoryPages } from './historyPages';
import { useInputLog } from './inputLog';
import type { ActionName, UiError } from './outcomes';
import { deckRegistered } from './stateChanges';

export { HISTORY_PAGE } from './historyPages';
export type { InputEvent, LoggedInput } from './inputLog';
export { CONNECTION_LOST, type ActionName, type Outcome, type UiError } from './outcomes';

/**
 * The screens of the main window. `race` shows the counts, the deal or the result, as the race
 * stands; `points` the points game (Pistepokeri or Chicago): its start screen, or the open game;
 * `structure` the tournament structure with its planned colour-ups.
 */
export const VIEWS = ['setup', 'structure', 'race', 'points', 'history', 'settings'] as const;
export type ViewName = (typeof VIEWS)[number];

export type Connection = 'connecting' | 'connected' | 'lost';

export type Notice = 'settingsSaved' | 'structureSaved' | 'raceSaved' | 'raceAbandoned' | 'gameClosed' | 'deckRegistered';

/**
 * The console as the screens see it: the connection to the service, the state it pushes, the
 * screen shown and its notice, and the one command runner (`run`) every screen acts through,
 * each command's error and busy flag kept here. The counts being typed (countDrafts.ts) and the
 * card reads (scans.ts) are stores of their own that follow this one.
 */
export const useConsoleStore = defineStore('console', () => {
  let api: ConsoleApi | null = null;
  const stops: Array<() => void> = [];

  const state = shallowRef<ConsoleState | null>(null);
  const connection = ref<Connection>('connecting');
  /** The state message the page refused last (it shows the state it took before), until the next whole state. */
  const stateRefusal = shallowRef<CommandError | null>(null);
  const view = ref<ViewName>('setup');
  const notice = ref<Notice | null>(null);
  const errors = reactive<Partial<Record<ActionName, UiError | null>>>({});
  const busy = reactive<Partial<Record<ActionName, boolean>>>({});
  /** The serial ports the service listed last (the card source's choice). */
  const ports = shallowRef<readonly PortInfo[]>([]);
  /** The deck whose registration finished last (its profile now chosen), for the `deckRegistered` notice. */
  const registeredDeck = ref<string | null>(null);

  const settings = computed(() => state.value?.settings ?? null);
  const race = computed<RaceView | null>(() => state.value?.race ?? null);
  const game = computed<GameView | null>(() => state.value?.game ?? null);
  const plan = computed(() => state.value?.plan ?? null);
  /**
   * The chips of the proposed colour-up already raced off (confirmed) at this break, as the service
   * journals them: every window, the player display and a restart see the same.
   */
  const colorUpDone = computed<readonly number[]>(() => {
    const proposal = plan.value?.proposal ?? null;
    const progress = state.value?.colorUp ?? null;
    return proposal !== null && progress?.afterLevel === proposal.afterLevel ? progress.done.map((race) => race.removed) : [];
  });
  const seatsInPlay = computed(() => [...(settings.value?.table.seats ?? [])].sort((a, b) => a.seat - b.seat));
  /** Seat number → name ('' when the seat has none), from the race when one runs, else from the setup. */
  const names = computed<Readonly<Record<number, string>>>(() => {
    if (race.value !== null) return race.value.names;
    return Object.fromEntries(seatsInPlay.value.map(({ seat, name }) => [seat, name]));
  });

  /** Takes a state from the service: the latest wins. Opens the race (game) screen when a race (game) appears. */
  function receive(next: ConsoleState): void {
    const previous = state.value;
    state.value = next;
    logInputs(next.inputs);
    followHistory(next, previous);
    const deck = deckRegistered(next, previous);
    if (deck !== null) {
      registeredDeck.value = deck;
      notice.value = 'deckRegistered';
    }
    const raceStarted = next.race !== null && (previous === null || previous.race === null || previous.race.id !== next.race.id);
    if (raceStarted) view.value = 'race';
    const gameStarted = next.game !== null && (previous === null || previous.game === null || previous.game.id !== next.game.id);
    if (gameStarted) view.value = 'points';
  }

  /** A command's success shows a screen and its notice (null: takes the notice down). */
  function show(next: ViewName, shown: Notice | null): void {
    view.value = next;
    notice.value = shown;
  }

  /** What each command does on the screen besides its call (see CommandEffect). */
  const effects: CommandEffects = {
    saveSettings: { succeeded: () => (notice.value = 'settingsSaved'), refused: () => (notice.value = null) },
    /** Only the structure is sent: the service keeps the rest as it holds it, so a stale window undoes nothing. */
    saveStructure: { succeeded: () => (notice.value = 'structureSaved'), refused: () => (notice.value = null) },
    /** A command of its own, so it changes nothing else of the settings. */
    setLanguage: { unneeded: (current, language) => current?.settings.language === language },
    /** A command of its own too: the room's clock sounds, or not. */
    setClockSound: { unneeded: (current, on) => displaySettingsOf(current?.settings).clockSound === on },
    setResultMinutes: { unneeded: (current, minutes) => displaySettingsOf(current?.settings).resultMinutes === minutes },
    setCountStack: { unneeded: (current, stack) => countingSettingsOf(current?.settings).stack === stack },
    markBreak: { unneeded: (current) => !current?.settings.tournament?.structure },
    /** One click at the break sets the table to this race of the colour-up and opens the counts. */
    startColorUp: { succeeded: () => show('race', null) },
    /** Its answer is the counts screen's to keep (the latest call's, countDrafts.ts). */
    previewRace: { untracked: true },
    startRace: { succeeded: () => (view.value = 'race') },
    /** A scan's refusal is the deal's. */
    dealScan: { errorAs: 'dealCard' },
    /** Only names a scan away from the deal (the scan store keeps what it read). */
    readScan: { untracked: true },
    voidCards: { settles: ['dealCard'] },
    confirmRace: { succeeded: () => show('history', 'raceSaved') },
    abandonRace: { succeeded: () => show('race', 'raceAbandoned') },
    startGame: { succeeded: () => show('points', null) },
    gameAction: { settles: ['dealCard'] },
    closeGame: { settles: ['dealCard', 'gameAction'], succeeded: () => show('points', 'gameClosed') },
    listPorts: { succeeded: (found) => (ports.value = found) },
    /** A registration started: the deck registered before is no longer news. */
    registerDeck: {
      succeeded: (_none, name) => {
        if (name === null) return;
        registeredDeck.value = null;
        if (notice.value === 'deckRegistered') notice.value = null;
      },
    },
  };

  /** Runs a command of the table by its name and arguments (commandRunner.ts); the other stores follow it with $onAction. */
  const run = createCommandRunner({ api: () => api, state: () => state.value, errors, busy, effects });

  const { historyEntries, historyStart, historyLoaded, record, followHistory, loadHistory, openRecord } = useHistoryPages(run);
  const { inputLog, logInputs } = useInputLog();

  /** Fetches the whole state (on start, and after every reconnect). */
  async function refresh(): Promise<boolean> {
    if (api === null) return false;
    try {
      receive(await api.getState());
      return true;
    } catch {
      return false;
    }
  }

  /** Attaches the store to the console service. Call once; `disconnect` undoes it. */
  function connect(service: ConsoleApi): void {
    disconnect();
    api = service;
    stops.push(service.onState(receive));
    if (hasStateRefusals(service)) stops.push(service.onStateRefusal((error) => (stateRefusal.value = error)));
    if (hasConnection(service)) {
      stops.push(
        service.onConnection((status: ConnectionStatus) => {
          connection.value = status === 'open' ? 'connected' : status;
          if (status === 'open') void refresh();
        }),
      );
    } else {
      connection.value = 'connected';
      void refresh();
    }
  }

  function disconnect(): void {
    for (const stop of stops.splice(0)) stop();
    api = null;
  }

  function clearError(action: ActionName): void {
    errors[action] = null;
  }

  function navigate(next: ViewName): void {
    view.value = next;
    notice.value = null;
  }

  return {
    state,
    connection,
    stateRefusal,
    view,
    notice,
    errors,
    busy,
    inputLog,
    ports,
    historyEntries,
    historyStart,
    historyLoaded,
    record,
    settings,
    race,
    game,
    plan,
    colorUpDone,
    registeredDeck,
    seatsInPlay,
    names,
    connect,
    disconnect,
    refresh,
    receive,
    navigate,
    clearError,
    run,
    loadHistory,
    openRecord,
  };
});

export type ConsoleStore = ReturnType<typeof useConsoleStore>;

import { defineStore } from 'pinia';
import { computed, reactive, ref, shallowRef, toRaw } from 'vue';
import type {
  CommandResult,
  ConsoleSettings,
  ConsoleState,
  DeviceProfileInfo,
  GameAction,
  GameView,
  Language,
  PortInfo,
  RaceView,
  SeatCount,
  SeatCountDraft,
} from '../../protocol/contract';
import type { ConsoleApi } from '../../protocol/commands';
import type { RaceStep } from '../../engine/plan/planner';
import type { RaceSummary } from '../../engine/race/summary';
import { MANUAL_VOID_REASON } from '../../engine/race/explain';
import type { GameName, HouseOptions } from '../../engine/poker/rules';
import { hasConnection, type ConnectionStatus } from '../api';
import { useHistoryPages } from './historyPages';
import { useInputLog } from './inputLog';
import { isCommandResult, toUiError, type ActionName, type Outcome, type UiError } from './outcomes';
import { cardsTaken, deckRegistered, sameRefusal } from './stateChanges';

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

/**
 * A refused command as the screens show it: the service's `{field, message}`, or — for problems
 * the screen itself finds, such as a lost connection — a locale `key` (with `params`) to translate.
 */



/** One seat's count as typed on the counts screen: `chips` is '' until the dealer enters a number. */
export interface CountDraft {
  chips: number | '';
  hasOther: boolean;
}

export type Notice = 'settingsSaved' | 'structureSaved' | 'raceSaved' | 'raceAbandoned' | 'gameClosed' | 'deckRegistered';

/**
 * Where a scan lands: `deal` — the race screen with a race open (dealing, tie-break or its
 * result) or the points game with a game open: it is dealt; anywhere else it is not: `counts` —
 * the counts screen, before the race starts; `elsewhere` — another screen while a race or game is
 * open; `closed` — no race or game is open.
 */
export type ScanPlace = 'deal' | 'counts' | 'elsewhere' | 'closed';

/**
 * A card read that the service refused, from the keyboard-wedge scanner or the shoe (the refusal
 * is `errors.dealCard`, shown while it is the latest): the headline itself says what was refused.
 */
export interface ScanRefusal {
  readonly raw: string;
  readonly error: UiError;
  readonly from: 'scan' | 'shoe';
}

/** A scan that was not dealt because it came on a screen that deals no card: the dealer must scan it again. */
export interface ScanAway {
  readonly raw: string;
  readonly place: Exclude<ScanPlace, 'deal'>;
}

/**
 * How long the counts screen waits after the last keystroke before it sends the counts typed to
 * the service (which keeps them for every window and a reload): typing stays instant, and a burst
 * of keys is one call.
 */
export const COUNT_DRAFTS_DELAY_MS = 300;





export const useConsoleStore = defineStore('console', () => {
  let api: ConsoleApi | null = null;
  const stops: Array<() => void> = [];
  let previewSequence = 0;
  /** The counts typed here, waiting COUNT_DRAFTS_DELAY_MS to go to the service; null when none wait. */
  let draftTimer: ReturnType<typeof setTimeout> | null = null;
  /** Sends of the counts not yet answered. */
  let draftsInFlight = 0;
  /** The counts this window sent last (JSON): the service's state with these is this window's own typing, not news. */
  let draftsSent: string | null = null;

  const state = shallowRef<ConsoleState | null>(null);
  const connection = ref<Connection>('connecting');
  const view = ref<ViewName>('setup');
  const notice = ref<Notice | null>(null);
  const errors = reactive<Partial<Record<ActionName, UiError | null>>>({});
  const busy = reactive<Partial<Record<ActionName, boolean>>>({});
  const preview = shallowRef<RaceSummary | null>(null);
  const counts = reactive<Record<number, CountDraft>>({});
  const ports = shallowRef<readonly PortInfo[]>([]);
  const scanRefusal = shallowRef<ScanRefusal | null>(null);
  const scanAway = shallowRef<ScanAway | null>(null);
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
    // Counts typed in another window (or kept over a reload): taken unless this window is typing.
    if (next.countDrafts !== previous?.countDrafts) adoptDrafts();
    // A card from the shoe refused: shown where a typed card's refusal is, until the next card is taken.
    const refusal = next.shoeRefusal;
    if (refusal !== null && !sameRefusal(refusal, previous?.shoeRefusal ?? null)) {
      const error: UiError = refusal.said === undefined ? { field: refusal.field, message: refusal.message } : { field: refusal.field, message: refusal.message, said: refusal.said };
      errors.dealCard = error;
      scanRefusal.value = { raw: refusal.card, error, from: 'shoe' };
    }
    // A card taken (from anywhere) settles a scan that was not dealt: the dealer has dealt again.
    const before = cardsTaken(previous);
    const after = cardsTaken(next);
    if (after.id !== null && after.id === before.id && after.cards > before.cards) scanAway.value = null;
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

  async function run<T>(action: ActionName | null, call: (service: ConsoleApi) => Promise<CommandResult<T>>): Promise<Outcome<T>> {
    if (action !== null) {
      errors[action] = null;
      busy[action] = true;
    }
    let outcome: Outcome<T>;
    try {
      if (api === null) throw new Error('no console service');
      const result: unknown = await call(api);
      outcome = isCommandResult(result)
        ? (result as Outcome<T>)
        : { ok: false, error: { field: 'result', message: 'the console service gave an answer the screen cannot read', key: 'errors.badAnswer' } };
    } catch (error) {
      outcome = { ok: false, error: toUiError(error) };
    }
    if (action !== null) {
      busy[action] = false;
      if (!outcome.ok) errors[action] = outcome.error;
    }
    return outcome;
  }

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

  async function saveSettings(next: ConsoleSettings): Promise<Outcome> {
    const outcome = await run('saveSettings', (service) => service.saveSettings(next));
    notice.value = outcome.ok ? 'settingsSaved' : null;
    return outcome;
  }

  /** Switches the language: a command of its own, so it changes nothing else of the settings. */
  async function setLanguage(language: Language): Promise<Outcome> {
    if (state.value?.settings.language === language) return { ok: true, value: null };
    return run('setLanguage', (service) => service.setLanguage(language));
  }

  /** The seats' counts as the service takes them: seats in play only, in seat order. */
  function countsFromDrafts(): { counts: SeatCount[]; complete: boolean } {
    let complete = true;
    const list = seatsInPlay.value.map(({ seat }) => {
      const draft = counts[seat] ?? { chips: '', hasOther: true };
      if (draft.chips === '') complete = false;
      return { seat, chips: draft.chips === '' ? 0 : draft.chips, hasOther: draft.hasOther };
    });
    return { counts: list, complete };
  }

  /** Makes sure every seat in play has a draft (0 chips would be wrong: '' until typed). */
  function ensureCounts(): void {
    for (const { seat } of seatsInPlay.value) {
      if (counts[seat] === undefined) counts[seat] = { chips: '', hasOther: true };
    }
  }

  /** The counts typed as the service keeps them: the seats in play, an empty or invalid field as null (not entered yet). */
  function draftsOf(): SeatCountDraft[] {
    return seatsInPlay.value.map(({ seat }) => {
      const draft = counts[seat] ?? { chips: '', hasOther: true };
      const chips = typeof draft.chips === 'number' && Number.isInteger(draft.chips) && draft.chips >= 0 ? draft.chips : null;
      return { seat, chips, hasOther: draft.hasOther };
    });
  }

  /**
   * Takes the counts the service keeps into this screen's fields, unless they are what this window
   * sent last or it is still typing (its keystrokes are newer than any state).
   */
  function adoptDrafts(): void {
    const kept = state.value?.countDrafts ?? [];
    if (draftTimer !== null || draftsInFlight > 0 || JSON.stringify(kept) === draftsSent) return;
    draftsSent = null;
    for (const { seat } of seatsInPlay.value) {
      const draft = kept.find((entry) => entry.seat === seat);
      const chips = draft?.chips ?? '';
      const hasOther = draft?.hasOther ?? true;
      const shown = counts[seat];
      if (shown === undefined || shown.chips !== chips || shown.hasOther !== hasOther) counts[seat] = { chips, hasOther };
    }
  }

  /** A seat's count typed or ticked: shown at once, sent to the service once the typing pauses. */
  function setCount(seat: number, change: Partial<CountDraft>): void {
    const draft = counts[seat];
    if (draft === undefined) return;
    Object.assign(draft, change);
    if (draftTimer !== null) clearTimeout(draftTimer);
    draftTimer = setTimeout(() => void sendDrafts(), COUNT_DRAFTS_DELAY_MS);
  }

  function cancelDrafts(): void {
    if (draftTimer !== null) clearTimeout(draftTimer);
    draftTimer = null;
  }

  /** Sends the counts typed now, once the typing has paused. */
  async function sendDrafts(): Promise<Outcome> {
    cancelDrafts();
    if (race.value !== null) return { ok: true, value: null };
    const drafts = draftsOf();
    draftsSent = JSON.stringify(drafts);
    draftsInFlight += 1;
    const outcome = await run('saveCountDrafts', (service) => service.saveCountDrafts(drafts));
    draftsInFlight -= 1;
    // Another window's counts that came meanwhile were held back: taken now, if the typing has stopped.
    adoptDrafts();
    return outcome;
  }

  function resetCounts(): void {
    cancelDrafts();
    for (const key of Object.keys(counts)) delete counts[Number(key)];
    ensureCounts();
    preview.value = null;
    errors.previewRace = null;
  }

  /** Asks the service what these counts would make; a later call's answer replaces an earlier one's. */
  async function previewRace(list: readonly SeatCount[]): Promise<Outcome<RaceSummary>> {
    previewSequence += 1;
    const mine = previewSequence;
    const outcome = await run(null, (service) => service.previewRace(list));
    if (mine !== previewSequence) return outcome;
    preview.value = outcome.ok ? outcome.value : null;
    errors.previewRace = outcome.ok ? null : outcome.error;
    return outcome;
  }

  function clearPreview(): void {
    previewSequence += 1;
    preview.value = null;
    errors.previewRace = null;
  }

  async function startRace(list: readonly SeatCount[]): Promise<Outcome> {
    // The race takes the counts: the service drops those it kept for it once it starts.
    const waiting = draftTimer !== null;
    cancelDrafts();
    const outcome = await run('startRace', (service) => service.startRace(list));
    if (!outcome.ok && waiting) void sendDrafts();
    if (outcome.ok) view.value = 'race';
    return outcome;
  }

  /**
   * The race or game this screen shows: every command names it, so a screen that is behind (a
   * second window, a tab left open) cannot act on whatever is open now.
   */
  const NOTHING_OPEN: UiError = { field: 'race', message: 'no race is open', key: 'errors.nothingOpen' };
  const target = (): string | null => race.value?.id ?? game.value?.id ?? null;

  function dealCard(code: string): Promise<Outcome> {
    const id = target();
    if (id === null) return refuse('dealCard', NOTHING_OPEN);
    return run('dealCard', (service) => service.dealCard(id, code));
  }

  /** What a keyboard-wedge scanner typed: the service decodes it as it decodes a frame from the shoe. */
  async function dealScan(raw: string): Promise<Outcome> {
    const id = target();
    const outcome = id === null ? await refuse('dealCard', NOTHING_OPEN) : await run('dealCard', (service) => service.dealScan(id, raw));
    if (outcome.ok) scanAway.value = null;
    else scanRefusal.value = { raw, error: outcome.error, from: 'scan' };
    return outcome;
  }

  /** Where a scan would land now (see `ScanPlace`). */
  const scanPlace = computed<ScanPlace>(() => {
    if (state.value === null) return 'closed';
    if (view.value === 'race') return race.value !== null ? 'deal' : 'counts';
    if (view.value === 'points' && game.value !== null) return 'deal';
    return race.value !== null || game.value !== null ? 'elsewhere' : 'closed';
  });

  /** The scan the service refused last, while its refusal is the one shown (no card taken or tried since). */
  const scanRefused = computed<ScanRefusal | null>(() => {
    const refusal = scanRefusal.value;
    const shown = errors.dealCard;
    return refusal !== null && shown != null && toRaw(shown) === toRaw(refusal.error) ? refusal : null;
  });

  /**
   * A scan from the keyboard-wedge scanner: dealt to the open race or game where the screen deals
   * cards; anywhere else kept as `scanAway` (not dealt, not lost: the dealer is told to scan it again).
   */
  async function scanned(raw: string): Promise<Outcome> {
    const place = scanPlace.value;
    if (place === 'deal') return dealScan(raw);
    scanAway.value = { raw, place };
    return { ok: false, error: { field: 'scan', message: 'scanned where no card is dealt', key: 'errors.nothingOpen' } };
  }

  function dismissScanAway(): void {
    scanAway.value = null;
  }

  /** A refusal the screen itself makes (nothing open to act on), shown like the service's. */
  async function refuse(action: ActionName, error: UiError): Promise<Outcome> {
    errors[action] = error;
    return { ok: false, error };
  }

  async function voidCards(count: number, reason: string = MANUAL_VOID_REASON): Promise<Outcome> {
    const id = race.value?.id;
    if (id === undefined) return refuse('voidCards', NOTHING_OPEN);
    const outcome = await run('voidCards', (service) => service.voidCards(id, count, reason));
    if (outcome.ok) errors.dealCard = null;
    return outcome;
  }

  /** The first card held for the dealer's say (a noisy line): dealt, or discarded (kept on record). */
  async function resolveHeld(take: boolean): Promise<Outcome> {
    const first = state.value?.held[0];
    if (first === undefined) return { ok: true, value: null };
    return take ? run('takeHeldCard', (service) => service.takeHeldCard(first.target, first.id)) : run('discardHeldCard', (service) => service.discardHeldCard(first.target, first.id));
  }



  async function confirmRace(): Promise<Outcome> {
    const id = race.value?.id;
    if (id === undefined) return refuse('confirmRace', NOTHING_OPEN);
    const outcome = await run('confirmRace', (service) => service.confirmRace(id));
    if (outcome.ok) {
      resetCounts();
      view.value = 'history';
      notice.value = 'raceSaved';
    }
    return outcome;
  }

  async function abandonRace(reason: string): Promise<Outcome> {
    const id = race.value?.id;
    if (id === undefined) return refuse('abandonRace', NOTHING_OPEN);
    const outcome = await run('abandonRace', (service) => service.abandonRace(id, reason));
    if (outcome.ok) {
      view.value = 'race';
      notice.value = 'raceAbandoned';
    }
    return outcome;
  }

  async function listPorts(): Promise<Outcome<readonly PortInfo[]>> {
    const outcome = await run('listPorts', (service) => service.listPorts());
    if (outcome.ok) ports.value = outcome.value;
    return outcome;
  }

  /** A device profile file's JSON, checked and stored by the service; the profile as it is now offered. */
  function importProfile(profile: unknown): Promise<Outcome<DeviceProfileInfo>> {
    return run('importProfile', (service) => service.importProfile(profile));
  }

  /** Starts registering an RFID deck into a profile of this name (on the saved card source), or stops it (null). */
  async function registerDeck(name: string | null): Promise<Outcome> {
    const outcome = await run('registerDeck', (service) => service.registerDeck(name));
    if (outcome.ok && name !== null) {
      registeredDeck.value = null;
      if (notice.value === 'deckRegistered') notice.value = null;
    }
    return outcome;
  }

  function exportHistory(format: 'csv' | 'json'): Promise<Outcome<string>> {
    return run('exportHistory', (service) => service.exportHistory(format));
  }

  /** A points game; `options` are Chicago's house options (left out: all off, as Pistepokeri has none). */
  async function startGame(name: GameName, players: readonly string[], options?: HouseOptions): Promise<Outcome> {
    const outcome = await run('startGame', (service) => (options === undefined ? service.startGame(name, players) : service.startGame(name, players, options)));
    if (outcome.ok) {
      view.value = 'points';
      notice.value = null;
    }
    return outcome;
  }

  /** Discards (none: stands pat), the end of Chicago's exchanges, the next deal. */
  async function gameAction(action: GameAction): Promise<Outcome> {
    const id = game.value?.id;
    if (id === undefined) return refuse('gameAction', { ...NOTHING_OPEN, field: 'game' });
    const outcome = await run('gameAction', (service) => service.gameAction(id, action));
    if (outcome.ok) errors.dealCard = null;
    return outcome;
  }

  async function closeGame(reason: string): Promise<Outcome> {
    const id = game.value?.id;
    if (id === undefined) return refuse('closeGame', { ...NOTHING_OPEN, field: 'game' });
    const outcome = await run('closeGame', (service) => service.closeGame(id, reason));
    if (outcome.ok) {
      errors.dealCard = null;
      errors.gameAction = null;
      view.value = 'points';
      notice.value = 'gameClosed';
    }
    return outcome;
  }

  /**
   * Saves the structure screen's structure (its chips become the table's; the break marked stays
   * while it is still one of the structure's). Only `next.tournament.structure` is sent: the service
   * keeps the rest as it holds it, so this cannot undo another window's change.
   */
  async function saveStructure(next: ConsoleSettings): Promise<Outcome> {
    const structure = next.tournament?.structure ?? null;
    if (structure === null) return { ok: true, value: null };
    const outcome = await run('saveStructure', (service) => service.saveStructure(structure));
    notice.value = outcome.ok ? 'structureSaved' : null;
    return outcome;
  }

  /** Marks where the tournament is: on the break (colour-up moment) after `afterLevel`, or playing (null). */
  async function markBreak(afterLevel: number | null): Promise<Outcome> {
    if (!state.value?.settings.tournament?.structure) return { ok: true, value: null };
    return run('markBreak', (service) => service.markBreak(afterLevel));
  }

  /**
   * One click at the break: sets the table to this race of the colour-up (`removed` → `next`) and
   * opens the counts, so the race starts with those denominations. Names the break it shows.
   */
  async function startColorUp(step: RaceStep): Promise<Outcome> {
    const afterLevel = plan.value?.proposal?.afterLevel;
    if (afterLevel === undefined) return { ok: true, value: null };
    const outcome = await run('startColorUp', (service) => service.startColorUp(afterLevel, step.removed));
    if (outcome.ok) {
      resetCounts();
      view.value = 'race';
      notice.value = null;
    }
    return outcome;
  }

  /** The tournament clock's commands (the station's own clock; the service refuses them while the floor runs it). */
  const clockStart = (): Promise<Outcome> => run('clockStart', (service) => service.clockStart());
  const clockPause = (): Promise<Outcome> => run('clockPause', (service) => service.clockPause());
  const clockResume = (): Promise<Outcome> => run('clockResume', (service) => service.clockResume());
  const clockAdjust = (minutes: number): Promise<Outcome> => run('clockAdjust', (service) => service.clockAdjust(minutes));

  return {
    state,
    connection,
    view,
    notice,
    errors,
    busy,
    preview,
    inputLog,
    counts,
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
    scanPlace,
    scanRefused,
    scanAway,
    registeredDeck,
    seatsInPlay,
    names,
    connect,
    disconnect,
    refresh,
    receive,
    navigate,
    clearError,
    saveSettings,
    setLanguage,
    countsFromDrafts,
    ensureCounts,
    setCount,
    resetCounts,
    previewRace,
    clearPreview,
    startRace,
    dealCard,
    dealScan,
    scanned,
    dismissScanAway,
    voidCards,
    resolveHeld,
    loadHistory,
    openRecord,
    confirmRace,
    abandonRace,
    listPorts,
    importProfile,
    registerDeck,
    exportHistory,
    startGame,
    gameAction,
    closeGame,
    saveStructure,
    markBreak,
    startColorUp,
    clockStart,
    clockPause,
    clockResume,
    clockAdjust,
  };
});

export type ConsoleStore = ReturnType<typeof useConsoleStore>;

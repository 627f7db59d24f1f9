/**
 * The command table: every call the screen can make, once — its name, how many arguments it
 * takes and their shape (checked by main/ipc/validate.ts before the service sees them), and its
 * signature (a type carried by the entry). Everything else that lists the commands derives from
 * here: ConsoleCommands and CommandName, the preload's functions, the browser bridge's client,
 * the IPC channels and handlers (scripts/commandTable.test.ts proves each list is this one).
 */
import { GAMES, type GameName, type HouseOptions } from '../engine/poker/rules';
import type { RaceSummary } from '../engine/race/summary';
import { all, checkCountDrafts, checkCounts, checkGameAction, checkHouseOptions, checkPlayers, checkTarget, checkText, fail, isRecord, isWhole, pass, type Args, type Checked } from './argumentChecks';
import type { StructureInput } from '../engine/plan/csv';
import { CLOCK_ADJUST_MINUTES_MAX } from './clock';
import { CARD_CODE_MAX, HISTORY_PAGE_MAX, LANGUAGES, NAME_MAX, PROFILE_MAX_CHARS, REASON_MAX, SCAN_MAX, VOID_MAX } from './constants';
import type {
  CommandResult,
  ConsoleState,
  DeviceProfileInfo,
  DisplayPreloadApi,
  GameAction,
  HistoryPage,
  Language,
  PortInfo,
  RaceRecord,
  SeatCount,
  SeatCountDraft,
  SettingsInput,
  StateMessage,
} from './contract';

// A signature is any function type: its parameters are read, never called with.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Signature = (...args: any[]) => unknown;

/** One command: its arguments' count and shape; `Call` is its signature, as a type only. */
export interface Command<Call extends Signature = Signature> {
  readonly arity: number;
  readonly check: (args: Args) => Checked;
  /** Never set: it carries `Call` for ConsoleCommands. */
  readonly signature?: Call;
}

/** A command of signature `Call`: `arity` is its parameter count (the compiler checks they agree). */
function command<Call extends Signature>(arity: Parameters<Call>['length'], check: (args: Args) => Checked): Command<Call> {
  return { arity, check };
}

const none = (): Checked => pass([]);

/** The largest tournament structure a screen may send, in KB of JSON. */
const STRUCTURE_MAX_KB = 256;

const heldId = (value: unknown): Checked => (isWhole(value, 1, Number.MAX_SAFE_INTEGER) ? pass([value]) : fail('held', { key: 'command.heldId' }));

export const COMMANDS = {
  getState: command<() => ConsoleState>(0, none),
  /**
   * The table, the card source (and the language, the tournament when given): a screen that does
   * not change the language or the tournament leaves them out, and the saved ones are kept.
   */
  saveSettings: command<(settings: SettingsInput) => CommandResult>(1, ([settings]) => (isRecord(settings) ? pass([settings]) : fail('settings', { key: 'command.notObject' }))),
  /** The tournament is on the break after `afterLevel` (a colour-up moment of the structure), or playing (null). Journaled. */
  markBreak: command<(afterLevel: number | null) => CommandResult>(1, ([afterLevel]) =>
    afterLevel === null || isWhole(afterLevel, 1, 10_000) ? pass([afterLevel]) : fail('afterLevel', { key: 'command.breakLevel' }),
  ),
  /**
   * Sets the table to the race of the proposed colour-up that takes `removed` off (its `next` the
   * proposal's): the screen names the break it shows, so a stale screen cannot set another's race.
   */
  startColorUp: command<(afterLevel: number, removed: number) => CommandResult>(2, ([afterLevel, removed]) => {
    if (!isWhole(afterLevel, 1, 10_000)) return fail('afterLevel', { key: 'command.colorUpLevel' });
    return isWhole(removed, 1, Number.MAX_SAFE_INTEGER) ? pass([afterLevel, removed]) : fail('removed', { key: 'command.colorUpChip' });
  }),
  setLanguage: command<(language: Language) => CommandResult>(1, ([language]) => ((LANGUAGES as readonly unknown[]).includes(language) ? pass([language]) : fail('language', { key: 'command.oneOf', params: { options: LANGUAGES.join(', ') } }))),
  /**
   * The tournament's structure: planned, kept with the break marked (while it is still a moment of
   * it), and its chips made the table's chip set (the chip leaving and the next kept when they fit).
   * Its meaning is the planner's to check (engine/plan); here only its shape and size.
   */
  saveStructure: command<(structure: StructureInput) => CommandResult>(1, ([structure]) =>
    isRecord(structure) && JSON.stringify(structure).length <= STRUCTURE_MAX_KB * 1024 ? pass([structure]) : fail('structure', { key: 'command.structure', params: { kb: STRUCTURE_MAX_KB } }),
  ),
  /** The station's own tournament clock (a home game): started, paused, resumed, each journaled with the service's time. Refused while the floor runs the clock. */
  clockStart: command<() => CommandResult>(0, none),
  clockPause: command<() => CommandResult>(0, none),
  clockResume: command<() => CommandResult>(0, none),
  /** Gives the level on the station's clock `minutes` more time left ("+1 min"), or fewer when negative. */
  clockAdjust: command<(minutes: number) => CommandResult>(1, ([minutes]) =>
    isWhole(minutes, -CLOCK_ADJUST_MINUTES_MAX, CLOCK_ADJUST_MINUTES_MAX) && minutes !== 0 ? pass([minutes]) : fail('minutes', { key: 'clock.adjustMinutes', params: { max: CLOCK_ADJUST_MINUTES_MAX } }),
  ),
  /** The race these counts would make (exchange, pool, race chips, deal), without starting it. */
  previewRace: command<(counts: readonly SeatCount[]) => CommandResult<RaceSummary>>(1, ([counts]) => checkCounts(counts)),
  startRace: command<(counts: readonly SeatCount[]) => CommandResult>(1, ([counts]) => checkCounts(counts)),
  /**
   * The counts being typed for the next race, empty fields included (null chips): kept by the
   * service and sent to every window, so a reload or a second window shows them; cleared when
   * the race starts or the table changes.
   */
  saveCountDrafts: command<(counts: readonly SeatCountDraft[]) => CommandResult>(1, ([counts]) => checkCountDrafts(counts)),
  /**
   * A card typed or tapped, for the race or game `target` (its id): the screen names what it
   * acts on, so a stale screen cannot deal into the next race.
   */
  dealCard: command<(target: string, code: string) => CommandResult>(2, ([target, code]) => all(checkTarget(target, 'target'), checkText(code, 'card', CARD_CODE_MAX))),
  /**
   * What a keyboard-wedge scanner typed (a burst of keys the screen caught), for `target`: decoded
   * exactly as a frame from the serial port is (symbology prefix, the configured decoder), then dealt.
   */
  dealScan: command<(target: string, raw: string) => CommandResult>(2, ([target, raw]) => all(checkTarget(target, 'target'), checkText(raw, 'scan', SCAN_MAX))),
  voidCards: command<(raceId: string, count: number, reason: string) => CommandResult>(3, ([raceId, count, reason]) => {
    if (!isWhole(count, 1, VOID_MAX)) return all(checkTarget(raceId, 'race'), fail('count', { key: 'command.voidCount' }));
    return all(checkTarget(raceId, 'race'), pass([count]), checkText(reason ?? '', 'reason', REASON_MAX));
  }),
  confirmRace: command<(raceId: string) => CommandResult>(1, ([raceId]) => checkTarget(raceId, 'race')),
  abandonRace: command<(raceId: string, reason: string) => CommandResult>(2, ([raceId, reason]) => all(checkTarget(raceId, 'race'), checkText(reason ?? '', 'reason', REASON_MAX))),
  /** Deals the first held card (`heldId`) as if the shoe had sent it now. */
  takeHeldCard: command<(target: string, heldId: number) => CommandResult>(2, ([target, held]) => all(checkTarget(target, 'target'), heldId(held))),
  /** Discards the first held card (`heldId`): kept on record as refused by the dealer. */
  discardHeldCard: command<(target: string, heldId: number) => CommandResult>(2, ([target, held]) => all(checkTarget(target, 'target'), heldId(held))),
  listPorts: command<() => CommandResult<readonly PortInfo[]>>(0, none),
  /** A points game: its players clockwise, and (Chicago) its house options, all off when left out. */
  startGame: command<(game: GameName, players: readonly string[], options?: Partial<HouseOptions>) => CommandResult>(3, ([game, players, options]) =>
    (GAMES as readonly unknown[]).includes(game)
      ? all(pass([game]), checkPlayers(players), checkHouseOptions(game as GameName, options))
      : fail('game', { key: 'command.game', params: { games: { message: { key: 'poker.or', params: { list: GAMES.slice(0, -1).join(', '), last: GAMES.at(-1) ?? '' } } } } }),
  ),
  gameAction: command<(gameId: string, action: GameAction) => CommandResult>(2, ([gameId, action]) => all(checkTarget(gameId, 'game'), checkGameAction(action))),
  /** Ends the game: into the history when it has a winner, otherwise abandoned with the reason. */
  closeGame: command<(gameId: string, reason: string) => CommandResult>(2, ([gameId, reason]) => all(checkTarget(gameId, 'game'), checkText(reason ?? '', 'reason', REASON_MAX))),
  exportHistory: command<(format: 'csv' | 'json') => CommandResult<string>>(1, ([format]) => (format === 'csv' || format === 'json' ? pass([format]) : fail('format', { key: 'command.format' }))),
  /** Confirmed races before index `before` (null: the latest), at most `count` of them. */
  historyPage: command<(before: number | null, count: number) => CommandResult<HistoryPage>>(2, ([before, count]) => {
    if (before !== null && !isWhole(before, 0, Number.MAX_SAFE_INTEGER)) return fail('before', { key: 'command.before' });
    if (!isWhole(count, 1, HISTORY_PAGE_MAX)) return fail('count', { key: 'command.wholeRange', params: { min: 1, max: HISTORY_PAGE_MAX } });
    return pass([before, count]);
  }),
  /** A race's full record from the journal: every card, void and refusal, with the chain's verdict. */
  raceRecord: command<(raceId: string) => CommandResult<RaceRecord>>(1, ([raceId]) => checkTarget(raceId, 'race')),
  /** A device profile (the JSON of a profile file) validated and stored in the data folder under its name. */
  importProfile: command<(profile: unknown) => CommandResult<DeviceProfileInfo>>(1, ([profile]) =>
    // The profile's meaning is the hardware reader's to check (readProfile); here only its size.
    isRecord(profile) && JSON.stringify(profile).length <= PROFILE_MAX_CHARS ? pass([profile]) : fail('profile', { key: 'command.profile', params: { kb: PROFILE_MAX_CHARS / 1024 } }),
  ),
  /** Starts registering an RFID deck into a profile of this name (the card source must read tag IDs), or stops it (null). */
  registerDeck: command<(name: string | null) => CommandResult>(1, ([name]) => (name === null ? pass([null]) : checkText(name, 'name', NAME_MAX))),
} as const satisfies Readonly<Record<string, Command>>;

type CallOf<Entry> = Entry extends Command<infer Call> ? Call : never;

/** The calls the screen can make, with their argument lists and results (from the table). */
export type ConsoleCommands = { readonly [Name in keyof typeof COMMANDS]: CallOf<(typeof COMMANDS)[Name]> };

export type CommandName = keyof ConsoleCommands;

/** The table's names, in its order. */
export const COMMAND_NAMES = Object.keys(COMMANDS) as readonly CommandName[];

/** Whether `name` names a command (an own entry of the table: never `constructor` or `__proto__`). */
export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(COMMANDS, name);
}

/** Every command as the screen calls it: asynchronous. */
export type ConsoleCalls = {
  readonly [Name in CommandName]: (...args: Parameters<ConsoleCommands[Name]>) => Promise<ReturnType<ConsoleCommands[Name]>>;
};

/**
 * One function per command of the table, each handing its name and arguments to `call`: how
 * the preload (one IPC channel each) and the browser bridge (one WebSocket request each) make
 * their clients, so neither lists the commands itself.
 */
export function commandCalls(call: (name: CommandName, args: unknown[]) => Promise<unknown>): ConsoleCalls {
  return Object.fromEntries(COMMAND_NAMES.map((name) => [name, (...args: unknown[]) => call(name, args)])) as unknown as ConsoleCalls;
}

/** As the screen sees it: every call is asynchronous; state arrives through `onState`. */
export type ConsoleApi = ConsoleCalls & {
  /** Calls `listener` with every new state; returns the function that stops it. */
  onState(listener: (state: ConsoleState) => void): () => void;
};

/** What the dealer window's preload exposes: the commands, and the state messages as sent (the page merges them). */
export type PreloadApi = ConsoleCalls & DisplayPreloadApi;

/** Browser-mode wire format (JSON over WebSocket). */
export type BridgeRequest = { readonly id: number; readonly method: CommandName; readonly args: readonly unknown[] };
export type BridgeMessage = { readonly type: 'result'; readonly id: number; readonly result: unknown } | StateMessage;

/**
 * The command table: every call the screen can make, once — its name and its arguments' schemas
 * (protocol/argumentChecks.ts; checked by station/ipc/validate.ts before the service sees them), from
 * which its argument count, its check and its signature's parameters all come (commandSchema.ts). Everything else that lists the commands derives from
 * here: ConsoleCommands and CommandName, the preload's functions, the browser bridge's client,
 * the IPC channels and handlers (scripts/commandTable.test.ts proves each list is this one).
 */
import type { RaceSummary } from '../engine/race/summary';
import type { StructureInput } from '../engine/plan/csv';
import { chipExchange, gameAction, gameName, houseOptions, objectOfSize, players, positive, seatCountDrafts, seatCounts, target, textOf } from './argumentChecks';
import { arg, command, optionalArg, tooDeepArgument, type Command } from './commandSchema';
import { CLOCK_ADJUST_MINUTES_MAX } from './clock';
import { CARD_CODE_MAX, HISTORY_PAGE_MAX, LANGUAGES, NAME_MAX, PROFILE_MAX_CHARS, REASON_MAX, SCAN_MAX, VOID_MAX } from './constants';
import { COUNT_STACK_MAX, DISPLAY_RESULT_MINUTES_MAX } from './settings';
import type { CommandResult, ConsoleState, DeviceProfileInfo, ScanReading, DisplayPreloadApi, HistoryPage, PortInfo, RaceRecord, SettingsInput, StateMessage } from './contract';
import { boolean, custom, is, isWhole, nullable, object, oneOf, transform, whole, withDefault, type Infer } from './schema';

export type { Command } from './commandSchema';

/** The largest tournament structure a screen may send, in KB of JSON. */
const STRUCTURE_MAX_KB = 256;

const raceId = arg('race', target);
const reason = arg('reason', withDefault(textOf(REASON_MAX), ''));
/** Why a race is abandoned: required and not blank (trimmed), for its record, the slip and the floor. */
const abandonReason = arg('reason', transform(withDefault(textOf(REASON_MAX), ''), (read, at) => {
  const why = read.trim();
  if (why === '') at(null, { key: 'command.abandonReason' });
  return why;
}));
const heldId = arg('held', positive({ key: 'command.heldId' }));

export const COMMANDS = {
  getState: command().returns<ConsoleState>(),
  /**
   * The table, the card source (and the language, the tournament when given): a screen that does
   * not change the language or the tournament leaves them out, and the saved ones are kept. Here
   * only an object: the settings' own schema (station/service/settingsSchema.ts) reads them.
   */
  saveSettings: command(arg('settings', objectOfSize<SettingsInput>(Infinity, { key: 'command.notObject' }))).returns<CommandResult>(),
  /** The tournament is on the break after `afterLevel` (a colour-up moment of the structure), or playing (null). Journaled. */
  markBreak: command(arg('afterLevel', nullable(whole(1, 10_000, { key: 'command.breakLevel' })))).returns<CommandResult>(),
  /**
   * Sets the table to the race of the proposed colour-up that takes `removed` off (its `next` the
   * proposal's): the screen names the break it shows, so a stale screen cannot set another's race.
   */
  startColorUp: command(arg('afterLevel', whole(1, 10_000, { key: 'command.colorUpLevel' })), arg('removed', positive({ key: 'command.colorUpChip' }))).returns<CommandResult>(),
  setLanguage: command(arg('language', oneOf(LANGUAGES, { key: 'command.oneOf', params: { options: LANGUAGES.join(', ') } }))).returns<CommandResult>(),
  /** Whether the room's clock on the player display sounds when a level or break begins (`display.clockSound`). */
  setClockSound: command(arg('on', boolean({ key: 'command.notBoolean' }))).returns<CommandResult>(),
  /** How many minutes the player display keeps a confirmed race's result (`display.resultMinutes`; 0: none). */
  setResultMinutes: command(arg('minutes', whole(0, DISPLAY_RESULT_MINUTES_MAX, { key: 'command.wholeRange', params: { min: 0, max: DISPLAY_RESULT_MINUTES_MAX } }))).returns<CommandResult>(),
  /** The chips in a stack where the house counts in stacks (`counting.stack`; 0: none): the count keypad's stack key. */
  setCountStack: command(arg('stack', whole(0, COUNT_STACK_MAX, { key: 'command.wholeRange', params: { min: 0, max: COUNT_STACK_MAX } }))).returns<CommandResult>(),
  /**
   * The tournament's structure: planned, kept with the break marked (while it is still a moment of
   * it), and its chips made the table's chip set (the chip leaving and the next kept when they fit).
   * Its meaning is the planner's to check (engine/plan); here only its shape and size.
   */
  saveStructure: command(arg('structure', objectOfSize<StructureInput>(STRUCTURE_MAX_KB * 1024, { key: 'command.structure', params: { kb: STRUCTURE_MAX_KB } }))).returns<CommandResult>(),
  /** The station's own tournament clock (a home game): started, paused, resumed, each journaled with the service's time. Refused while the floor runs the clock. */
  clockStart: command().returns<CommandResult>(),
  clockPause: command().returns<CommandResult>(),
  clockResume: command().returns<CommandResult>(),
  /** Gives the level on the station's clock `minutes` more time left ("+1 min"), or fewer when negative. */
  clockAdjust: command(
    arg('minutes', is((value): value is number => isWhole(value, -CLOCK_ADJUST_MINUTES_MAX, CLOCK_ADJUST_MINUTES_MAX) && value !== 0, { key: 'clock.adjustMinutes', params: { max: CLOCK_ADJUST_MINUTES_MAX } })),
  ).returns<CommandResult>(),
  /** The race these counts would make (exchange, pool, race chips, deal), without starting it. */
  previewRace: command(arg('counts', seatCounts)).returns<CommandResult<RaceSummary>>(),
  startRace: command(arg('counts', seatCounts)).returns<CommandResult>(),
  /**
   * The counts being typed for the next race, empty fields included (null chips): kept by the
   * service and sent to every window, so a reload or a second window shows them; cleared when
   * the race starts or the table changes.
   */
  saveCountDrafts: command(arg('counts', seatCountDrafts)).returns<CommandResult>(),
  /**
   * A card typed or tapped, for the race or game `target` (its id): the screen names what it
   * acts on, so a stale screen cannot deal into the next race.
   */
  dealCard: command(arg('target', target), arg('card', textOf(CARD_CODE_MAX))).returns<CommandResult>(),
  /**
   * What a keyboard-wedge scanner typed (a burst of keys the screen caught), for `target`: decoded
   * exactly as a frame from the serial port is (symbology prefix, the configured decoder), then dealt.
   */
  dealScan: command(arg('target', target), arg('scan', textOf(SCAN_MAX))).returns<CommandResult>(),
  /**
   * What a keyboard-wedge scan reads as, decoded as dealScan decodes it (the scanner's profile),
   * without dealing it: how a screen that deals no card names the scan it tells the dealer to repeat.
   */
  readScan: command(arg('scan', textOf(SCAN_MAX))).returns<CommandResult<ScanReading>>(),
  voidCards: command(raceId, arg('count', whole(1, VOID_MAX, { key: 'command.voidCount' })), reason).returns<CommandResult>(),
  confirmRace: command(raceId).returns<CommandResult>(),
  abandonRace: command(raceId, abandonReason).returns<CommandResult>(),
  /**
   * Chips exchanged at equal value outside a race (engine/race/exchange.ts): late-found chips of a
   * confirmed race of this station (TDA 24C, its chips), or a colour-up of one or more players'
   * chips with its reason (TDA 25B, never while a race is dealt). Journaled as `chip-exchange`.
   */
  recordChipExchange: command(arg('exchange', chipExchange)).returns<CommandResult>(),
  /**
   * The dealer calls the floor from the station (a dispute at the table, a table broken): journaled
   * as `floor-called` with the note (optional, trimmed) and the race open then; the floor page flags
   * the table until the director records a decision.
   */
  callFloor: command(arg('note', withDefault(textOf(REASON_MAX), ''))).returns<CommandResult>(),
  /** Deals the first held card (`heldId`) as if the shoe had sent it now. */
  takeHeldCard: command(arg('target', target), heldId).returns<CommandResult>(),
  /** Discards the first held card (`heldId`): kept on record as refused by the dealer. */
  discardHeldCard: command(arg('target', target), heldId).returns<CommandResult>(),
  listPorts: command().returns<CommandResult<readonly PortInfo[]>>(),
  /** A points game: its players clockwise, and (Chicago) its house options, all off when left out. */
  startGame: command(arg('game', gameName), arg('players', players), optionalArg('options', houseOptions)).returns<CommandResult>(),
  gameAction: command(arg('game', target), arg('action', gameAction)).returns<CommandResult>(),
  /** Ends the game: into the history when it has a winner, otherwise abandoned with the reason. */
  closeGame: command(arg('game', target), reason).returns<CommandResult>(),
  /**
   * The history's export (CSV or JSON) saved to a file the dealer picks in a save dialog, streamed
   * (Electron; null: the dialog was closed). Browser mode downloads it from /export/history.{csv,json}.
   */
  exportHistory: command(arg('format', oneOf(['csv', 'json'], { key: 'command.format' }))).returns<CommandResult<{ readonly file: string } | null>>(),
  /** Confirmed races before index `before` (null: the latest), at most `count` of them. */
  historyPage: command(
    arg('before', nullable(whole(0, Number.MAX_SAFE_INTEGER, { key: 'command.before' }))),
    arg('count', whole(1, HISTORY_PAGE_MAX, { key: 'command.wholeRange', params: { min: 1, max: HISTORY_PAGE_MAX } })),
  ).returns<CommandResult<HistoryPage>>(),
  /** A race's full record from the journal: every card, void and refusal, with the chain's verdict. */
  raceRecord: command(raceId).returns<CommandResult<RaceRecord>>(),
  /**
   * A device profile (the JSON of a profile file) validated and stored in the data folder under its
   * name. Here only its size: its meaning is the hardware reader's to check (readProfile).
   */
  importProfile: command(arg('profile', objectOfSize<unknown>(PROFILE_MAX_CHARS, { key: 'command.profile', params: { kb: PROFILE_MAX_CHARS / 1024 } }))).returns<CommandResult<DeviceProfileInfo>>(),
  /** Starts registering an RFID deck into a profile of this name (the card source must read tag IDs), or stops it (null). */
  registerDeck: command(arg('name', nullable(textOf(NAME_MAX)))).returns<CommandResult>(),
  /** Starts mapping the RFID table's antennas to its seats, one card dealt onto each seat in order (true), or stops it (false). */
  mapSeats: command(arg('start', boolean({ key: 'command.notBoolean' }))).returns<CommandResult>(),
  /**
   * "Find the settings for this reader": true starts listening on the card source's port (the
   * state's `detection` shows how far it has come and what it found); false stops it, or clears
   * what it found.
   */
  detectReader: command(arg('start', boolean({ key: 'command.notBoolean' }))).returns<CommandResult>(),
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
 * their clients, so neither lists the commands itself. Arguments nested too deep for the channel
 * to copy (IPC's structured clone, JSON.stringify: both recurse) are refused here, as the service's
 * check (checkCall) refuses them, never handed to the channel to overflow.
 */
export function commandCalls(call: (name: CommandName, args: unknown[]) => Promise<unknown>): ConsoleCalls {
  return Object.fromEntries(
    COMMAND_NAMES.map((name) => [
      name,
      (...args: unknown[]) => {
        const deep = tooDeepArgument(COMMANDS[name].arguments, args);
        return deep === null ? call(name, args) : Promise.resolve({ ok: false, error: deep });
      },
    ]),
  ) as unknown as ConsoleCalls;
}

/** As the screen sees it: every call is asynchronous; state arrives through `onState`. */
export type ConsoleApi = ConsoleCalls & {
  /** Calls `listener` with every new state; returns the function that stops it. */
  onState(listener: (state: ConsoleState) => void): () => void;
};

/** What the dealer window's preload exposes: the commands, and the state messages as sent (the page merges them). */
export type PreloadApi = ConsoleCalls & DisplayPreloadApi;

/**
 * A browser-mode request (JSON over WebSocket) as the server reads it: an id (a safe integer, the
 * answer carries it back); its method and arguments are taken as they are, for checkCall
 * (station/ipc/validate.ts) to read by the table. A message it refuses is not answered.
 */
export const BRIDGE_REQUEST = object({
  id: whole(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, { key: 'command.notObject' }),
  method: custom((value) => value),
  args: custom((value) => value),
}, { key: 'command.notObject' });

/** Browser-mode wire format (JSON over WebSocket): the request as the bridge client sends it. */
export type BridgeRequest = Infer<typeof BRIDGE_REQUEST> & { readonly method: CommandName; readonly args: readonly unknown[] };
export type BridgeMessage = { readonly type: 'result'; readonly id: number; readonly result: unknown } | StateMessage;

/**
 * What the console's service and its screens exchange, shared by the Electron preload
 * (`window.chipRace`) and the browser-mode WebSocket bridge: the state and its parts, settings,
 * results and errors (types), and the constants (protocol/constants.ts). The commands themselves
 * are in protocol/commands.ts, the one table station/ and renderer/ both derive their lists from.
 * The settings (protocol/settings.ts), races and history (protocol/races.ts) and the floor link
 * (protocol/floorLink.ts) have files of their own; this one re-exports them.
 */
import type { Card } from '../engine/cards';
import { isInputError } from '../engine/errors';
import type { Message } from '../engine/messages';
import type { GameView } from '../engine/poker/view';
import type { ColorUp, ColorUpProposal, LevelNeed } from '../engine/plan/planner';
import type { ShoeEvent, StatusCode, StatusState } from '../hardware/events';
import type { ChainStatus, JournalFinding } from '../journal/findings';
import type { ClockView } from './clock';
import type { FloorLinkState } from './floorLink';
import type { ReaderHealthView } from './readerHealth';
import type { ChipExchangesView, FloorCallsView, GameHistoryEntry, HistorySummary, RaceView } from './races';
import type { ConsoleSettings, SourceKind } from './settings';
import { LANGUAGES, MAX_SEATS, SOURCE_KINDS } from './constants';
import { commandErrorOf, exactObject, is, isRecord, list, literal, object, parse, refine, refusalOf, variant, whenGiven, type CommandError, type Infer, type Schema } from './schema';
import type { GameActionShape, SeatCountDraftShape } from './argumentChecks';

export type { ChainStatus, JournalFinding } from '../journal/findings';
export * from './constants';
export * from './floorLink';
export * from './readerHealth';
export * from './races';
export * from './settings';

/** A device profile the console offers: built in, or stored in its data folder. */
export interface DeviceProfileInfo {
  readonly name: string;
  readonly builtIn: boolean;
  /** The profile in one English sentence (the screens label the built-in ones in their language). */
  readonly summary: string;
  /** The profile as its file has it (hardware/profile.ts reads and checks it). */
  readonly profile: Readonly<Record<string, unknown>>;
}

/** "Register deck" under way: the RFID tags of a deck read in order, 52 of them, into a profile. */
export interface DeckRegistration {
  readonly name: string;
  readonly registered: number;
  readonly total: number;
  /** The card whose tag is to be read next. */
  readonly next: string | null;
  /** Why the last read was not taken (a tag already registered, not a tag), until the next one is: in English, and in keys (`problemSaid`) for the screens. */
  readonly problem: string | null;
  readonly problemSaid?: Message;
}

/**
 * "Map the antennas to seats" under way (a reader per seat, issue 26): one card dealt onto each of
 * the table's seats in order, the antenna that reads it becoming that seat; once the last seat is
 * read the map is saved as the profile's `readers` (`next` null: done, the map as saved).
 */
export interface SeatMapping {
  /** The card source's profile the map is saved into. */
  readonly name: string;
  /** The table's seats, in the order they are mapped. */
  readonly seats: readonly number[];
  /** The antennas mapped so far (all of them once done), each with its seat. */
  readonly readers: Readonly<Record<string, number>>;
  /** The seat whose card is to be read next; null once the map is saved. */
  readonly next: number | null;
  /** Why the last read was not taken for `next`, until the next one is. */
  readonly problem: Message | null;
}

/** A profile "Find the settings for this reader" found: what it read, and the profile (complete, as a file has it) to store and choose. */
export interface DetectedProfile {
  /** `2400 7E1`. */
  readonly setting: string;
  /** The profile in one English sentence. */
  readonly summary: string;
  /** Frames it read cleanly. */
  readonly frames: number;
  readonly cards: readonly string[];
  /** Tag IDs read (none of them registered yet). */
  readonly tags: readonly string[];
  readonly profile: Readonly<Record<string, unknown>>;
}

/**
 * "Find the settings for this reader" (what `cards --detect` does, in the console): the card
 * source's port listened to at each common line setting in turn, then the profiles that read it
 * cleanly, best first. The card source is closed meanwhile and opened again after.
 */
export interface ReaderDetection {
  readonly state: 'listening' | 'done' | 'failed';
  readonly path: string;
  /** Settings listened to so far (the one under way included), of `total`; `total` when done. */
  readonly tried: number;
  readonly total: number;
  /** The setting listened to now (`2400 7E1`); null before the first. */
  readonly setting: string | null;
  readonly found: readonly DetectedProfile[];
  /** Why it failed (the port could not be opened), in English, and in keys (`problemSaid`) for the screens. */
  readonly problem: string | null;
  readonly problemSaid?: Message;
}

/** The colour-ups planned from the structure, and the one proposed now (at the break the tournament is on). */
export interface PlanView {
  readonly colorUps: readonly ColorUp[];
  readonly moments: readonly number[];
  readonly needs: readonly LevelNeed[];
  /** What the planner warns of, as messages (said in the dealer's language). */
  readonly warnings: readonly Message[];
  readonly proposal: ColorUpProposal | null;
}

/** A race of the planned colour-up, and the race that ran it. */
export interface ColorUpRace {
  readonly raceId: string;
  /** The race's chips: `removed` raced into `next` (a step of the proposal's `races`). */
  readonly removed: number;
  readonly next: number;
}

/**
 * How far the colour-up of the break the tournament is on has come, as the service journals it: the
 * races started for it, and those of them confirmed (the break marked afresh starts from none).
 */
export interface ColorUpProgress {
  /** The break (the level it follows) marked last. */
  readonly afterLevel: number;
  /** Its races confirmed since, in order, with when. */
  readonly done: readonly (ColorUpRace & { readonly confirmedAt: string })[];
  /** The open race, when it runs one of its races. */
  readonly running: ColorUpRace | null;
}

/**
 * One seat's count as the dealer is typing it on the counts screen, before the race: `chips` is
 * null while the field is empty ("not entered yet"). The service keeps these for the table's next
 * race, so a reload or a second window shows the same counts.
 */
export type SeatCountDraft = SeatCountDraftShape;


/**
 * A card from the shoe held for the dealer's say: read while the line was noisy, read at another
 * seat's antenna than the one the deal is at (`seat`, issue 26), or behind such a card.
 */
export interface HeldCard {
  readonly id: number;
  /** The race or game it was read for. */
  readonly target: string;
  readonly card: string;
  readonly raw: string;
  readonly why: 'noise' | 'queued' | 'seat';
  /** The reader or antenna that read it, when the device named one. */
  readonly reader?: string;
  /** `seat`: the seat whose antenna read it. */
  readonly readAt?: number;
  /** `seat`: the seat the deal was at when it was held (taking it deals it to the seat the deal is at then). */
  readonly seat?: number;
}

export interface SourceStatus {
  readonly kind: SourceKind;
  readonly path: string;
  /** `idle` for manual entry and before a port is opened. */
  readonly state: StatusState | 'idle';
  readonly code?: StatusCode;
  /** What the port says of itself: in English (the command line's), and in keys (`said`) for the screens. */
  readonly message?: string;
  readonly said?: Message;
}

export type { GameView } from '../engine/poker/view';


export type GameAction = GameActionShape;

/** What was found when the journal was read on start (a torn last line, damage, tampering, a newer version). */
export interface JournalReport {
  readonly path: string;
  /** Records in the journal: read at start, and written since. */
  readonly records: number;
  readonly findings: readonly JournalFinding[];
  /** The seal chain as checked on start. */
  readonly chain: ChainStatus;
  /** Records written before the journal was sealed (an older version): they cannot be checked. */
  readonly unchained: number;
  /** The highest seq among those (0 when there are none). */
  readonly unchainedThrough: number;
  /** Why nothing can be recorded (a newer version wrote the journal), or null. */
  readonly readOnly: JournalFinding | null;
  /** A start from a checkpoint: the check of the journal's bytes before it, made while the console serves (absent: the start read the whole journal). */
  readonly coverCheck?: CoverCheck;
}

/**
 * The check of the journal's bytes a checkpoint covers, after a start from it: `damaged` is tamper
 * evidence (bytes `from`…`to` changed since the checkpoint was written), as serious as a finding.
 */
export type CoverCheck =
  | { readonly status: 'checking' }
  | { readonly status: 'ok'; readonly at: string; readonly bytes: number }
  | { readonly status: 'damaged'; readonly at: string; readonly block: number; readonly from: number; readonly to: number };

/** What a keyboard-wedge scan reads as by the scanner's profile: its card, or null when it names none. */
export interface ScanReading {
  readonly card: Card | null;
}

/** A card the shoe read that was not taken: nobody typed it, so the screen must say why. */
export interface ShoeRefusal {
  readonly card: string;
  readonly field: string;
  readonly message: string;
  /** The refusal as a key and its parameters (CommandError.said), for the headline in the dealer's language. */
  readonly said?: Message;
}

/**
 * An event from the card source as the service numbered it: ids go up by one per event from the
 * service's start, so two identical reads in a row are two inputs.
 */
export interface NumberedInput {
  readonly id: number;
  /** When the service read it (ISO 8601, the service's clock); absent from a service that does not say. */
  readonly at?: string;
  readonly event: ShoeEvent;
}

/** How many of the latest inputs a state carries: the most that arrive between two states pushed, a run of noise aside. */
export const RECENT_INPUTS_MAX = 8;

/** Everything the screens show. Pushed after every change, once the change is on disk. */
export interface ConsoleState {
  readonly settings: ConsoleSettings;
  readonly race: RaceView | null;
  readonly source: SourceStatus;
  /** The latest event from the card source (a card, an unknown code, a device message). */
  readonly lastInput: ShoeEvent | null;
  /** The latest events from the card source, numbered by the service, oldest first (at most RECENT_INPUTS_MAX): the screens' input log is built from these, by id. */
  readonly inputs: readonly NumberedInput[];
  /** The last card from the shoe the race or game refused, and why; cleared by the next change accepted. */
  readonly shoeRefusal: ShoeRefusal | null;
  readonly history: HistorySummary;
  /** Cards from the shoe waiting for the dealer's say, oldest first. */
  readonly held: readonly HeldCard[];
  /** The device profiles offered (built-in, then stored). */
  readonly profiles: readonly DeviceProfileInfo[];
  /** The RFID deck being registered, if any. */
  readonly registration: DeckRegistration | null;
  readonly seatMapping: SeatMapping | null;
  /** "Find the settings for this reader" under way or its outcome, until dismissed; null otherwise. */
  readonly detection: ReaderDetection | null;
  /** The points game in progress (Pistepokeri or Chicago), if any; a race and a game never run at once. */
  readonly game: GameView | null;
  readonly games: readonly GameHistoryEntry[];
  /** The colour-up plan of the saved structure; null without one. */
  readonly plan: PlanView | null;
  /** The proposed colour-up's races started and confirmed since its break was marked; null when no break is marked. */
  readonly colorUp: ColorUpProgress | null;
  readonly journal: JournalReport;
  /** The counts being typed for the table's next race (one per seat in play that has one); empty when none. */
  readonly countDrafts: readonly SeatCountDraft[];
  /** The tournament clock: the station's own or the floor's, its schedule and events (protocol/clock.ts). */
  readonly clock: ClockView;
  /** The station's link to the floor (`off` when none is set up). */
  readonly floorLink: FloorLinkState;
  /** The dealer's call of the floor not yet answered, and the director's latest decisions on this table (replay/floorDecisions.ts). */
  readonly floorCalls: FloorCallsView;
  /** Chips exchanged outside a race: late-found chips, colour-ups of a player (replay/chipExchange.ts). */
  readonly chipExchanges: ChipExchangesView;
  /** The card sources' frames counted per hour, and the verdict on the last frames (protocol/readerHealth.ts). */
  readonly readerHealth: ReaderHealthView;
}

/** A refusal: the field at fault, its English and its key (protocol/schema.ts, the one mapping from a schema's refusals). */
export type { CommandError } from './schema';

export type CommandResult<T = null> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: CommandError };

export interface PortInfo {
  readonly path: string;
  readonly manufacturer: string;
  readonly vendorId: string;
  readonly productId: string;
}


/** How a state message's part is refused (engine/messages: `stateMessage.*`). */
const SAID = {
  object: { key: 'stateMessage.object' },
  objectOrNull: { key: 'stateMessage.objectOrNull' },
  list: { key: 'stateMessage.list' },
  text: { key: 'stateMessage.text' },
  whole: { key: 'stateMessage.whole' },
} as const;

type Test = (value: unknown) => boolean;
const isText: Test = (value) => typeof value === 'string';
const isWholeNumber: Test = (value) => Number.isInteger(value);
const isObjectOrNull: Test = (value) => value === null || isRecord(value);
const oneOfTest = (options: readonly string[]): [Test, Message] => [(value) => options.includes(value as string), { key: 'stateMessage.oneOf', params: { options: options.join(', ') } }];

/**
 * A part of the state read at its top: an object (with `orNull`, or null) whose named fields pass
 * their tests, refused at the first that does not. What lies below is passed on as the service
 * made it (typed by ConsoleState): see STATE_MESSAGE for why the check stops there.
 */
function part<T>(fields: Readonly<Record<string, readonly [Test, Message]>> = {}, orNull = false): Schema<T> {
  const checks = Object.entries(fields);
  return refine(is((value): value is T => isRecord(value) || (orNull && value === null), orNull ? SAID.objectOrNull : SAID.object), (read, at) => {
    if (read === null) return;
    for (const [field, [test, said]] of checks) if (!test((read as Record<string, unknown>)[field])) at(field, said);
  });
}

/** A list part: each entry an object read by `entry`; at most `max` of them where the state bounds them. */
const parts = <T>(entry: Schema<T>, max?: number): Schema<readonly T[]> =>
  list(entry, { max: max ?? Number.POSITIVE_INFINITY, said: max === undefined ? SAID.list : { key: 'stateMessage.listMax', params: { n: max } } });

/** Every part of the state, each with its schema (the type makes the list whole and each schema give its part's type). */
const STATE_PARTS: { readonly [Part in keyof ConsoleState]-?: Schema<ConsoleState[Part]> } = {
  settings: part({ table: [isRecord, SAID.object], source: [isRecord, SAID.object], language: oneOfTest(LANGUAGES) }),
  race: part({ id: [isText, SAID.text], counts: [Array.isArray, SAID.list], summary: [isRecord, SAID.object] }, true),
  source: part({ kind: oneOfTest(SOURCE_KINDS), state: [isText, SAID.text] }),
  lastInput: part({ type: [isText, SAID.text] }, true),
  inputs: parts(part({ id: [isWholeNumber, SAID.whole], event: [isRecord, SAID.object] }), RECENT_INPUTS_MAX),
  shoeRefusal: part({ card: [isText, SAID.text], field: [isText, SAID.text], message: [isText, SAID.text] }, true),
  history: part({ total: [isWholeNumber, SAID.whole], latest: [isObjectOrNull, SAID.objectOrNull] }),
  held: parts(part({ id: [isWholeNumber, SAID.whole], target: [isText, SAID.text], card: [isText, SAID.text] })),
  profiles: parts(part({ name: [isText, SAID.text], profile: [isRecord, SAID.object] })),
  registration: part({ name: [isText, SAID.text] }, true),
  seatMapping: part({ name: [isText, SAID.text], seats: [Array.isArray, SAID.list], readers: [isRecord, SAID.object] }, true),
  detection: part({ state: oneOfTest(['listening', 'done', 'failed']), found: [Array.isArray, SAID.list] }, true),
  game: part({}, true),
  games: parts(part()),
  plan: part({}, true),
  colorUp: part({}, true),
  journal: part({ path: [isText, SAID.text], findings: [Array.isArray, SAID.list], chain: [isText, SAID.text] }),
  countDrafts: parts(part({ seat: [isWholeNumber, SAID.whole] }), MAX_SEATS),
  clock: part({ source: [isText, SAID.text], events: [Array.isArray, SAID.list] }),
  floorLink: part({ state: [isText, SAID.text] }),
  floorCalls: part({ decisions: [Array.isArray, SAID.list] }),
  chipExchanges: part({ exchanges: [Array.isArray, SAID.list], valueDelta: [isWholeNumber, SAID.whole] }),
  readerHealth: part({ sources: [Array.isArray, SAID.list] }),
};

/** A patch's parts: each may be left out (absent stays absent; null is a value: the race ended). */
const PATCH_PARTS = Object.fromEntries(Object.entries(STATE_PARTS).map(([name, schema]) => [name, whenGiven(schema as Schema<unknown>, undefined)])) as {
  readonly [Part in keyof ConsoleState]-?: Schema<ConsoleState[Part] | undefined>;
};

const UNKNOWN_PART = { key: 'stateMessage.unknownPart' } as const;
const NOT_MESSAGE = { key: 'stateMessage.notMessage' } as const;

/**
 * A pushed state: whole (the first one a page gets), or only the parts that changed since the
 * last one sent to that page, so a card does not carry the whole history across. The page reads
 * every message by this schema (`readStateMessage`) and keeps its last good state when one is
 * refused. The envelope is read whole: its kind, every part of a whole state, no part a state
 * has not; each part at its top (an object or null, a list of objects, the fields the screens
 * key on), not below: a whole walk of each part would be a second description of the engine's
 * types (race summaries, game views) for what the service's own typed code made, on every card's
 * path (measured in docs/architecture.md, "Boundaries").
 */
export const STATE_MESSAGE = variant(
  'type',
  {
    state: object({ type: literal('state'), state: exactObject(STATE_PARTS, SAID.object, UNKNOWN_PART) }, NOT_MESSAGE),
    patch: object({ type: literal('patch'), patch: exactObject(PATCH_PARTS, SAID.object, UNKNOWN_PART) }, NOT_MESSAGE),
  },
  NOT_MESSAGE,
  (got) => ({ key: 'stateMessage.type', params: { got: String(JSON.stringify(got)) } }),
);

export type StateMessage = Infer<typeof STATE_MESSAGE>;

/** The longest state message text a page reads (a whole state with many stored profiles is a few MB). */
export const STATE_MESSAGE_MAX_CHARS = 32 * 1024 * 1024;

/**
 * A pushed message as a page may take it, or its keyed refusal (`field` as the schema names it:
 * `type`, `state.race`, `patch.inputs[2].id`; `message` for one too long). `chars`: the length of
 * the text it came as, when it came as text (the bridge); IPC's messages come as objects.
 */
export function readStateMessage(value: unknown, chars = 0): CommandResult<StateMessage> {
  if (chars > STATE_MESSAGE_MAX_CHARS) return { ok: false, error: refusalOf('message', { key: 'stateMessage.tooLarge', params: { mb: STATE_MESSAGE_MAX_CHARS / 1024 / 1024 } }) };
  try {
    return { ok: true, value: parse(STATE_MESSAGE, value) };
  } catch (error) {
    if (isInputError(error)) return { ok: false, error: commandErrorOf(error) };
    throw error;
  }
}

/** What the player display's preload exposes: the state messages only, no command (it is read-only). */
export interface DisplayPreloadApi {
  onStateMessage(listener: (message: StateMessage) => void): () => void;
}

/**
 * What the console's service and its screens exchange, shared by the Electron preload
 * (`window.chipRace`) and the browser-mode WebSocket bridge: the state and its parts, settings,
 * results and errors (types), and the constants (protocol/constants.ts). The commands themselves
 * are in protocol/commands.ts, the one table main/ and renderer/ both derive their lists from.
 */
import type { Message } from '../engine/messages';
import type { GameName } from '../engine/poker/rules';
import type { GameView } from '../engine/poker/view';
import type { StructureInput } from '../engine/plan/csv';
import type { ColorUp, ColorUpProposal, LevelNeed } from '../engine/plan/planner';
import type { RuleSetName } from '../engine/race/rules';
import type { RaceSummary } from '../engine/race/summary';
import type { ShoeEvent, StatusCode, StatusState } from '../hardware/events';
import type { DataBits, Parity, StopBits } from '../hardware/lineSettings';
import type { ChainStatus, JournalFinding } from '../journal/findings';
import type { ClockView } from './clock';

export type { ChainStatus, JournalFinding } from '../journal/findings';

import { LANGUAGES, SOURCE_KINDS } from './constants';

export * from './constants';

export type SourceKind = (typeof SOURCE_KINDS)[number];
export type Language = (typeof LANGUAGES)[number];

export interface SeatSettings {
  readonly seat: number;
  readonly name: string;
}

export interface SourceSettings {
  readonly kind: SourceKind;
  /** Serial port path (serial) or the simulator's port (simulator); empty for manual entry. */
  readonly path: string;
  readonly baud: number;
  /** The device profile: a built-in one's name (hardware/profile.ts) or one stored in the data folder. */
  readonly decoder: string;
  /** The line settings and repeat window, over the profile's own; absent: the profile's. */
  readonly dataBits?: DataBits;
  readonly parity?: Parity;
  readonly stopBits?: StopBits;
  readonly rtscts?: boolean;
  readonly repeatMs?: number;
}

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

/** What the dealer sets up once per table; remembered between races. */
export interface TableSettings {
  /** Seats 1–10 in play, with optional names. */
  readonly seats: readonly SeatSettings[];
  readonly button: number;
  /** The table's chip denominations, ascending. */
  readonly chipSet: readonly number[];
  /** The denomination leaving play; the next one up is proposed as `next`. */
  readonly removed: number;
  readonly next: number;
  readonly rules: RuleSetName;
  readonly decks: number;
  /** The dealer on duty, named on each race's record as the one who confirmed it; absent when not given. */
  readonly dealer?: string;
  /** The table's name or number (at most TABLE_NAME_MAX characters), kept with each race; absent when the table is not named. */
  readonly name?: string;
}

/** The tournament's structure (as the planner reads it) and where the tournament is now. */
export interface TournamentSettings {
  readonly structure: StructureInput | null;
  /** The level the tournament has just finished, when it is on the break after it; null otherwise. */
  readonly atBreakAfter: number | null;
}

/**
 * The chip set is kept once, in the table (`table.chipSet`): a saved structure's `chips` are the
 * table's, filled in by the service (the settings file stores the structure without them).
 */
export interface ConsoleSettings {
  readonly table: TableSettings;
  readonly source: SourceSettings;
  readonly language: Language;
  /** Absent in settings saved before the planner existed: no structure. */
  readonly tournament?: TournamentSettings;
  /** The link to the tournament's floor (PostgreSQL); absent: none. The table's name is `table.name`. */
  readonly floor?: FloorSettings;
}

/**
 * Where the station replicates its journal. The service holds the URL with its password (from the
 * settings file); the state carries it without, and says only whether one is set.
 */
export interface FloorSettings {
  /** Whether the station sends its journal to the floor. */
  readonly on: boolean;
  /** The floor's PostgreSQL URL (`postgres://user:password@host:port/database`); in the state, without its password. */
  readonly url: string;
  /** In the state only: whether the URL held has a password. */
  readonly passwordSet?: boolean;
}

/** The floor a link goes to, as the screens may see it: never the password. */
export interface FloorTarget {
  readonly host: string;
  readonly database: string;
  readonly table: string;
  /** The settings screen's, or CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE (which override it). */
  readonly from: 'settings' | 'environment';
}

/** Why the floor cannot be reached, as the screens word it (the driver's code is kept as `detail`). */
export const FLOOR_OFFLINE_REASONS = ['unreachable', 'login', 'cleartext', 'database', 'schema', 'table', 'other'] as const;
export type FloorOfflineReason = (typeof FLOOR_OFFLINE_REASONS)[number];

/** Why the floor refuses a record on arrival: the codes its check writes (floor/db/migrations.ts, verify_station_record). */
export const FLOOR_REFUSAL_REASONS = ['changed-after-arrival', 'gap', 'header-not-json', 'header-unknown', 'no-seal', 'broken-link', 'bad-seal', 'not-json', 'no-header', 'seq-mismatch', 'bad-time'] as const;

/**
 * The station's link to the floor. `behind`: the floor is reachable and the records counted are
 * still to send. `refused`: the floor refused record `seq` on arrival (`reason`, its check's code):
 * the chain is broken from there and nothing later is stored.
 */
export type FloorLinkState =
  | { readonly state: 'off' }
  | { readonly state: 'connecting' | 'connected'; readonly floor: FloorTarget }
  | { readonly state: 'behind'; readonly floor: FloorTarget; readonly records: number }
  | { readonly state: 'offline'; readonly floor: FloorTarget; readonly since: string; readonly reason: FloorOfflineReason; readonly detail: string; readonly records: number }
  | { readonly state: 'refused'; readonly floor: FloorTarget; readonly seq: number; readonly reason: string; readonly records: number };

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

/** One seat's count before the race: its leaving chips, and whether it has any other chips. */
export interface SeatCount {
  readonly seat: number;
  readonly chips: number;
  readonly hasOther: boolean;
}

/**
 * One seat's count as the dealer is typing it on the counts screen, before the race: `chips` is
 * null while the field is empty ("not entered yet"). The service keeps these for the table's next
 * race, so a reload or a second window shows the same counts.
 */
export interface SeatCountDraft {
  readonly seat: number;
  readonly chips: number | null;
  readonly hasOther: boolean;
}

/** Where a race was run: the table's name, the station that ran it, the colour-up level it belongs to (each when known). */
export interface RacePlace {
  /** The table's name or number when the race started (TableSettings.name). */
  readonly table?: string;
  /** The station (the computer) the race was run on. */
  readonly station?: string;
  /** The level after which the break of the colour-up this race ran a race of falls. */
  readonly level?: number;
}

export interface RaceView {
  readonly id: string;
  readonly startedAt: string;
  readonly counts: readonly SeatCount[];
  readonly names: Readonly<Record<number, string>>;
  readonly summary: RaceSummary;
  readonly corrections: number;
}

/** A voided card, kept on record with why (see the engine's Correction). */
export interface VoidedCard {
  readonly card: string;
  readonly seat: number;
  readonly round: number;
  readonly reason: string;
}

export interface HistoryEntry extends RacePlace {
  readonly id: string;
  readonly startedAt: string;
  readonly confirmedAt: string;
  readonly names: Readonly<Record<number, string>>;
  readonly summary: RaceSummary;
  readonly corrections: number;
  /** The dealer on duty when it was confirmed (absent when none was named). */
  readonly confirmedBy?: string;
  readonly voided: readonly VoidedCard[];
  /** Cards and corrections the race refused (misreads, repeats), counted with their repeats. */
  readonly refusals: number;
  /** The journal records the race spans: its start and its confirmation. */
  readonly seqs: { readonly first: number; readonly last: number };
}

/** The history as every state carries it: the totals and the race confirmed last. Pages come from `historyPage`. */
export interface HistorySummary {
  readonly total: number;
  /** Chip value created (removed when negative) by all confirmed races. */
  readonly valueDelta: number;
  readonly latest: HistoryEntry | null;
}

/** Confirmed races `start` … `start + entries.length - 1` (0 is the first ever), oldest first. */
export interface HistoryPage {
  readonly total: number;
  readonly start: number;
  readonly entries: readonly HistoryEntry[];
}

/** Where an input came from: typed or tapped, the serial shoe or reader, or a keyboard-wedge scanner. */
export type InputSource = 'manual' | 'shoe' | 'scanner';

/** One line of a race's record, as the floor reads it: what happened, when, from where. */
export type RaceRecordEvent =
  | { readonly seq: number; readonly at: string; readonly type: 'start' }
  | { readonly seq: number; readonly at: string; readonly type: 'card'; readonly card: string; readonly seat: number; readonly round: number; readonly source: InputSource; readonly held: boolean }
  | { readonly seq: number; readonly at: string; readonly type: 'void'; readonly voided: readonly VoidedCard[] }
  /** `reason` in English; `said` the same in keys, when the station recorded it and this version can say it. */
  | { readonly seq: number; readonly at: string; readonly type: 'refused'; readonly input: string; readonly reason: string; readonly said?: Message; readonly source: InputSource; readonly count: number }
  | { readonly seq: number; readonly at: string; readonly type: 'confirm'; readonly by?: string }
  | { readonly seq: number; readonly at: string; readonly type: 'abandon'; readonly reason: string };

/** A race's full record, read back from the journal: what settles a dispute. */
export interface RaceRecord extends RacePlace {
  readonly id: string;
  readonly status: 'open' | 'confirmed' | 'abandoned';
  readonly startedAt: string;
  readonly counts: readonly SeatCount[];
  readonly names: Readonly<Record<number, string>>;
  readonly summary: RaceSummary;
  readonly events: readonly RaceRecordEvent[];
  readonly seqs: { readonly first: number; readonly last: number };
  /** The seal of the race's last record: a copy on a signed slip proves later that nothing was changed. */
  readonly lastSeal: string | null;
  /** The chain as checked when the record was read, and what it found within the race's records. */
  readonly chain: ChainStatus;
  readonly findings: readonly JournalFinding[];
}

/** A card from the shoe held for the dealer's say (read while the line was noisy, or behind such a card). */
export interface HeldCard {
  readonly id: number;
  /** The race or game it was read for. */
  readonly target: string;
  readonly card: string;
  readonly raw: string;
  readonly why: 'noise' | 'queued';
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

export interface GameHistoryEntry {
  readonly id: string;
  readonly game: GameName;
  readonly players: readonly string[];
  readonly deals: number;
  readonly scores: Readonly<Record<string, number>>;
  readonly winner: string | null;
  readonly closedAt: string;
}

export type GameAction =
  | { readonly type: 'discard'; readonly cards: readonly string[] }
  | { readonly type: 'end-exchanges' }
  | { readonly type: 'call'; readonly player: string }
  | { readonly type: 'next-deal' };

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
}

export interface CommandError {
  /** The input field at fault (`cards`, `seats[2].chips`, `path` …). */
  readonly field: string;
  /** The refusal in English (the command line's and the log's words). */
  readonly message: string;
  /** The refusal as a key and its parameters (engine/messages), for the screens to say in the dealer's language. */
  readonly said?: Message;
}

export type CommandResult<T = null> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: CommandError };

export interface PortInfo {
  readonly path: string;
  readonly manufacturer: string;
  readonly vendorId: string;
  readonly productId: string;
}

/** Settings as a screen saves them: the language and the tournament may be left out (the saved ones stay). */
export type SettingsInput = Omit<ConsoleSettings, 'language' | 'tournament'> & Partial<Pick<ConsoleSettings, 'language' | 'tournament'>>;

/**
 * A pushed state: whole (the first one a page gets), or only the parts that changed since the
 * last one sent to that page, so a card does not carry the whole history across.
 */
export type StateMessage =
  | { readonly type: 'state'; readonly state: ConsoleState }
  | { readonly type: 'patch'; readonly patch: Partial<ConsoleState> };

/** What the player display's preload exposes: the state messages only, no command (it is read-only). */
export interface DisplayPreloadApi {
  onStateMessage(listener: (message: StateMessage) => void): () => void;
}

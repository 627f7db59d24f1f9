/**
 * What the dealer sets up and the service keeps in the settings file: the table, the card source,
 * the language, the tournament's structure and the link to the floor.
 */
import type { StructureInput } from '../engine/plan/csv';
import type { HouseRules } from '../engine/plan/tournament';
import { RULE_SETS, type RaceSettings, type RuleSetName } from '../engine/race/rules';
import type { DataBits, Parity, StopBits } from '../hardware/lineSettings';
import { LANGUAGES, SOURCE_KINDS } from './constants';

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
  /**
   * The keyboard-wedge scanner's device profile (a built-in one's name or a stored one's): what it
   * types is decoded by this, whatever the shoe's `decoder`. Absent (a file from before it could be
   * chosen): DEFAULT_SCANNER_PROFILE (card codes as text).
   */
  readonly scanner?: string;
}


/**
 * A race setting chosen on its own over the rule set's (the house variants: `rounding`, `dealStart`,
 * `protection`, `award`, by the rules page's names); absent: the rule set's (settings saved before
 * they could be chosen have none).
 */
export type SettingChoices = Partial<RaceSettings>;

/** The race settings `from` chooses on its own (a table, the station's own kept aside, the floor's house), only those it chooses. */
export function settingChoicesOf(from: SettingChoices): SettingChoices {
  const { rounding, dealStart, protection, award } = from;
  return {
    ...(rounding === undefined ? {} : { rounding }),
    ...(dealStart === undefined ? {} : { dealStart }),
    ...(protection === undefined ? {} : { protection }),
    ...(award === undefined ? {} : { award }),
  };
}

/** The race settings a table plays by: its rule set's, with each setting it chooses on its own. */
export function raceSettingsOf(table: Pick<TableSettings, 'rules'> & SettingChoices): RaceSettings {
  return { ...RULE_SETS[table.rules], ...settingChoicesOf(table) };
}

/** What the dealer sets up once per table; remembered between races. */
export interface TableSettings extends SettingChoices {
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
  /**
   * Present while the tournament is the floor's: its structure, chip set and house rules stand in
   * the table and the tournament above (the screens say "from the floor" and do not edit them),
   * the station's own kept aside, given back when the link ends.
   */
  readonly fromFloor?: FromFloor;
  /**
   * Present while the table's seats are the floor's seating (floor/seating.ts): `table.seats` are the
   * floor's (the seats in play and the players' names), the screens do not edit them, and the
   * station's own are kept aside here, given back when the link ends or the floor drops the table.
   */
  readonly seatsFromFloor?: SeatsFromFloor;
  /**
   * Only in the settings file, never in the settings the screens get: the choices the station made
   * under the floor's tournament (the chip leaving and the next, the break marked), kept with its
   * own settings while the floor's tournament itself is in the journal (`floor-tournament`,
   * station/service/floorOverlay.ts). Absent: none made, or not linked.
   */
  readonly onFloor?: OnFloorChoices;
  /** The player display's own settings; absent (settings saved before it had any): DEFAULT_DISPLAY_SETTINGS. */
  readonly display?: DisplaySettings;
  /** How the dealer counts at this station; absent (settings saved before it had any): DEFAULT_COUNTING_SETTINGS. */
  readonly counting?: CountingSettings;
}

/** What the station had set up itself before the floor's tournament stood in for it (its own race settings too). */
export interface OwnTournament extends SettingChoices {
  readonly chipSet: readonly number[];
  readonly removed: number;
  readonly next: number;
  readonly rules: RuleSetName;
  readonly decks: number;
  readonly tournament: TournamentSettings | null;
}

export interface FromFloor {
  /** The house rules the floor gives (a rule left out stays the table's own, and the screens edit it). */
  readonly house: HouseRules;
  readonly own: OwnTournament;
}

/** What the station chose under the floor's tournament (ConsoleSettings.onFloor). */
export interface OnFloorChoices {
  readonly removed: number;
  readonly next: number;
  readonly atBreakAfter: number | null;
}

/** The station's own seats, kept aside while the floor's seating stands in for them. */
export interface SeatsFromFloor {
  readonly own: readonly SeatSettings[];
  /** Whether the floor broke this table (its players moved on: no seat in play). */
  readonly broken: boolean;
}

/** The player display's settings: set by commands of their own (`setClockSound`, `setResultMinutes`), kept across a save of the rest. */
export interface DisplaySettings {
  /** Whether the room's clock on the player display sounds a short tone when a level or break begins. */
  readonly clockSound: boolean;
  /**
   * How many minutes the player display keeps the last confirmed race's result (with its time)
   * after the dealer confirms it, unless a race or a game starts first: players back from the bar
   * still see who won. 0: the result goes when confirmed.
   */
  readonly resultMinutes: number;
}

/** The most minutes the display keeps a result, and the choices the settings screen offers. */
export const DISPLAY_RESULT_MINUTES_MAX = 60;
export const DISPLAY_RESULT_MINUTES_CHOICES = [0, 2, 5, 10, 15, 30, 60] as const;

/** The player display's settings where none were saved: the room's clock sounds, a result stays 10 minutes. */
export const DEFAULT_DISPLAY_SETTINGS: DisplaySettings = { clockSound: true, resultMinutes: 10 };

/** The player display's settings in force: those saved, the defaults for any not saved (or no settings yet). */
export function displaySettingsOf(settings: Pick<ConsoleSettings, 'display'> | null | undefined): DisplaySettings {
  return { ...DEFAULT_DISPLAY_SETTINGS, ...settings?.display };
}

/** How the house counts the chips leaving play: set by a command of its own (`setCountStack`), kept across a save of the rest. */
export interface CountingSettings {
  /**
   * The chips in a stack where the house counts the chips leaving play in stacks (20 a stack, as
   * racks and chip trays hold them): the count's keypad then has a key that adds a stack. 0: no
   * stacks, the count is typed chip by chip.
   */
  readonly stack: number;
}

/** The stacks the settings screen offers (0: none), and the most a stack may hold. */
export const COUNT_STACK_CHOICES = [0, 5, 10, 20, 25] as const;
export const COUNT_STACK_MAX = 100;

/** How the dealer counts where nothing was saved: chip by chip. */
export const DEFAULT_COUNTING_SETTINGS: CountingSettings = { stack: 0 };

/** The counting settings in force: those saved, the defaults for any not saved (or no settings yet). */
export function countingSettingsOf(settings: Pick<ConsoleSettings, 'counting'> | null | undefined): CountingSettings {
  return { ...DEFAULT_COUNTING_SETTINGS, ...settings?.counting };
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


/** Settings as a screen saves them: the language, the tournament and the display's may be left out (the saved ones stay); the floor's tournament is the service's to set. */
export type SettingsInput = Omit<ConsoleSettings, 'language' | 'tournament' | 'display' | 'fromFloor' | 'seatsFromFloor' | 'onFloor'> & Partial<Pick<ConsoleSettings, 'language' | 'tournament' | 'display'>>;

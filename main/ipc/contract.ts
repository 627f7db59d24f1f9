/**
 * The console's one API, shared by the Electron preload (`window.chipRace`) and the browser-mode
 * WebSocket bridge. Types and constants only: the renderer may `import type` from here, main/
 * implements it, and main/ipc/validate.ts checks every incoming call against METHODS.
 */
import type { GameName } from '../../engine/poker/rules';
import type { GameView } from '../../engine/poker/view';
import type { StructureInput } from '../../engine/plan/csv';
import type { ColorUp, ColorUpProposal, LevelNeed } from '../../engine/plan/planner';
import type { RuleSetName } from '../../engine/race/rules';
import type { RaceSummary } from '../../engine/race/summary';
import type { ShoeEvent, StatusCode, StatusState } from '../../hardware/events';

export const API_KEY = 'chipRace';

export const APP_NAME = 'Chip Race Console';

export const SOURCE_KINDS = ['manual', 'serial', 'simulator'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const LANGUAGES = ['en', 'fi', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

export const MAX_SEATS = 10;

export interface SeatSettings {
  readonly seat: number;
  readonly name: string;
}

export interface SourceSettings {
  readonly kind: SourceKind;
  /** Serial port path (serial) or the simulator's port (simulator); empty for manual entry. */
  readonly path: string;
  readonly baud: number;
  /** A built-in device profile name (see hardware/profile.ts). */
  readonly decoder: string;
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
}

/** The tournament's structure (as the planner reads it) and where the tournament is now. */
export interface TournamentSettings {
  readonly structure: StructureInput | null;
  /** The level the tournament has just finished, when it is on the break after it; null otherwise. */
  readonly atBreakAfter: number | null;
}

export interface ConsoleSettings {
  readonly table: TableSettings;
  readonly source: SourceSettings;
  readonly language: Language;
  /** Absent in settings saved before the planner existed: no structure. */
  readonly tournament?: TournamentSettings;
}

/** The colour-ups planned from the structure, and the one proposed now (at the break the tournament is on). */
export interface PlanView {
  readonly colorUps: readonly ColorUp[];
  readonly moments: readonly number[];
  readonly needs: readonly LevelNeed[];
  readonly warnings: readonly string[];
  readonly proposal: ColorUpProposal | null;
}

/** One seat's count before the race: its leaving chips, and whether it has any other chips. */
export interface SeatCount {
  readonly seat: number;
  readonly chips: number;
  readonly hasOther: boolean;
}

export interface RaceView {
  readonly id: string;
  readonly startedAt: string;
  readonly counts: readonly SeatCount[];
  readonly names: Readonly<Record<number, string>>;
  readonly summary: RaceSummary;
  readonly corrections: number;
}

export interface HistoryEntry {
  readonly id: string;
  readonly startedAt: string;
  readonly confirmedAt: string;
  readonly names: Readonly<Record<number, string>>;
  readonly summary: RaceSummary;
  readonly corrections: number;
}

export interface SourceStatus {
  readonly kind: SourceKind;
  readonly path: string;
  /** `idle` for manual entry and before a port is opened. */
  readonly state: StatusState | 'idle';
  readonly code?: StatusCode;
  readonly message?: string;
}

export type { GameView } from '../../engine/poker/view';

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

/** Problems found when the journal was replayed on start (a torn last line, a corrupt record). */
export interface JournalReport {
  readonly path: string;
  readonly records: number;
  readonly problems: readonly string[];
}

/** A card the shoe read that was not taken: nobody typed it, so the screen must say why. */
export interface ShoeRefusal {
  readonly card: string;
  readonly field: string;
  readonly message: string;
}

/** Everything the screens show. Pushed after every change, once the change is on disk. */
export interface ConsoleState {
  readonly settings: ConsoleSettings;
  readonly race: RaceView | null;
  readonly source: SourceStatus;
  /** The latest event from the card source (a card, an unknown code, a device message). */
  readonly lastInput: ShoeEvent | null;
  /** The last card from the shoe the race or game refused, and why; cleared by the next change accepted. */
  readonly shoeRefusal: ShoeRefusal | null;
  readonly history: readonly HistoryEntry[];
  /** The points game in progress (Pistepokeri or Chicago), if any; a race and a game never run at once. */
  readonly game: GameView | null;
  readonly games: readonly GameHistoryEntry[];
  /** The colour-up plan of the saved structure; null without one. */
  readonly plan: PlanView | null;
  readonly journal: JournalReport;
}

export interface CommandError {
  /** The input field at fault (`cards`, `seats[2].chips`, `path` …). */
  readonly field: string;
  readonly message: string;
}

export type CommandResult<T = null> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: CommandError };

export interface PortInfo {
  readonly path: string;
  readonly manufacturer: string;
  readonly vendorId: string;
  readonly productId: string;
}

/** The calls the screen can make, with their argument lists and results. */
export interface ConsoleCommands {
  getState(): ConsoleState;
  saveSettings(settings: ConsoleSettings): CommandResult;
  /** The race these counts would make (exchange, pool, race chips, deal), without starting it. */
  previewRace(counts: readonly SeatCount[]): CommandResult<RaceSummary>;
  startRace(counts: readonly SeatCount[]): CommandResult;
  /** A card typed or tapped: to the open race, or wherever the open game needs one next. */
  dealCard(code: string): CommandResult;
  voidCards(count: number, reason: string): CommandResult;
  confirmRace(): CommandResult;
  abandonRace(reason: string): CommandResult;
  listPorts(): CommandResult<readonly PortInfo[]>;
  startGame(game: GameName, players: readonly string[]): CommandResult;
  gameAction(action: GameAction): CommandResult;
  /** Ends the game: into the history when it has a winner, otherwise abandoned with the reason. */
  closeGame(reason: string): CommandResult;
  exportHistory(format: 'csv' | 'json'): CommandResult<string>;
}

export type CommandName = keyof ConsoleCommands;

export const COMMAND_NAMES: readonly CommandName[] = [
  'getState', 'saveSettings', 'previewRace', 'startRace', 'dealCard', 'voidCards', 'confirmRace', 'abandonRace', 'listPorts', 'exportHistory',
  'startGame', 'gameAction', 'closeGame',
];

/** Every command as the screen calls it: asynchronous. */
export type ConsoleCalls = {
  readonly [Name in CommandName]: (...args: Parameters<ConsoleCommands[Name]>) => Promise<ReturnType<ConsoleCommands[Name]>>;
};

/** As the screen sees it: every call is asynchronous; state arrives through `onState`. */
export type ConsoleApi = ConsoleCalls & {
  /** Calls `listener` with every new state; returns the function that stops it. */
  onState(listener: (state: ConsoleState) => void): () => void;
};

/**
 * A pushed state: whole (the first one a page gets), or only the parts that changed since the
 * last one sent to that page, so a card does not carry the whole history across.
 */
export type StateMessage =
  | { readonly type: 'state'; readonly state: ConsoleState }
  | { readonly type: 'patch'; readonly patch: Partial<ConsoleState> };

/** What the Electron preload exposes: the commands, and the state messages as sent (the page merges them). */
export type PreloadApi = ConsoleCalls & {
  onStateMessage(listener: (message: StateMessage) => void): () => void;
};

/** Browser-mode wire format (JSON over WebSocket). */
export type BridgeRequest = { readonly id: number; readonly method: CommandName; readonly args: readonly unknown[] };
export type BridgeMessage = { readonly type: 'result'; readonly id: number; readonly result: unknown } | StateMessage;

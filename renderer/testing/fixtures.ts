/**
 * Builders of ConsoleState, RaceView and RaceSummary for the screen's tests. Summaries come from
 * the real engine (pure) and the views from the service's own builders (protocol/views.ts), so a
 * fixture race looks exactly like one the service would push.
 */
import type {
  ConsoleSettings,
  ConsoleState,
  DeviceProfileInfo,
  HistoryEntry,
  HistorySummary,
  PlanView,
  RaceView,
  SeatCount,
  SeatSettings,
  SourceSettings,
  TableSettings,
  TournamentSettings,
} from '../../protocol/contract';
import type { StructureInput } from '../../engine/plan/csv';
import { raceFromInput } from '../../engine/race/input';
import { applyRaceEvent, type RaceState } from '../../engine/race/race';
import type { RaceSummary } from '../../engine/race/summary';
import type { RuleSetName } from '../../engine/race/rules';
import { planView, raceView, raceViewSummary } from '../../protocol/views';
import { countsAsConfirmed } from '../../protocol/races';

/** The seed's worked example (000_…): Matti 7 × 25, Teppo 2, Johanna 2; 25s leave, 100 stays. */
export const FINNISH_SEATS: readonly SeatSettings[] = [
  { seat: 1, name: 'Matti' },
  { seat: 2, name: 'Teppo' },
  { seat: 3, name: 'Johanna' },
];
export const FINNISH_COUNTS: readonly SeatCount[] = [
  { seat: 1, chips: 7, hasOther: true },
  { seat: 2, chips: 2, hasOther: true },
  { seat: 3, chips: 2, hasOther: true },
];
/** Matti A, K, 2; Teppo 10♠, 4; Johanna 10♦, 10♣. */
export const FINNISH_CARDS: readonly string[] = ['Ah', 'Kc', '2d', 'Ts', '4h', 'Td', 'Tc'];

export function makeTable(overrides: Partial<TableSettings> = {}): TableSettings {
  return {
    seats: FINNISH_SEATS,
    button: 10,
    chipSet: [25, 100, 500, 1000],
    removed: 25,
    next: 100,
    rules: 'classic',
    decks: 1,
    ...overrides,
  };
}

export function makeSource(overrides: Partial<SourceSettings> = {}): SourceSettings {
  return { kind: 'manual', path: '', baud: 9600, decoder: 'text', ...overrides };
}

export function makeSettings(
  overrides: { table?: Partial<TableSettings>; source?: Partial<SourceSettings>; language?: ConsoleSettings['language']; tournament?: TournamentSettings } = {},
): ConsoleSettings {
  return {
    table: makeTable(overrides.table),
    source: makeSource(overrides.source),
    language: overrides.language ?? 'en',
    ...(overrides.tournament === undefined ? {} : { tournament: overrides.tournament }),
  };
}

/**
 * A structure on the table's chips with two breaks: after level 2 the 25s leave (→ 100); after
 * level 6 the 100s and the 500s (→ 1000: two races, 100 → 500 then 500 → 1000).
 */
export const TOURNAMENT_STRUCTURE: StructureInput = {
  chips: [25, 100, 500, 1000],
  levels: [
    { sb: 25, bb: 50 },
    { sb: 50, bb: 100 },
    { break: 10 },
    { sb: 100, bb: 200 },
    { sb: 200, bb: 400 },
    { sb: 300, bb: 600, ante: 100 },
    { sb: 500, bb: 1000 },
    { break: 15 },
    { sb: 1000, bb: 2000 },
    { sb: 2000, bb: 4000 },
  ],
  startingStack: 5000,
};

/** The plan the service shows for a tournament: the service's own builder (protocol/views.ts). */
export function makePlanView(tournament: TournamentSettings): PlanView | null {
  return planView(tournament);
}

/** A state with a saved structure (default TOURNAMENT_STRUCTURE) and its plan, on the break after `atBreakAfter`. */
export function makeTournamentState(
  options: { structure?: StructureInput; atBreakAfter?: number | null; table?: Partial<TableSettings> } = {},
  overrides: Partial<ConsoleState> = {},
): ConsoleState {
  const tournament: TournamentSettings = { structure: options.structure ?? TOURNAMENT_STRUCTURE, atBreakAfter: options.atBreakAfter ?? null };
  return makeState({ settings: makeSettings({ table: options.table, tournament }), plan: makePlanView(tournament), ...overrides });
}

export interface RaceInput {
  readonly rules?: RuleSetName;
  readonly removed?: number;
  readonly next?: number;
  readonly button?: number;
  readonly decks?: number;
  readonly seats?: readonly SeatSettings[];
  readonly counts?: readonly SeatCount[];
  /** Cards dealt so far, in order. */
  readonly cards?: readonly string[];
  /** Cards voided after the deal (from the end). */
  readonly voids?: number;
}

/** What the engine's race JSON gets for a console count: `other` is any positive value when the seat has other chips. */
function engineInput(input: RaceInput) {
  const table = makeTable();
  const seats = input.seats ?? table.seats;
  const counts = input.counts ?? FINNISH_COUNTS;
  const next = input.next ?? table.next;
  return {
    rules: input.rules ?? table.rules,
    removed: input.removed ?? table.removed,
    next,
    button: input.button ?? table.button,
    decks: input.decks ?? table.decks,
    seats: counts.map(({ seat, chips, hasOther }) => ({
      seat,
      name: seats.find((entry) => entry.seat === seat)?.name ?? '',
      chips,
      other: hasOther ? next * 10 : 0,
    })),
  };
}

/** The engine's race for the input (default: the Finnish example, no cards dealt). */
export function makeEngineRace(input: RaceInput = {}): RaceState {
  let state = raceFromInput({ ...engineInput(input), cards: input.cards ?? [] });
  if (input.voids !== undefined && input.voids > 0) {
    state = applyRaceEvent(state, { type: 'void', count: input.voids, reason: 'manual correction' });
  }
  return state;
}

/** A real engine summary of the race described, as a race view carries it (default: the Finnish example, no cards dealt). */
export function makeSummary(input: RaceInput = {}): RaceSummary {
  return raceViewSummary(makeEngineRace(input));
}

/**
 * The race as the service shows it, by the service's own builder (protocol/views.ts) over the
 * engine's race; `corrections` overrides its count of voided cards (for a view of a count alone).
 */
export function makeRaceView(input: RaceInput & { corrections?: number; id?: string } = {}): RaceView {
  const seats = input.seats ?? FINNISH_SEATS;
  const view = raceView({
    id: input.id ?? 'race-1',
    startedAt: '2024-05-04T18:30:00.000Z',
    counts: input.counts ?? FINNISH_COUNTS,
    names: Object.fromEntries(seats.map(({ seat, name }) => [seat, name])),
    state: makeEngineRace(input),
  });
  return input.corrections === undefined ? view : { ...view, corrections: input.corrections };
}

export function makeHistoryEntry(input: RaceInput & { corrections?: number; id?: string; confirmedAt?: string; seq?: number } = {}): HistoryEntry {
  const view = makeRaceView({ cards: FINNISH_CARDS, ...input });
  const first = input.seq ?? 1;
  return {
    id: view.id,
    startedAt: view.startedAt,
    confirmedAt: input.confirmedAt ?? '2024-05-04T18:34:00.000Z',
    names: view.names,
    summary: view.summary,
    corrections: view.corrections,
    voided: [],
    refusals: 0,
    seqs: { first, last: first + view.summary.cards.length + 1 },
  };
}

const LINES = { kind: 'lines', maxLength: 1024 } as const;
const MESSAGES = { EMPTY: 'shoe-empty', 'SHOE EMPTY': 'shoe-empty', NEW: 'new-shoe', 'NEW SHOE': 'new-shoe' } as const;
/** The built-in profiles' framing and decoder, as hardware/profile.ts has them. */
const BUILT_IN_PARTS: Readonly<Record<string, { framing: object; decoder: object; repeatMs?: number }>> = {
  text: { framing: LINES, decoder: { kind: 'text' } },
  'suit-number': { framing: LINES, decoder: { kind: 'suit-number' } },
  index1: { framing: LINES, decoder: { kind: 'index', base: 1, suitOrder: 'shdc', rankOrder: 'A23456789TJQK' } },
  index0: { framing: LINES, decoder: { kind: 'index', base: 0, suitOrder: 'shdc', rankOrder: 'A23456789TJQK' } },
  'stx-text': { framing: { kind: 'stx-etx', checksum: 'xor' }, decoder: { kind: 'text' } },
  'stx-sum': { framing: { kind: 'stx-etx', checksum: 'sum' }, decoder: { kind: 'text' } },
  barcode: { framing: { kind: 'silence', idleMs: 50 }, decoder: { kind: 'text' } },
  rfid: { framing: LINES, decoder: { kind: 'uid' }, repeatMs: 1500 },
  'stx-plain': { framing: { kind: 'stx-etx', checksum: 'none' }, decoder: { kind: 'text' } },
};

/**
 * A profile as the service offers it (station/service/profiles.ts: hardware's readProfile fills in
 * what the file leaves out), with a summary in the service's English.
 */
export function makeProfileInfo(profile: { name: string } & Record<string, unknown>, builtIn = false): DeviceProfileInfo {
  const full = { baud: 9600, dataBits: 8, parity: 'none', stopBits: 1, rtscts: false, framing: LINES, decoder: { kind: 'text' }, messages: MESSAGES, repeatMs: 0, graceMs: 0, codeId: false, ...profile };
  const parity = full.parity === 'none' ? 'no parity' : `${String(full.parity)} parity`;
  const summary = `${full.name}: ${String(full.baud)} baud, ${String(full.dataBits)} data bits, ${parity}, ${String(full.stopBits)} stop bit${full.stopBits === 1 ? '' : 's'}; ${(full.decoder as { kind: string }).kind} decoder`;
  return { name: full.name, builtIn, summary, profile: full };
}

/** The built-in device profiles as the service offers them (a summary each; the screens label them in their language). */
export const BUILT_IN_PROFILE_INFOS: readonly DeviceProfileInfo[] = Object.entries(BUILT_IN_PARTS).map(([name, parts]) => makeProfileInfo({ name, ...parts }, true));

/** A profile file imported into the data folder: 7 data bits, even parity, its own pattern (as in station/service/profiles.pty.test.ts). */
export const VENDOR_PROFILE = {
  name: 'vendor-x',
  baud: 9600,
  dataBits: 7,
  parity: 'even',
  framing: { kind: 'lines' },
  decoder: { kind: 'pattern', pattern: '^(?<rank>10|[2-9JQKA])/(?<suit>[1-4])$', suits: { 1: 's', 2: 'h', 3: 'd', 4: 'c' } },
} as const;

/** An RFID deck registered in the console: a tag table of 52 tags, 115200 baud. */
export const DECK_PROFILE_INFO: DeviceProfileInfo = makeProfileInfo({ name: 'deck-1', baud: 115200, repeatMs: 1500, decoder: { kind: 'uid', cards: { '04A210C4': 'As' } } });

/** The history part of a state for these confirmed races (oldest first), as the service makes it. */
export function makeHistory(entries: readonly HistoryEntry[] = []): HistorySummary {
  const confirmed = entries.filter(countsAsConfirmed);
  const unconfirmed = entries.length - confirmed.length;
  return { total: entries.length, ...(unconfirmed === 0 ? {} : { unconfirmed }), valueDelta: confirmed.reduce((sum, entry) => sum + (entry.summary.valueDelta ?? 0), 0), latest: entries.at(-1) ?? null };
}

export function makeState(overrides: Partial<ConsoleState> = {}): ConsoleState {
  return {
    settings: makeSettings(),
    race: null,
    source: { kind: 'manual', path: '', state: 'idle' },
    lastInput: null,
    inputs: [],
    shoeRefusal: null,
    history: makeHistory(),
    held: [],
    profiles: BUILT_IN_PROFILE_INFOS,
    registration: null,
    seatMapping: null,
    detection: null,
    game: null,
    games: [],
    plan: null,
    colorUp: null,
    journal: { path: '/tmp/journal.jsonl', records: 0, findings: [], chain: 'empty', unchained: 0, unchainedThrough: 0, readOnly: null },
    countDrafts: [],
    clock: { source: 'local', schedule: null, events: [], problem: null },
    floorLink: { state: 'off' },
    floorCalls: { called: null, decisions: [] },
    chipExchanges: { exchanges: [], valueDelta: 0 },
    readerHealth: { current: null, sources: [] },
    ...overrides,
  };
}

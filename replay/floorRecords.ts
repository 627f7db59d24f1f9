import { readClockEvents, type ClockEvent } from '../engine/clock/clock';
import { isInputError } from '../engine/errors';
import type { StructureInput } from '../engine/plan/csv';
import { readStructure } from '../engine/plan/structure';
import { readHouseRules, type HouseRules } from '../engine/plan/tournament';
import { MAX_SEATS, NAME_MAX } from '../protocol/constants';
import { FLOOR_DECISIONS, type FloorDecisionKind } from '../protocol/races';

/**
 * The station's records of its dealings with the floor (issue 23, disputes settled on the record):
 * - `floor-called`: the dealer called the floor from the station (callFloor), with an optional note
 *   and the race open then; the floor flags the table until the director decides;
 * - `floor-decision`: the director's decision on the table, as the floor's link read it (its id the
 *   floor's, so it is journaled once however often it is read): what, who, when, the note, the race.
 * Neither changes a race or a game: the session passes them by; replay/floorDecisions.ts
 * keeps them for the screens and the exports, the floor's fold reads the calls (replay/colourUpReading.ts).
 *
 * And the floor's facts the station works under (issue 43), each journaled when the link reads
 * one other than the last journaled, so the station's own record says what the floor had set and
 * a restart knows it with the floor out of reach (station/service/floorFacts.ts follows them):
 * - `floor-tournament`: the floor's tournament (structure and house rules), or null: the station's own again;
 * - `floor-seating`: this table's seating as the floor holds it (its version, broken, the players), or null: the station's own seats again;
 * - `floor-clock`: the floor's clock as the station follows it (its events in the floor's time, the
 *   floor's time less the station's, the break it holds, whether it holds breaks), or null: the
 *   station's own clock again. Its structure is the `floor-tournament`'s in force (a clock row's
 *   structure the table refuses is not followed: station/service/clockCommands.ts).
 */
export type FloorRecord =
  | { readonly kind: 'floor-called'; readonly note: string; readonly raceId?: string }
  | { readonly kind: 'floor-decision'; readonly id: number; readonly decision: FloorDecisionKind; readonly note: string; readonly by: string; readonly at: string; readonly raceId: string | null }
  | FloorFactRecord
  | FloorClockRecord;

export type FloorFactRecord = { readonly kind: 'floor-tournament'; readonly tournament: FloorTournament | null } | { readonly kind: 'floor-seating'; readonly seating: FloorSeats | null };

/** The floor's clock as the station follows it and journals it (`floor-clock`): the structure is the floor tournament's. */
export type FloorClockRecord = { readonly kind: 'floor-clock'; readonly clock: FloorClockFact | null };

export interface FloorClockFact {
  /** The clock's events, in the floor's time. */
  readonly events: readonly ClockEvent[];
  /** The floor's time less the station's (ms) when the link read it: the station follows the floor's time. */
  readonly offsetMs: number;
  /** The break the floor holds until every table is done, and how many are not; null: none. */
  readonly held: { readonly afterLevel: number; readonly tables: number } | null;
  /** The floor holds its breaks with a colour-up. */
  readonly holdBreaks: boolean;
}

/**
 * The longest a `floor-clock` record's clock may be as JSON, as FLOOR_TOURNAMENT_JSON_MAX (a floor
 * compacts its clock to CLOCK_EVENTS_KEPT events, a few KB): a longer one is followed, not journaled.
 */
export const FLOOR_CLOCK_JSON_MAX = 60_000;

/** The floor's tournament as its clock row carries it. */
export interface FloorTournament {
  readonly structure: StructureInput;
  readonly house: HouseRules;
}

/** This table's seating as the floor holds it (floor/seating.ts). */
export interface FloorSeats {
  /** The floor's version of the seating (floor_seating.version): which one a race ran under. */
  readonly version: number;
  /** The floor broke the table: no seat is in play. */
  readonly broken: boolean;
  readonly seats: readonly { readonly seat: number; readonly player: string }[];
}

export const FLOOR_FACT_KINDS: readonly string[] = ['floor-tournament', 'floor-seating'];
/** The records the station's clock follows of the floor's: its clock, paired with the tournament's structure. */
export const FLOOR_CLOCK_KINDS: readonly string[] = ['floor-tournament', 'floor-clock'];
/** The dealings with the floor a race's record lists (the facts are not about a race). */
export const FLOOR_RECORD_KINDS: readonly string[] = ['floor-called', 'floor-decision'];

/**
 * The longest a `floor-tournament` record's tournament may be as JSON: a line of the journal the
 * floor keeps must stay within its 65,536 characters (floor/db/migrations/01-tables.ts `station_records`),
 * with the line's seal and time around it. The largest structure the planner takes (500 entries,
 * 12 chips) is well within it (replay/floorRecords.test.ts).
 */
export const FLOOR_TOURNAMENT_JSON_MAX = 60_000;

/** The longest note a call of the floor keeps (the command's own limit). */
export const FLOOR_CALL_NOTE_MAX = 200;
/** The longest note, name and race id a decision kept by the station may have (the floor's own limits). */
const DECISION_NOTE_MAX = 500;
const DECIDED_BY_MAX = 80;
const RACE_ID_MAX = 20;

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

/** The floor's tournament, checked as the planner and the house's reader check them; null when either refuses it or it is too long. */
export function checkedFloorTournament(value: unknown): FloorTournament | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { structure, house } = value as { structure?: unknown; house?: unknown };
  if (JSON.stringify(value).length > FLOOR_TOURNAMENT_JSON_MAX) return null;
  try {
    readStructure(structure);
    return { structure: structure as StructureInput, house: readHouseRules(house, 'house') };
  } catch (error) {
    if (isInputError(error)) return null;
    throw error;
  }
}

/** The seating the link read, checked (a seat 1..MAX_SEATS once, a name of at most NAME_MAX characters); null when malformed. */
export function checkedFloorSeats(value: unknown): FloorSeats | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const row = value as { version?: unknown; broken?: unknown; seats?: unknown };
  if (!Array.isArray(row.seats) || typeof row.broken !== 'boolean' || !Number.isSafeInteger(Number(row.version)) || Number(row.version) < 0) return null;
  const seats = (row.seats as unknown[]).map((entry) => {
    const { seat, player } = (typeof entry === 'object' && entry !== null ? entry : {}) as { seat?: unknown; player?: unknown };
    return { seat, player };
  });
  const good = seats.every(({ seat, player }) => Number.isInteger(seat) && (seat as number) >= 1 && (seat as number) <= MAX_SEATS && typeof player === 'string' && player.trim() !== '' && player.length <= NAME_MAX);
  if (!good || new Set(seats.map(({ seat }) => seat)).size !== seats.length) return null;
  return { version: Number(row.version), broken: row.broken, seats: seats as FloorSeats['seats'] };
}

/** The floor's clock as a `floor-clock` record keeps it, checked; null when malformed or too long. */
export function checkedFloorClock(value: unknown): FloorClockFact | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { events, offsetMs, held, holdBreaks, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !Number.isSafeInteger(offsetMs) || typeof holdBreaks !== 'boolean') return null;
  const hold = held as { afterLevel?: unknown; tables?: unknown } | null;
  if (hold !== null && (typeof hold !== 'object' || !Number.isSafeInteger(hold.afterLevel) || !Number.isSafeInteger(hold.tables) || Object.keys(hold).length !== 2)) return null;
  if (JSON.stringify(value).length > FLOOR_CLOCK_JSON_MAX) return null;
  try {
    return { events: readClockEvents(events), offsetMs: offsetMs as number, held: hold === null ? null : { afterLevel: hold.afterLevel as number, tables: hold.tables as number }, holdBreaks };
  } catch (error) {
    if (isInputError(error)) return null;
    throw error;
  }
}

/** Whether two of the floor's facts (tournaments, or seatings) are the same: a fact read again is not journaled again. */
export function sameFloorFact(a: FloorTournament | FloorSeats | FloorClockFact | null, b: FloorTournament | FloorSeats | FloorClockFact | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function isFloorRecord(value: unknown): value is FloorRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record.kind === 'floor-tournament') return record.tournament === null || sameFloorFact(checkedFloorTournament(record.tournament), record.tournament as FloorTournament);
  if (record.kind === 'floor-seating') return record.seating === null || sameFloorFact(checkedFloorSeats(record.seating), record.seating as FloorSeats);
  if (record.kind === 'floor-clock') {
    if (Object.keys(record).length !== 2) return false;
    if (record.clock === null) return true;
    // Its keys in any order; the events as the engine's reader reads them, nothing more.
    const checked = checkedFloorClock(record.clock);
    return checked !== null && JSON.stringify(checked.events) === JSON.stringify((record.clock as FloorClockFact).events);
  }
  if (record.kind === 'floor-called') return isText(record.note, FLOOR_CALL_NOTE_MAX) && (record.raceId === undefined || isText(record.raceId, RACE_ID_MAX));
  if (record.kind === 'floor-decision') {
    return (
      Number.isSafeInteger(record.id) && (record.id as number) > 0 && (FLOOR_DECISIONS as readonly unknown[]).includes(record.decision) && isText(record.note, DECISION_NOTE_MAX) && isText(record.by, DECIDED_BY_MAX) &&
      isText(record.at, 40) && !Number.isNaN(Date.parse(record.at)) && (record.raceId === null || isText(record.raceId, RACE_ID_MAX))
    );
  }
  return false;
}

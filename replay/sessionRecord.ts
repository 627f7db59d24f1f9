import type { Message } from '../engine/messages';
import type { RaceEvent } from '../engine/race/race';
import type { MatchEvent } from '../engine/poker/match';
import { MAX_SEATS, TABLE_NAME_MAX, type InputSource, type RacePlace, type SeatCount } from '../protocol/contract';
import { isColorUpRecord, type ColorUpRecord } from './colorUps';
import { isClockRecord, type ClockRecord } from './clockRecord';
import { isFloorRecord, type FloorRecord } from './floorRecords';
import { isChipExchangeRecord, type ChipExchangeRecord } from './chipExchange';

/** What the journal holds: every change to the session, in order. */
export type SessionRecord =
  /** With where it ran (RacePlace: the table's name, the station, the colour-up level), each when known. */
  | ({ readonly kind: 'race-start'; readonly raceId: string; readonly race: unknown; readonly counts: readonly SeatCount[]; readonly names: Readonly<Record<number, string>> } & RacePlace)
  /**
   * `held`: a shoe card held for the dealer's say (a noisy line, or read at another seat's antenna)
   * and taken by the dealer; `readAt`: the seat whose antenna read it, when that was why (issue 26).
   */
  | { readonly kind: 'race-event'; readonly raceId: string; readonly event: RaceEvent; readonly source: InputSource; readonly held?: true; readonly readAt?: number }
  /**
   * A card or correction the engine refused: not applied, kept for the floor supervisor. `reason`
   * in English (the command line, the exports, older consoles); `said`, when the station wrote it,
   * the same in keys, so the record slip says it in its reader's language.
   */
  | { readonly kind: 'refused'; readonly raceId: string; readonly input: string; readonly reason: string; readonly said?: Message; readonly source: InputSource }
  /** The refusal in record `of` came again `count` more times before the race's next record that is no refusal (a stuck or repeating reader, line noise). */
  | { readonly kind: 'refused-again'; readonly raceId: string; readonly of: number; readonly count: number }
  /** `by`: the dealer on duty, when one was named. */
  | { readonly kind: 'race-confirm'; readonly raceId: string; readonly by?: string }
  | { readonly kind: 'race-abandon'; readonly raceId: string; readonly reason: string }
  | { readonly kind: 'game-event'; readonly gameId: string; readonly event: MatchEvent; readonly source: InputSource }
  | { readonly kind: 'game-refused'; readonly gameId: string; readonly input: string; readonly reason: string; readonly said?: Message; readonly source: InputSource }
  | { readonly kind: 'game-refused-again'; readonly gameId: string; readonly of: number; readonly count: number }
  | { readonly kind: 'game-close'; readonly gameId: string; readonly reason: string }
  /** The colour-ups' own records (replay/colorUps.ts): they change no race or game. */
  | ColorUpRecord
  /** The station's own tournament clock (station/service/clock.ts): it changes no race or game. */
  | ClockRecord
  /** The floor called, and the director's decisions (replay/floorRecords.ts): they change no race or game. */
  | FloorRecord
  /** Chips exchanged outside a race (replay/chipExchange.ts): they change no race or game. */
  | ChipExchangeRecord;

/** The kinds of a race's own records (each names its race: `raceId`). */
export const RACE_RECORD_KINDS: readonly string[] = ['race-start', 'race-event', 'refused', 'refused-again', 'race-confirm', 'race-abandon'];
const RACE_KINDS: ReadonlySet<string> = new Set(RACE_RECORD_KINDS);
export const GAME_KINDS: ReadonlySet<string> = new Set(['game-event', 'game-refused', 'game-refused-again', 'game-close']);
const SOURCES: ReadonlySet<unknown> = new Set<InputSource>(['manual', 'shoe', 'scanner']);

/** The most a refusal's record holds: of its input, of its English reason, of its reason in keys (as JSON). A longer one is no record this console reads back. */
export const REFUSAL_LIMITS = { input: 256, reason: 1000, said: 4000 } as const;

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;
const isCount = (value: unknown, min = 0): value is number => Number.isSafeInteger(value) && (value as number) >= min;
const isId = (value: unknown, prefix: 'race' | 'game'): value is string => typeof value === 'string' && value.length <= 20 && value.startsWith(`${prefix}-`);

/**
 * A refusal's `said` as the journal may hold it: an object of bounded size. Whether this version
 * can say it (a newer one may have written keys this one does not know) is for its readers
 * (isSayableMessage): such a record is replayed all the same, and told by its English.
 */
function isStoredSaid(value: unknown): boolean {
  return isObject(value) && JSON.stringify(value).length <= REFUSAL_LIMITS.said;
}

function isSeatCounts(value: unknown): boolean {
  return Array.isArray(value) && value.length <= 10 && value.every((count) => isObject(count) && isCount(count.seat, 1) && isCount(count.chips) && typeof count.hasOther === 'boolean');
}

function isNames(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length <= 10 && Object.values(value).every((name) => isText(name, 40));
}

/** The longest station name a race-start may carry (a host name is at most 64 characters). */
export const STATION_MAX = 64;

/** A race-start's place, each part absent or of its shape. */
function isPlace(record: Fields): boolean {
  return (record.table === undefined || isText(record.table, TABLE_NAME_MAX)) && (record.station === undefined || isText(record.station, STATION_MAX)) && (record.level === undefined || isCount(record.level, 1));
}

/** The place a race-start record carries, only the parts it has. */
export function placeOf(record: RacePlace): RacePlace {
  return { ...(record.table !== undefined ? { table: record.table } : {}), ...(record.station !== undefined ? { station: record.station } : {}), ...(record.level !== undefined ? { level: record.level } : {}) };
}

function isRaceEvent(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (value.type === 'card') return isText(value.card, 32);
  if (value.type === 'void') return (value.count === undefined || isCount(value.count, 1)) && (value.reason === undefined || isText(value.reason, 200));
  return false;
}

function isMatchEvent(value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'start':
      // The engine checks the game, the players and the options; here only that nothing unbounded rides along.
      return isText(value.game, 40) && Array.isArray(value.players) && value.players.length <= 6 && value.players.every((player) => isText(player, 40)) && (value.options === undefined || (isObject(value.options) && JSON.stringify(value.options).length <= 1000));
    case 'card':
      return isText(value.card, 32);
    case 'discard':
      return Array.isArray(value.cards) && value.cards.length <= 5 && value.cards.every((card) => isText(card, 32));
    case 'call':
      return isText(value.player, 40);
    case 'end-exchanges':
    case 'next-deal':
      return true;
    default:
      return false;
  }
}

/** The records beside the races and games (the colour-ups', the clock's, the floor's, chips exchanged): the session passes them by. */
export function isSideRecord(record: unknown): record is ColorUpRecord | ClockRecord | FloorRecord | ChipExchangeRecord {
  return isColorUpRecord(record) || isClockRecord(record) || isFloorRecord(record) || isChipExchangeRecord(record);
}

/**
 * Whether a journal record is one this console knows, every field of the shape it writes. A line
 * of another shape is never replayed (it could carry anything into the state the screens get: a
 * name nested a hundred thousand levels deep, a count that is text).
 */
export function isSessionRecord(value: unknown): value is SessionRecord {
  if (!isObject(value)) return false;
  const record = value;
  if (RACE_KINDS.has(record.kind as string) && !isId(record.raceId, 'race')) return false;
  if (GAME_KINDS.has(record.kind as string) && !isId(record.gameId, 'game')) return false;
  switch (record.kind) {
    case 'race-start':
      // The race itself goes through the engine's own checks (readRaceSetup) when replayed.
      return isObject(record.race) && JSON.stringify(record.race).length <= 10_000 && isSeatCounts(record.counts) && isNames(record.names) && isPlace(record);
    case 'race-event':
      return (
        isRaceEvent(record.event) &&
        SOURCES.has(record.source) &&
        (record.held === undefined || record.held === true) &&
        (record.readAt === undefined || (record.held === true && Number.isInteger(record.readAt) && (record.readAt as number) >= 1 && (record.readAt as number) <= MAX_SEATS))
      );
    case 'refused':
    case 'game-refused':
      return isText(record.input, REFUSAL_LIMITS.input) && isText(record.reason, REFUSAL_LIMITS.reason) && SOURCES.has(record.source) && (record.said === undefined || isStoredSaid(record.said));
    case 'refused-again':
    case 'game-refused-again':
      return isCount(record.of, 1) && isCount(record.count, 1);
    case 'race-confirm':
      return record.by === undefined || isText(record.by, 40);
    case 'race-abandon':
    case 'game-close':
      return isText(record.reason, 200);
    case 'game-event':
      return isMatchEvent(record.event) && SOURCES.has(record.source);
    default:
      return isSideRecord(record);
  }
}

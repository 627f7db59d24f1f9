import { FLOOR_DECISIONS, type FloorDecisionKind } from '../protocol/races';

/**
 * The station's records of its dealings with the floor (issue 23, disputes settled on the record):
 * - `floor-called`: the dealer called the floor from the station (callFloor), with an optional note
 *   and the race open then; the floor flags the table until the director decides;
 * - `floor-decision`: the director's decision on the table, as the floor's link read it (its id the
 *   floor's, so it is journaled once however often it is read): what, who, when, the note, the race.
 * Neither changes a race or a game: the session passes them by; main/service/floorDecisions.ts
 * keeps them for the screens and the exports, the floor's fold reads the calls (floor/fold.ts).
 */
export type FloorRecord =
  | { readonly kind: 'floor-called'; readonly note: string; readonly raceId?: string }
  | { readonly kind: 'floor-decision'; readonly id: number; readonly decision: FloorDecisionKind; readonly note: string; readonly by: string; readonly at: string; readonly raceId: string | null };

export const FLOOR_RECORD_KINDS: readonly string[] = ['floor-called', 'floor-decision'];

/** The longest note a call of the floor keeps (the command's own limit). */
export const FLOOR_CALL_NOTE_MAX = 200;
/** The longest note, name and race id a decision kept by the station may have (the floor's own limits). */
const DECISION_NOTE_MAX = 500;
const DECIDED_BY_MAX = 80;
const RACE_ID_MAX = 20;

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

export function isFloorRecord(value: unknown): value is FloorRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record.kind === 'floor-called') return isText(record.note, FLOOR_CALL_NOTE_MAX) && (record.raceId === undefined || isText(record.raceId, RACE_ID_MAX));
  if (record.kind === 'floor-decision') {
    return (
      Number.isSafeInteger(record.id) && (record.id as number) > 0 && (FLOOR_DECISIONS as readonly unknown[]).includes(record.decision) && isText(record.note, DECISION_NOTE_MAX) && isText(record.by, DECIDED_BY_MAX) &&
      isText(record.at, 40) && !Number.isNaN(Date.parse(record.at)) && (record.raceId === null || isText(record.raceId, RACE_ID_MAX))
    );
  }
  return false;
}

import { isInputError } from '../../engine/errors';
import type { ConsoleSettings } from '../../protocol/contract';
import type { FloorSeats, FloorTournament } from '../../replay/floorRecords';
import { withFloorSeats, withOwnSeats } from './floorSeats';
import { withFloorTournament, withOwnTournament } from './floorTournament';
import { readSettings } from './settings';

/**
 * The station's effective settings are its own (the settings file) overlaid by the floor's facts
 * (the journal's `floor-tournament` and `floor-seating`, station/service/floorFacts.ts): the file
 * never holds what the floor set (issue 43). Pure: settings and facts in, settings out.
 */

/** The floor's facts the overlay takes (null: none, the station's own). */
export interface FloorFactsInForce {
  readonly tournament: FloorTournament | null;
  readonly seating: FloorSeats | null;
}

/** Settings with `change` made, or as they were when the settings refuse it. */
function taking(settings: ConsoleSettings, change: (settings: ConsoleSettings) => ConsoleSettings): ConsoleSettings {
  try {
    return change(settings);
  } catch (error) {
    if (!isInputError(error)) throw error;
    return settings;
  }
}

/**
 * The effective settings: the station's own with the floor's tournament taken (its chips, house
 * rules and structure; the station's choices made under it, `onFloor`, where they still fit),
 * then the floor's seats. A fact this table cannot take leaves the table as it was.
 */
export function effectiveSettings(own: ConsoleSettings, facts: FloorFactsInForce): ConsoleSettings {
  const { onFloor, ...mine } = own;
  let settings: ConsoleSettings = mine;
  const { tournament, seating } = facts;
  if (tournament !== null) {
    settings = taking(settings, (current) => withFloorTournament(current, tournament));
    if (onFloor !== undefined && settings.fromFloor !== undefined) {
      settings = taking(settings, (current) => readSettings({ ...current, table: { ...current.table, removed: onFloor.removed, next: onFloor.next } }));
      settings = taking(settings, (current) => readSettings({ ...current, tournament: { ...current.tournament, atBreakAfter: onFloor.atBreakAfter } }));
    }
  }
  if (seating !== null) settings = taking(settings, (current) => withFloorSeats(current, seating));
  return settings;
}

/**
 * What the settings file keeps of effective settings: the station's own, the floor's tournament
 * and seats taken out (their own given back), and the choices the station made under the floor's
 * tournament (`onFloor`: the chip leaving and the next set by a colour-up, the break marked).
 * `effectiveSettings` of it with the same facts gives the settings back.
 */
export function ownSettingsOf(settings: ConsoleSettings): ConsoleSettings {
  const { onFloor: _old, ...effective } = settings;
  const own = withOwnSeats(withOwnTournament(effective));
  if (effective.fromFloor === undefined) return own;
  return { ...own, onFloor: { removed: effective.table.removed, next: effective.table.next, atBreakAfter: effective.tournament?.atBreakAfter ?? null } };
}

/** The floor's facts a settings file of an older version kept in it (`fromFloor`, `seatsFromFloor`): read once and journaled (the seating's version unknown: 0). */
export function floorCopiesOf(settings: ConsoleSettings): FloorFactsInForce | null {
  if (settings.fromFloor === undefined && settings.seatsFromFloor === undefined) return null;
  const structure = settings.tournament?.structure ?? null;
  return {
    tournament: settings.fromFloor === undefined || structure === null ? null : { structure, house: settings.fromFloor.house },
    seating: settings.seatsFromFloor === undefined ? null : { version: 0, broken: settings.seatsFromFloor.broken, seats: settings.table.seats.map(({ seat, name }) => ({ seat, player: name })) },
  };
}

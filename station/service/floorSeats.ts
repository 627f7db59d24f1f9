import type { ConsoleSettings, SeatSettings } from '../../protocol/contract';
import type { FloorSeats } from '../../replay/floorRecords';
import { readSettings } from './settings';

/**
 * The seats a linked station takes from the floor's seating (floor/seating.ts): the seats in play
 * and the players' names stand in `table.seats`, so a dealer never types names or unticks a busted
 * seat; the station's own are kept aside (`seatsFromFloor.own`) and given back when the link ends
 * or the floor no longer seats this table — as floorTournament.ts keeps the tournament. Pure:
 * settings in, settings out. When they may be applied (never while a race is open) is the
 * service's to decide (floorSeatsFollowing.ts).
 */

/** The settings with the floor's seats taken (the button kept where it is: the dealer moves it). */
export function withFloorSeats(settings: ConsoleSettings, floor: FloorSeats): ConsoleSettings {
  const own = settings.seatsFromFloor?.own ?? settings.table.seats;
  const seats: SeatSettings[] = floor.broken ? [] : floor.seats.map(({ seat, player }) => ({ seat, name: player }));
  return readSettings({ ...settings, table: { ...settings.table, seats }, seatsFromFloor: { own, broken: floor.broken } });
}

/** The settings with the station's own seats given back (the link ended, or the floor seats this table no more). */
export function withOwnSeats(settings: ConsoleSettings): ConsoleSettings {
  const held = settings.seatsFromFloor;
  if (held === undefined) return settings;
  const { seatsFromFloor: _floor, ...rest } = settings;
  return readSettings({ ...rest, table: { ...settings.table, seats: held.own } });
}

/** Whether a screen's settings change the seats the floor holds (in play, or a name). */
export function changesFloorSeats(current: ConsoleSettings, next: ConsoleSettings): boolean {
  if (current.seatsFromFloor === undefined) return false;
  return JSON.stringify(current.table.seats) !== JSON.stringify(next.table.seats);
}

import { isInputError } from '../../engine/errors';
import { MAX_SEATS, NAME_MAX, type CommandResult, type ConsoleSettings, type SeatSettings } from '../../protocol/contract';
import type { Session } from '../../replay/session';
import type { FloorSeatsRow } from '../floorLink/link';
import { stillOpen } from './commandContext';
import { ok } from './failures';
import type { Kernel } from './kernel';
import { readSettings } from './settings';
import type { StationSettings } from './stationSettings';

/**
 * The seats a linked station takes from the floor's seating (floor/seating.ts): the seats in play
 * and the players' names stand in `table.seats`, so a dealer never types names or unticks a busted
 * seat; the station's own are kept aside (`seatsFromFloor.own`) and given back when the link ends
 * or the floor no longer seats this table — as floorTournament.ts keeps the tournament. Pure:
 * settings in, settings out. When they may be applied (never while a race is open) is the
 * service's to decide (FloorSeatsFollowing below).
 */

/** This table's seating as the floor holds it (what the link reads). */
export interface FloorSeats {
  readonly version: number;
  /** The floor broke the table: no seat is in play. */
  readonly broken: boolean;
  readonly seats: readonly { readonly seat: number; readonly player: string }[];
}

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

/** The seating the link read, checked (a seat 1..MAX_SEATS once, a name of at most NAME_MAX characters); null when malformed. */
export function checkedFloorSeats(row: { readonly version: unknown; readonly broken: unknown; readonly seats: readonly { readonly seat: unknown; readonly player: unknown }[] }): FloorSeats | null {
  const seats = row.seats.map(({ seat, player }) => ({ seat, player }));
  const good = seats.every(({ seat, player }) => Number.isInteger(seat) && (seat as number) >= 1 && (seat as number) <= MAX_SEATS && typeof player === 'string' && player.trim() !== '' && player.length <= NAME_MAX);
  if (!good || new Set(seats.map(({ seat }) => seat)).size !== seats.length || typeof row.broken !== 'boolean') return null;
  return { version: Number(row.version), broken: row.broken, seats: seats as FloorSeats['seats'] };
}

/**
 * The station following the floor's seating: each seating the link reads is taken (or, null, the
 * station's own given back) as a command in its turn. Never while a race (or a game) is open at
 * the station: the race's seats are the ones it started with, and a dealer mid-race must not see
 * a seat vanish. The latest seating waits, and is taken once the race is confirmed or abandoned
 * (the state published then runs it). A malformed seating leaves the seats as they were.
 */
export class FloorSeatsFollowing {
  /** The seating waiting for the race open to end (`seats` null: the station's own); null when none waits. */
  private pending: { readonly seats: FloorSeats | null } | null = null;

  constructor(
    private readonly kernel: Kernel,
    private readonly settings: StationSettings,
    private readonly session: () => Session,
  ) {
    kernel.onState(() => {
      if (this.pending !== null && stillOpen(this.session()) === null) void this.apply();
    });
  }

  /** Whether a seating waits for the race open to end. */
  get waiting(): boolean {
    return this.pending !== null;
  }

  follow(row: FloorSeatsRow | null): Promise<CommandResult> {
    if (row !== null) {
      const seats = checkedFloorSeats(row);
      // Malformed: the seats stay as they are (in the commands' turn, after what is queued).
      if (seats === null) return this.kernel.serial(async () => ok(null));
      this.pending = { seats };
    } else this.pending = { seats: null };
    return this.apply();
  }

  private apply(): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const pending = this.pending;
      if (pending === null) return ok(null);
      // A race or game open: its seats stay as they are; taken when it ends (see the constructor).
      if (stillOpen(this.session()) !== null) return ok(null);
      this.pending = null;
      const current = this.settings.current;
      let next = current;
      try {
        next = pending.seats === null ? withOwnSeats(current) : withFloorSeats(current, pending.seats);
      } catch (error) {
        if (!isInputError(error)) throw error;
      }
      if (JSON.stringify(next) !== JSON.stringify(current)) {
        await this.settings.store(next);
        this.kernel.publish();
      }
      return ok(null);
    });
  }
}

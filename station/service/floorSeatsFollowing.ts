import type { StationView } from './ports';
import type { CommandResult } from '../../protocol/contract';
import { checkedFloorSeats, type FloorSeats } from '../../replay/floorRecords';
import type { FloorSeatsRow } from '../floorLink/link';
import { stillOpen } from './commandContext';
import { ok } from './failures';
import type { Kernel } from './kernel';
import type { StationSettings } from './stationSettings';

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
    private readonly view: Pick<StationView, 'session'>,
  ) {
    kernel.onState(() => {
      if (this.pending !== null && stillOpen(this.view.session()) === null) void this.apply();
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
      if (stillOpen(this.view.session()) !== null) return ok(null);
      this.pending = null;
      // Journaled when it is another than the one in force (stationSettings.ts takeFloorFact).
      if (await this.settings.takeFloorFact({ kind: 'floor-seating', seating: pending.seats }, (record) => this.kernel.save(record))) this.kernel.publish();
      return ok(null);
    });
  }
}

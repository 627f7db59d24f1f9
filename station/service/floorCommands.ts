import type { FloorClock } from '../../protocol/clock';
import type { CommandResult } from '../../protocol/contract';
import { FLOOR_CALL_NOTE_MAX, isFloorRecord } from '../../replay/floorRecords';
import type { FloorDecisionRow, FloorFactMessage } from '../floorLink/inbox';
import type { ClockCommands } from './clockCommands';
import type { CommandContext } from './commandContext';
import { ok } from './failures';
import type { FloorSeatsFollowing } from './floorSeatsFollowing';
import type { StationFollowers } from './followers';
import type { RaceCommands } from './raceCommands';

/**
 * What the floor link hands the station from the floor's inbox (station/floorLink/inbox.ts), each
 * taken as a command in its turn and journaled as the station's record of it
 * (replay/floorRecords.ts): the clock (its tournament as `floor-tournament`), this table's
 * seating (`floor-seating`), the director's decisions (`floor-decision`).
 */
export interface FloorTakers {
  /**
   * One message of the floor's inbox, taken as a command in its turn: the floor's clock from now
   * on (null: the station's own clock back), this table's seating (null: the station's own seats
   * again), the director's decisions read (each journaled once).
   */
  take(message: FloorFactMessage): Promise<CommandResult>;
  /** The station's own clock back, the floor's tournament kept (started with no floor set up). */
  ownClockBack(): Promise<CommandResult>;
  /** The id of the last decision journaled: the link reads those after it. */
  decisionsAfter(): number;
}

/** The station's dealings with the floor: the dealer's call, and what the floor's inbox brings. */
export class FloorCommands implements FloorTakers {
  constructor(
    private readonly ctx: CommandContext,
    private readonly followers: StationFollowers,
    private readonly clock: ClockCommands,
    private readonly seats: FloorSeatsFollowing,
    private readonly races: RaceCommands,
  ) {}

  /** The dealer calls the floor: journaled with the note and the race open now (replay/floorRecords.ts). */
  callFloor(note: string): Promise<CommandResult> {
    const { kernel } = this.ctx;
    return kernel.serial(async () => {
      const race = this.ctx.session().race;
      await kernel.save({ kind: 'floor-called', note: note.trim().slice(0, FLOOR_CALL_NOTE_MAX), ...(race ? { raceId: race.id } : {}) });
      kernel.publish();
      return ok(null);
    });
  }

  take(message: FloorFactMessage): Promise<CommandResult> {
    switch (message.kind) {
      // The row as read (./clockRow.ts): followFloorClock reads it by FLOOR_CLOCK, keeping the clock it had when malformed.
      case 'clock':
        return this.clock.followFloorClock(message.clock as FloorClock | null);
      case 'seating':
        return this.seats.follow(message.seats);
      case 'decisions':
        return this.takeDecisions(message.rows);
    }
  }

  ownClockBack(): Promise<CommandResult> {
    return this.clock.ownClockBack();
  }

  decisionsAfter(): number {
    return this.followers.floorDecisions.lastId;
  }

  /**
   * The director's decisions the floor link read (station/floorLink/link.ts): each journaled once, as a
   * `floor-decision` record, in the floor's order; one already journaled (its id at or below the
   * last kept), or of a shape this console does not keep, is passed by. A decision closing the
   * open race then abandons it (RaceCommands.abandonClosedOnFloor; start-up asks again, for a stop
   * between the decision's record and the abandon's).
   */
  takeDecisions(rows: readonly FloorDecisionRow[]): Promise<CommandResult> {
    const { kernel } = this.ctx;
    return kernel.serial(async () => {
      let taken = 0;
      for (const row of rows) {
        const record = { kind: 'floor-decision', id: row.id, decision: row.decision, note: row.note, by: row.by, at: row.at, raceId: row.raceId };
        if (row.id <= this.followers.floorDecisions.lastId || !isFloorRecord(record)) continue;
        await kernel.save(record);
        taken += 1;
      }
      if (taken > 0) kernel.publish();
      await this.races.abandonClosedOnFloor();
      return ok(null);
    });
  }
}

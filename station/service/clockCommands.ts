import { isInputError } from '../../engine/errors';
import type { ClockView, FloorClock } from '../../protocol/clock';
import type { ColorUpProgress, CommandResult, ConsoleSettings } from '../../protocol/contract';
import { checkedFloorClock, checkedFloorTournament, sameFloorFact } from '../../replay/floorRecords';
import type { ClockCommand, StationClock } from './clock';
import { ok } from './failures';
import type { Kernel } from './kernel';
import { readSettings } from './settings';
import type { StationSettings } from './stationSettings';

/**
 * Whether the station's colour-up of its break is finished as the floor reads its records: a race
 * of it confirmed and none open (replay/colourUpReading.ts `done`). Then it leaves the break with the clock,
 * floor's or own; on the floor's clock, a break not finished waits for the floor's hold
 * (engine/clock/breaks.ts StationBreak `waitsForHold`).
 */
const isFinished = (colourUp: ColorUpProgress | null): boolean => colourUp !== null && colourUp.done.length > 0 && colourUp.running === null;

/**
 * The tournament clock's commands (the station's own clock, or the floor's followed) and its
 * following: the break the clock enters is marked (`by: 'clock'`), play marked when it leaves it,
 * and the clock's next change armed, whenever the clock the screens are shown changes.
 */
export class ClockCommands {
  /** The clock last followed (a new one is armed when the state's differs). */
  private followed: ClockView | null = null;
  /** Whether the colour-up of the break was finished when last followed (followed again when that changes). */
  private followedFinished = false;

  constructor(
    private readonly kernel: Kernel,
    private readonly clock: StationClock,
    private readonly settings: StationSettings,
    /** The service's wall clock (tests inject it), or the computer's. */
    private readonly wallClock: (() => Date) | undefined,
  ) {
    kernel.onState((state) => {
      // On the floor's clock a break's colour-up finished past its end is left at once (StationBreak `waitsForHold`).
      if (state.clock !== this.followed || (state.clock.source === 'floor' && isFinished(state.colorUp) !== this.followedFinished)) this.follow();
    });
  }

  clockStart(): Promise<CommandResult> {
    return this.clockCommand({ type: 'start' });
  }

  clockPause(): Promise<CommandResult> {
    return this.clockCommand({ type: 'pause' });
  }

  clockResume(): Promise<CommandResult> {
    return this.clockCommand({ type: 'resume' });
  }

  clockAdjust(minutes: number): Promise<CommandResult> {
    return this.clockCommand({ type: 'adjust', minutes });
  }

  /**
   * The floor's clock and tournament from now on (the floor link calls this with what it reads):
   * the station's own clock commands are refused while it runs, and the floor's structure, chip
   * set and house rules stand in for the station's own (floorTournament.ts; journaled as
   * `floor-tournament`, the file keeping the station's own: floorOverlay.ts), so its breaks raise
   * the banner with the floor's plan on a station never given a structure. Null gives the station
   * its own clock and tournament back. Malformed events are refused, and the clock followed stays;
   * a tournament this table cannot take (settings' refusal) leaves the table's, and the clock, as they were.
   * What is followed is journaled (`floor-tournament`, `floor-clock`), so a restart with the floor
   * out of reach follows the floor's clock last followed (StationClock follows the records).
   */
  followFloorClock(floor: FloorClock | null): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const tournament = floor === null ? null : checkedFloorTournament({ structure: floor.structure, house: floor.house ?? {} });
      // A clock whose structure (or house) this table refuses runs on no tournament the journal holds: not followed.
      if (floor !== null && tournament === null) return ok(null);
      const clock = this.clock.follow(floor);
      const save = (record: Parameters<Kernel['save']>[0]) => this.kernel.save(record);
      // Journaled when it is another than the one in force (stationSettings.ts takeFloorFact).
      await this.settings.takeFloorFact({ kind: 'floor-tournament', tournament }, save);
      // The clock itself, when another than the one journaled (a clock too long to journal is followed all the same).
      if (!sameFloorFact(clock, this.clock.floorJournaled) && (clock === null || checkedFloorClock(clock) !== null)) await save({ kind: 'floor-clock', clock });
      this.kernel.publish();
      return ok(null);
    });
  }

  /**
   * The station's own clock back, the floor's tournament kept (a station started with no floor set
   * up while its journal follows the floor's clock: FloorFollowing.startUnlinked), journaled as
   * `floor-clock` none; nothing when the journal follows none.
   */
  ownClockBack(): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      if (this.clock.floorJournaled === null) return ok(null);
      this.clock.follow(null);
      await this.kernel.save({ kind: 'floor-clock', clock: null });
      this.kernel.publish();
      return ok(null);
    });
  }

  private clockCommand(command: ClockCommand): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const event = this.clock.event(this.settings.current.tournament?.structure ?? null, command, this.now());
      await this.kernel.save({ kind: 'clock', event });
      this.kernel.publish();
      return ok(null);
    });
  }

  private now(): number {
    return (this.wallClock?.() ?? new Date()).getTime();
  }

  /** The colour-up of the break the station is on, as its screens show it (the state's `colorUp`). */
  private colourUp(current: number | null): ColorUpProgress | null {
    return this.kernel.followers.colorUps.progress(current, this.kernel.followers.session.session.race?.id ?? null);
  }

  /** Follows the clock's break (entered: marked; left: play marked), if due, and sets the timer for the clock's next change. */
  follow(): void {
    const tournament = this.settings.current.tournament;
    const structure = tournament?.structure ?? null;
    this.followed = this.clock.view(structure);
    const current = tournament?.atBreakAfter ?? null;
    const finished = isFinished(this.colourUp(current));
    this.followedFinished = finished;
    this.clock.arm(structure, this.now(), () => this.follow(), current, finished);
    if (this.clock.markDue(structure, current, this.now(), finished) !== null) void this.kernel.serial(() => this.markBreakByClock());
  }

  /**
   * The break the clock is in marked as markBreak does (`by: 'clock'`), or play marked when it has
   * left the station's break; nothing when what is due changed meanwhile.
   */
  private async markBreakByClock(): Promise<CommandResult> {
    const tournament = this.settings.current.tournament;
    const current = tournament?.atBreakAfter ?? null;
    const due = this.clock.markDue(tournament?.structure ?? null, current, this.now(), isFinished(this.colourUp(current)));
    if (due === null || !tournament?.structure) return ok(null);
    let settings: ConsoleSettings;
    try {
      settings = readSettings({ ...this.settings.current, tournament: { ...tournament, atBreakAfter: due.afterLevel } });
    } catch (error) {
      // The floor's structure has a break the station's has not: no colour-up of this station's is due there.
      if (isInputError(error)) return ok(null);
      throw error;
    }
    await this.kernel.save({ kind: 'break-marked', afterLevel: due.afterLevel, by: 'clock' });
    await this.settings.store(settings);
    this.kernel.publish();
    return ok(null);
  }
}

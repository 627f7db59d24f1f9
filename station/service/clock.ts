import { InputError, isInputError } from '../../engine/errors';
import { breakMarkDue, floorMayHoldUntil } from '../../engine/clock/breaks';
import { adjustForMinutesLeft, applyClockEvent, CLOCK_EVENTS_KEPT, compactClock, foldClock, nextClockChange, readClock, type ClockEvent, type ClockSchedule } from '../../engine/clock/clock';
import type { JournalLine } from '../../journal/read';
import { FLOOR_CLOCK, scheduleOf, type ClockSource, type ClockView, type FloorClock } from '../../protocol/clock';
import { parse } from '../../protocol/schema';
import type { StructureInput } from '../../engine/plan/csv';
import { planColorUps } from '../../engine/plan/planner';
import { isClockRecord } from '../../replay/clockRecord';
import { FLOOR_CLOCK_KINDS, isFloorRecord, type FloorClockFact } from '../../replay/floorRecords';
import type { FollowerCheckpoint, JournalFollower } from '../../replay/follower';

/**
 * The station's tournament clock: its own (a home game), journaled as `clock` records, or the
 * floor's, handed over by the floor link (ConsoleService.followFloorClock). Whichever runs it, the
 * station's "this break" follows it (engine/clock/breaks.ts): when it enters the break after level
 * L the service marks that break as the dealer's "mark break" does, so the colour-up banner comes
 * up with the planned races, and when it leaves the break it marks play, so the banner, the
 * break's races raced off and the floor's decisions of that break leave the screens (on the
 * floor's clock a break whose colour-up is not finished is left once the floor can hold it no
 * more: the hold finds the station on it). One timer,
 * set for the moment the clock next enters a period; nothing polls.
 */

/** The clock's commands as the screens give them (`minutes`: that many more minutes left, "+1 min"; fewer when negative). */
export type ClockCommand = { readonly type: 'start' | 'pause' | 'resume' } | { readonly type: 'adjust'; readonly minutes: number };

/** How the clock sets its one timer (tests give their own, to fire it when they choose). */
export interface ClockTimers {
  readonly set: (fire: () => void, ms: number) => unknown;
  readonly clear: (handle: unknown) => void;
}

export const SYSTEM_TIMERS: ClockTimers = {
  set: (fire, ms) => setTimeout(fire, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The longest a Node timer waits (about 24.8 days); a clock change further off is waited for in steps. */
const TIMER_MAX_MS = 2 ** 31 - 1;

interface Running {
  readonly source: ClockSource;
  readonly schedule: ClockSchedule;
  readonly events: readonly ClockEvent[];
}

export class StationClock implements JournalFollower {
  /**
   * Its own records, the breaks marked (the clock's break is raised once a level's is not yet
   * marked), and the floor's clock as followed (`floor-clock`) with the tournament whose structure it runs on.
   */
  readonly kinds: readonly string[] = ['clock', 'break-marked', ...FLOOR_CLOCK_KINDS];

  /**
   * The station's own clock's events since its last start, from the journal: every one, appended
   * in place (a long night's presses replay in one pass); `localVersion` counts the changes. The
   * screens get them compacted (`view`).
   */
  private local: ClockEvent[] = [];
  private localVersion = 0;
  /** Those events folded, so each line read on start is applied once (a long day's journal replays in one pass). */
  private localRun = foldClock([], Number.MAX_SAFE_INTEGER);
  /** When each break was marked last (epoch ms of its `break-marked` line), by the level it follows. */
  private marked = new Map<number, number>();
  /**
   * The last `break-marked` line, of a break or of play: when, and how many of the own clock's
   * events came before it (0: before its start), so a clock's press and a mark in the same
   * millisecond keep their order.
   */
  private lastMark: { readonly at: number; readonly localEvents: number } | null = null;
  private floor: FloorClock | null = null;
  /** The floor's clock as last journaled (`floor-clock`; null: the station's own), and the structure of the floor's tournament journaled last. */
  private journaledFloor: FloorClockFact | null = null;
  private floorStructure: StructureInput | null = null;
  /**
   * The breaks the floor may hold at their end (its option on: those with a colour-up, as
   * floor/hold.ts holds them); none on the station's own clock or with the option off, where a
   * station's break never waits for a hold.
   */
  private floorHolds: readonly number[] = [];
  private floorSchedule: ReturnType<typeof scheduleOf> = { schedule: null, problem: null };
  private viewKey: { structure: unknown; local: number; floor: FloorClock | null } | null = null;
  private lastView: ClockView | null = null;
  private timer: unknown = undefined;
  private closed = false;

  /** What the journal made of it, the floor's clock followed too (the timer is the moment's, never kept). */
  readonly checkpoint: FollowerCheckpoint = {
    name: 'clock',
    snapshot: () => ({ local: this.local, localVersion: this.localVersion, localRun: this.localRun, marked: [...this.marked], lastMark: this.lastMark, floor: { clock: this.journaledFloor, structure: this.floorStructure } }),
    restore: (state) => {
      const { local, localVersion, localRun, marked, lastMark, floor } = state as { local: ClockEvent[]; localVersion: number; localRun: StationClock['localRun']; marked: [number, number][]; lastMark?: StationClock['lastMark']; floor?: { clock?: unknown; structure?: unknown } };
      // A checkpoint written before the last mark (or the floor's clock) was kept has none: the start replays the journal.
      if (!Array.isArray(local) || !Array.isArray(marked) || typeof localVersion !== 'number' || lastMark === undefined) throw new Error('clock: not a clock');
      if (typeof floor !== 'object' || floor === null || !('clock' in floor) || (floor.clock !== null && !isFloorRecord({ kind: 'floor-clock', clock: floor.clock }))) throw new Error('clock: not a clock');
      this.journaledFloor = floor.clock as FloorClockFact | null;
      this.floorStructure = (floor.structure ?? null) as StructureInput | null;
      this.followJournaled();
      this.lastMark = lastMark;
      this.local = local;
      this.localVersion = localVersion;
      this.localRun = localRun;
      this.marked = new Map(marked);
    },
  };

  constructor(private readonly timers: ClockTimers = SYSTEM_TIMERS) {}

  /** Follows the journal's lines, on start and as they are written. */
  add(line: JournalLine<unknown>): void {
    const record = line.record as { kind?: unknown; afterLevel?: unknown };
    if (isClockRecord(record)) {
      const fresh = record.event.type === 'start';
      // A line out of order (a journal edited by hand) is passed by, as the engine would refuse it.
      // Order only: the schedule's end is the structure's, which may change, so none is assumed here.
      try {
        this.localRun = applyClockEvent(fresh ? foldClock([], Number.MAX_SAFE_INTEGER) : this.localRun, record.event, Number.MAX_SAFE_INTEGER);
        if (fresh) this.local = [record.event];
        else this.local.push(record.event);
        // A mark before a fresh start came before all of this clock's events.
        if (fresh && this.lastMark !== null) this.lastMark = { at: this.lastMark.at, localEvents: 0 };
        this.localVersion += 1;
      } catch {
        // kept as it was
      }
    } else if (record.kind === 'break-marked' && (typeof record.afterLevel === 'number' || record.afterLevel === null)) {
      const at = Date.parse(line.at);
      if (record.afterLevel !== null) this.marked.set(record.afterLevel, at);
      this.lastMark = { at, localEvents: this.local.length };
    } else if (isFloorRecord(record) && (record.kind === 'floor-tournament' || record.kind === 'floor-clock')) {
      if (record.kind === 'floor-tournament') this.floorStructure = record.tournament?.structure ?? null;
      else this.journaledFloor = record.clock;
      this.followJournaled();
    }
  }

  /** The floor's clock as last journaled (null: the station's own). */
  get floorJournaled(): FloorClockFact | null {
    return this.journaledFloor;
  }

  /**
   * The floor's clock as the journal holds it, followed: on start (the floor out of reach or not)
   * the clock last followed, as the live station had it (ClockCommands.followFloorClock journals
   * what it follows, the structure being the floor tournament's). Events a structure reads out of
   * order leave the clock as it was, as following them live does.
   */
  private followJournaled(): void {
    const fact = this.journaledFloor;
    try {
      this.follow(fact === null ? null : { structure: this.floorStructure as StructureInput, events: fact.events, offsetMs: fact.offsetMs, held: fact.held, holdBreaks: fact.holdBreaks });
    } catch {
      // kept as it was
    }
  }

  /** The clock the state carries; the same object until its structure, events or source change. */
  view(structure: unknown): ClockView {
    const key = this.viewKey;
    if (this.lastView !== null && key !== null && key.structure === structure && key.local === this.localVersion && key.floor === this.floor) return this.lastView;
    const { schedule, problem } = this.floor === null ? scheduleOf(structure) : this.floorSchedule;
    this.viewKey = { structure, local: this.localVersion, floor: this.floor };
    this.lastView = this.floor === null ? { source: 'local', schedule, events: this.localEvents(schedule), problem, held: null } : { source: 'floor', schedule, events: this.floor.events, problem, held: this.floor.held ?? null };
    return this.lastView;
  }

  /**
   * The own clock's events as the state carries them: a copy, compacted as of the last event once
   * they are CLOCK_EVENTS_KEPT or more (the same clock from then on, in a few events), so no number
   * of presses fills the clock or weighs on every screen.
   */
  private localEvents(schedule: ClockSchedule | null): ClockEvent[] {
    const last = this.local.at(-1);
    if (schedule === null || last === undefined || this.local.length < CLOCK_EVENTS_KEPT) return [...this.local];
    try {
      return compactClock(this.local, schedule.totalMs, last.at);
    } catch {
      // Out of order for this schedule: the screens refuse it as they would the whole list.
      return [...this.local];
    }
  }

  private running(structure: unknown): Running | null {
    const view = this.view(structure);
    return view.schedule === null ? null : { source: view.source, schedule: view.schedule, events: view.events };
  }

  /**
   * The event a command of the station's own clock makes at `now`, or a keyed refusal: the floor
   * runs the clock, no structure, a level without minutes, a command out of order. A start after
   * the clock has finished starts it afresh.
   */
  event(structure: unknown, command: ClockCommand, now: number): ClockEvent {
    if (this.floor !== null) throw new InputError('clock', { key: 'clock.floor' });
    const view = this.view(structure);
    if (view.schedule === null) throw new InputError('tournament', view.problem ?? { key: 'service.noStructure' });
    // The computer's clock set back must not refuse the dealer's press: time on the clock only goes forward.
    const at = Math.max(now, this.local.at(-1)?.at ?? now);
    const event: ClockEvent = command.type === 'adjust' ? { type: 'adjust', at, by: adjustForMinutesLeft(command.minutes) } : { type: command.type, at };
    const finished = view.events.length > 0 && readClock(view.schedule, view.events, at).status === 'finished';
    // Checked against the clock as the screens have it (compacted): never refused for its length.
    const events = command.type === 'start' && finished ? [event] : [...view.events, event];
    foldClock(events, view.schedule.totalMs);
    return event;
  }

  /**
   * Follows the floor's clock (null: the station's own again). Refuses malformed events, keeping
   * what it had. The floor's events carry the floor's time; they are kept in this station's time
   * (less `offsetMs`), so the station follows the floor's time and not its own clock: the break
   * comes at the floor's moment on a station an hour off, its timer and the screens' countdown alike.
   */
  follow(floor: FloorClock | null): FloorClockFact | null {
    if (floor === null) {
      this.floor = null;
      this.floorHolds = [];
      return null;
    }
    const planned = scheduleOf(floor.structure);
    const { events: read, offsetMs, held, holdBreaks } = parse(FLOOR_CLOCK, floor);
    if (planned.schedule !== null) foldClock(read, planned.schedule.totalMs);
    const offset = offsetMs ?? 0;
    const events = offset === 0 ? read : read.map((event) => ({ ...event, at: event.at - offset }));
    this.floor = { structure: floor.structure, events, held: held ?? null, holdBreaks: holdBreaks === true };
    this.floorSchedule = planned;
    this.floorHolds = holdBreaks === true && planned.schedule !== null ? colourUpBreaks(floor.structure) : [];
    // As the journal keeps it (`floor-clock`): the events in the floor's time, with the offset.
    return { events: read, offsetMs: offset, held: held ?? null, holdBreaks: holdBreaks === true };
  }

  /**
   * The break the station marks now to follow its clock (`afterLevel` null: play), given the break
   * it is on (`current`, the settings' `tournament.atBreakAfter`) and whether its colour-up there is
   * finished; null when nothing is due: the clock entered a break not marked since its start, or
   * left the break the station is on, since the station's last mark (breakMarkDue). Marks by hand
   * stand until the clock moves on. On the floor's clock a break not finished is left only once
   * the floor can hold it no more (StationBreak `waitsForHold`).
   */
  markDue(structure: unknown, current: number | null, now: number, finished = false): { readonly afterLevel: number | null } | null {
    const view = this.view(structure);
    if (view.schedule === null) return null;
    // The own clock's every event since its start (the journal's, in order with the marks), or the floor's.
    const own = view.source === 'local';
    const mark = this.lastMark;
    const station = { current, markedAt: mark?.at ?? null, marks: this.marked, waitsForHold: !own && this.waitsForHold(current, finished), ...(own && mark !== null ? { markedAfterEvents: mark.localEvents } : {}) };
    try {
      return breakMarkDue(view.schedule, own ? this.local : view.events, now, station, view.held?.afterLevel ?? null);
    } catch {
      // Events this schedule reads out of order: the screens show the clock's problem; nothing is marked.
      return null;
    }
  }

  /**
   * Sets the one timer for the moment the clock next enters a period, or, on the floor's clock,
   * the floor can no longer hold the station's break (`current`, not `finished`) it has passed the
   * end of, if that comes first (cleared first); none while it stands.
   */
  arm(structure: unknown, now: number, fire: () => void, current: number | null = null, finished = false): void {
    this.timers.clear(this.timer);
    this.timer = undefined;
    const clock = this.running(structure);
    if (this.closed || clock === null) return;
    const next = nextClockChange(clock.schedule, clock.events, now);
    let holdEnds: number | null = null;
    try {
      holdEnds = clock.source === 'floor' && current !== null && this.waitsForHold(current, finished) ? floorMayHoldUntil(clock.schedule, clock.events, now, current) : null;
    } catch {
      // Events this schedule reads out of order: no hold to wait for.
    }
    const at = Math.min(next ?? Infinity, holdEnds ?? Infinity);
    if (Number.isFinite(at)) this.timer = this.timers.set(fire, Math.min(TIMER_MAX_MS, Math.max(0, at - now)));
  }

  /** Whether the station's break `current`, its colour-up not `finished`, is one the floor may hold: then it waits for the hold (StationBreak `waitsForHold`). */
  private waitsForHold(current: number | null, finished: boolean): boolean {
    return !finished && current !== null && this.floorHolds.includes(current);
  }

  close(): void {
    this.closed = true;
    this.timers.clear(this.timer);
    this.timer = undefined;
  }
}

/** The breaks a structure has a colour-up at (the levels they follow), as the floor's hold reads them; none when the planner refuses it. */
function colourUpBreaks(structure: unknown): number[] {
  try {
    return planColorUps(structure).colorUps.map((colorUp) => colorUp.afterLevel);
  } catch (error) {
    if (isInputError(error)) return [];
    throw error;
  }
}

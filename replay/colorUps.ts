import type { JournalLine } from '../journal/read';
import type { FollowerCheckpoint, JournalFollower } from './follower';
import type { ColorUpProgress, ColorUpRace } from '../protocol/contract';

/**
 * The journal's records of the colour-ups, beside the session's. Kinds of their own: a console
 * that knows them not finds a newer version's journal (read-only, as for any kind it does not
 * know), and journals written before them read as they did, with no colour-up under way.
 */
export type ColorUpRecord =
  /**
   * The tournament went to the break after `afterLevel` (null: play resumed): its colour-up starts
   * from its first race. `by: 'clock'` when the tournament clock marked it (station/service/clock.ts),
   * absent when marked by hand (and in journals written before the clock).
   */
  | { readonly kind: 'break-marked'; readonly afterLevel: number | null; readonly by?: 'clock' }
  /**
   * The race started next (the record after this one, `race`) runs this race of the colour-up of
   * the break after `afterLevel`. Written just before the race's start: a start that was never
   * written leaves this record without a race, and it counts for nothing.
   */
  | { readonly kind: 'color-up-race'; readonly race: string; readonly afterLevel: number; readonly removed: number; readonly next: number };

/** A race confirmed at the break marked last: the chips it took off, and when. */
export interface RacedOff {
  readonly raceId: string;
  readonly removed: number;
  readonly confirmedAt: string;
}

const COLOR_UP_KINDS: ReadonlySet<unknown> = new Set(['break-marked', 'color-up-race']);

/** The records a colour-up's progress is made of: its own two, and the starts and ends of the races it claims. */
export const COLOR_UP_LOG_KINDS: readonly string[] = ['break-marked', 'color-up-race', 'race-start', 'race-confirm', 'race-abandon'];

const isLevel = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;

export function isColorUpRecord(value: unknown): value is ColorUpRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (!COLOR_UP_KINDS.has(record.kind)) return false;
  if (record.kind === 'break-marked') return (record.afterLevel === null || isLevel(record.afterLevel)) && (record.by === undefined || record.by === 'clock');
  return typeof record.race === 'string' && /^race-[1-9][0-9]{0,8}$/.test(record.race) && isLevel(record.afterLevel) && isLevel(record.removed) && isLevel(record.next);
}

/**
 * Follows the journal's lines (on start and as they are written) to know how far the colour-up of
 * the break marked last has come: which started race runs which of its races, and which of those
 * were confirmed, when. What every window and a restart are told alike.
 */
export class ColorUpLog implements JournalFollower {
  readonly kinds = COLOR_UP_LOG_KINDS;
  private mark: number | null = null;
  private claimed: { readonly seq: number; readonly race: ColorUpRace } | null = null;
  /** The races started for the colour-up of the break marked last, by id. */
  private races = new Map<string, ColorUpRace>();
  private done: (ColorUpRace & { readonly confirmedAt: string })[] = [];
  /** Every race started since the break marked last (claimed or not) and still open: the chip it takes off. */
  private started = new Map<string, number>();
  /** Every race of the break marked last confirmed, claimed or not: its chips are off the table. */
  private racedOff: RacedOff[] = [];
  private view: { readonly key: string; readonly progress: ColorUpProgress | null } | null = null;

  readonly checkpoint: FollowerCheckpoint = {
    name: 'colorUps',
    snapshot: () => ({ mark: this.mark, claimed: this.claimed, races: [...this.races], done: this.done, started: [...this.started], racedOff: this.racedOff }),
    restore: (state) => {
      const { mark, claimed, races, done, started, racedOff } = state as { mark: number | null; claimed: ColorUpLog['claimed']; races: [string, ColorUpRace][]; done: ColorUpLog['done']; started: [string, number][]; racedOff: RacedOff[] };
      // A checkpoint written before the races raced off were kept has neither: the start replays the journal.
      if (!Array.isArray(races) || !Array.isArray(done) || !Array.isArray(started) || !Array.isArray(racedOff)) throw new Error('colour-ups: not a colour-up log');
      this.mark = mark;
      this.claimed = claimed;
      this.races = new Map(races);
      this.done = done;
      this.started = new Map(started);
      this.racedOff = racedOff;
      this.view = null;
    },
  };

  add(line: JournalLine<unknown>): void {
    const record = line.record as { kind?: unknown; raceId?: unknown };
    const claimed = this.claimed;
    this.claimed = null;
    this.followRacedOff(line);
    if (isColorUpRecord(record)) {
      if (record.kind === 'break-marked') {
        this.mark = record.afterLevel;
        this.races = new Map();
        this.done = [];
        this.started = new Map();
        this.racedOff = [];
      } else if (record.afterLevel === this.mark) {
        this.claimed = { seq: line.seq, race: { raceId: record.race, removed: record.removed, next: record.next } };
        return;
      }
    } else if (record.kind === 'race-start' && claimed !== null && claimed.seq + 1 === line.seq && claimed.race.raceId === record.raceId) {
      this.races.set(claimed.race.raceId, claimed.race);
    } else if (record.kind === 'race-confirm' && typeof record.raceId === 'string') {
      const race = this.races.get(record.raceId);
      if (race === undefined) return;
      this.races.delete(record.raceId);
      this.done = [...this.done, { ...race, confirmedAt: line.at }];
    } else if (record.kind === 'race-abandon' && typeof record.raceId === 'string') {
      if (!this.races.delete(record.raceId)) return;
    } else {
      return;
    }
    this.view = null;
  }

  /**
   * Every race started while a break is marked, claimed by its colour-up or not: confirmed, its
   * chips were raced off at that break. What a second race of them is refused by (racedOffAt).
   */
  private followRacedOff(line: JournalLine<unknown>): void {
    const record = line.record as { kind?: unknown; raceId?: unknown; race?: { removed?: unknown } };
    if (this.mark === null || typeof record.raceId !== 'string') return;
    if (record.kind === 'race-start') {
      const removed = record.race?.removed;
      if (isLevel(removed)) this.started.set(record.raceId, removed);
    } else if (record.kind === 'race-confirm') {
      const removed = this.started.get(record.raceId);
      if (removed === undefined) return;
      this.started.delete(record.raceId);
      this.racedOff = [...this.racedOff, { raceId: record.raceId, removed, confirmedAt: line.at }];
    } else if (record.kind === 'race-abandon') {
      this.started.delete(record.raceId);
    }
  }

  /**
   * The race that raced the `removed` chips off at the break after `afterLevel`, when that is the
   * break marked last and such a race was confirmed there (the first one); null otherwise. A break
   * marked afresh (the next one, or the same one marked again) starts with none.
   */
  racedOffAt(afterLevel: number, removed: number): RacedOff | null {
    if (this.mark !== afterLevel) return null;
    return this.racedOff.find((race) => race.removed === removed) ?? null;
  }

  /** The chips of the marked break's races confirmed so far. */
  doneChips(afterLevel: number): readonly number[] {
    return this.mark === afterLevel ? this.done.map((race) => race.removed) : [];
  }

  /**
   * The progress of the break the settings say the tournament is on (`afterLevel`), with the open
   * race's part in it; the same object until something changes.
   */
  progress(afterLevel: number | null, openRace: string | null): ColorUpProgress | null {
    const key = `${afterLevel} ${openRace}`;
    if (this.view?.key === key) return this.view.progress;
    const progress = afterLevel === null || afterLevel !== this.mark ? null : { afterLevel, done: this.done, running: (openRace === null ? undefined : this.races.get(openRace)) ?? null };
    this.view = { key, progress };
    return progress;
  }
}

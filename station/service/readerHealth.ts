/**
 * Reader health (issue 26): a pure fold of what the card source reads, per source and per hour, and
 * the verdict on its last frames (protocol/readerHealth.ts holds the shapes, thresholds and why).
 * No clock of its own: every count comes with its time (ms since the epoch), the view is made for
 * a given `now`. Memory is bounded whatever comes: per source READER_HEALTH_HOURS_KEPT hour
 * buckets, the last READER_HEALTH_WINDOW_FRAMES frames and an hour's minute buckets of repeats and
 * held cards; READER_HEALTH_SOURCES_KEPT sources.
 */
import type { ShoeEvent } from '../../hardware/events';
import { CHECKSUM_REFUSAL_KEYS } from '../../hardware/framing/frame';
import {
  healthWarns,
  READER_HEALTH_HOURS_KEPT,
  READER_HEALTH_SOURCES_KEPT,
  READER_HEALTH_WINDOW_FRAMES,
  READER_HEALTH_WINDOW_HOURS,
  type ReaderHealthCounts,
  type ReaderHealthHour,
  type ReaderHealthSource,
  type ReaderHealthSummary,
  type ReaderHealthView,
} from '../../protocol/readerHealth';

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;
/** The verdict's window's age limit, in ms. */
export const WINDOW_MS = READER_HEALTH_WINDOW_HOURS * HOUR_MS;
/** Minute buckets of repeats and held cards kept: the window's hour. */
const ASIDE_MINUTES = WINDOW_MS / MINUTE_MS;

/** One thing counted: a frame decoded (clean, unknown or failing its checksum), a repeat dropped, a card held. */
export type HealthTick = 'frame' | 'unknown' | 'checksum' | 'repeat' | 'held';

interface Bucket extends ReaderHealthCounts {
  /** Its start, ms since the epoch (a whole hour or minute). */
  readonly start: number;
}

interface SourceHealth {
  readonly source: string;
  /** Oldest first, at most READER_HEALTH_HOURS_KEPT, all within that many hours of the newest. */
  readonly hours: readonly Bucket[];
  /** The last frames, in the order counted, at most READER_HEALTH_WINDOW_FRAMES, none older than WINDOW_MS before the last. */
  readonly frames: readonly RecentFrame[];
  /** Whether a warning stood after the last frame (the hysteresis: healthWarns). */
  readonly warning: boolean;
  /** Repeats and held cards per minute (they are no frames), oldest first, the last hour's minutes. */
  readonly asides: readonly Bucket[];
}

/** A frame of the window: when, and whether clean (`frame`) or bad. */
interface RecentFrame {
  readonly at: number;
  readonly tick: 'frame' | 'unknown' | 'checksum';
}

/** The fold's state: the sources, the one counted last at the end. */
export interface HealthState {
  readonly sources: readonly SourceHealth[];
}

export const EMPTY_HEALTH: HealthState = { sources: [] };

const ZERO: ReaderHealthCounts = { frames: 0, unknown: 0, checksum: 0, repeats: 0, held: 0 };

/** What a shoe event counts for: a card or device message a frame, an unknown one bad (a checksum failure apart); a status and the start-up grace's report nothing. */
export function tickOf(event: ShoeEvent): HealthTick | null {
  if (event.type === 'card' || event.type === 'device') return 'frame';
  if (event.type !== 'unknown') return null;
  if (event.said.key === 'hardware.frame.grace') return null;
  return CHECKSUM_REFUSAL_KEYS.has(event.said.key) ? 'checksum' : 'unknown';
}

function added(counts: ReaderHealthCounts, tick: HealthTick): ReaderHealthCounts {
  switch (tick) {
    case 'frame':
      return { ...counts, frames: counts.frames + 1 };
    case 'unknown':
      return { ...counts, frames: counts.frames + 1, unknown: counts.unknown + 1 };
    case 'checksum':
      return { ...counts, frames: counts.frames + 1, checksum: counts.checksum + 1 };
    case 'repeat':
      return { ...counts, repeats: counts.repeats + 1 };
    case 'held':
      return { ...counts, held: counts.held + 1 };
  }
}

/**
 * The buckets with `tick` counted in the one of `size` that holds `at`, keeping only the `kept`
 * newest bucket starts' span (a bucket older than that span, the newest's included, is dropped: a
 * tick that old changes nothing). A clock set back counts in its own, older bucket.
 */
function bucketed(buckets: readonly Bucket[], tick: HealthTick, at: number, size: number, kept: number): readonly Bucket[] {
  const start = Math.floor(at / size) * size;
  const newest = Math.max(start, buckets.at(-1)?.start ?? start);
  const oldestKept = newest - (kept - 1) * size;
  if (start < oldestKept) return buckets;
  const index = buckets.findIndex((bucket) => bucket.start >= start);
  const next = [...buckets];
  if (index >= 0 && buckets[index]?.start === start) next[index] = { ...added(buckets[index] as Bucket, tick), start };
  else next.splice(index < 0 ? next.length : index, 0, { ...added(ZERO, tick), start });
  return next.filter((bucket) => bucket.start >= oldestKept);
}

/** The frames of the window at `at`: the last ones kept, none an hour old or older. */
function windowAt(frames: readonly RecentFrame[], at: number): readonly RecentFrame[] {
  const oldest = frames.findIndex((frame) => frame.at > at - WINDOW_MS);
  return oldest < 0 ? [] : oldest === 0 ? frames : frames.slice(oldest);
}

function frameCounts(frames: readonly RecentFrame[]): ReaderHealthCounts {
  let counts = ZERO;
  for (const frame of frames) counts = added(counts, frame.tick);
  return counts;
}

/** Whether a warning stands over `frames` (a window), given the one after the last frame: the hour passing or clean frames clear it, nothing warns anew without a frame. */
const warnsOver = (warning: boolean, frames: readonly RecentFrame[]): boolean => warning && healthWarns(true, frameCounts(frames));

/** The state with one tick of `source` counted at `at` (ms since the epoch). */
export function foldHealth(state: HealthState, source: string, tick: HealthTick, at: number): HealthState {
  if (!Number.isFinite(at)) return state;
  const before: SourceHealth = state.sources.find((entry) => entry.source === source) ?? { source, hours: [], frames: [], warning: false, asides: [] };
  const hours = bucketed(before.hours, tick, at, HOUR_MS, READER_HEALTH_HOURS_KEPT);
  let after: SourceHealth;
  if (tick === 'repeat' || tick === 'held') after = { ...before, hours, asides: bucketed(before.asides, tick, at, MINUTE_MS, ASIDE_MINUTES) };
  else {
    // The warning as it stood just before this frame (an hour passed, it is gone), then this frame judged with the window.
    const aged = windowAt(before.frames, at);
    const frames = [...aged, { at, tick }].slice(-READER_HEALTH_WINDOW_FRAMES);
    after = { ...before, hours, frames, warning: healthWarns(warnsOver(before.warning, aged), frameCounts(frames)) };
  }
  const others = state.sources.filter((entry) => entry.source !== source);
  return { sources: [...others.slice(Math.max(0, others.length - (READER_HEALTH_SOURCES_KEPT - 1))), after] };
}

function sum(buckets: readonly Bucket[]): ReaderHealthCounts {
  let counts = ZERO;
  for (const bucket of buckets) {
    counts = {
      frames: counts.frames + bucket.frames,
      unknown: counts.unknown + bucket.unknown,
      checksum: counts.checksum + bucket.checksum,
      repeats: counts.repeats + bucket.repeats,
      held: counts.held + bucket.held,
    };
  }
  return counts;
}

/**
 * The verdict at `now` and the counts it was given on: the window's frames (the last
 * READER_HEALTH_WINDOW_FRAMES of the last hour), and the repeats and held cards of the hour's
 * minutes up to `now` (its own included). No frame in the hour: quiet.
 */
export function recentHealth(state: HealthState, source: string, now: number): ReaderHealthSummary {
  const entry = state.sources.find((one) => one.source === source);
  const frames = windowAt(entry?.frames ?? [], now);
  const current = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const asides = sum((entry?.asides ?? []).filter((bucket) => bucket.start <= current && bucket.start > current - WINDOW_MS));
  const counts = frameCounts(frames);
  const verdict = frames.length === 0 ? 'quiet' : warnsOver(entry?.warning ?? false, frames) ? 'warn' : 'ok';
  return { verdict, ...counts, repeats: asides.repeats, held: asides.held };
}

/** Each source's hours as the view has them, by the fold's list (unchanged for a source not counted since: not made again). */
const hoursShown = new WeakMap<readonly Bucket[], readonly ReaderHealthHour[]>();
function hoursOf(buckets: readonly Bucket[]): readonly ReaderHealthHour[] {
  let hours = hoursShown.get(buckets);
  if (hours === undefined) hoursShown.set(buckets, (hours = buckets.map(({ start, ...counts }) => ({ hour: new Date(start).toISOString(), ...counts }))));
  return hours;
}

/** The state as the screens show it at `now`: the source in use first, then the others, most recent first; hours oldest first. */
export function healthView(state: HealthState, current: string | null, now: number): ReaderHealthView {
  const sources = [...state.sources].reverse();
  const ordered = [...sources.filter((entry) => entry.source === current), ...sources.filter((entry) => entry.source !== current)];
  return {
    current,
    sources: ordered.map(
      (entry): ReaderHealthSource => ({
        source: entry.source,
        hours: hoursOf(entry.hours),
        recent: recentHealth(state, entry.source, now),
      }),
    ),
  };
}

/**
 * Reader health (issue 26): a pure fold of what the card source reads, per source and per hour, and
 * the verdict on the last few minutes (protocol/readerHealth.ts holds the shapes and thresholds).
 * No clock of its own: every count comes with its time (ms since the epoch), the view is made for
 * a given `now`. Memory is bounded whatever comes: READER_HEALTH_HOURS_KEPT hour buckets and
 * READER_HEALTH_WINDOW_MINUTES minute buckets per source, READER_HEALTH_SOURCES_KEPT sources.
 */
import type { ShoeEvent } from '../../hardware/events';
import { CHECKSUM_REFUSAL_KEYS } from '../../hardware/framing/frame';
import {
  healthWarns,
  READER_HEALTH_HOURS_KEPT,
  READER_HEALTH_SOURCES_KEPT,
  READER_HEALTH_WINDOW_MINUTES,
  type ReaderHealthCounts,
  type ReaderHealthHour,
  type ReaderHealthSource,
  type ReaderHealthSummary,
  type ReaderHealthView,
} from '../../protocol/readerHealth';

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

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
  /** Oldest first, at most READER_HEALTH_WINDOW_MINUTES, all within that many minutes of the newest. */
  readonly minutes: readonly Bucket[];
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

/** The state with one tick of `source` counted at `at` (ms since the epoch). */
export function foldHealth(state: HealthState, source: string, tick: HealthTick, at: number): HealthState {
  if (!Number.isFinite(at)) return state;
  const before = state.sources.find((entry) => entry.source === source) ?? { source, hours: [], minutes: [] };
  const after: SourceHealth = {
    source,
    hours: bucketed(before.hours, tick, at, HOUR_MS, READER_HEALTH_HOURS_KEPT),
    minutes: bucketed(before.minutes, tick, at, MINUTE_MS, READER_HEALTH_WINDOW_MINUTES),
  };
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

/** The counts of the READER_HEALTH_WINDOW_MINUTES minutes up to `now` (its own minute included), and their verdict. */
export function recentHealth(state: HealthState, source: string, now: number): ReaderHealthSummary {
  const minutes = state.sources.find((entry) => entry.source === source)?.minutes ?? [];
  const current = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const counts = sum(minutes.filter((bucket) => bucket.start <= current && bucket.start > current - READER_HEALTH_WINDOW_MINUTES * MINUTE_MS));
  return { verdict: healthWarns(counts), ...counts };
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

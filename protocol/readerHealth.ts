/**
 * Reader health: what the station counts of its card source's frames, per source and per hour, and
 * the verdict on its last frames (station/service/readerHealth.ts folds them), as the screens
 * show them and as the floor is told of them (the summary, READER_HEALTH_SUMMARY).
 */
import { object, oneOf, whole, type Infer } from './schema';

/** Hours of counts kept per source: the evening's, and no more (the fold forgets older hours). */
export const READER_HEALTH_HOURS_KEPT = 24;
/** Sources kept: the one in use and the last few before it (a station switching readers). */
export const READER_HEALTH_SOURCES_KEPT = 4;

/*
 * The verdict (issue 26, after review). A chip race deals 5 to 20 cards, a few races an evening,
 * so a window of minutes rarely held enough frames to judge, and a rule with no memory flapped on a
 * reader whose bad rate sat at its threshold. So the verdict is given on the last
 * READER_HEALTH_WINDOW_FRAMES frames whatever their age, up to READER_HEALTH_WINDOW_HOURS old, and
 * a warning, once given, holds (hysteresis) until the frames fall below a far lower rate:
 *
 * - 30 frames: one or two races' cards, and the most in which 3 bad frames still make the 10 %
 *   that warns (3 of 30), so the rate and the count say the same thing: ANY 3 bad frames among the last
 *   30 warn (a loose cable's 5 bad of 15 at once). A steady rate warns once a window can hold 3 bad
 *   frames: one in 14 (7 %) or worse, within a race or two at a chip race's pace.
 * - 1 hour: a frame older than that says little of the cable now (a reseated plug, another reader);
 *   with no frame in the last hour the verdict is "quiet" and a warning is forgotten. Between races
 *   (minutes apart) the warning stays: a reader that is not read is not put right by that.
 * - clearing below 3 %: fewer than 3 % of at most 30 frames is none, so a warning ends only when
 *   every frame of the window is clean (30 clean frames in a row, or fewer once the bad ones are an
 *   hour old). The gap between 10 % and 3 % is the hysteresis: a reader with a steady rate between
 *   them (one frame in 11 … one in 33 bad, evenly spread, at a steady pace) changes verdict at most
 *   once, since a window of w frames at rate r holds ⌊wr⌋ or ⌈wr⌉ bad ones, and warning needs
 *   ⌈wr⌉ ≥ 3 (so ⌊wr⌋ ≥ 2) while clearing needs ⌊wr⌋ = 0. Whatever the frames, a warning lasts
 *   30 more frames (the bad frame that started it must leave the window) unless the hour passes,
 *   and a new one needs 3 new bad frames: at most two changes in 33 frames.
 * Memory: 30 frames (time and kind) per source, whatever comes.
 */
/** The frames the verdict is given on: the last this many of the source… */
export const READER_HEALTH_WINDOW_FRAMES = 30;
/** …that are at most this many hours old (none: "quiet", and a warning is forgotten). */
export const READER_HEALTH_WINDOW_HOURS = 1;
/**
 * The fewest bad frames (unknown or failing their checksum) in the window that warn: a clean reader
 * on a good cable sends none, but a dealer may show it a stray barcode or a card twice askew, so
 * one or two are no fault of the reader.
 */
export const READER_HEALTH_MIN_BAD = 3;
/**
 * The share of bad frames (percent of the frames in the window) that warns: a good line's rate is
 * well under 1 %; a loose connector or a failing antenna corrupts one frame in a few; line noise at
 * the wrong baud rate nearly all. Ten percent is clear of the first, far below the others.
 */
export const READER_HEALTH_BAD_PERCENT = 10;
/** A warning given holds until the share of bad frames in the window is below this (see above: with 30 frames, none). */
export const READER_HEALTH_CLEAR_PERCENT = 3;

/** What is counted, per source and per hour. `frames` counts every frame decoded (cards, device messages, unknown frames); `unknown` and `checksum` are among them; a repeat dropped by the repeat window and a card held for the dealer's say are counted apart. */
export interface ReaderHealthCounts {
  readonly frames: number;
  /** Unknown frames other than checksum failures (a frame the start-up grace skipped is not counted). */
  readonly unknown: number;
  /** Frames refused for a checksum that did not match (hardware's CHECKSUM_REFUSAL_KEYS). */
  readonly checksum: number;
  /** Reads dropped by the profile's repeat window. */
  readonly repeats: number;
  /** Cards held for the dealer's say (read from a noisy line, at the wrong seat's antenna …). */
  readonly held: number;
}

/** One hour's counts: `hour` its start (ISO 8601). */
export interface ReaderHealthHour extends ReaderHealthCounts {
  readonly hour: string;
}

/** `quiet`: no frame in the last READER_HEALTH_WINDOW_HOURS; `warn`: the bad frames rose over the threshold and have not yet fallen below the lower one (see above). */
export const READER_HEALTH_VERDICTS = ['ok', 'warn', 'quiet'] as const;
export type ReaderHealthVerdict = (typeof READER_HEALTH_VERDICTS)[number];

/** The most any count may say on the floor: PostgreSQL's integer. */
export const READER_HEALTH_COUNT_MAX = 2_147_483_647;

const count = /* @__PURE__ */ whole(0, READER_HEALTH_COUNT_MAX, { key: 'stateMessage.whole' });

/**
 * The verdict on the last READER_HEALTH_WINDOW_FRAMES frames of the last READER_HEALTH_WINDOW_HOURS
 * and the counts it was given on (`frames`, `unknown`, `checksum` those of the window; `repeats`
 * and `held`, which are no frames, the last hour's): what the station's warning says and what the
 * floor is told (read there by this schema: a station may send
 * anything).
 */
export const READER_HEALTH_SUMMARY = /* @__PURE__ */ object(
  {
    verdict: /* @__PURE__ */ oneOf(READER_HEALTH_VERDICTS, { key: 'stateMessage.oneOf', params: { options: READER_HEALTH_VERDICTS.join(', ') } }),
    frames: count,
    unknown: count,
    checksum: count,
    repeats: count,
    held: count,
  },
  { key: 'stateMessage.object' },
);
export type ReaderHealthSummary = Infer<typeof READER_HEALTH_SUMMARY>;

/** One card source's health: `source` names it (`serial /dev/ttyUSB0`, `simulator`), its hours oldest first, and its recent verdict. */
export interface ReaderHealthSource {
  readonly source: string;
  readonly hours: readonly ReaderHealthHour[];
  readonly recent: ReaderHealthSummary;
}

/** What the state carries: the source in use (null: manual entry) and every source kept, the one in use first. */
export interface ReaderHealthView {
  readonly current: string | null;
  readonly sources: readonly ReaderHealthSource[];
}

/**
 * Whether a window's counts warn, given whether a warning stood before them (the hysteresis): a new
 * warning needs READER_HEALTH_MIN_BAD bad frames making READER_HEALTH_BAD_PERCENT; one standing
 * holds until they are below READER_HEALTH_CLEAR_PERCENT. An empty window never warns.
 */
export function healthWarns(warning: boolean, counts: Pick<ReaderHealthCounts, 'frames' | 'unknown' | 'checksum'>): boolean {
  if (counts.frames === 0) return false;
  const bad = counts.unknown + counts.checksum;
  if (warning) return bad * 100 >= counts.frames * READER_HEALTH_CLEAR_PERCENT;
  return bad >= READER_HEALTH_MIN_BAD && bad * 100 >= counts.frames * READER_HEALTH_BAD_PERCENT;
}

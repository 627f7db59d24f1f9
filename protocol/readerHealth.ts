/**
 * Reader health: what the station counts of its card source's frames, per source and per hour, and
 * the verdict on the last few minutes (main/service/readerHealth.ts folds them), as the screens
 * show them and as the floor is told of them (the summary, READER_HEALTH_SUMMARY).
 */
import { object, oneOf, whole, type Infer } from './schema';

/** Hours of counts kept per source: the evening's, and no more (the fold forgets older hours). */
export const READER_HEALTH_HOURS_KEPT = 24;
/** Sources kept: the one in use and the last few before it (a station switching readers). */
export const READER_HEALTH_SOURCES_KEPT = 4;

/**
 * The verdict's window, in minutes: long enough to hold a race's cards (10 to 30 reads over a few
 * minutes), short enough that a cable put right stops the warning soon after.
 */
export const READER_HEALTH_WINDOW_MINUTES = 10;
/**
 * The fewest frames in the window a verdict is given on ("quiet" below it): a rate of one bad frame
 * in three means nothing, one in twenty (about a race's cards) does.
 */
export const READER_HEALTH_MIN_FRAMES = 20;
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

/** `quiet`: fewer than READER_HEALTH_MIN_FRAMES frames in the window; `warn`: the bad-frame rate is over the threshold. */
export const READER_HEALTH_VERDICTS = ['ok', 'warn', 'quiet'] as const;
export type ReaderHealthVerdict = (typeof READER_HEALTH_VERDICTS)[number];

/** The most any count may say on the floor: PostgreSQL's integer. */
export const READER_HEALTH_COUNT_MAX = 2_147_483_647;

const count = /* @__PURE__ */ whole(0, READER_HEALTH_COUNT_MAX, { key: 'stateMessage.whole' });

/**
 * The verdict on the last READER_HEALTH_WINDOW_MINUTES and the counts it was given on: what the
 * station's warning says and what the floor is told (read there by this schema: a station may send
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

/** Whether the counts of a window warn (see the thresholds above). */
export function healthWarns(counts: Pick<ReaderHealthCounts, 'frames' | 'unknown' | 'checksum'>): ReaderHealthVerdict {
  if (counts.frames < READER_HEALTH_MIN_FRAMES) return 'quiet';
  const bad = counts.unknown + counts.checksum;
  return bad >= READER_HEALTH_MIN_BAD && bad * 100 >= counts.frames * READER_HEALTH_BAD_PERCENT ? 'warn' : 'ok';
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unknownEvent } from '../../hardware/events';
import {
  READER_HEALTH_BAD_PERCENT,
  READER_HEALTH_CLEAR_PERCENT,
  READER_HEALTH_HOURS_KEPT,
  READER_HEALTH_MIN_BAD,
  READER_HEALTH_SOURCES_KEPT,
  READER_HEALTH_WINDOW_FRAMES,
  READER_HEALTH_WINDOW_HOURS,
  type ReaderHealthCounts,
  type ReaderHealthVerdict,
} from '../../protocol/readerHealth';
import { EMPTY_HEALTH, foldHealth, healthView, HOUR_MS, MINUTE_MS, recentHealth, tickOf, type HealthState, type HealthTick } from './readerHealth';

const TICKS: readonly HealthTick[] = ['frame', 'unknown', 'checksum', 'repeat', 'held'];
const EVENING = Date.UTC(2026, 11, 5, 18);

interface Tick {
  readonly source: string;
  readonly tick: HealthTick;
  readonly at: number;
}

const tick = (sources: readonly string[], span: number) =>
  fc.record({ source: fc.constantFrom(...sources), tick: fc.constantFrom(...TICKS), at: fc.integer({ min: EVENING, max: EVENING + span }) });

const foldAll = (ticks: readonly Tick[], state: HealthState = EMPTY_HEALTH): HealthState => ticks.reduce((folded, { source, tick: what, at }) => foldHealth(folded, source, what, at), state);

/** The model: counts of the ticks given, added up one by one. */
function counted(ticks: readonly Tick[]): ReaderHealthCounts {
  const counts = { frames: 0, unknown: 0, checksum: 0, repeats: 0, held: 0 };
  for (const { tick: what } of ticks) {
    if (what === 'frame' || what === 'unknown' || what === 'checksum') counts.frames += 1;
    if (what === 'unknown') counts.unknown += 1;
    if (what === 'checksum') counts.checksum += 1;
    if (what === 'repeat') counts.repeats += 1;
    if (what === 'held') counts.held += 1;
  }
  return counts;
}

const hourOf = (at: number) => Math.floor(at / HOUR_MS) * HOUR_MS;
const minuteOf = (at: number) => Math.floor(at / MINUTE_MS) * MINUTE_MS;
const WINDOW_MS = READER_HEALTH_WINDOW_HOURS * HOUR_MS;
const isFrame = (what: HealthTick) => what === 'frame' || what === 'unknown' || what === 'checksum';
const isBad = (what: HealthTick) => what === 'unknown' || what === 'checksum';

/**
 * The model of the verdict, written apart from the fold and keeping every frame: the window at `t` is
 * the last READER_HEALTH_WINDOW_FRAMES frames younger than an hour; a warning starts when it holds
 * at least READER_HEALTH_MIN_BAD bad frames making READER_HEALTH_BAD_PERCENT, and, once started,
 * ends only when they are under READER_HEALTH_CLEAR_PERCENT or the window is empty. Ticks in time order.
 */
function modelVerdict(ticks: readonly Tick[], now: number): { verdict: ReaderHealthVerdict; counts: ReaderHealthCounts } {
  const seen: Tick[] = [];
  const windowAt = (t: number) => seen.filter((one) => isFrame(one.tick) && one.at > t - WINDOW_MS).slice(-READER_HEALTH_WINDOW_FRAMES);
  const rate = (window: readonly Tick[]) => window.filter((one) => isBad(one.tick)).length / window.length;
  const starts = (window: readonly Tick[]) => window.filter((one) => isBad(one.tick)).length >= READER_HEALTH_MIN_BAD && rate(window) >= READER_HEALTH_BAD_PERCENT / 100;
  const ends = (window: readonly Tick[]) => window.length === 0 || rate(window) < READER_HEALTH_CLEAR_PERCENT / 100;
  let warning = false;
  for (const one of ticks) {
    if (isFrame(one.tick)) {
      if (warning && ends(windowAt(one.at))) warning = false;
      seen.push(one);
      const window = windowAt(one.at);
      warning = warning ? !ends(window) : starts(window);
    } else seen.push(one);
  }
  const window = windowAt(now);
  const asides = seen.filter((one) => !isFrame(one.tick) && minuteOf(one.at) <= minuteOf(now) && minuteOf(one.at) > minuteOf(now) - WINDOW_MS);
  const counts = { ...counted(window), repeats: counted(asides).repeats, held: counted(asides).held };
  return { verdict: window.length === 0 ? 'quiet' : warning && !ends(window) ? 'warn' : 'ok', counts };
}

/** Frames of one source, one every `every` ms from EVENING, bad where `bad(i)` says. */
const steady = (n: number, every: number, bad: (i: number) => boolean): Tick[] => Array.from({ length: n }, (_, i) => ({ source: 's', tick: bad(i) ? 'checksum' : 'frame', at: EVENING + i * every }));

/** The verdicts as a screen looking every `step` ms would see them, from the first frame to `until`, and how often they changed. */
function verdictsSeen(ticks: readonly Tick[], step: number, until: number): { seen: ReaderHealthVerdict[]; changes: number } {
  const seen: ReaderHealthVerdict[] = [];
  let state = EMPTY_HEALTH;
  let next = 0;
  for (let t = ticks[0]?.at ?? EVENING; t <= until; t += step) {
    while (next < ticks.length && (ticks[next] as Tick).at <= t) {
      const one = ticks[next] as Tick;
      state = foldHealth(state, one.source, one.tick, one.at);
      next += 1;
    }
    seen.push(recentHealth(state, 's', t).verdict);
  }
  return { seen, changes: seen.filter((verdict, i) => i > 0 && verdict !== seen[i - 1]).length };
}

describe('reader health: the fold', () => {
  it('counts each source per hour exactly as the ticks of the kept hours add up, in any order they came', () => {
    const sources = ['serial /dev/ttyUSB0', 'simulator', 'serial /dev/ttyACM0'];
    fc.assert(
      fc.property(fc.array(tick(sources, 40 * HOUR_MS), { maxLength: 300 }), (ticks) => {
        const view = healthView(foldAll(ticks), null, EVENING + 40 * HOUR_MS);
        for (const { source, hours } of view.sources) {
          const mine = ticks.filter((one) => one.source === source);
          const newest = Math.max(...mine.map((one) => hourOf(one.at)));
          const kept = [...new Set(mine.map((one) => hourOf(one.at)).filter((hour) => hour > newest - READER_HEALTH_HOURS_KEPT * HOUR_MS))].sort((a, b) => a - b);
          expect(hours.map((hour) => Date.parse(hour.hour))).toEqual(kept);
          for (const hour of hours) {
            const { hour: iso, ...counts } = hour;
            expect(counts).toEqual(counted(mine.filter((one) => hourOf(one.at) === Date.parse(iso))));
          }
        }
        expect(view.sources.map((entry) => entry.source).sort()).toEqual([...new Set(ticks.map((one) => one.source))].sort());
      }),
      { numRuns: 300 },
    );
  });

  it('keeps bounded memory whatever comes: hours, minutes and sources', () => {
    const sources = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    fc.assert(
      fc.property(fc.array(tick(sources, 100 * HOUR_MS), { maxLength: 400 }), (ticks) => {
        const state = foldAll(ticks);
        expect(state.sources.length).toBeLessThanOrEqual(READER_HEALTH_SOURCES_KEPT);
        for (const source of state.sources) {
          expect(source.hours.length).toBeLessThanOrEqual(READER_HEALTH_HOURS_KEPT);
          expect(source.frames.length).toBeLessThanOrEqual(READER_HEALTH_WINDOW_FRAMES);
          expect(source.asides.length).toBeLessThanOrEqual(WINDOW_MS / MINUTE_MS);
          for (const list of [source.hours, source.asides]) expect(list.map((bucket) => bucket.start)).toEqual([...new Set(list.map((bucket) => bucket.start))].sort((a, b) => a - b));
        }
        // The source counted last is always kept.
        const last = ticks.at(-1);
        if (last !== undefined) expect(state.sources.at(-1)?.source).toBe(last.source);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the model’s verdict and counts after every tick and at any later time, for any ticks (a model of the window and its hysteresis)', () => {
    fc.assert(
      fc.property(
        // Spells of a clean, a failing and a broken reader (0, 10 or 40 % bad, a few repeats and held
        // cards), frames seconds apart and now and then hours: the window bounded by its count, and by its hour.
        fc.array(
          fc.record({
            badPercent: fc.constantFrom(0, 10, 40),
            rolls: fc.array(fc.record({ roll: fc.integer({ min: 0, max: 99 }), gap: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 60_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 * HOUR_MS }) }) }), { maxLength: 40 }),
          }),
          { maxLength: 6 },
        ),
        fc.integer({ min: 0, max: 2 * HOUR_MS }),
        (spells, later) => {
          const ticks: Tick[] = [];
          let at = EVENING;
          for (const { badPercent, rolls } of spells) {
            for (const { roll, gap } of rolls) {
              const what: HealthTick = roll < badPercent ? (roll % 2 === 0 ? 'unknown' : 'checksum') : roll >= 96 ? (roll % 2 === 0 ? 'repeat' : 'held') : 'frame';
              ticks.push({ source: 's', tick: what, at: (at += gap) });
            }
          }
          let state = EMPTY_HEALTH;
          ticks.forEach((one, i) => {
            state = foldHealth(state, 's', one.tick, one.at);
            const { verdict, counts } = modelVerdict(ticks.slice(0, i + 1), one.at);
            expect(recentHealth(state, 's', one.at)).toEqual({ verdict, ...counts });
          });
          const now = at + later;
          const { verdict, counts } = modelVerdict(ticks, now);
          const summary = recentHealth(state, 's', now);
          expect(summary).toEqual({ verdict, ...counts });
          expect(summary.frames).toBeGreaterThanOrEqual(summary.unknown + summary.checksum);
          expect(summary.frames).toBeLessThanOrEqual(READER_HEALTH_WINDOW_FRAMES);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never flaps on a steady bad rate between the two thresholds: at most one change of verdict, however long (a model of a steady reader)', () => {
    fc.assert(
      fc.property(
        // A rate bad/per between 3 % and 10 %, spread evenly (frame i bad when ⌊(i+1)·r + φ⌋ > ⌊i·r + φ⌋), one frame every `every` ms.
        fc
          .record({ per: fc.integer({ min: 10, max: 200 }), bad: fc.integer({ min: 1, max: 20 }), phase: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) })
          .filter(({ per, bad }) => bad * 100 >= per * READER_HEALTH_CLEAR_PERCENT && bad * 100 < per * READER_HEALTH_BAD_PERCENT),
        fc.integer({ min: 1_000, max: 15 * MINUTE_MS }),
        fc.integer({ min: 100, max: 500 }),
        ({ per, bad, phase }, every, n) => {
          const rate = bad / per;
          const ticks = steady(n, every, (i) => Math.floor((i + 1) * rate + phase) > Math.floor(i * rate + phase));
          // Looked at twice between frames (just before a frame, the oldest may have aged out).
          const { seen, changes } = verdictsSeen(ticks, every / 2, EVENING + (n - 1) * every);
          expect(seen.includes('quiet')).toBe(false);
          expect(changes).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('whatever came before, within the hour: a warning lasts at least the window’s frames, and a new one takes three new bad frames', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<HealthTick>('frame', 'frame', 'frame', 'unknown', 'checksum'), { maxLength: 300 }), (whats) => {
        // All within the hour: one frame every 10 s.
        const ticks = steady(whats.length, 10_000, () => false).map((one, i) => ({ ...one, tick: whats[i] as HealthTick }));
        let state = EMPTY_HEALTH;
        const verdicts = ticks.map((one) => recentHealth((state = foldHealth(state, 's', one.tick, one.at)), 's', one.at).verdict);
        let since = 0;
        verdicts.forEach((verdict, i) => {
          const before = i === 0 ? 'ok' : verdicts[i - 1];
          if (verdict === before) return;
          if (verdict === 'warn') {
            // A warning starts on a bad frame, with three bad ones since the last cleared.
            expect(isBad(whats[i] as HealthTick)).toBe(true);
            expect(whats.slice(since, i + 1).filter(isBad).length).toBeGreaterThanOrEqual(READER_HEALTH_MIN_BAD);
          } else expect(i - since).toBeGreaterThanOrEqual(READER_HEALTH_WINDOW_FRAMES);
          since = i + (verdict === 'warn' ? 0 : 1);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a burst of three bad frames warns, whatever came before', () => {
    fc.assert(
      fc.property(fc.array(tick(['s'], 3 * HOUR_MS), { maxLength: 200 }), fc.array(fc.constantFrom<HealthTick>('unknown', 'checksum'), { minLength: READER_HEALTH_MIN_BAD, maxLength: 10 }), fc.integer({ min: 0, max: 3 * HOUR_MS }), (before, burst, gap) => {
        const sorted = [...before].sort((a, b) => a.at - b.at);
        const start = (sorted.at(-1)?.at ?? EVENING) + gap;
        const state = foldAll([...sorted, ...burst.map((what, i) => ({ source: 's', tick: what, at: start + i * 500 }))]);
        const summary = recentHealth(state, 's', start + burst.length * 500);
        expect(summary.verdict).toBe('warn');
        expect(summary.unknown + summary.checksum).toBeGreaterThanOrEqual(burst.length);
      }),
      { numRuns: 300 },
    );
  });

  it('the review’s steady reader: one frame every 20 s, every 11th bad (9 %), for two hours warns once and stays (it changed 63 times under the old rule)', () => {
    const ticks = steady(360, 20_000, (i) => i % 11 === 10);
    const { seen, changes } = verdictsSeen(ticks, 10_000, EVENING + 2 * HOUR_MS);
    expect(changes).toBe(1);
    // The third bad frame (the 33rd frame) makes 3 of the last 30: 10 %.
    expect(seen.indexOf('warn')).toBe(32 * 2);
    expect(seen.at(-1)).toBe('warn');
    // A steady rate warns when a window can hold 3 bad of 30: one in 12 to one in 14 (7 to 8 %) warn
    // once and stay; one in 15 (6.7 %) or 40 (2.5 %) never do.
    for (const per of [12, 14]) expect(verdictsSeen(steady(360, 20_000, (i) => i % per === per - 1), 10_000, EVENING + 2 * HOUR_MS)).toMatchObject({ changes: 1 });
    for (const per of [15, 40]) expect(verdictsSeen(steady(360, 20_000, (i) => i % per === per - 1), 10_000, EVENING + 2 * HOUR_MS)).toMatchObject({ changes: 0 });
  });

  it('the review’s loose cable at a chip race: 5 bad of 15 warn; the quiet between races and the next race’s few clean cards do not clear it; 30 clean frames or an hour do', () => {
    let state = EMPTY_HEALTH;
    const race = (start: number, whats: readonly HealthTick[]) => whats.forEach((what, i) => (state = foldHealth(state, 's', what, start + i * 10_000)));
    expect(recentHealth(state, 's', EVENING).verdict).toBe('quiet');
    race(EVENING, ['frame', 'checksum', 'frame', 'frame', 'unknown', 'frame', 'frame', 'checksum', 'frame', 'frame', 'checksum', 'frame', 'frame', 'unknown', 'frame']);
    expect(recentHealth(state, 's', EVENING + 3 * MINUTE_MS)).toEqual({ verdict: 'warn', frames: 15, unknown: 2, checksum: 3, repeats: 0, held: 0 });
    // Between races: still warned of (it was "quiet" under the old rule, the warning gone).
    expect(recentHealth(state, 's', EVENING + 40 * MINUTE_MS).verdict).toBe('warn');
    const put = state;
    // The next race, cable reseated: 12 clean cards, then a 14-card race 20 minutes on.
    race(EVENING + 40 * MINUTE_MS, Array<HealthTick>(12).fill('frame'));
    expect(recentHealth(state, 's', EVENING + 45 * MINUTE_MS)).toMatchObject({ verdict: 'warn', frames: 27, unknown: 2, checksum: 3 });
    race(EVENING + 50 * MINUTE_MS, Array<HealthTick>(14).fill('frame'));
    expect(recentHealth(state, 's', EVENING + 55 * MINUTE_MS)).toMatchObject({ verdict: 'warn', frames: 30, unknown: 1, checksum: 0 });
    race(EVENING + 56 * MINUTE_MS, Array<HealthTick>(4).fill('frame'));
    expect(recentHealth(state, 's', EVENING + 57 * MINUTE_MS)).toMatchObject({ verdict: 'ok', frames: 30, unknown: 0, checksum: 0 });
    // Or, with no race after it, the hour passing: quiet, the warning forgotten; a clean card then is just ok.
    expect(recentHealth(put, 's', EVENING + 63 * MINUTE_MS).verdict).toBe('quiet');
    expect(recentHealth(foldHealth(put, 's', 'frame', EVENING + 63 * MINUTE_MS), 's', EVENING + 63 * MINUTE_MS).verdict).toBe('ok');
    // And one bad frame after the hour is one, not a warning.
    expect(recentHealth(foldHealth(put, 's', 'checksum', EVENING + 63 * MINUTE_MS), 's', EVENING + 63 * MINUTE_MS).verdict).toBe('ok');
  });

  it('sorts shoe events: cards and device messages are frames, checksum refusals apart from other unknown frames, the grace report and statuses nothing', () => {
    expect(tickOf({ type: 'card', card: 'As', raw: 'As' })).toBe('frame');
    expect(tickOf({ type: 'device', message: 'shoe-empty', raw: 'EMPTY' })).toBe('frame');
    expect(tickOf(unknownEvent('x', { key: 'hardware.frame.badChecksumByte', params: { checksum: 'xor', got: '00', expected: '01' } }))).toBe('checksum');
    expect(tickOf(unknownEvent('x', { key: 'hardware.frame.badChecksumHex', params: { checksum: 'xor', got: '00', expected: '01' } }))).toBe('checksum');
    expect(tickOf(unknownEvent('x', { key: 'hardware.frame.notText' }))).toBe('unknown');
    expect(tickOf(unknownEvent('x', { key: 'hardware.frame.grace', params: { n: 1, ms: 500 } }))).toBeNull();
    expect(tickOf({ type: 'status', state: 'connected' })).toBeNull();
  });
});

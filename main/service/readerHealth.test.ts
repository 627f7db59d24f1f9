import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unknownEvent } from '../../hardware/events';
import {
  READER_HEALTH_BAD_PERCENT,
  READER_HEALTH_HOURS_KEPT,
  READER_HEALTH_MIN_BAD,
  READER_HEALTH_MIN_FRAMES,
  READER_HEALTH_SOURCES_KEPT,
  READER_HEALTH_WINDOW_MINUTES,
  type ReaderHealthCounts,
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
          expect(source.minutes.length).toBeLessThanOrEqual(READER_HEALTH_WINDOW_MINUTES);
          for (const list of [source.hours, source.minutes]) expect(list.map((bucket) => bucket.start)).toEqual([...new Set(list.map((bucket) => bucket.start))].sort((a, b) => a - b));
        }
        // The source counted last is always kept.
        const last = ticks.at(-1);
        if (last !== undefined) expect(state.sources.at(-1)?.source).toBe(last.source);
      }),
      { numRuns: 300 },
    );
  });

  it('warns exactly when the last minutes’ bad frames pass the threshold (a model of the window)', () => {
    fc.assert(
      fc.property(fc.array(tick(['s'], 30 * MINUTE_MS), { maxLength: 200 }), fc.integer({ min: 0, max: 15 * MINUTE_MS }), (ticks, later) => {
        const sorted = [...ticks].sort((a, b) => a.at - b.at);
        // The view is made at or after the last count (the service's clock goes on).
        const now = Math.max(EVENING, ...sorted.map((one) => one.at)) + later;
        const summary = recentHealth(foldAll(sorted), 's', now);
        const inWindow = sorted.filter((one) => minuteOf(one.at) <= minuteOf(now) && minuteOf(one.at) > minuteOf(now) - READER_HEALTH_WINDOW_MINUTES * MINUTE_MS);
        const counts = counted(inWindow);
        expect({ ...summary, verdict: undefined }).toEqual({ ...counts, verdict: undefined });
        const bad = counts.unknown + counts.checksum;
        const verdict = counts.frames < READER_HEALTH_MIN_FRAMES ? 'quiet' : bad >= READER_HEALTH_MIN_BAD && bad / counts.frames >= READER_HEALTH_BAD_PERCENT / 100 ? 'warn' : 'ok';
        expect(summary.verdict).toBe(verdict);
        expect(summary.frames).toBeGreaterThanOrEqual(summary.unknown + summary.checksum);
      }),
      { numRuns: 300 },
    );
  });

  it('a loose cable: clean reads, then one frame in four bad, warns; ten quiet minutes later it no longer does', () => {
    let state = EMPTY_HEALTH;
    for (let i = 0; i < 30; i += 1) state = foldHealth(state, 's', 'frame', EVENING + i * 1000);
    expect(recentHealth(state, 's', EVENING + 30_000).verdict).toBe('ok');
    for (let i = 0; i < 20; i += 1) state = foldHealth(state, 's', i % 2 === 0 ? 'checksum' : 'frame', EVENING + 40_000 + i * 1000);
    expect(recentHealth(state, 's', EVENING + 60_000)).toEqual({ verdict: 'warn', frames: 50, unknown: 0, checksum: 10, repeats: 0, held: 0 });
    expect(recentHealth(state, 's', EVENING + 11 * MINUTE_MS).verdict).toBe('quiet');
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

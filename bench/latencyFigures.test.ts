import { describe, expect, it } from 'vitest';
import { failsGate } from './report';
import { LATENCY_TARGETS, latencyFigures, offsetBetween, ratioOf, spreadOf, stagesOf, type Arrival, type LatencyMeasured, type Sample } from './latencyFigures';
import { percentile } from './support';

describe('the latency figures', () => {
  it('takes percentiles by nearest rank, whatever the order', () => {
    const values = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    // 20 values: the 95th is the 19th, not the largest.
    expect(percentile(Array.from({ length: 20 }, (_, index) => index + 1), 95)).toBe(19);
    expect(() => percentile([], 50)).toThrow('percentile of no values');
  });

  it('spreads values to 0.1 ms', () => {
    expect(spreadOf([3.04, 1.26, 2.5, 10.01])).toEqual({ p50: 2.5, p95: 10, min: 1.3, max: 10 });
  });

  it('takes the clock offset as a straight line between a reading before and one after', () => {
    const offsetAt = offsetBetween({ at: 1000, offset: 2, bound: 0.1 }, { at: 3000, offset: 4, bound: 0.2 });
    expect(offsetAt(1000)).toBe(2);
    expect(offsetAt(2000)).toBe(3);
    expect(offsetAt(3000)).toBe(4);
    // Two readings at one moment: that offset.
    expect(offsetBetween({ at: 5, offset: 1.5, bound: 0 }, { at: 5, offset: 9, bound: 0 })(100)).toBe(1.5);
  });

  it('splits a card into its stages in the page clock, the share being all but the frame', () => {
    // Sent at 1000 of ours, which is 1010 in the page (offset 10).
    const arrival: Arrival = { message: 1014, bytes: 5000, inDom: 1016.5, frame: 1025, painted: 1028 };
    const samples: Sample[] = [{ sent: 1000, arrival }];
    const stages = stagesOf(samples, () => 10);
    expect(stages).toEqual({ toPage: [4], pageToDom: [2.5], toDom: [6.5], frameWait: [8.5], frameRender: [3], toScreen: [18] });
    // The stages add up: share + frame wait + render = shoe to screen.
    expect((stages.toDom[0] as number) + (stages.frameWait[0] as number) + (stages.frameRender[0] as number)).toBe(stages.toScreen[0]);
  });

  it('gives a ratio to a baseline to 0.01, and refuses a baseline that is not a time', () => {
    expect(ratioOf(30, 20)).toBe(1.5);
    expect(ratioOf(29.1, 21.3)).toBe(1.37);
    expect(() => ratioOf(30, 0)).toThrow('a ratio to a baseline of 0');
    expect(() => ratioOf(30, Number.NaN)).toThrow();
  });
});

describe("the latency group's gates", () => {
  const spread = (p95: number) => ({ p50: p95 / 2, p95, min: 1, max: p95 * 2 });
  const measured = (toScreenP95: number, bareP95: number, shareP95: number, pageCpuPerCardMs = 1): LatencyMeasured => ({
    cards: 344,
    racesInHistory: 305,
    bareCards: 344,
    toScreen: spread(toScreenP95),
    share: spread(shareP95),
    bareToScreen: spread(bareP95),
    pageCpuPerCardMs,
  });
  const failing = (figures: ReturnType<typeof latencyFigures>) => figures.filter(failsGate).map((figure) => figure.name);

  it('within 30 ms at p95 passes: the ratio and the share are shown beside it, not gated yet', () => {
    const figures = latencyFigures(measured(29, 12, 13));
    expect(figures.map((figure) => [figure.unit, figure.value])).toEqual([
      ['ms', 14.5],
      ['ms', 29],
      ['ms', 12],
      ['×', 2.42],
      ['ms', 13],
      ['ms', 1],
    ]);
    expect(failing(figures)).toEqual([]);
  });

  it("the page's own work per card gates: over its target the run fails, whatever the wall times", () => {
    const target = LATENCY_TARGETS.pageCpuPerCardMs;
    expect(failing(latencyFigures(measured(20, 15, 6, target + 0.01))).map((name) => name.replace(/ \(.*/, ''))).toEqual(["the console page's own work per card"]);
    expect(failing(latencyFigures(measured(20, 15, 6, target)))).toEqual([]);
  });

  it('a p95 over 30 ms fails the run; the ratio, until the console fits it, says it is report only', () => {
    expect(failing(latencyFigures(measured(31, 18, 7))).map((name) => name.replace(/ \(.*/, ''))).toEqual(['shoe-to-screen latency p95']);
    expect(failing(latencyFigures(measured(30, 10, 7)))).toEqual([]);
    expect(latencyFigures(measured(30, 10, 7)).find((figure) => figure.unit === '×')?.reportOnly).toMatch(/^wall times that follow the machine/);
  });

  it('the share says it is report only in its note', () => {
    const share = latencyFigures(measured(20, 18, 12)).find((figure) => figure.name.startsWith("console's share"));
    expect(share?.target).toBe(8);
    expect(share?.reportOnly).toMatch(/^a wall time that follows the machine/);
  });
});

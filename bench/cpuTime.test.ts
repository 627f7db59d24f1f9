import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mainThreadCpuMs, medianRatio, processCpuMs } from './cpuTime';

describe('the interleaved gate: the median of the looks’ ratios', () => {
  it('is the middle look’s ratio, or the mean of the two middle ones', () => {
    expect(medianRatio([2, 4, 9], [1, 1, 1])).toBe(4);
    expect(medianRatio([2, 4, 6, 9], [1, 1, 1, 1])).toBe(5);
    expect(medianRatio([20, 40], [10, 10])).toBe(3);
  });

  it('pairs each look with its own baseline, not the medians of each side', () => {
    // Medians apart would say 20 ÷ 20 = 1; each look's work cost twice its baseline.
    expect(medianRatio([10, 20, 40], [5, 10, 20])).toBe(2);
  });

  it('stays where most looks are when a collection lands in one work or one baseline (the reason for the median)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 40 }), fc.double({ min: 0.2, max: 5, noNaN: true }), fc.nat(), fc.boolean(), fc.double({ min: 1, max: 50, noNaN: true }), (looks, ratio, at, inWork, spike) => {
        const baseline = Array.from({ length: looks }, (_, look) => 10 + (look % 3));
        const work = baseline.map((cpu) => cpu * ratio);
        const spiked = at % looks;
        if (inWork) work[spiked] = (work[spiked] as number) * spike;
        else baseline[spiked] = (baseline[spiked] as number) * spike;
        expect(medianRatio(work, baseline)).toBeCloseTo(ratio, 1);
      }),
    );
  });

  it('refuses looks that do not pair up', () => {
    expect(() => medianRatio([], [])).toThrow(/0 looks/);
    expect(() => medianRatio([1, 2], [1])).toThrow(/2 looks of the work against 1/);
  });
});

describe('CPU readings the gates take', () => {
  it('reads a process’s time on the CPU and this main thread’s, in ms, never going back', () => {
    const process0 = processCpuMs(process.pid);
    const main0 = mainThreadCpuMs();
    let spin = 0;
    for (let index = 0; index < 2_000_000; index += 1) spin += index % 7;
    expect(spin).toBeGreaterThan(0);
    expect(processCpuMs(process.pid)).toBeGreaterThanOrEqual(process0);
    expect(mainThreadCpuMs()).toBeGreaterThan(main0);
    // Milliseconds, not nanoseconds nor ticks: this process has run for less than an hour of CPU.
    expect(main0).toBeGreaterThan(0);
    expect(main0).toBeLessThan(3_600_000);
  });
});

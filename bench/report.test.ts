import { describe, expect, it } from 'vitest';
import { failsGate, formatTable, meetsTarget, type BenchFigure } from './report';

const figure = (value: number, more: Partial<BenchFigure> = {}): BenchFigure => ({ name: 'latency p95', value, unit: 'ms', target: 30, better: 'lower', ...more });

describe('figures that gate and figures that only report', () => {
  it('a report-only figure is shown against its target, with what gates it instead, and fails no run', () => {
    const absolute = figure(34, { reportOnly: 'gated as the ratio' });
    expect(meetsTarget(absolute)).toBe(false);
    expect(failsGate(absolute)).toBe(false);
    expect(formatTable([absolute])).toContain('missed, report only (gated as the ratio)');
    expect(formatTable([figure(24, { reportOnly: 'gated as the ratio' })])).toContain('ok, report only (gated as the ratio)');
  });

  it('a figure with no target is a reference: it meets nothing and fails nothing', () => {
    const baseline: BenchFigure = { name: 'bare path p95', value: 21.3, unit: 'ms', better: 'lower' };
    expect(meetsTarget(baseline)).toBe(true);
    expect(failsGate(baseline)).toBe(false);
    expect(formatTable([baseline]).split('\n')[2]).toBe('bare path p95  21.3 ms   —       reference, no target');
  });

  it('a ratio over its target fails the run', () => {
    const ratio: BenchFigure = { name: 'p95 ÷ bare p95', value: 1.51, unit: '×', target: 1.5, better: 'lower' };
    expect(failsGate(ratio)).toBe(true);
    expect(failsGate({ ...ratio, value: 1.5 })).toBe(false);
    expect(formatTable([ratio])).toContain('≤ 1.5 ×  MISSED');
  });
});

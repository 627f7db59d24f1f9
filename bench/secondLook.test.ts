import { describe, expect, it } from 'vitest';
import { failsGate, formatTable, type BenchFigure } from './report';
import { measureGroups } from './secondLook';

const figure = (value: number): BenchFigure => ({ name: 'latency p95', value, unit: 'ms', target: 30, better: 'lower' });

/** Groups whose runs give these values in turn. */
function groupsGiving(runs: Record<string, number[]>) {
  const measured: string[] = [];
  const groups = Object.keys(runs).map((name) => ({ name }));
  const measure = async (group: { name: string }) => {
    measured.push(group.name);
    return { figures: [figure((runs[group.name] as number[]).shift() as number)] };
  };
  return { groups, measure, measured };
}

describe('a missed target gets another look', () => {
  it('measures a group that met its targets once, and one that missed again, keeping every run', async () => {
    const { groups, measure, measured } = groupsGiving({ fine: [24], slowSpell: [32.1, 24.7] });
    const said: string[] = [];
    const pauses: number[] = [];
    const { runs } = await measureGroups(groups, { measure, pause: async (look) => void pauses.push(look), say: (line) => said.push(line) });
    expect(measured).toEqual(['fine', 'slowSpell', 'slowSpell']);
    expect(pauses).toEqual([1]);
    expect(runs.map((run) => [run.group.name, run.result.figures[0]?.value, run.earlier.map((earlier) => earlier[0]?.value)])).toEqual([
      ['fine', 24, []],
      ['slowSpell', 24.7, [32.1]],
    ]);
    expect(said).toEqual(['bench: slowSpell: missed latency p95 (32.1 ms); measuring the group once more (look 2 of at most 4)']);
  });

  it('looks again through a long slow spell, pausing longer each time, and stops at the first run that meets every target', async () => {
    const { groups, measure, measured } = groupsGiving({ longSpell: [33, 31, 29.5, 35] });
    const pauses: number[] = [];
    const { runs } = await measureGroups(groups, { measure, pause: async (look) => void pauses.push(look), say: () => undefined });
    expect(measured).toEqual(['longSpell', 'longSpell', 'longSpell']);
    expect(pauses).toEqual([1, 2]);
    expect(runs[0]?.result.figures[0]?.value).toBe(29.5);
    expect(runs[0]?.earlier.map((run) => run[0]?.value)).toEqual([33, 31]);
  });

  it('a target missed at every look stays missed: a regression cannot pass', async () => {
    const { groups, measure } = groupsGiving({ regressed: [41, 40, 42, 40.5, 20] });
    const { runs } = await measureGroups(groups, { measure, pause: async () => undefined, say: () => undefined });
    expect(runs[0]?.result.figures[0]?.value).toBe(40.5);
    expect(runs[0]?.earlier.map((run) => run[0]?.value)).toEqual([41, 40, 42]);
  });

  it('measures once when told to look only once', async () => {
    const { groups, measure, measured } = groupsGiving({ once: [41, 20] });
    const { runs } = await measureGroups(groups, { measure, pause: async () => undefined, say: () => undefined, looks: 1 });
    expect(measured).toEqual(['once']);
    expect(runs[0]?.result.figures[0]?.value).toBe(41);
  });

  it('a figure not gated yet is measured and shown missed, but gets no second look and fails no run', async () => {
    const pending: BenchFigure = { ...figure(41), notGatedYet: 'issue 21' };
    const { runs } = await measureGroups([{ name: 'pending' }], { measure: async () => ({ figures: [pending] }), pause: async () => undefined, say: () => undefined });
    expect(runs[0]?.earlier).toEqual([]);
    expect(failsGate(pending)).toBe(false);
    expect(failsGate(figure(41))).toBe(true);
    expect(formatTable([pending])).toContain('missed, not a gate yet (issue 21)');
  });
});

import { describe, expect, it } from 'vitest';
import type { BenchFigure } from './report';
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

describe('a missed target gets a second look', () => {
  it('measures a group that met its targets once, and one that missed once more, keeping both runs', async () => {
    const { groups, measure, measured } = groupsGiving({ fine: [24], slowSpell: [32.1, 24.7] });
    const said: string[] = [];
    let pauses = 0;
    const { runs } = await measureGroups(groups, { measure, pause: async () => void (pauses += 1), say: (line) => said.push(line) });
    expect(measured).toEqual(['fine', 'slowSpell', 'slowSpell']);
    expect(pauses).toBe(1);
    expect(runs.map((run) => [run.group.name, run.result.figures[0]?.value, run.first?.[0]?.value ?? null])).toEqual([
      ['fine', 24, null],
      ['slowSpell', 24.7, 32.1],
    ]);
    expect(said).toEqual(['bench: slowSpell: missed latency p95 (32.1 ms); measuring the group once more']);
  });

  it('a target missed twice stays missed: a regression cannot pass', async () => {
    const { groups, measure } = groupsGiving({ regressed: [41, 40] });
    const { runs } = await measureGroups(groups, { measure, pause: async () => undefined, say: () => undefined });
    expect(runs[0]?.result.figures[0]?.value).toBe(40);
    expect(runs[0]?.first?.[0]?.value).toBe(41);
  });
});

import { describe, expect, it } from 'vitest';
import { engineFigures, engineFiguresAlone, REFERENCE_RATIO_TARGET } from './engine';
import { failsGate } from './report';

describe('the engine figures', () => {
  const reference = [250_000, 240_000, 260_000, 250_000, 255_000];

  it('pass an engine as fast as the reference commit', () => {
    const figures = engineFigures({ rules: 'classic', cardsPerRace: 30, current: reference, reference });
    expect(figures.map((figure) => figure.value)).toEqual([250_000, 1]);
    expect(figures.some(failsGate)).toBe(false);
  });

  it('fail an engine 20 % slower than the reference commit, far above the absolute target', () => {
    const current = reference.map((perSecond) => perSecond * 0.8);
    const [absolute, ratio] = engineFigures({ rules: 'round', cardsPerRace: 0, current, reference });
    expect(absolute?.value).toBe(200_000);
    expect(failsGate(absolute!)).toBe(false);
    expect(ratio?.value).toBe(0.8);
    expect(ratio?.target).toBe(REFERENCE_RATIO_TARGET);
    expect(failsGate(ratio!)).toBe(true);
  });

  it('take the ratio pair by pair: a slow moment of the machine slows both of a pair and moves nothing', () => {
    // The third pair was measured while the machine was busy: both halves slowed.
    const current = [250_000, 240_000, 90_000, 250_000, 255_000];
    const slowed = [250_000, 240_000, 100_000, 250_000, 255_000];
    expect(engineFigures({ rules: 'tda', cardsPerRace: 30, current, reference: slowed })[1]?.value).toBe(1);
  });

  it('without a history to build the reference from, the absolute figure still gates and the ratio says it was not measured, and why', () => {
    const figures = engineFiguresAlone('classic', 15.7, [90_000, 95_000, 99_000], 'no .git here');
    expect(figures.map((figure) => [figure.value, failsGate(figure)])).toEqual([
      [95_000, true],
      [0, false],
    ]);
    expect(figures[1]?.name).toMatch(/not measured$/);
    expect(figures[1]?.reportOnly).toBe('no reference engine here: no .git here');
  });
});

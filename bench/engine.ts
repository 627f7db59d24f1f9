import { dealUntilComplete } from '../engine/race/testing';
import { seededRandom, shuffleDecks } from '../engine/shoe';
import { startRace } from '../engine/race/race';
import { RULE_SET_NAMES } from '../engine/race/rules';
import type { Card } from '../engine/cards';
import type { BenchFigure } from './report';

interface RaceCase {
  readonly table: unknown;
  readonly shoe: readonly Card[];
}

/** Ten seats, every one with odd chips, 25s raced into 100s: the largest race a table deals. */
function tenSeatRaces(count: number, rules: string): RaceCase[] {
  const random = seededRandom(20261129);
  return Array.from({ length: count }, () => ({
    table: {
      rules,
      removed: 25,
      next: 100,
      button: 1 + Math.floor(random() * 10),
      seats: Array.from({ length: 10 }, (_, index) => ({ seat: index + 1, chips: 1 + Math.floor(random() * 11), other: 1000 * index })),
    },
    shoe: shuffleDecks(1, random),
  }));
}

function racesPerSecond(cases: readonly RaceCase[], seconds: number): { perSecond: number; cardsPerRace: number } {
  let races = 0;
  let cards = 0;
  const start = performance.now();
  const until = start + seconds * 1000;
  while (performance.now() < until) {
    for (const { table, shoe } of cases) {
      cards += dealUntilComplete(startRace(table), shoe).cards.length;
      races += 1;
    }
  }
  const elapsed = (performance.now() - start) / 1000;
  return { perSecond: races / elapsed, cardsPerRace: cards / races };
}

export function engineBenchmarks(): BenchFigure[] {
  const figures: BenchFigure[] = [];
  for (const rules of RULE_SET_NAMES) {
    const cases = tenSeatRaces(500, rules);
    racesPerSecond(cases, 0.5); // warm-up: let the JIT settle before measuring
    // The median of several short samples, so one slow moment of a shared machine does not decide the figure.
    const samples = Array.from({ length: 7 }, () => racesPerSecond(cases, 0.3)).sort((a, b) => a.perSecond - b.perSecond);
    const { perSecond, cardsPerRace } = samples[3] as { perSecond: number; cardsPerRace: number };
    figures.push({
      name: `engine: full 10-seat race, setup to awards (${rules}, ${cardsPerRace.toFixed(1)} cards/race)`,
      value: Math.round(perSecond),
      unit: 'races/s',
      target: 100_000,
      better: 'higher',
    });
  }
  return figures;
}

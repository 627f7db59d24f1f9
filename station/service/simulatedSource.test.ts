import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShoeEvent } from '../../hardware/events';
import '../../hardware/testing/saidInEnglish';
import type { ShoeDemand } from './cardSource';
import { simulatedSource } from './simulatedSource';

describe('the simulated shoe', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks what the race awaits and deals one card per demand, none while no race waits', async () => {
    const events: ShoeEvent[] = [];
    let demand: ShoeDemand | null = null;
    const shoe = simulatedSource({ emit: (event) => events.push(event), awaited: () => demand, decks: 1, seed: 7, intervalMs: 10 });
    expect(events).toEqual([{ type: 'status', state: 'connected', message: 'Simulated shoe (seed 7)' }]);
    vi.advanceTimersByTime(50);
    expect(events).toHaveLength(1);
    demand = { raceId: 'race-1', seat: 1 };
    vi.advanceTimersByTime(50);
    // The card is still on its way (the race has not changed): no second card on top of it.
    expect(events.filter((event) => event.type === 'card')).toHaveLength(1);
    demand = { raceId: 'race-1', seat: 2 };
    vi.advanceTimersByTime(10);
    expect(events.filter((event) => event.type === 'card')).toHaveLength(2);
    await shoe.stop();
    demand = { raceId: 'race-1', seat: 3 };
    vi.advanceTimersByTime(50);
    expect(events.filter((event) => event.type === 'card')).toHaveLength(2);
  });

  it('deals each race from a fresh shoe, and says once when a shoe is empty', async () => {
    const events: ShoeEvent[] = [];
    let demand: ShoeDemand | null = null;
    const shoe = simulatedSource({ emit: (event) => events.push(event), awaited: () => demand, decks: 1, seed: 3, intervalMs: 1 });
    for (let card = 0; card < 53; card += 1) {
      demand = { raceId: 'race-1', seat: 1 };
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(20);
    const cards = events.flatMap((event) => (event.type === 'card' ? [event.card] : []));
    expect(new Set(cards).size).toBe(52);
    expect(events.filter((event) => event.type === 'device')).toEqual([{ type: 'device', message: 'shoe-empty', raw: 'sim EMPTY' }]);
    demand = { raceId: 'race-2', seat: 1 };
    vi.advanceTimersByTime(1);
    expect(events.at(-1)).toMatchObject({ type: 'card' });
    await shoe.stop();
  });
});

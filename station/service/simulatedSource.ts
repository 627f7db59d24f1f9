import { randomInt } from 'node:crypto';
import type { Card } from '../../engine/cards';
import { statusSaid, type ShoeEvent } from '../../hardware/events';
import { shuffledShoe } from '../../hardware/simulator/shoe';
import type { AwaitedCard, CardSource, ShoeDemand } from './cardSource';

export const SIMULATED_CARD_MS = 700;

export interface SimulatedShoeOptions {
  readonly emit: (event: ShoeEvent) => void;
  /** What the open race awaits (the engine's next step), asked before every card. */
  readonly awaited: AwaitedCard;
  readonly decks: number;
  readonly seed?: number;
  readonly intervalMs?: number;
}

/**
 * The demo shoe, one click away: every SIMULATED_CARD_MS it asks what the race awaits and, when a
 * race waits for a card it has not been given one for yet, deals one from a freshly shuffled shoe
 * per race, exactly as a real shoe's cards arrive. It knows nothing of the service.
 */
export function simulatedSource({ emit, awaited, decks, seed = randomInt(2 ** 31), intervalMs = SIMULATED_CARD_MS }: SimulatedShoeOptions): CardSource {
  let shoe: { raceId: string; cards: Card[] } | undefined;
  let shoes = 0;
  /** The demand last answered (with a card, or with "the shoe is empty"): each is answered once. */
  let answered: ShoeDemand | null = null;
  emit({ type: 'status', state: 'connected', ...statusSaid({ key: 'hardware.port.simulated', params: { seed } }) });
  const timer = setInterval(() => {
    const demand = awaited();
    if (demand === null || demand === answered) return;
    answered = demand;
    if (shoe?.raceId !== demand.raceId) {
      shoe = { raceId: demand.raceId, cards: shuffledShoe(seed + shoes, decks) };
      shoes += 1;
    }
    const card = shoe.cards.shift();
    if (card) emit({ type: 'card', card, raw: `sim ${card}` });
    else emit({ type: 'device', message: 'shoe-empty', raw: 'sim EMPTY' });
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
    },
  };
}

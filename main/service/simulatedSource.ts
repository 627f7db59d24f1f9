import { randomInt } from 'node:crypto';
import type { Card } from '../../engine/cards';
import type { ShoeEvent } from '../../hardware/events';
import { shuffledShoe } from '../../hardware/simulator/shoe';
import type { RaceView } from '../../protocol/contract';
import type { CardSource } from './service';

export const SIMULATED_CARD_MS = 700;

/**
 * The demo shoe, one click away: while a race waits for cards it deals one every
 * SIMULATED_CARD_MS from a freshly shuffled shoe per race, exactly as a real shoe's cards arrive.
 */
export function simulatedSource(emit: (event: ShoeEvent) => void, decks: number, seed = randomInt(2 ** 31), intervalMs = SIMULATED_CARD_MS): CardSource {
  let timer: NodeJS.Timeout | undefined;
  let shoe: { raceId: string; cards: Card[] } | undefined;
  let stopped = false;
  let shoes = 0;
  emit({ type: 'status', state: 'connected', message: `Simulated shoe (seed ${seed})` });
  return {
    raceChanged(race: RaceView | null) {
      clearTimeout(timer);
      timer = undefined;
      if (stopped || race === null || race.summary.awaiting === null) return;
      if (shoe?.raceId !== race.id) {
        shoe = { raceId: race.id, cards: shuffledShoe(seed + shoes, decks) };
        shoes += 1;
      }
      timer = setTimeout(() => {
        const card = shoe?.cards.shift();
        if (card) emit({ type: 'card', card, raw: `sim ${card}` });
        else emit({ type: 'device', message: 'shoe-empty', raw: 'sim EMPTY' });
      }, intervalMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

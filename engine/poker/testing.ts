import { ALL_CARDS, type Card } from '../cards';
import { shuffled } from '../shoe';
import { applyPokerEvent, legalCards, stockCards, type PokerEvent, type PokerState } from './deal';
import { GAMES, MAX_PLAYERS, MIN_PLAYERS, type GameName } from './rules';

/**
 * Helpers shared by the poker tests and the benchmark: whole deals played with random but legal
 * choices. Randomness comes from the caller's seeded generator; the engine itself has none.
 */

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

const NAMES = ['Anna', 'Ville', 'Sanna', 'Matti', 'Teppo', 'Johanna'];

/** A random valid setup: game, 2–6 players, totals below the target and (Chicago) house options. */
export function randomSetup(random: () => number, game: GameName = pick(GAMES, random)) {
  const count = MIN_PLAYERS + Math.floor(random() * (MAX_PLAYERS - MIN_PLAYERS + 1));
  const players = NAMES.slice(0, count);
  const target = game === 'chicago' ? 52 : 13;
  const scores = Object.fromEntries(players.map((player) => [player, Math.floor(random() * target) - (game === 'chicago' && random() < 0.1 ? 30 : 0)]));
  const options =
    game === 'chicago'
      ? { handPointsEachExchange: random() < 0.5, chicagoCall: random() < 0.5, buyStop: random() < 0.5 ? 42 : null }
      : undefined;
  const exchangeOrder = random() < 0.3 ? shuffled(players, random) : undefined;
  return { game, players, scores, options, exchangeOrder };
}

/**
 * Plays one deal from `setup` to its end with random legal choices: the deal one card at a time
 * from a shuffled deck, random discards (respecting the buy stop), draws from the stock with a
 * reshuffle whenever it runs out, sometimes an early end to Chicago's exchanges or a Chicago call,
 * and a random legal card to every trick. Returns every event in order and the final state.
 */
export function playRandomDeal(setup: unknown, random: () => number): { events: PokerEvent[]; state: PokerState } {
  const events: PokerEvent[] = [];
  const apply = (current: PokerState | null, event: PokerEvent): PokerState => {
    events.push(event);
    return applyPokerEvent(current, event);
  };
  let state = apply(null, { type: 'setup', deal: setup });
  const deck = shuffled(ALL_CARDS, random);
  for (let index = 0; index < 5 * state.setup.players.length; index += 1) state = apply(state, { type: 'deal', cards: [deck[index] as Card] });
  while (state.phase === 'exchanging') {
    const { round, turn, owed } = state.exchange as { round: number; turn: number; owed: number };
    if (owed === 0 && turn === 0 && round > 1 && random() < 0.15) {
      state = apply(state, { type: 'end-exchanges' });
      continue;
    }
    const player = state.setup.exchangeOrder[turn] as number;
    if (owed === 0) {
      const stop = state.setup.options.buyStop;
      const hand = state.hands[player] as readonly Card[];
      const count = stop !== null && (state.scores[player] as number) >= stop ? 0 : Math.floor(random() * random() * 6);
      state = apply(state, { type: 'discard', cards: shuffled(hand, random).slice(0, count) });
      continue;
    }
    const stock = stockCards(state);
    if (stock.length === 0) {
      state = apply(state, { type: 'reshuffle' });
      continue;
    }
    const count = Math.min(stock.length, 1 + Math.floor(random() * owed));
    state = apply(state, { type: 'draw', player: state.setup.players[player] as string, cards: shuffled(stock, random).slice(0, count) });
  }
  if (state.setup.options.chicagoCall && random() < 0.3) state = apply(state, { type: 'call', player: pick(state.setup.players, random) });
  while (state.phase === 'playing') state = apply(state, { type: 'play', card: pick(legalCards(state), random) });
  return { events, state };
}

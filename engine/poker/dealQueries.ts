/** What a deal's state tells without changing it: where a card is, the stock, whose card the trick waits for. */
import { ALL_CARDS, type Card } from '../cards';
import type { PokerState, Trick } from './dealState';
import { legalPlays } from './moves';

/** Where a card is now. A card is always in exactly one place. */
export type CardPlace =
  | { readonly place: 'stock' }
  | { readonly place: 'hand'; readonly player: number }
  | { readonly place: 'discards' }
  | { readonly place: 'trick'; readonly trick: number; readonly player: number };

export function locateCard(state: PokerState, card: Card): CardPlace {
  for (let player = 0; player < state.hands.length; player += 1) {
    if ((state.hands[player] as readonly Card[]).includes(card)) return { place: 'hand', player };
  }
  if (state.discards.includes(card)) return { place: 'discards' };
  for (let trick = 0; trick < state.tricks.length; trick += 1) {
    const { leader, cards } = state.tricks[trick] as Trick;
    const position = cards.indexOf(card);
    if (position >= 0) return { place: 'trick', trick, player: (leader + position) % state.hands.length };
  }
  return { place: 'stock' };
}

/** The cards nobody has seen in this deal, plus reshuffled discards: what the dealer draws from. */
export function stockCards(state: PokerState): Card[] {
  const out = new Set<Card>(state.discards);
  for (const hand of state.hands) for (const card of hand) out.add(card);
  for (const trick of state.tricks) for (const card of trick.cards) out.add(card);
  return ALL_CARDS.filter((card) => !out.has(card));
}

export function stockSize(state: PokerState): number {
  let out = state.discards.length;
  for (const hand of state.hands) out += hand.length;
  for (const trick of state.tricks) out += trick.cards.length;
  return ALL_CARDS.length - out;
}


/**
 * Whether a player may call "Chicago" now: the house option is on, the tricks are being played,
 * nobody has called yet and no card has been played (applyCall refuses every other moment, saying why).
 */
export function callOpen(state: PokerState): boolean {
  return state.setup.options.chicagoCall && state.phase === 'playing' && state.call === null && state.tricks.length === 0;
}

/** Whose card the current trick waits for, the trick's number (1–5) and its cards so far. */
export function currentTrick(state: PokerState): { readonly player: number; readonly trick: number; readonly led: Card | null } | null {
  if (state.phase !== 'playing') return null;
  const count = state.setup.players.length;
  const last = state.tricks[state.tricks.length - 1];
  if (last === undefined) return { player: state.call ?? 0, trick: 1, led: null };
  if (last.winner !== null) return { player: last.winner, trick: state.tricks.length + 1, led: null };
  return { player: (last.leader + last.cards.length) % count, trick: state.tricks.length, led: last.cards[0] as Card };
}

/** The cards the player to play may play now (empty when no card is due). */
export function legalCards(state: PokerState): Card[] {
  const now = currentTrick(state);
  return now === null ? [] : legalPlays(state.hands[now.player] as readonly Card[], now.led, state.setup.rules.duty);
}

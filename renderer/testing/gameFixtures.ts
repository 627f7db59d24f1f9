/**
 * GameView fixtures for the points-game screens, built from the real (pure) engine exactly as the
 * service builds them: a MatchState from `applyMatchEvent`, then the engine's `gameViewOf`.
 */
import type { GameHistoryEntry, GameView } from '../../protocol/contract';
import type { Card } from '../../engine/cards';
import { applyMatchEvent, type MatchEvent, type MatchState } from '../../engine/poker/match';
import type { GameName } from '../../engine/poker/rules';
import { gameViewOf as engineGameView } from '../../engine/poker/view';

export const SEED_PLAYERS = ['Anna', 'Ville', 'Sanna'] as const;
type SeedPlayer = (typeof SEED_PLAYERS)[number];

/** The seed's example deal (002_…): Anna's heart straight flush, Ville's trips, Sanna's two pair. */
export const SEED_HANDS: Readonly<Record<SeedPlayer, readonly Card[]>> = {
  Anna: ['5h', '6h', '7h', '8h', '9h'],
  Ville: ['Ks', 'Kc', 'Kd', 'Ah', 'Qd'],
  Sanna: ['2c', '2s', '3c', '3s', '4c'],
};
/** Its five tricks, each in the order played (Ville takes them all, the last with the highest diamond). */
export const SEED_TRICKS: readonly (readonly Card[])[] = [
  ['9h', 'Ah', '2c'],
  ['Ks', '2s', '5h'],
  ['Kc', '3c', '6h'],
  ['Qd', '3s', '7h'],
  ['Kd', '4c', '8h'],
];

export function startEvent(game: GameName = 'pistepokeri', players: readonly string[] = SEED_PLAYERS): MatchEvent {
  return { type: 'start', game, players };
}

/** The seed's cards one at a time round the table, in deal order (the dealer's left first). */
export function seedDealing(order: readonly SeedPlayer[] = SEED_PLAYERS): MatchEvent[] {
  return [0, 1, 2, 3, 4].flatMap((index) => order.map((player): MatchEvent => ({ type: 'card', card: SEED_HANDS[player][index] as Card })));
}

/** Everyone stands pat. */
export function standPat(players = 3): MatchEvent[] {
  return Array.from({ length: players }, (): MatchEvent => ({ type: 'discard', cards: [] }));
}

/** The first `count` cards of the seed's tricks (all 15 by default). */
export function seedPlays(count = 15): MatchEvent[] {
  return SEED_TRICKS.flat().slice(0, count).map((card): MatchEvent => ({ type: 'card', card }));
}

/** The whole seed deal: start, deal, stand pat, five tricks (Anna 8, Ville 2, Sanna 0). */
export function seedDealEvents(): MatchEvent[] {
  return [startEvent(), ...seedDealing(), ...standPat(), ...seedPlays()];
}

export function playMatch(events: readonly MatchEvent[]): MatchState {
  const state = events.reduce<MatchState | null>((current, event) => applyMatchEvent(current, event), null);
  if (state === null) throw new Error('a game needs at least its start event');
  return state;
}

/** The GameView the service would push for this game: the engine's own view of it. */
export function gameViewOf(state: MatchState, id = 'game-1', startedAt = '2024-05-04T19:00:00.000Z'): GameView {
  return engineGameView(state, id, startedAt);
}

/** The GameView after these events (the first must be the start). */
export function makeGameView(events: readonly MatchEvent[] = [startEvent()]): GameView {
  return gameViewOf(playMatch(events));
}

/** A closed game as the history keeps it (see replay/session.ts). */
export function gameHistoryOf(state: MatchState, id = 'game-1', closedAt = '2024-05-04T20:00:00.000Z'): GameHistoryEntry {
  const { deal } = state;
  return {
    id,
    game: deal.setup.game,
    players: state.players,
    deals: state.dealNumber,
    scores: Object.fromEntries(deal.setup.players.map((player, index) => [player, deal.scores[index] as number])),
    winner: state.winner,
    closedAt,
  };
}

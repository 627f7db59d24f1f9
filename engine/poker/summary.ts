import { currentTrick, stockSize, type PokerState } from './deal';
import type { HandCategory } from './hands';
import { HAND_SIZE, TRICKS } from './rules';

/** What the deal waits for next, for the console's prompt; null once the deal is complete. */
export type PokerAwaiting =
  | { readonly step: 'deal'; readonly player: string; readonly cards: number }
  | { readonly step: 'discard'; readonly player: string; readonly round: number }
  | { readonly step: 'draw'; readonly player: string; readonly round: number; readonly cards: number; readonly stock: number }
  | { readonly step: 'play'; readonly player: string; readonly trick: number };

export function pokerAwaiting(state: PokerState): PokerAwaiting | null {
  const { players, exchangeOrder } = state.setup;
  if (state.phase === 'dealing') {
    // One card at a time round the table from the dealer's left: the first player with the fewest cards.
    let player = 0;
    state.hands.forEach((hand, other) => {
      if (hand.length < (state.hands[player] as readonly unknown[]).length) player = other;
    });
    return { step: 'deal', player: players[player] as string, cards: HAND_SIZE - (state.hands[player] as readonly unknown[]).length };
  }
  if (state.phase === 'exchanging' && state.exchange !== null) {
    const { round, turn, owed } = state.exchange;
    const player = players[exchangeOrder[turn] as number] as string;
    return owed === 0 ? { step: 'discard', player, round } : { step: 'draw', player, round, cards: owed, stock: stockSize(state) };
  }
  const now = currentTrick(state);
  return now === null ? null : { step: 'play', player: players[now.player] as string, trick: now.trick };
}

export interface PointsOutput {
  readonly handPoints: { readonly player: string; readonly hand: HandCategory; readonly points: number } | null;
  readonly trickWinners: string[];
  readonly lastTrick: { readonly player: string; readonly points: number } | null;
  readonly scores: Record<string, number>;
  readonly winner: string | null;
}

/**
 * The command line's output contract (`npm run --silent points`): hand points of the final
 * showdown (null when nobody scores or the hands are not yet shown), the winners of the complete
 * tricks, the last trick once all five are played, the totals and the game's winner.
 */
export function pointsOutput(state: PokerState): PointsOutput {
  const { players, rules } = state.setup;
  const final = state.handScores.find((handScore) => handScore.final);
  const winners = state.tricks.flatMap((trick) => (trick.winner === null ? [] : [players[trick.winner] as string]));
  const last = state.tricks.length === TRICKS ? state.tricks[TRICKS - 1]?.winner ?? null : null;
  return {
    handPoints:
      final && final.best !== null && final.points > 0
        ? { player: players[final.best] as string, hand: final.category, points: final.points }
        : null,
    trickWinners: winners,
    lastTrick: last === null ? null : { player: players[last] as string, points: rules.lastTrickPoints },
    scores: Object.fromEntries(players.map((player, index) => [player, state.scores[index] as number])),
    winner: state.winner === null ? null : (players[state.winner.player] as string),
  };
}

import { useI18n } from 'vue-i18n';
import type { GameView } from '../../protocol/contract';
import type { HandCategory } from '../../engine/poker/hands';
import { GAME_RULES, type GameName, type GameRules, type HouseOptions } from '../../engine/poker/rules';

/** The rules of the game named (exchange rounds, last-trick points, target), for the screen's context lines. */
export function gameRules(game: GameName): GameRules {
  return GAME_RULES[game];
}

/** A player's place at the table, 1-based and clockwise as at the start: the number in the screens' data-testids. */
export function seatNumber(view: Pick<GameView, 'players'>, player: string): number {
  return view.players.indexOf(player) + 1;
}

/**
 * The points game in the dealer's language, built from the GameView's data. The engine's refusals
 * (an illegal play, a card not in the hand …) come as messages and are said by ErrorMessage
 * (useSaidText), in the same language, cards as cards.
 */
export function useGameText() {
  const { t } = useI18n();

  function gameName(game: GameName | string): string {
    return t(`poker.games.${game}.name`);
  }

  function gameSummary(game: GameName | string): string {
    return t(`poker.games.${game}.summary`);
  }

  function handName(category: HandCategory | string): string {
    return t(`poker.hands.${category}`);
  }

  /** "Deal a card to Anna (3 left)", "Draw 2 cards for Ville", "Trick 2: Sanna to play", or what the finished deal waits for. */
  function nextStep(view: GameView): string {
    const { awaiting } = view;
    if (view.winner !== null) return view.winReason === 'royal-flush' ? t('game.next.royalFlush', { player: view.winner }) : t('game.next.won', { player: view.winner });
    if (awaiting === null) return t('game.next.nextDeal', { deal: view.dealNumber });
    switch (awaiting.step) {
      case 'deal':
        return t('game.next.deal', { player: awaiting.player, cards: awaiting.cards });
      case 'discard':
        return t('game.next.discard', { player: awaiting.player });
      case 'draw':
        return t('game.next.draw', { player: awaiting.player, cards: awaiting.cards }, awaiting.cards);
      case 'play':
        return t('game.next.play', { player: awaiting.player, trick: awaiting.trick });
    }
  }

  /**
   * The deal's hand points: "Anna: straight flush — 8 points", or that nobody scored. Chicago's
   * royal flush is named so, not by its category (issue 24: "straight flush: 52 points").
   */
  function handPointsText(view: GameView): string {
    const hand = view.points.handPoints;
    if (hand === null) return t('game.points.noHand');
    const royal = view.showdown?.royalFlush === true && view.showdown.best === hand.player;
    return t('game.points.hand', { player: hand.player, hand: royal ? t('poker.hands.royal-flush') : handName(hand.hand), points: hand.points }, hand.points);
  }

  /** The showdown's best hand, named with its points (or why nobody scores); Chicago's royal flush by its name. */
  function bestHandText(showdown: NonNullable<GameView['showdown']>): string {
    if (showdown.best === null) return t('game.showdown.tie', { hand: handName(showdown.category) });
    if (showdown.royalFlush) return t('game.showdown.royalFlush', { player: showdown.best });
    if (showdown.points === 0) return t('game.showdown.noPoints', { player: showdown.best, hand: handName(showdown.category) });
    return t('game.showdown.best', { player: showdown.best, hand: handName(showdown.category), points: showdown.points }, showdown.points);
  }

  /** Who has won, and how: "Ville wins the game with 52 points!", or at once by a royal flush. */
  function winnerText(view: GameView): string | null {
    if (view.winner === null) return null;
    if (view.winReason === 'royal-flush') return t('game.winnerRoyalFlush', { player: view.winner });
    return t('game.winner', { player: view.winner, points: view.points.scores[view.winner] ?? 0 });
  }

  /** The house options chosen for the game, each named ("the Chicago call", "buy stop at 42 points"). */
  function houseOptionTexts(options: HouseOptions): Array<{ readonly key: string; readonly text: string }> {
    return [
      ...(options.handPointsEachExchange ? [{ key: 'hand-points', text: t('game.options.handPoints') }] : []),
      ...(options.chicagoCall ? [{ key: 'call', text: t('game.options.call') }] : []),
      ...(options.buyStop !== null ? [{ key: 'buy-stop', text: t('game.options.buyStop', { stop: options.buyStop }) }] : []),
    ];
  }

  return { t, gameName, gameSummary, handName, nextStep, handPointsText, bestHandText, winnerText, houseOptionTexts };
}

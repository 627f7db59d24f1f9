import { cardRank, cardStrength, cardSuit, RANKS, type Card, type Suit } from '../cards';
import type { Message, MessageParam } from '../messages';
import type { TrickDuty } from './rules';

/**
 * Cards as one parameter listed with commas ("9h, 3h"; A♥, 3♥ on the screens): each card a card
 * parameter, so every language shows it as a card.
 */
export function cardListParam(cards: readonly Card[]): MessageParam {
  const [first, ...rest] = cards;
  if (first === undefined) return '';
  if (rest.length === 0) return { card: first };
  return { message: { key: 'poker.cardList', params: { first: { card: first }, rest: cardListParam(rest) } } };
}

function suitParam(suit: Suit): MessageParam {
  return { message: { key: `poker.suit.${suit}` } };
}

function rankOf(card: Card): number {
  return RANKS.indexOf(cardRank(card));
}

/** The cards of `hand` that the trick's duty obliges the player to choose from, if any. */
function obliged(hand: readonly Card[], led: Card, duty: TrickDuty): Card[] {
  const suit = cardSuit(led);
  const rank = rankOf(led);
  return hand.filter((card) => cardSuit(card) === suit && (duty === 'follow-suit' || rankOf(card) > rank));
}

/**
 * The cards a player may play now: any card when leading (`led` null); otherwise the cards the
 * duty obliges (Pistepokeri: the led suit above the opening card; Chicago: the led suit), or any
 * card when the player has none of those. Never empty while the hand is not.
 */
export function legalPlays(hand: readonly Card[], led: Card | null, duty: TrickDuty): Card[] {
  if (led === null) return hand.slice();
  const cards = obliged(hand, led, duty);
  return cards.length > 0 ? cards : hand.slice();
}

/** Why `card` may not be played from `hand` to a trick opened with `led` (`poker.duty.*`), or null when it may. */
export function illegalPlayReason(hand: readonly Card[], card: Card, led: Card | null, duty: TrickDuty): Message | null {
  if (led === null) return null;
  const cards = obliged(hand, led, duty);
  if (cards.length === 0 || cards.includes(card)) return null;
  const params = { led: { card: led }, suit: suitParam(cardSuit(led)), cards: cardListParam(cards) };
  return { key: duty === 'follow-suit' ? 'poker.duty.followSuit' : 'poker.duty.beatOpening', params };
}

/** The index (into `cards`, in the order played) of the card winning a trick: the highest of the led suit. */
export function trickWinnerIndex(cards: readonly Card[]): number {
  const led = cards[0] as Card;
  const suit = cardSuit(led);
  let best = 0;
  for (let index = 1; index < cards.length; index += 1) {
    const card = cards[index] as Card;
    if (cardSuit(card) === suit && cardStrength(card) > cardStrength(cards[best] as Card)) best = index;
  }
  return best;
}

import { ALL_CARDS, cardStrength, RANKS, type Card } from '../cards';
import { InputError } from '../errors';
import { valueParam } from '../validate';

/** Poker hand categories, weakest first; the index is the category's strength. */
export const HAND_CATEGORIES = [
  'high-card',
  'pair',
  'two-pair',
  'three-of-a-kind',
  'straight',
  'flush',
  'full-house',
  'four-of-a-kind',
  'straight-flush',
] as const;

export type HandCategory = (typeof HAND_CATEGORIES)[number];

/**
 * A five-card hand's strength as one integer: higher beats lower, equal means an exact tie (same
 * ranks; suits are all equal). Layout: category × 2^26 + detail, where detail is
 * - straight, straight flush: the top card's rank (A-2-3-4-5 counts as 5-high, the lowest);
 * - high card, flush: the 13-bit mask of the five ranks;
 * - a hand with groups: (mask of the largest group's rank(s)) × 2^13 + (mask of the other ranks).
 * Bit masks of equally many ranks compare as integers exactly like the ranks sorted high to low,
 * which is "largest group first, then the next highest card".
 */
export type HandValue = number;

const CATEGORY_SHIFT = 26;
const GROUP_SHIFT = 13;
const PAIR = 1 << CATEGORY_SHIFT;
const TWO_PAIR = 2 << CATEGORY_SHIFT;
const THREE_OF_A_KIND = 3 << CATEGORY_SHIFT;
const STRAIGHT = 4 << CATEGORY_SHIFT;
const FLUSH = 5 << CATEGORY_SHIFT;
const FULL_HOUSE = 6 << CATEGORY_SHIFT;
const FOUR_OF_A_KIND = 7 << CATEGORY_SHIFT;
const STRAIGHT_FLUSH = 8 << CATEGORY_SHIFT;

const ACE = RANKS.length - 1;
const FIVE = RANKS.indexOf('5');
/** A-2-3-4-5: the ace plays low only here. Q-K-A-2-3 and the like are no straights. */
const WHEEL = (1 << ACE) | 0b1111;

/** The rank of a straight's top card, or -1 when the five distinct ranks in `mask` are no straight. */
function straightTop(mask: number): number {
  if (mask === WHEEL) return FIVE;
  const top = 31 - Math.clz32(mask);
  return top >= 4 && mask === 0b11111 << (top - 4) ? top : -1;
}

function bitCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}

// Five different ranks: the value by rank mask alone, one table for mixed suits, one for a flush.
const UNSUITED = new Int32Array(1 << RANKS.length);
const SUITED = new Int32Array(1 << RANKS.length);
for (let mask = 0; mask < 1 << RANKS.length; mask += 1) {
  if (bitCount(mask) !== 5) continue;
  const top = straightTop(mask);
  UNSUITED[mask] = top >= 0 ? STRAIGHT | top : mask;
  SUITED[mask] = top >= 0 ? STRAIGHT_FLUSH | top : FLUSH | mask;
}

/**
 * The value of five distinct cards given as card indexes (`cardStrength`: rank × 4 + suit, 0 = 2♣,
 * 51 = A♠). The hot path: no allocation, a few bit operations and at most one table look-up.
 * The caller guarantees five different valid indexes.
 */
export function evaluateFive(a: number, b: number, c: number, d: number, e: number): HandValue {
  const rb = 1 << (b >> 2);
  const rc = 1 << (c >> 2);
  const rd = 1 << (d >> 2);
  const re = 1 << (e >> 2);
  // m1..m4: the ranks seen at least once, twice, three and four times.
  let m1 = 1 << (a >> 2);
  let m2 = m1 & rb;
  m1 |= rb;
  let m3 = m2 & rc;
  m2 |= m1 & rc;
  m1 |= rc;
  let m4 = m3 & rd;
  m3 |= m2 & rd;
  m2 |= m1 & rd;
  m1 |= rd;
  m4 |= m3 & re;
  m3 |= m2 & re;
  m2 |= m1 & re;
  m1 |= re;
  if (m2 === 0) return ((a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)) & 3 ? (UNSUITED[m1] as number) : (SUITED[m1] as number);
  if (m4 !== 0) return FOUR_OF_A_KIND | (m4 << GROUP_SHIFT) | (m1 ^ m4);
  if (m3 !== 0) {
    const pair = m2 ^ m3;
    return pair !== 0 ? FULL_HOUSE | (m3 << GROUP_SHIFT) | pair : THREE_OF_A_KIND | (m3 << GROUP_SHIFT) | (m1 ^ m3);
  }
  return ((m2 & (m2 - 1)) !== 0 ? TWO_PAIR : PAIR) | (m2 << GROUP_SHIFT) | (m1 ^ m2);
}

const CARD_INDEX: ReadonlyMap<unknown, number> = new Map(ALL_CARDS.map((card) => [card, cardStrength(card)]));

function cardIndexAt(cards: readonly Card[], position: number, field: string): number {
  const index = CARD_INDEX.get(cards[position]);
  if (index === undefined) {
    throw new InputError(`${field}[${position}]`, { key: 'poker.hand.notACode', params: { got: valueParam(cards[position]) } });
  }
  return index;
}

/**
 * The value of a hand of exactly five different cards (canonical codes, as the engine stores them).
 * Allocates nothing, so it is also fast enough for bulk use.
 */
export function evaluateHand(cards: readonly Card[], field = 'hand'): HandValue {
  if (!Array.isArray(cards) || cards.length !== 5) {
    throw new InputError(field, { key: 'poker.hand.notFive', params: { got: Array.isArray(cards) ? cards.length : valueParam(cards) } });
  }
  const a = cardIndexAt(cards, 0, field);
  const b = cardIndexAt(cards, 1, field);
  const c = cardIndexAt(cards, 2, field);
  const d = cardIndexAt(cards, 3, field);
  const e = cardIndexAt(cards, 4, field);
  if (a === b || a === c || a === d || a === e || b === c || b === d || b === e || c === d || c === e || d === e) {
    const twice = cards.find((card, index) => cards.indexOf(card) !== index) as Card;
    throw new InputError(field, { key: 'poker.hand.twice', params: { card: { card: twice } } });
  }
  return evaluateFive(a, b, c, d, e);
}

export function handCategory(value: HandValue): HandCategory {
  return HAND_CATEGORIES[value >>> CATEGORY_SHIFT] as HandCategory;
}

/** 10-J-Q-K-A of one suit: the Chicago hand worth 52 points that wins at once. */
export const ROYAL_FLUSH: HandValue = STRAIGHT_FLUSH | ACE;

export function isRoyalFlush(value: HandValue): boolean {
  return value === ROYAL_FLUSH;
}

/** Positive when hand `a` beats hand `b`, negative when it loses, 0 for an exact tie. */
export function compareHands(a: HandValue, b: HandValue): number {
  return a - b;
}

const RANK_NAMES = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king', 'ace'] as const;
const PLURAL = ['twos', 'threes', 'fours', 'fives', 'sixes', 'sevens', 'eights', 'nines', 'tens', 'jacks', 'queens', 'kings', 'aces'] as const;

/** Ranks (0 = two … 12 = ace) in a 13-bit mask, highest first. */
function ranksOf(mask: number): number[] {
  const ranks: number[] = [];
  for (let rank = ACE; rank >= 0; rank -= 1) if (mask & (1 << rank)) ranks.push(rank);
  return ranks;
}

/** A hand value in plain English for explanations, e.g. "full house, kings over fives". */
export function describeHand(value: HandValue): string {
  const detail = value & ((1 << CATEGORY_SHIFT) - 1);
  const groups = ranksOf(detail >>> GROUP_SHIFT);
  const rest = ranksOf(detail & ((1 << GROUP_SHIFT) - 1));
  const name = (rank: number | undefined) => RANK_NAMES[rank as number];
  const plural = (rank: number | undefined) => PLURAL[rank as number];
  switch (handCategory(value)) {
    case 'straight-flush':
      return detail === ACE ? 'royal flush' : `straight flush, ${name(detail)} high`;
    case 'four-of-a-kind':
      return `four ${plural(groups[0])}`;
    case 'full-house':
      return `full house, ${plural(groups[0])} over ${plural(rest[0])}`;
    case 'flush':
      return `flush, ${name(rest[0])} high`;
    case 'straight':
      return `straight, ${name(detail)} high`;
    case 'three-of-a-kind':
      return `three ${plural(groups[0])}`;
    case 'two-pair':
      return `two pair, ${plural(groups[0])} and ${plural(groups[1])}`;
    case 'pair':
      return `pair of ${plural(groups[0])}`;
    default:
      return `high card, ${name(rest[0])}`;
  }
}

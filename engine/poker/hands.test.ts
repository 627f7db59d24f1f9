import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CARDS, cardRank, cardSuit, RANKS, type Card } from '../cards';
import { InputError } from '../errors';
import { describeHand, evaluateFive, evaluateHand, HAND_CATEGORIES, handCategory, isRoyalFlush, type HandCategory } from './hands';

const hand = (text: string): Card[] => text.split(' ') as Card[];
const value = (text: string) => evaluateHand(hand(text));
const category = (text: string) => handCategory(value(text));

describe('hand categories', () => {
  it.each([
    ['Th Jh Qh Kh Ah', 'straight-flush'],
    ['5h 6h 7h 8h 9h', 'straight-flush'],
    ['Ad 2d 3d 4d 5d', 'straight-flush'],
    ['9c 9d 9h 9s 2c', 'four-of-a-kind'],
    ['Kc Kd Ks 5h 5c', 'full-house'],
    ['2s 7s 9s Js Ks', 'flush'],
    ['Tc Jd Qh Ks Ac', 'straight'],
    ['Ac 2d 3h 4s 5c', 'straight'],
    ['Ks Kc Kd Ah Qd', 'three-of-a-kind'],
    ['2c 2s 3c 3s 4c', 'two-pair'],
    ['Jc Js 3c 8s 4c', 'pair'],
    ['2c 7s 9d Jh Kc', 'high-card'],
    // The ace completes a straight at one end only: no wrapping round.
    ['Qc Kd Ah 2s 3c', 'high-card'],
    ['Kc Ad 2h 3s 4c', 'high-card'],
    ['Jh Qh Kh Ah 2h', 'flush'],
  ] as const)('%s is %s', (cards, expected) => {
    expect(category(cards)).toBe(expected);
  });

  it('names the hands in words for explanations', () => {
    expect(describeHand(value('Th Jh Qh Kh Ah'))).toBe('royal flush');
    expect(describeHand(value('Ad 2d 3d 4d 5d'))).toBe('straight flush, five high');
    expect(describeHand(value('Kc Kd Ks 5h 5c'))).toBe('full house, kings over fives');
    expect(describeHand(value('2c 2s 3c 3s 4c'))).toBe('two pair, threes and twos');
    expect(describeHand(value('Jc Js 3c 8s 4c'))).toBe('pair of jacks');
    expect(describeHand(value('2c 7s 9d Jh Kc'))).toBe('high card, king');
  });

  it('knows the royal flush, which Chicago scores apart', () => {
    expect(isRoyalFlush(value('Ts Js Qs Ks As'))).toBe(true);
    expect(isRoyalFlush(value('9s Ts Js Qs Ks'))).toBe(false);
    expect(isRoyalFlush(value('Tc Jd Qh Ks Ac'))).toBe(false);
  });
});

describe('hand comparison', () => {
  const beats = (a: string, b: string) => expect(value(a), `${a} should beat ${b}`).toBeGreaterThan(value(b));
  const ties = (a: string, b: string) => expect(value(a)).toBe(value(b));

  it('orders the categories as poker does', () => {
    const ladder = ['2c 7s 9d Jh Kc', 'Jc Js 3c 8s 4c', '2c 2s 3c 3s 4c', 'Ks Kc Kd Ah Qd', 'Ac 2d 3h 4s 5c', '2s 7s 9s Js Ks', 'Kc Kd Ks 5h 5c', '9c 9d 9h 9s 2c', 'Ad 2d 3d 4d 5d'];
    for (let index = 1; index < ladder.length; index += 1) beats(ladder[index] as string, ladder[index - 1] as string);
  });

  it('decides within a category by the largest group first, then the next highest card', () => {
    beats('3c 3d 3h 2s 2c', '2d 2h 2s As Ac'); // full house: the three decide before the pair
    beats('8c 8d 2h 3s 4c', '7c 7d Ah Ks Qc'); // pair of eights over pair of sevens despite the kickers
    beats('Kc Kd 2h 2s 3c', 'Qc Qd Jh Js Ac'); // two pair: the higher pair first
    beats('Kc Kd 5h 5s 2c', 'Kh Ks 4h 4s Ac'); // then the lower pair
    beats('Kc Kd 5h 5s 3c', 'Kh Ks 5d 5c 2c'); // then the odd card
    beats('Jc Js Ac 8s 4c', 'Jd Jh Kc Qs Td'); // pair: kickers from the highest down
    beats('Jc Js Ac 8s 5c', 'Jd Jh Ad 8h 4d');
    beats('Ac Kd 9h 7s 3c', 'Ad Kh 9s 7c 2d'); // high card down to the last card
    beats('2s 7s 9s Qs Ks', '3h 6h 9h Jh Kh'); // flush compared like high card
    beats('2c 3d 4h 5s 6c', 'Ac 2d 3h 4s 5c'); // A-2-3-4-5 is the lowest straight
    beats('Tc Jd Qh Ks Ac', '9c Tc Jh Qs Kc');
    beats('2d 3d 4d 5d 6d', 'Ah 2h 3h 4h 5h'); // and the lowest straight flush
    beats('Tc Jc Qc Kc Ac', '9d Td Jd Qd Kd');
  });

  it('treats the suits as equal: same ranks tie exactly', () => {
    ties('5h 6h 7h 8h 9h', '5s 6s 7s 8s 9s');
    ties('Ks Kc Kd Ah Qd', 'Kh Kc Kd As Qc');
    ties('2c 7s 9d Jh Kc', '2d 7h 9c Js Kh');
    ties('Ac 2d 3h 4s 5c', 'As 2c 3d 4h 5s');
  });

  it('agrees with a plain reference evaluator on random pairs of hands', () => {
    const deck = fc.shuffledSubarray([...ALL_CARDS], { minLength: 10, maxLength: 10 });
    fc.assert(
      fc.property(deck, (cards) => {
        const a = cards.slice(0, 5);
        const b = cards.slice(5);
        expect(Math.sign(evaluateHand(a) - evaluateHand(b))).toBe(Math.sign(compareReference(a, b)));
        expect(handCategory(evaluateHand(a))).toBe(referenceKey(a).category);
      }),
      { numRuns: 20_000 },
    );
  });
});

/** A slow, obvious evaluator written from the rules text, to check the fast one against. */
function referenceKey(cards: readonly Card[]): { category: HandCategory; ranks: number[] } {
  const ranks = cards.map((card) => RANKS.indexOf(cardRank(card)));
  const counts = new Map<number, number>();
  for (const rank of ranks) counts.set(rank, (counts.get(rank) ?? 0) + 1);
  // Groups by size, then rank, both descending: "the largest group first, then the next highest card".
  const groups = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const order = groups.map(([rank]) => rank);
  const flush = cards.every((card) => cardSuit(card) === cardSuit(cards[0] as Card));
  const distinct = [...counts.keys()].sort((a, b) => b - a);
  let straightTop: number | null = null;
  if (distinct.length === 5 && (distinct[0] as number) - (distinct[4] as number) === 4) straightTop = distinct[0] as number;
  if (distinct.join() === '12,3,2,1,0') straightTop = 3;
  const shape = groups.map(([, count]) => count).join('');
  let name: HandCategory;
  if (straightTop !== null && flush) name = 'straight-flush';
  else if (shape === '41') name = 'four-of-a-kind';
  else if (shape === '32') name = 'full-house';
  else if (flush) name = 'flush';
  else if (straightTop !== null) name = 'straight';
  else if (shape === '311') name = 'three-of-a-kind';
  else if (shape === '221') name = 'two-pair';
  else if (shape === '2111') name = 'pair';
  else name = 'high-card';
  return { category: name, ranks: straightTop !== null ? [straightTop] : order };
}

function compareReference(a: readonly Card[], b: readonly Card[]): number {
  const ka = referenceKey(a);
  const kb = referenceKey(b);
  const byCategory = HAND_CATEGORIES.indexOf(ka.category) - HAND_CATEGORIES.indexOf(kb.category);
  if (byCategory !== 0) return byCategory;
  for (let index = 0; index < ka.ranks.length; index += 1) {
    const difference = (ka.ranks[index] as number) - (kb.ranks[index] as number);
    if (difference !== 0) return difference;
  }
  return 0;
}

describe('every one of the 2,598,960 five-card hands', () => {
  it('gives 7,462 distinct values and the textbook count of every category', () => {
    const start = performance.now();
    const counts = new Int32Array(HAND_CATEGORIES.length);
    const values = new Set<number>();
    for (let a = 0; a < 48; a += 1) {
      for (let b = a + 1; b < 49; b += 1) {
        for (let c = b + 1; c < 50; c += 1) {
          for (let d = c + 1; d < 51; d += 1) {
            for (let e = d + 1; e < 52; e += 1) {
              const handValue = evaluateFive(a, b, c, d, e);
              const category = handValue >>> 26;
              counts[category] = (counts[category] as number) + 1;
              values.add(handValue);
            }
          }
        }
      }
    }
    const seconds = (performance.now() - start) / 1000;
    const byCategory = Object.fromEntries(HAND_CATEGORIES.map((name, index) => [name, counts[index]]));
    expect(byCategory).toEqual({
      'straight-flush': 40, // royal flushes included
      'four-of-a-kind': 624,
      'full-house': 3_744,
      flush: 5_108,
      straight: 10_200,
      'three-of-a-kind': 54_912,
      'two-pair': 123_552,
      pair: 1_098_240,
      'high-card': 1_302_540,
    });
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(2_598_960);
    expect(values.size).toBe(7_462);
    const distinct = HAND_CATEGORIES.map((name) => [...values].filter((handValue) => handCategory(handValue) === name).length);
    expect(distinct).toEqual([1_277, 2_860, 858, 858, 10, 1_277, 156, 156, 10]);
    expect([...values].filter(isRoyalFlush)).toHaveLength(1);
    // Reported so the figure is visible in the test output; the whole test stays within seconds.
    console.info(`exhaustive: 2,598,960 hands evaluated in ${seconds.toFixed(3)} s`);
    expect(seconds).toBeLessThan(10);
  });

  it('evaluates card codes and card indexes alike', () => {
    expect(evaluateHand(hand('2c 3c 4c 5c 7d'))).toBe(evaluateFive(0, 4, 8, 12, 21));
  });
});

describe('evaluateHand refuses what is not five different cards', () => {
  it.each([
    ['four cards', hand('2c 3c 4c 5c'), 'hand', /exactly five cards \(got 4\)/],
    ['a repeated card', hand('2c 3c 4c 5c 2c'), 'hand', /2c appears twice/],
    ['an unknown code', ['2c', '3c', '4c', '5c', 'Xx'] as Card[], 'hand[4]', /"Xx" is not a card code/],
  ])('%s', (_, cards, field, reason) => {
    try {
      evaluateHand(cards);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe(field);
      expect((error as InputError).message).toMatch(reason);
    }
  });
});

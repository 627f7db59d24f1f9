/**
 * Card codes: what a card is, how any notation reads into its code, how cards compare and how they
 * are shown. A leaf of the engine (it imports nothing), so the message formatter can show cards
 * without reaching the refusals; `cards.ts` adds the refusing reader on top.
 */
/** Ranks from lowest to highest; the index is the rank's strength. */
export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'] as const;
/** Suits from lowest to highest, the bridge order the seeds use to break equal ranks. */
export const SUITS = ['c', 'd', 'h', 's'] as const;

export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];
/** Canonical card code: rank then lower-case suit, e.g. `As`, `Td`, `2c`. */
export type Card = `${Rank}${Suit}`;

/**
 * A code as V8 keeps a property name: one shared copy, so comparing two codes compares pointers.
 * The codes are built by joining rank and suit, and a joined string is otherwise a fresh copy that
 * every `===` (a duplicate check runs one per dealt card) must compare letter by letter.
 */
function shared<T extends string>(text: T): T {
  return Object.keys({ [text]: true })[0] as T;
}

export const ALL_CARDS: readonly Card[] = RANKS.flatMap((rank) => SUITS.map((suit): Card => shared(`${rank}${suit}`)));

const STRENGTH: ReadonlyMap<string, number> = new Map(ALL_CARDS.map((card, index) => [card, index]));

const RANK_ALIASES: Readonly<Record<string, Rank>> = {
  '2': '2', '3': '3', '4': '4', '5': '5', '6': '6', '7': '7', '8': '8', '9': '9',
  '10': 'T', t: 'T', j: 'J', q: 'Q', k: 'K', a: 'A',
};

// Filled and outline pips both appear: shoes print one, dealers' keyboards produce the other.
const SUIT_ALIASES: Readonly<Record<string, Suit>> = {
  s: 's', h: 'h', d: 'd', c: 'c',
  '♠': 's', '♤': 's',
  '♥': 'h', '♡': 'h', '❤': 'h',
  '♦': 'd', '♢': 'd',
  '♣': 'c', '♧': 'c',
};

const RANK_PATTERN = '10|[2-9tjqka]';
const SUIT_PATTERN = '[shdc♠♤♥♡❤♦♢♣♧]';
const RANK_FIRST = new RegExp(`^(${RANK_PATTERN})\\s*(${SUIT_PATTERN})$`, 'u');
const SUIT_FIRST = new RegExp(`^(${SUIT_PATTERN})\\s*(${RANK_PATTERN})$`, 'u');
// Emoji presentation selectors (U+FE0E/U+FE0F) ride along with pasted or scanned pips.
const PRESENTATION_SELECTORS = /\uFE0E|\uFE0F/gu;

/**
 * Reads a card in any notation a dealer, shoe or scanner produces (`As`, `AS`, `as`, `10h`, `Th`,
 * `A♠`, `10♦`, `♤A`, outline or filled pips) and returns its canonical code, or null when the text
 * is not exactly one card. Rank and suit symbols never overlap, so either order is unambiguous.
 */
export function parseCard(text: string): Card | null {
  // Shoes and the journal send canonical codes: answer those without the regular expressions,
  // with the shared copy of the code (see `shared`), whichever copy of the text came in.
  const strength = STRENGTH.get(text);
  if (strength !== undefined) return ALL_CARDS[strength] as Card;
  const cleaned = text.replace(PRESENTATION_SELECTORS, '').trim().toLowerCase();
  let rankText: string | undefined;
  let suitText: string | undefined;
  const rankFirst = RANK_FIRST.exec(cleaned);
  if (rankFirst) {
    [, rankText, suitText] = rankFirst;
  } else {
    const suitFirst = SUIT_FIRST.exec(cleaned);
    if (suitFirst) [, suitText, rankText] = suitFirst;
  }
  if (rankText === undefined || suitText === undefined) return null;
  const rank = RANK_ALIASES[rankText];
  const suit = SUIT_ALIASES[suitText];
  return rank && suit ? (ALL_CARDS[STRENGTH.get(`${rank}${suit}`) as number] as Card) : null;
}

export function isCard(value: unknown): value is Card {
  return typeof value === 'string' && STRENGTH.has(value);
}

/** 0 (2♣) … 51 (A♠): higher beats lower, rank first, then spades > hearts > diamonds > clubs. */
export function cardStrength(card: Card): number {
  return STRENGTH.get(card) as number;
}

/** Positive when `a` beats `b`, negative when it loses, 0 for the same card (possible with several decks). */
export function compareCards(a: Card, b: Card): number {
  return cardStrength(a) - cardStrength(b);
}

export function cardRank(card: Card): Rank {
  return card[0] as Rank;
}

export function cardSuit(card: Card): Suit {
  return card[1] as Suit;
}

const PIPS: Readonly<Record<Suit, string>> = { s: '♠', h: '♥', d: '♦', c: '♣' };

/** `code` is the canonical `As`; `pips` is the readable `A♠` / `10♦` the screens show. */
export function formatCard(card: Card, style: 'code' | 'pips' = 'code'): string {
  if (style === 'code') return card;
  const rank = cardRank(card);
  return `${rank === 'T' ? '10' : rank}${PIPS[cardSuit(card)]}`;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `"${value}"`;
  return JSON.stringify(value) ?? String(value);
}

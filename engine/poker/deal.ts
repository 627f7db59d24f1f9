import { readCard, type Card } from '../cards';
import { InputError } from '../errors';
import type { Message } from '../messages';
import { valueParam } from '../validate';
import { evaluateHand, handCategory, isRoyalFlush } from './hands';
import { illegalPlayReason, trickWinnerIndex } from './moves';
import { CHICAGO_CALL_POINTS, HAND_SIZE, TRICKS } from './rules';
import { playerIndex, readPokerSetup } from './setup';
import { currentTrick, locateCard, stockSize, type CardPlace } from './dealQueries';
import { POKER_EVENT_TYPES, type EventOf, type ExchangeRecord, type ExchangeTurn, type HandScore, type PokerEvent, type PokerEventType, type PokerPhase, type PokerState, type ScoreEntry, type Trick } from './dealState';

// The deal's shapes and its queries have files of their own; what imports the deal finds them here too.
export * from './dealQueries';
export * from './dealState';

function name(state: PokerState, player: number): string {
  return state.setup.players[player] as string;
}

/** Where a card is, as a refusal says it (`poker.place.*`): whose hand, which trick, or the discards. */
function placeMessage(state: PokerState, card: Card, place: CardPlace): Message {
  switch (place.place) {
    case 'hand':
      return { key: 'poker.place.hand', params: { card: { card }, player: name(state, place.player) } };
    case 'trick':
      return { key: 'poker.place.trick', params: { card: { card }, player: name(state, place.player), trick: place.trick + 1 } };
    case 'discards': {
      const record = [...state.exchanges].reverse().find((exchange) => exchange.discarded.includes(card));
      const size = stockSize(state);
      const stock: Message = size > 0 ? { key: 'poker.place.stockHolds', params: { n: size } } : { key: 'poker.place.stockEmpty' };
      return record
        ? { key: 'poker.place.discardedBy', params: { card: { card }, player: name(state, record.player), round: record.round, stock: { message: stock } } }
        : { key: 'poker.place.discarded', params: { card: { card }, stock: { message: stock } } };
    }
    default:
      return { key: 'poker.place.stock', params: { card: { card } } };
  }
}

function notHeld(state: PokerState, player: number, card: Card): Message {
  const place = locateCard(state, card);
  const params = { player: name(state, player), card: { card } };
  return place.place === 'stock'
    ? { key: 'poker.notHeld', params }
    : { key: 'poker.notHeldAt', params: { ...params, place: { message: placeMessage(state, card, place) } } };
}

/** Reads the event's list of cards: known codes, none twice. */
function readCards(value: unknown, field: string): Card[] {
  if (!Array.isArray(value)) throw new InputError(field, { key: 'poker.cards.notList', params: { got: valueParam(value) } });
  const cards = value.map((card: unknown, index) => readCard(card, `${field}[${index}]`));
  cards.forEach((card, index) => {
    const first = cards.indexOf(card);
    if (first !== index) throw new InputError(`${field}[${index}]`, { key: 'poker.cards.twice', params: { card: { card }, first: `${field}[${first}]` } });
  });
  return cards;
}

/** When the event names a player, it must be the one whose turn it is; `what` is the turn (`poker.turn.*`). */
function checkTurn(state: PokerState, given: unknown, expected: number, what: Message): void {
  if (given === undefined) return;
  const player = playerIndex(state.setup.players, given, 'player');
  if (player !== expected) {
    throw new InputError('player', { key: 'poker.notYourTurn', params: { expected: name(state, expected), what: { message: what }, player: name(state, player) } });
  }
}

function requirePhase(state: PokerState, phase: PokerPhase, type: PokerEventType): void {
  if (state.phase === phase) return;
  throw new InputError('event', { key: 'poker.wrongPhase', params: { type, now: { message: { key: `poker.phase.${state.phase}` } } } });
}

/** Adds points to a total, and settles the winner if this is the first time anyone reaches the target. */
function score(state: PokerState, entry: ScoreEntry, royalFlush = false): PokerState {
  const scores = state.scores.slice();
  scores[entry.player] = (scores[entry.player] as number) + entry.points;
  let winner = state.winner;
  if (winner === null && royalFlush) winner = { player: entry.player, reason: 'royal-flush' };
  if (winner === null && (scores[entry.player] as number) >= state.setup.rules.target) winner = { player: entry.player, reason: 'target' };
  return { ...state, scores, scoring: [...state.scoring, entry], winner };
}

/** All hands are shown; only the single best hand scores. Exact ties and high card score nothing. */
function scoreHands(state: PokerState, round: number, final: boolean): PokerState {
  const { rules } = state.setup;
  const values = state.hands.map((hand, player) => evaluateHand(hand, `hands.${name(state, player)}`));
  const top = Math.max(...values);
  const holders = values.flatMap((value, player) => (value === top ? [player] : []));
  const category = handCategory(top);
  const royalFlush = rules.royalFlushPoints !== null && isRoyalFlush(top) && holders.length === 1;
  const points = holders.length > 1 ? 0 : royalFlush ? (rules.royalFlushPoints as number) : rules.handPoints[category];
  const best = holders.length === 1 ? (holders[0] as number) : null;
  const handScore: HandScore = {
    round,
    final,
    hands: state.hands.map((hand) => hand.slice()),
    values,
    best,
    tied: holders.length > 1 ? holders : [],
    category,
    points,
    royalFlush,
  };
  const next = { ...state, handScores: [...state.handScores, handScore] };
  return points > 0 ? score(next, { player: best as number, points, reason: 'hand', at: round }, royalFlush) : next;
}

/** Moves to the next exchange turn, closing rounds (and the exchange phase) as they finish. */
function nextTurn(state: PokerState): PokerState {
  const { round, turn } = state.exchange as ExchangeTurn;
  const { setup } = state;
  if (turn + 1 < setup.players.length) return { ...state, exchange: { round, turn: turn + 1, owed: 0 } };
  const last = round === setup.rules.exchangeRounds;
  let next = state;
  if (last || setup.options.handPointsEachExchange) next = scoreHands(next, round, last);
  return last ? { ...next, phase: 'playing', exchange: null } : { ...next, exchange: { round: round + 1, turn: 0, owed: 0 } };
}

function applyDeal(state: PokerState, event: EventOf<'deal'>): PokerState {
  requirePhase(state, 'dealing', 'deal');
  const cards = readCards(event.cards, 'cards');
  const fixed = event.player === undefined ? null : playerIndex(state.setup.players, event.player, 'player');
  const hands = state.hands.map((hand) => hand.slice());
  const during = { ...state, hands };
  cards.forEach((card, index) => {
    // Round the table from the dealer's left, one card at a time: the first player with the fewest cards.
    let player = fixed;
    if (player === null) {
      player = 0;
      hands.forEach((hand, other) => {
        if (hand.length < (hands[player as number] as Card[]).length) player = other;
      });
    }
    const place = locateCard(during, card);
    if (place.place !== 'stock') {
      throw new InputError(`cards[${index}]`, { key: 'poker.deal.notInStock', params: { player: name(state, player), card: { card }, place: { message: placeMessage(during, card, place) } } });
    }
    const hand = hands[player] as Card[];
    if (hand.length >= HAND_SIZE) {
      throw new InputError(`cards[${index}]`, { key: 'poker.deal.full', params: { player: name(state, player), size: HAND_SIZE, card: { card } } });
    }
    hand.push(card);
  });
  const dealt = hands.every((hand) => hand.length === HAND_SIZE);
  return {
    ...state,
    hands,
    dealt: dealt ? hands.map((hand) => hand.slice()) : state.dealt,
    phase: dealt ? 'exchanging' : 'dealing',
    exchange: dealt ? { round: 1, turn: 0, owed: 0 } : null,
  };
}

function exchangingPlayer(state: PokerState): number {
  return state.setup.exchangeOrder[(state.exchange as ExchangeTurn).turn] as number;
}

function applyDiscard(state: PokerState, event: EventOf<'discard'>): PokerState {
  requirePhase(state, 'exchanging', 'discard');
  const { round, turn, owed } = state.exchange as ExchangeTurn;
  const player = exchangingPlayer(state);
  if (owed > 0) throw new InputError('event', { key: 'poker.discard.owed', params: { player: name(state, player), n: owed, round } });
  checkTurn(state, event.player, player, { key: 'poker.turn.exchange', params: { round } });
  const cards = readCards(event.cards ?? [], 'cards');
  const hand = state.hands[player] as readonly Card[];
  cards.forEach((card, index) => {
    if (!hand.includes(card)) {
      throw new InputError(`cards[${index}]`, { key: 'poker.discard.notHeld', params: { player: name(state, player), card: { card }, round, why: { message: notHeld(state, player, card) } } });
    }
  });
  const { buyStop } = state.setup.options;
  const total = state.scores[player] as number;
  if (cards.length > 0 && buyStop !== null && total >= buyStop) {
    throw new InputError('cards', { key: 'poker.discard.buyStop', params: { player: name(state, player), total, stop: buyStop } });
  }
  const hands = state.hands.slice();
  hands[player] = hand.filter((card) => !cards.includes(card));
  const next: PokerState = {
    ...state,
    hands,
    discards: [...state.discards, ...cards],
    exchanges: [...state.exchanges, { round, player, discarded: cards, drawn: [] }],
    exchange: { round, turn, owed: cards.length },
  };
  return cards.length === 0 ? nextTurn(next) : next;
}

function applyDraw(state: PokerState, event: EventOf<'draw'>): PokerState {
  requirePhase(state, 'exchanging', 'draw');
  const { round, turn, owed } = state.exchange as ExchangeTurn;
  const player = exchangingPlayer(state);
  if (owed === 0) throw new InputError('event', { key: 'poker.draw.nobodyOwed', params: { player: name(state, player), round } });
  checkTurn(state, event.player, player, { key: 'poker.turn.draw', params: { round } });
  const cards = readCards(event.cards, 'cards');
  if (cards.length > owed) {
    throw new InputError('cards', { key: 'poker.draw.tooMany', params: { player: name(state, player), n: owed, round, given: cards.length } });
  }
  cards.forEach((card, index) => {
    const place = locateCard(state, card);
    if (place.place !== 'stock') {
      throw new InputError(`cards[${index}]`, { key: 'poker.draw.notInStock', params: { player: name(state, player), card: { card }, round, place: { message: placeMessage(state, card, place) } } });
    }
  });
  const hands = state.hands.slice();
  hands[player] = [...(hands[player] as readonly Card[]), ...cards];
  const exchanges = state.exchanges.slice();
  const record = exchanges[exchanges.length - 1] as ExchangeRecord;
  exchanges[exchanges.length - 1] = { ...record, drawn: [...record.drawn, ...cards] };
  const next: PokerState = { ...state, hands, exchanges, exchange: { round, turn, owed: owed - cards.length } };
  return owed === cards.length ? nextTurn(next) : next;
}

function applyReshuffle(state: PokerState): PokerState {
  requirePhase(state, 'exchanging', 'reshuffle');
  const size = stockSize(state);
  if (size > 0) throw new InputError('event', { key: 'poker.reshuffle.stockLeft', params: { n: size } });
  if (state.discards.length === 0) throw new InputError('event', { key: 'poker.reshuffle.noDiscards' });
  const round = (state.exchange as ExchangeTurn).round;
  return { ...state, discards: [], reshuffles: [...state.reshuffles, { round, cards: state.discards.slice() }] };
}

function applyEndExchanges(state: PokerState): PokerState {
  requirePhase(state, 'exchanging', 'end-exchanges');
  let next = state;
  while (next.phase === 'exchanging') next = applyDiscard(next, { type: 'discard', cards: [] });
  return next;
}

function applyCall(state: PokerState, event: EventOf<'call'>): PokerState {
  if (!state.setup.options.chicagoCall) throw new InputError('event', { key: 'poker.call.off' });
  requirePhase(state, 'playing', 'call');
  const player = playerIndex(state.setup.players, event.player, 'player');
  if (state.call !== null) throw new InputError('player', { key: 'poker.call.already', params: { player: name(state, state.call) } });
  if (state.tricks.length > 0) throw new InputError('player', { key: 'poker.call.late', params: { player: name(state, player) } });
  return { ...state, call: player };
}

function applyPlay(state: PokerState, event: EventOf<'play'>): PokerState {
  requirePhase(state, 'playing', 'play');
  const { player, trick, led } = currentTrick(state) as { player: number; trick: number; led: Card | null };
  checkTurn(state, event.player, player, { key: 'poker.turn.play', params: { trick } });
  const card = readCard(event.card, 'card');
  const hand = state.hands[player] as readonly Card[];
  if (!hand.includes(card)) {
    throw new InputError('card', { key: 'poker.play.notHeld', params: { trick, player: name(state, player), card: { card }, why: { message: notHeld(state, player, card) } } });
  }
  const reason = illegalPlayReason(hand, card, led, state.setup.rules.duty);
  if (reason !== null) throw new InputError('card', { key: 'poker.play.illegal', params: { trick, player: name(state, player), card: { card }, why: { message: reason } } });
  const hands = state.hands.slice();
  hands[player] = hand.filter((held) => held !== card);
  const tricks = state.tricks.slice();
  let open: Trick;
  if (led === null) {
    open = { leader: player, cards: [card], winner: null };
  } else {
    const current = tricks.pop() as Trick;
    open = { ...current, cards: [...current.cards, card] };
  }
  const count = state.setup.players.length;
  const complete = open.cards.length === count;
  const winner = complete ? (open.leader + trickWinnerIndex(open.cards)) % count : null;
  tricks.push({ ...open, winner });
  let next: PokerState = { ...state, hands, tricks };
  if (winner === null) return next;
  const caller = state.call;
  // A failed call costs its points as soon as the caller loses a trick.
  const callLost = caller !== null && winner !== caller && tricks.slice(0, -1).every((done) => done.winner === caller);
  if (callLost) next = score(next, { player: caller, points: -CHICAGO_CALL_POINTS, reason: 'chicago-call', at: trick });
  if (trick < TRICKS) return next;
  next = score(next, { player: winner, points: state.setup.rules.lastTrickPoints, reason: 'last-trick', at: trick });
  if (caller !== null && winner === caller && tricks.every((done) => done.winner === caller)) {
    next = score(next, { player: caller, points: CHICAGO_CALL_POINTS, reason: 'chicago-call', at: trick });
  }
  return { ...next, phase: 'complete' };
}

export function startDeal(deal: unknown): PokerState {
  const setup = readPokerSetup(deal);
  const empty = setup.players.map((): Card[] => []);
  return {
    setup,
    phase: 'dealing',
    hands: empty,
    dealt: empty,
    discards: [],
    exchanges: [],
    exchange: null,
    reshuffles: [],
    handScores: [],
    call: null,
    tricks: [],
    scoring: [],
    scores: setup.scores.slice(),
    winner: null,
  };
}

/** One handler per event type, each given its own event's shape. */
type PokerHandlers = { readonly [T in PokerEventType]: (state: PokerState | null, event: EventOf<T>) => PokerState };

/** Every event but setup changes a deal that exists. */
function onDeal<E extends PokerEvent>(apply: (state: PokerState, event: E) => PokerState): (state: PokerState | null, event: E) => PokerState {
  return (state, event) => {
    if (state === null) throw new InputError('event', { key: 'poker.event.needsDeal', params: { type: event.type } });
    return apply(state, event);
  };
}

/** The reducer's cases, one per event type: adding an event type without its handler does not compile. */
const POKER_HANDLERS: PokerHandlers = {
  setup: (state, event) => {
    if (state !== null) throw new InputError('event', { key: 'poker.event.alreadySetUp' });
    return startDeal(event.deal);
  },
  deal: onDeal(applyDeal),
  discard: onDeal(applyDiscard),
  draw: onDeal(applyDraw),
  reshuffle: onDeal(applyReshuffle),
  'end-exchanges': onDeal(applyEndExchanges),
  call: onDeal(applyCall),
  play: onDeal(applyPlay),
};

function isPokerEventType(type: unknown): type is PokerEventType {
  return POKER_EVENT_TYPES.includes(type as PokerEventType);
}

/**
 * The deal reducer: the state after `event`. Pure; refuses an invalid event with an InputError
 * naming the player, the trick and the card at fault, and leaves the given state untouched.
 */
export function applyPokerEvent(state: PokerState | null, event: PokerEvent): PokerState {
  // Events come from the journal and the command line as well as from typed code: the type is checked.
  const type: unknown = (event as { type?: unknown } | null)?.type;
  if (!isPokerEventType(type)) {
    throw new InputError('event', { key: 'poker.event.unknown', params: { got: valueParam(type), types: POKER_EVENT_TYPES.join(', ') } });
  }
  const handler = POKER_HANDLERS[type] as (state: PokerState | null, event: PokerEvent) => PokerState;
  return handler(state, event);
}

/** Rebuilds a deal from its events, as the journal does on start. */
export function replayDeal(events: readonly PokerEvent[]): PokerState {
  let state: PokerState | null = null;
  for (const event of events) state = applyPokerEvent(state, event);
  if (state === null) throw new InputError('events', { key: 'poker.event.none' });
  return state;
}

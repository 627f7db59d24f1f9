import { InputError } from '../errors';
import { valueParam } from '../validate';
import { applyPokerEvent, stockSize, type PokerEvent, type PokerState } from './deal';
import { pokerAwaiting } from './summary';

/**
 * A game of Pistepokeri or Chicago at the console: deal after deal, the dealer moving one seat
 * clockwise each time, totals carried over, until someone wins. Like a deal it changes only by
 * plain-data events, so the journal replays it exactly.
 *
 * - start: the game, the players clockwise (the first sits on the first dealer's left), house options.
 * - card: the next card from the shoe or the keyboard; it goes wherever the deal needs one next
 *   (dealt to the player in turn, drawn in an exchange, or played to the trick).
 * - discard: the player in turn discards these cards (none: stands pat).
 * - end-exchanges, call: as in a deal (Chicago).
 * - next-deal: the deal is over and nobody has won: the next one starts.
 */
export type MatchEvent =
  | { readonly type: 'start'; readonly game: unknown; readonly players: unknown; readonly options?: unknown }
  | { readonly type: 'card'; readonly card: string }
  | { readonly type: 'discard'; readonly cards: readonly string[] }
  | { readonly type: 'end-exchanges' }
  | { readonly type: 'call'; readonly player: string }
  | { readonly type: 'next-deal' };

export interface MatchState {
  /** The players clockwise, as at the start. */
  readonly players: readonly string[];
  /** 1 for the first deal. */
  readonly dealNumber: number;
  /** The dealer of the current deal (index into players). */
  readonly dealer: number;
  readonly deal: PokerState;
  /** Totals after each finished deal, by player name. */
  readonly finished: ReadonlyArray<Readonly<Record<string, number>>>;
  readonly winner: string | null;
}

/** Deal order: the player on the dealer's left first, then clockwise. */
function seatedFrom(players: readonly string[], dealer: number): string[] {
  return players.map((_, offset) => players[(dealer + 1 + offset) % players.length] as string);
}

function totals(deal: PokerState): Record<string, number> {
  return Object.fromEntries(deal.setup.players.map((player, index) => [player, deal.scores[index] as number]));
}

/** The next deal: same game and options, the totals so far, dealt from the new dealer's left. */
function nextDeal(players: readonly string[], dealer: number, previous: PokerState): PokerState {
  const deal = { game: previous.setup.game, players: seatedFrom(players, dealer), scores: totals(previous), options: previous.setup.options };
  return applyPokerEvent(null, { type: 'setup', deal });
}

function winnerOf(deal: PokerState): string | null {
  return deal.winner === null ? null : (deal.setup.players[deal.winner.player] as string);
}

/** The deal event a card from the shoe or keyboard stands for now. */
function routeCard(deal: PokerState, card: unknown): PokerEvent[] {
  if (typeof card !== 'string') throw new InputError('card', { key: 'poker.match.cardNotText', params: { got: valueParam(card) } });
  const awaiting = pokerAwaiting(deal);
  if (awaiting === null) throw new InputError('card', { key: 'poker.match.dealOver', params: { card: { card } } });
  switch (awaiting.step) {
    case 'deal':
      return [{ type: 'deal', cards: [card] }];
    case 'discard':
      throw new InputError('card', { key: 'poker.match.discardFirst', params: { card: { card }, player: awaiting.player, round: awaiting.round } });
    case 'draw':
      // An empty stock is reshuffled from the discards before the dealer can draw: record that first.
      return [...(stockSize(deal) === 0 ? [{ type: 'reshuffle' } as const] : []), { type: 'draw', cards: [card] }];
    case 'play':
      return [{ type: 'play', card }];
  }
}

export function applyMatchEvent(state: MatchState | null, event: MatchEvent): MatchState {
  const type: unknown = (event as { type?: unknown } | null)?.type;
  if (type === 'start') {
    if (state !== null) throw new InputError('event', { key: 'poker.match.started' });
    const start = event as Extract<MatchEvent, { type: 'start' }>;
    // The players as given sit clockwise from the first dealer's left, so the first dealer is the last of them.
    const first = applyPokerEvent(null, { type: 'setup', deal: { game: start.game, players: start.players, options: start.options } });
    return { players: first.setup.players, dealNumber: 1, dealer: first.setup.players.length - 1, deal: first, finished: [], winner: null };
  }
  if (state === null) throw new InputError('event', { key: 'poker.match.notStarted' });
  // Chicago's royal flush wins at once: the game takes nothing more, neither a card nor an action.
  if (endedByRoyalFlush(state)) throw new InputError(type === 'card' ? 'card' : 'event', { key: 'poker.match.royalFlush', params: { player: state.winner as string } });
  switch (type) {
    case 'card':
      return withDeal(state, routeCard(state.deal, (event as { card: unknown }).card).reduce((deal, next) => applyPokerEvent(deal, next), state.deal));
    case 'discard':
      return withDeal(state, applyPokerEvent(state.deal, { type: 'discard', cards: (event as { cards: readonly string[] }).cards }));
    case 'end-exchanges':
      return withDeal(state, applyPokerEvent(state.deal, { type: 'end-exchanges' }));
    case 'call':
      return withDeal(state, applyPokerEvent(state.deal, { type: 'call', player: (event as { player: string }).player }));
    case 'next-deal': {
      if (state.winner !== null) throw new InputError('event', { key: 'poker.match.won', params: { player: state.winner } });
      if (state.deal.phase !== 'complete') throw new InputError('event', { key: 'poker.match.dealNotOver', params: { deal: state.dealNumber } });
      const dealer = (state.dealer + 1) % state.players.length;
      const deal = nextDeal(state.players, dealer, state.deal);
      return { ...state, dealNumber: state.dealNumber + 1, dealer, deal, finished: [...state.finished, totals(state.deal)] };
    }
    default:
      throw new InputError('event', { key: 'poker.match.unknownEvent', params: { got: valueParam(type) } });
  }
}

/** Whether the game was won by a Chicago royal flush, which ends it at once (the deal is not played out). */
export function endedByRoyalFlush(state: MatchState): boolean {
  return state.deal.winner?.reason === 'royal-flush';
}

function withDeal(state: MatchState, deal: PokerState): MatchState {
  return { ...state, deal, winner: state.winner ?? winnerOf(deal) };
}

export function replayMatch(events: readonly MatchEvent[]): MatchState {
  let state: MatchState | null = null;
  for (const event of events) state = applyMatchEvent(state, event);
  if (state === null) throw new InputError('events', { key: 'poker.match.noEvents' });
  return state;
}

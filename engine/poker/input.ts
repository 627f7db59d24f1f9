import { InputError } from '../errors';
import { applyPokerEvent, stockSize, type PokerEvent, type PokerState } from './deal';
import { HAND_SIZE, TRICKS } from './rules';
import { isRecord, valueParam } from '../validate';
import { playerIndex, setupInput } from './setup';

export interface DealFromInput {
  readonly state: PokerState;
  /** The events the input stands for, in order: what the journal would hold for this deal. */
  readonly events: readonly PokerEvent[];
}

/**
 * Plays a whole deal given as one JSON object, the command line's input contract:
 * `{ game, players, scores?, hands, exchanges?, tricks? }`.
 * - `hands`: the five cards dealt to each player.
 * - `exchanges`: one object per exchange round, `{ "Anna": { "discard": [...], "draw": [...] } }`,
 *   taken in the exchange order; a player not named stands pat, and rounds not given are stood pat.
 *   When the stock runs out while a player is owed cards, the discards are reshuffled into a new
 *   stock (recorded as a reshuffle event); a discard drawn any earlier is refused.
 * - `tricks`: each trick's cards in the order played, starting with its leader; the engine works
 *   out who played each card and checks it. Only the last trick given may be unfinished.
 * A refusal names the input field (e.g. `tricks[1][2]`), and the player, trick and card at fault.
 */
export function dealFromInput(input: unknown): DealFromInput {
  const events: PokerEvent[] = [];
  let state = applyPokerEvent(null, { type: 'setup', deal: input });
  // The journal keeps the setup alone, normalised, not the whole input.
  events.push({ type: 'setup', deal: setupInput(state.setup) });
  const source = input as Record<string, unknown>;
  const { players, exchangeOrder, rules } = state.setup;

  /** Applies one event; an engine refusal is reported at `field` (with the card's position for a card). */
  const apply = (event: PokerEvent, field: string, cardField?: (index: number) => string): void => {
    try {
      state = applyPokerEvent(state, event);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      const position = /^cards\[(\d+)\]/.exec(error.field);
      throw new InputError(position && cardField ? cardField(Number(position[1])) : field, error.said ?? error.reason);
    }
    events.push(event);
  };

  const hands = source.hands;
  if (hands === undefined) throw new InputError('hands', { key: 'poker.input.noHands', params: { example: `{"${players[0]}": ["As", "Kd", "7h", "7c", "2s"]}` } });
  if (!isRecord(hands)) throw new InputError('hands', { key: 'poker.input.handsNotObject', params: { got: valueParam(hands) } });
  for (const key of Object.keys(hands)) playerIndex(players, key, `hands.${key}`);
  for (const player of players) {
    const field = `hands.${player}`;
    const cards = hands[player];
    if (cards === undefined) throw new InputError(field, { key: 'poker.input.noHand', params: { player } });
    if (!Array.isArray(cards) || cards.length !== HAND_SIZE) {
      throw new InputError(field, { key: 'poker.input.handSize', params: { player, size: HAND_SIZE, got: Array.isArray(cards) ? cards.length : valueParam(cards) } });
    }
    apply({ type: 'deal', player, cards: cards as string[] }, field, (index) => `${field}[${index}]`);
  }

  const rounds = source.exchanges ?? [];
  if (!Array.isArray(rounds)) {
    throw new InputError('exchanges', { key: 'poker.input.exchangesNotList', params: { example: `{"${players[0]}": {"discard": [...], "draw": [...]}}`, got: valueParam(rounds) } });
  }
  if (rounds.length > rules.exchangeRounds) {
    throw new InputError('exchanges', { key: 'poker.input.tooManyExchanges', params: { game: rules.game, n: rules.exchangeRounds, got: rounds.length } });
  }
  rounds.forEach((round: unknown, roundIndex) => {
    const roundField = `exchanges[${roundIndex}]`;
    if (!isRecord(round)) {
      throw new InputError(roundField, { key: 'poker.input.roundNotObject', params: { example: `{"${players[0]}": {"discard": ["2h"], "draw": ["9d"]}}`, got: valueParam(round) } });
    }
    for (const key of Object.keys(round)) playerIndex(players, key, `${roundField}.${key}`);
    for (const index of exchangeOrder) {
      const player = players[index] as string;
      const field = `${roundField}.${player}`;
      const entry = round[player] ?? {};
      if (!isRecord(entry)) throw new InputError(field, { key: 'poker.input.exchangeNotObject', params: { example: '{"discard": [...], "draw": [...]}', got: valueParam(entry) } });
      for (const key of Object.keys(entry)) {
        if (key !== 'discard' && key !== 'draw') throw new InputError(`${field}.${key}`, { key: 'poker.input.unknownExchangeField' });
      }
      const discard = entry.discard ?? [];
      const draw = entry.draw ?? [];
      if (!Array.isArray(discard)) throw new InputError(`${field}.discard`, { key: 'poker.input.notCardList', params: { got: valueParam(discard) } });
      if (!Array.isArray(draw)) throw new InputError(`${field}.draw`, { key: 'poker.input.notCardList', params: { got: valueParam(draw) } });
      if (draw.length !== discard.length) {
        throw new InputError(`${field}.draw`, { key: 'poker.input.drawAsMany', params: { player, n: discard.length, round: roundIndex + 1, got: draw.length } });
      }
      apply({ type: 'discard', player, cards: discard as string[] }, `${field}.discard`, (position) => `${field}.discard[${position}]`);
      draw.forEach((card: unknown, position) => {
        if (stockSize(state) === 0) apply({ type: 'reshuffle' }, `${field}.draw[${position}]`);
        apply({ type: 'draw', player, cards: [card as string] }, `${field}.draw[${position}]`);
      });
    }
  });
  if (state.phase === 'exchanging') apply({ type: 'end-exchanges' }, 'exchanges');

  const tricks = source.tricks ?? [];
  if (!Array.isArray(tricks)) throw new InputError('tricks', { key: 'poker.input.tricksNotList', params: { got: valueParam(tricks) } });
  if (tricks.length > TRICKS) throw new InputError('tricks', { key: 'poker.input.tooManyTricks', params: { tricks: TRICKS, got: tricks.length } });
  tricks.forEach((trick: unknown, trickIndex) => {
    const field = `tricks[${trickIndex}]`;
    if (!Array.isArray(trick) || trick.length === 0) {
      throw new InputError(field, { key: 'poker.input.trickNotList', params: { got: valueParam(trick) } });
    }
    if (trick.length > players.length) throw new InputError(field, { key: 'poker.input.trickTooLong', params: { trick: trickIndex + 1, n: trick.length, players: players.length } });
    if (trick.length < players.length && trickIndex < tricks.length - 1) {
      throw new InputError(field, { key: 'poker.input.trickUnfinished', params: { trick: trickIndex + 1, n: trick.length, players: players.length } });
    }
    trick.forEach((card: unknown, position) => apply({ type: 'play', card: card as string }, `${field}[${position}]`));
  });
  return { state, events };
}

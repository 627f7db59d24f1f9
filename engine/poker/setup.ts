import { InputError } from '../errors';
import type { MessageParam } from '../messages';
import { GAME_RULES, GAMES, MAX_PLAYERS, MIN_PLAYERS, NO_HOUSE_OPTIONS, type GameName, type GameRules, type HouseOptions } from './rules';
import { isRecord, valueParam } from '../validate';

/** A validated deal setup. Players are referred to by their index in `players` everywhere else. */
export interface PokerSetup {
  readonly game: GameName;
  readonly rules: GameRules;
  readonly options: HouseOptions;
  /** Clockwise; the first one sits on the dealer's left and is first in every order. */
  readonly players: readonly string[];
  /** The agreed exchange order, as player indexes (default: clockwise from the dealer's left). */
  readonly exchangeOrder: readonly number[];
  /** Each player's total before this deal. */
  readonly scores: readonly number[];
}

/** "a" or "b" or "c": the choices, quoted, joined by the language's "or" (`poker.or`). */
export function choicesParam(choices: readonly string[]): MessageParam {
  const quoted = choices.map((choice) => `"${choice}"`);
  if (quoted.length <= 1) return quoted.join('');
  return { message: { key: 'poker.or', params: { list: quoted.slice(0, -1).join(', '), last: quoted.at(-1) as string } } };
}

function readGame(value: unknown): GameName {
  if (value === undefined) throw new InputError('game', { key: 'poker.setup.noGame', params: { games: choicesParam(GAMES) } });
  const name = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (!GAMES.includes(name as GameName)) {
    throw new InputError('game', { key: 'poker.setup.unknownGame', params: { got: valueParam(value), games: choicesParam(GAMES) } });
  }
  return name as GameName;
}

function readPlayers(value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw new InputError('players', { key: 'poker.setup.playersNotList', params: { got: valueParam(value) } });
  }
  if (value.length < MIN_PLAYERS || value.length > MAX_PLAYERS) {
    throw new InputError('players', { key: 'poker.setup.playerCount', params: { min: MIN_PLAYERS, max: MAX_PLAYERS, got: value.length } });
  }
  const seen = new Map<string, number>();
  return value.map((name: unknown, index) => {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new InputError(`players[${index}]`, { key: 'poker.setup.nameless', params: { got: valueParam(name) } });
    }
    const first = seen.get(name);
    if (first !== undefined) throw new InputError(`players[${index}]`, { key: 'poker.setup.nameTwice', params: { name, first: `players[${first}]` } });
    seen.set(name, index);
    return name;
  });
}

/** The index of a named player, or a refusal naming the players there are. */
export function playerIndex(players: readonly string[], name: unknown, field: string): number {
  const index = typeof name === 'string' ? players.indexOf(name) : -1;
  if (index < 0) throw new InputError(field, { key: 'poker.setup.notAPlayer', params: { got: valueParam(name), players: players.join(', ') } });
  return index;
}

function readScores(value: unknown, players: readonly string[], rules: GameRules): number[] {
  const scores = players.map(() => 0);
  if (value === undefined || value === null) return scores;
  if (!isRecord(value)) throw new InputError('scores', { key: 'poker.setup.scoresNotObject', params: { example: `{"${players[0]}": 0}`, got: valueParam(value) } });
  for (const [name, total] of Object.entries(value)) {
    const field = `scores.${name}`;
    const player = playerIndex(players, name, field);
    if (typeof total !== 'number' || !Number.isSafeInteger(total)) {
      throw new InputError(field, { key: 'poker.setup.scoreNotWhole', params: { name, got: valueParam(total) } });
    }
    // Only a failed Chicago call takes points away.
    if (total < 0 && rules.game !== 'chicago') throw new InputError(field, { key: 'poker.setup.scoreNegative', params: { name, game: rules.game, total } });
    if (total >= rules.target) {
      throw new InputError(field, { key: 'poker.setup.scoreReached', params: { name, total, target: rules.target } });
    }
    scores[player] = total;
  }
  return scores;
}

function readExchangeOrder(value: unknown, players: readonly string[]): number[] {
  if (value === undefined || value === null) return players.map((_, index) => index);
  if (!Array.isArray(value) || value.length !== players.length) {
    throw new InputError('exchangeOrder', { key: 'poker.setup.orderNotList', params: { got: valueParam(value) } });
  }
  const order = value.map((name: unknown, index) => playerIndex(players, name, `exchangeOrder[${index}]`));
  order.forEach((player, index) => {
    if (order.indexOf(player) !== index) throw new InputError(`exchangeOrder[${index}]`, { key: 'poker.setup.orderTwice', params: { name: players[player] as string } });
  });
  return order;
}

/**
 * A game's house options as a start screen or the journal hands them over: none given means all
 * off; unknown keys, values of the wrong type, a buy stop that is no whole number below the target,
 * and any option on for a game other than Chicago are refused (field `options.<key>`).
 */
export function readHouseOptions(value: unknown, game: GameName): HouseOptions {
  return readOptions(value, GAME_RULES[game]);
}

function readOptions(value: unknown, rules: GameRules): HouseOptions {
  if (value === undefined || value === null) return NO_HOUSE_OPTIONS;
  if (!isRecord(value)) throw new InputError('options', { key: 'poker.setup.optionsNotObject', params: { got: valueParam(value) } });
  const known = Object.keys(NO_HOUSE_OPTIONS);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new InputError(`options.${key}`, { key: 'poker.setup.unknownOption', params: { options: known.join(', ') } });
  }
  const flag = (key: 'handPointsEachExchange' | 'chicagoCall'): boolean => {
    const flagValue = value[key] ?? false;
    if (typeof flagValue !== 'boolean') throw new InputError(`options.${key}`, { key: 'poker.setup.notBoolean', params: { got: valueParam(flagValue) } });
    return flagValue;
  };
  let buyStop: number | null = null;
  if (value.buyStop !== undefined && value.buyStop !== null) {
    const stop = value.buyStop;
    if (typeof stop !== 'number' || !Number.isInteger(stop) || stop < 1 || stop >= rules.target) {
      throw new InputError('options.buyStop', { key: 'poker.setup.buyStop', params: { max: rules.target - 1, got: valueParam(stop) } });
    }
    buyStop = stop;
  }
  const options: HouseOptions = { handPointsEachExchange: flag('handPointsEachExchange'), chicagoCall: flag('chicagoCall'), buyStop };
  if (rules.game !== 'chicago') {
    const on = (Object.keys(options) as (keyof HouseOptions)[]).find((key) => options[key] !== NO_HOUSE_OPTIONS[key]);
    if (on !== undefined) throw new InputError(`options.${on}`, { key: 'poker.setup.chicagoOnly', params: { option: on, game: rules.game } });
  }
  return options;
}

/**
 * Validates a deal's setup as the console, the journal or the command line hands it over:
 * `{ game, players, scores?, exchangeOrder?, options? }`. Other fields are left to the caller.
 */
export function readPokerSetup(input: unknown): PokerSetup {
  if (!isRecord(input)) throw new InputError('deal', { key: 'poker.setup.notObject', params: { got: valueParam(input) } });
  const game = readGame(input.game);
  const rules = GAME_RULES[game];
  const players = readPlayers(input.players);
  return {
    game,
    rules,
    options: readOptions(input.options, rules),
    players,
    exchangeOrder: readExchangeOrder(input.exchangeOrder, players),
    scores: readScores(input.scores, players, rules),
  };
}

/** A setup as plain input again (player names, not indexes): what a setup event stores in the journal. */
export function setupInput(setup: PokerSetup) {
  return {
    game: setup.game,
    players: setup.players.slice(),
    scores: Object.fromEntries(setup.players.map((player, index) => [player, setup.scores[index] as number])),
    exchangeOrder: setup.exchangeOrder.map((player) => setup.players[player] as string),
    options: { ...setup.options },
  };
}

/**
 * The shapes of the commands' arguments (protocol/commands.ts says which command takes which), as
 * schemas (protocol/schema.ts): the types the commands' signatures carry come from these. Pure:
 * they see only the values a call carries. The service checks their meaning.
 */
import { isInputError } from '../engine/errors';
import type { Message } from '../engine/messages';
import { readHouseOptions } from '../engine/poker/setup';
import { readChipExchange, type ChipExchange } from '../engine/race/exchange';
import { GAMES, type GameName, type HouseOptions } from '../engine/poker/rules';
import type { Checked } from './commandSchema';
import { CARD_CODE_MAX, DISCARD_MAX, MAX_SEATS, NAME_MAX, PLAYERS_MAX, PLAYERS_MIN, SEAT_CHIPS_MAX } from './constants';
import { boolean, commandErrorOf, custom, is, isRecord, isWhole, list, literal, nullable, object, parse, refuse, text, variant, whole, type Infer, type Said } from './schema';

export type { Args, Checked } from './commandSchema';
export { isRecord, isWhole };

const notObject = { key: 'command.notObject' } as const;

/** Text of at most `max` characters (a card, a scan, a reason, a name). */
export const textOf = (max: number) => text(max, { key: 'command.notText' }, { key: 'command.tooLong', params: { n: max } });

/** A race or game id as the service makes them (`race-12`, `game-3`): the screen names what it acts on. */
export const target = is((value): value is string => typeof value === 'string' && /^(race|game)-[1-9][0-9]{0,8}$/.test(value), { key: 'command.target' });

const seat = whole(1, MAX_SEATS, { key: 'command.seatRange', params: { max: MAX_SEATS } });
const seatChips = whole(0, SEAT_CHIPS_MAX, (_, count) => ({ key: 'command.chipCount', params: { seat: (count as { seat: number }).seat, max: SEAT_CHIPS_MAX } }));
const hasOther = boolean({ key: 'command.notBoolean' });
const seatOnce = { key: (count: { seat: number }) => count.seat, field: 'seat', said: (count: { seat: number }): Message => ({ key: 'command.seatTwice', params: { seat: count.seat } }) } as const;

/** One seat's count before a race: its leaving chips, and whether it has any other chips (a list is refused at its seat, as it always was). */
export const seatCount = object({ seat, chips: seatChips, hasOther }, notObject, true);

/** A race's counts: 1 … MAX_SEATS seats, each once. */
export const seatCounts = list(seatCount, { min: 1, max: MAX_SEATS, said: { key: 'command.seatCount', params: { n: MAX_SEATS } }, unique: seatOnce });

/** One seat's count being typed: its chips null while the field is still empty. */
export const seatCountDraft = object({ seat, chips: nullable(seatChips), hasOther }, notObject);

/**
 * The counts being typed (saveCountDrafts, the count-draft file): at most a seat's worth, each
 * seat once. Which seats are in play is the service's to check.
 */
export const seatCountDrafts = list(seatCountDraft, { max: MAX_SEATS, said: { key: 'command.draftSeats', params: { n: MAX_SEATS } }, unique: seatOnce });

/** A points game's players, clockwise: PLAYERS_MIN … PLAYERS_MAX names. */
export const players = list(textOf(NAME_MAX), { min: PLAYERS_MIN, max: PLAYERS_MAX, said: { key: 'command.playerCount', params: { min: PLAYERS_MIN, n: PLAYERS_MAX } }, entrySaid: { key: 'command.playerName', params: { n: NAME_MAX } } });

/** A points game's action: a discard, a call, the exchanges ended, the next deal. */
export const gameAction = variant(
  'type',
  {
    discard: object({ type: literal('discard'), cards: list(textOf(CARD_CODE_MAX), { max: DISCARD_MAX, said: { key: 'command.discards', params: { n: DISCARD_MAX } }, entrySaid: { key: 'command.discards', params: { n: DISCARD_MAX } } }) }, notObject),
    call: object({ type: literal('call'), player: text(NAME_MAX, { key: 'command.callPlayer' }, { key: 'command.callPlayer' }) }, notObject),
    'end-exchanges': object({ type: literal('end-exchanges') }, notObject),
    'next-deal': object({ type: literal('next-deal') }, notObject),
  },
  { key: 'command.action' },
  { key: 'command.actionType' },
);

export type SeatCountShape = Infer<typeof seatCount>;
export type SeatCountDraftShape = Infer<typeof seatCountDraft>;
export type GameActionShape = Infer<typeof gameAction>;

/** Refuses a value longer than `max` characters of JSON, before an engine reader quotes it back in full. */
function refuseLongerThan(value: unknown, max: number): void {
  let size = Infinity;
  try {
    size = JSON.stringify(value ?? null).length;
  } catch {
    // A value with a cycle or a bigint (IPC can carry both) is refused as too long: it is no value a reader takes.
  }
  if (size > max) refuse({ key: 'command.tooLong', params: { n: max } });
}

/** A game's name, one of GAMES. */
export const gameName = is((value): value is GameName => (GAMES as readonly unknown[]).includes(value), {
  key: 'command.game',
  params: { games: { message: { key: 'poker.or', params: { list: GAMES.slice(0, -1).join(', '), last: GAMES.at(-1) ?? '' } } } },
});

/** The longest house options a start call may carry, as JSON (all three set take about 80 characters). */
export const HOUSE_OPTIONS_MAX = 200;

/**
 * A game's house options (Chicago's) as the start screen sends them, for the game read before
 * them (`parent`, the arguments read so far): none means all off. The engine's own reader checks
 * them (unknown keys, wrong types, a buy stop that is no whole number below the target, an option
 * on for Pistepokeri), so the call and the journal's start event are refused for the same reasons
 * in the same words; what passes is the options in full.
 */
export const houseOptions = custom((value, parent): HouseOptions => {
  // Three short fields: anything longer is refused before the engine quotes it back in full.
  refuseLongerThan(value, HOUSE_OPTIONS_MAX);
  // The engine's reader names its own fields (`options.buyStop`): its refusal passes out as it is.
  return readHouseOptions(value, (parent as readonly unknown[])[0] as GameName);
});

/** The longest exchange of chips a call may carry, as JSON (its longest note is 200 characters). */
export const CHIP_EXCHANGE_MAX = 400;

/**
 * Chips exchanged at equal value outside a race (late-found chips, a colour-up of a player), read
 * by the engine's own reader, so the call and the journal's record are refused for the same
 * reasons in the same words. Whether it fits the station's races is the service's to check.
 */
export const chipExchange = custom((value): ChipExchange => {
  refuseLongerThan(value, CHIP_EXCHANGE_MAX);
  return readChipExchange(value);
});

/** The house options of `game` checked as the start call's third argument is. */
export function checkHouseOptions(game: GameName, value: unknown): Checked {
  try {
    return { ok: true, args: [parse(houseOptions, value, 'options', [game])] };
  } catch (error) {
    if (!isInputError(error) || error.said === undefined) throw error;
    return { ok: false, error: commandErrorOf(error) };
  }
}

/**
 * A plain object of at most `maxChars` characters of JSON, taken as a `T` whose meaning another
 * reader checks (the settings' schema, the planner, the profile reader): here only its shape and size.
 */
export const objectOfSize = <T>(maxChars: number, said: Said) => is((value): value is T => isRecord(value) && (maxChars === Infinity || JSON.stringify(value).length <= maxChars), said);

/** A whole number that is at least 1 (a held card's id, a chip's value). */
export const positive = (said: Said) => whole(1, Number.MAX_SAFE_INTEGER, said);

export { isInputError };

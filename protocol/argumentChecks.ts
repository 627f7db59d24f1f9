/**
 * The shape checks of the commands' arguments (protocol/commands.ts says which command takes
 * which). Pure: they see only the values a call carries. The service checks their meaning.
 */
import { isInputError } from '../engine/errors';
import { englishText, type Message } from '../engine/messages';
import { readHouseOptions } from '../engine/poker/setup';
import type { GameName } from '../engine/poker/rules';
import { CARD_CODE_MAX, DISCARD_MAX, MAX_SEATS, NAME_MAX, PLAYERS_MAX, PLAYERS_MIN, SEAT_CHIPS_MAX } from './constants';
import type { CommandError, SeatCount, SeatCountDraft } from './contract';

export type Args = readonly unknown[];

/** The arguments as they may reach the service (unknown fields dropped, defaults filled in), or why not. */
export type Checked = { readonly ok: true; readonly args: Args } | { readonly ok: false; readonly error: CommandError };

/** A refusal as a key and its parameters (`command.*` in engine/messages); its English is the message. */
export const fail = (field: string, said: Message): Checked => ({ ok: false, error: { field, message: englishText(said), said } });
export const pass = (args: Args): Checked => ({ ok: true, args });

export function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function checkCounts(value: unknown): Checked {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SEATS) return fail('counts', { key: 'command.seatCount', params: { n: MAX_SEATS } });
  const seats = new Set<number>();
  for (const [index, entry] of value.entries()) {
    const count = entry as Partial<SeatCount> | null;
    if (typeof count !== 'object' || count === null) return fail(`counts[${index}]`, { key: 'command.notObject' });
    if (!isWhole(count.seat, 1, MAX_SEATS)) return fail(`counts[${index}].seat`, { key: 'command.seatRange', params: { max: MAX_SEATS } });
    if (!isWhole(count.chips, 0, SEAT_CHIPS_MAX)) return fail(`counts[${index}].chips`, { key: 'command.chipCount', params: { seat: count.seat, max: SEAT_CHIPS_MAX } });
    if (typeof count.hasOther !== 'boolean') return fail(`counts[${index}].hasOther`, { key: 'command.notBoolean' });
    if (seats.has(count.seat)) return fail(`counts[${index}].seat`, { key: 'command.seatTwice', params: { seat: count.seat } });
    seats.add(count.seat);
  }
  return pass([value.map((count: SeatCount) => ({ seat: count.seat, chips: count.chips, hasOther: count.hasOther }))]);
}

/**
 * The counts being typed (saveCountDrafts): at most a seat's worth each, every chips a whole number
 * 0 … SEAT_CHIPS_MAX or null (the field still empty). Which seats are in play is the service's to check.
 */
export function checkCountDrafts(value: unknown): Checked {
  if (!Array.isArray(value) || value.length > MAX_SEATS) return fail('counts', { key: 'command.draftSeats', params: { n: MAX_SEATS } });
  const seats = new Set<number>();
  for (const [index, entry] of value.entries()) {
    const draft = entry as Partial<SeatCountDraft> | null;
    if (typeof draft !== 'object' || draft === null || Array.isArray(draft)) return fail(`counts[${index}]`, { key: 'command.notObject' });
    if (!isWhole(draft.seat, 1, MAX_SEATS)) return fail(`counts[${index}].seat`, { key: 'command.seatRange', params: { max: MAX_SEATS } });
    if (draft.chips !== null && !isWhole(draft.chips, 0, SEAT_CHIPS_MAX)) return fail(`counts[${index}].chips`, { key: 'command.chipCount', params: { seat: draft.seat, max: SEAT_CHIPS_MAX } });
    if (typeof draft.hasOther !== 'boolean') return fail(`counts[${index}].hasOther`, { key: 'command.notBoolean' });
    if (seats.has(draft.seat)) return fail(`counts[${index}].seat`, { key: 'command.seatTwice', params: { seat: draft.seat } });
    seats.add(draft.seat);
  }
  return pass([value.map((draft: SeatCountDraft) => ({ seat: draft.seat, chips: draft.chips, hasOther: draft.hasOther }))]);
}

export function checkText(value: unknown, field: string, max: number): Checked {
  if (typeof value !== 'string') return fail(field, { key: 'command.notText' });
  if (value.length > max) return fail(field, { key: 'command.tooLong', params: { n: max } });
  return pass([value]);
}

/** A race or game id as the service makes them (`race-12`, `game-3`): the screen names what it acts on. */
export function checkTarget(value: unknown, field: string): Checked {
  if (typeof value !== 'string' || !/^(race|game)-[1-9][0-9]{0,8}$/.test(value)) return fail(field, { key: 'command.target' });
  return pass([value]);
}

/** A plain object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks each in turn, the arguments of those that pass joined into one list. */
export function all(...checks: Checked[]): Checked {
  const args: unknown[] = [];
  for (const check of checks) {
    if (!check.ok) return check;
    args.push(...check.args);
  }
  return pass(args);
}

export function checkPlayers(value: unknown): Checked {
  if (!Array.isArray(value) || value.length < PLAYERS_MIN || value.length > PLAYERS_MAX) return fail('players', { key: 'command.playerCount', params: { min: PLAYERS_MIN, n: PLAYERS_MAX } });
  if (value.some((player) => typeof player !== 'string' || player.length > NAME_MAX)) return fail('players', { key: 'command.playerName', params: { n: NAME_MAX } });
  return pass([value]);
}

export function checkGameAction(value: unknown): Checked {
  const action = value as { type?: unknown; cards?: unknown; player?: unknown } | null;
  if (typeof action !== 'object' || action === null) return fail('action', { key: 'command.action' });
  switch (action.type) {
    case 'discard':
      if (!Array.isArray(action.cards) || action.cards.length > DISCARD_MAX || action.cards.some((card) => typeof card !== 'string' || card.length > CARD_CODE_MAX)) {
        return fail('action.cards', { key: 'command.discards', params: { n: DISCARD_MAX } });
      }
      return pass([{ type: 'discard', cards: action.cards }]);
    case 'call':
      return typeof action.player === 'string' && action.player.length <= NAME_MAX ? pass([{ type: 'call', player: action.player }]) : fail('action.player', { key: 'command.callPlayer' });
    case 'end-exchanges':
    case 'next-deal':
      return pass([{ type: action.type }]);
    default:
      return fail('action.type', { key: 'command.actionType' });
  }
}

/** The longest house options a start call may carry, as JSON (all three set take about 80 characters). */
export const HOUSE_OPTIONS_MAX = 200;

/**
 * A game's house options (Chicago's) as the start screen sends them: none means all off. The
 * engine's own reader checks them (unknown keys, wrong types, a buy stop that is no whole number
 * below the target, an option on for Pistepokeri), so the call and the journal's start event are
 * refused for the same reasons in the same words; what passes is the options in full.
 */
export function checkHouseOptions(game: GameName, value: unknown): Checked {
  // Three short fields: anything longer is refused before the engine quotes it back in full.
  let size = Infinity;
  try {
    size = JSON.stringify(value ?? null).length;
  } catch {
    // A value with a cycle or a bigint (IPC can carry both) is no set of options either.
  }
  if (size > HOUSE_OPTIONS_MAX) return fail('options', { key: 'command.tooLong', params: { n: HOUSE_OPTIONS_MAX } });
  try {
    return pass([readHouseOptions(value, game)]);
  } catch (error) {
    if (!isInputError(error) || error.said === undefined) throw error;
    return fail(error.field, error.said);
  }
}

import { isMultipleOf } from '../chips';
import { InputError } from '../errors';
import { valueParam } from '../messages';
import { isRecord } from '../validate';
import { readCount } from './setup';

/**
 * Chips exchanged at equal value outside a race (chip-race-rules.md): late-found chips (TDA 24C),
 * removed chips found after the race they belong to, and the floor's discretionary colour-up (TDA
 * 25B) of one or more players' removed chips, with a reason. The same arithmetic for both:
 * `floor(count × removed / next)` chips of `next` given, the rest (worth less than one `next`)
 * taken off without compensation. The station records the exchange as given (its `count` of
 * `removed` for chips of `next`); what it gives and the value it removes are read from these
 * numbers here, by the station's screens and by the floor alike, never stored beside them.
 */

export type ChipExchangeReason = 'late-found' | 'discretionary';
export const CHIP_EXCHANGE_REASONS: readonly ChipExchangeReason[] = ['late-found', 'discretionary'];

/** The longest note an exchange keeps (the dealer's or the floor's words, and a player's name). */
export const CHIP_EXCHANGE_NOTE_MAX = 200;

export interface ChipExchange {
  readonly reason: ChipExchangeReason;
  /** The race the late-found chips belong to (`race-N`); null for a discretionary colour-up. */
  readonly raceId: string | null;
  /** The seat whose chips these are, when one player's (null: found on the table, or several players'). */
  readonly seat: number | null;
  /** The removed denomination and the chips of it exchanged. */
  readonly removed: number;
  readonly count: number;
  /** The denomination given for them (a whole multiple of `removed`). */
  readonly next: number;
  /** Why (required for a discretionary colour-up: TDA 25B asks it announced), or what was found where. */
  readonly note: string;
}

export interface ChipExchangeResult {
  /** Chips of `next` given. */
  readonly given: number;
  /** Chips of `removed` taken off without compensation (worth less than one `next` together). */
  readonly lost: number;
  /** The value the exchange adds to the table: 0 or less (−lost × removed). */
  readonly valueDelta: number;
}

/** What an exchange gives: `count` chips of `removed` for whole chips of `next`, the rest taken off. */
export function exchangeAtEqualValue(exchange: Pick<ChipExchange, 'removed' | 'next' | 'count'>): ChipExchangeResult {
  const ratio = exchange.next / exchange.removed;
  const given = Math.floor(exchange.count / ratio);
  const lost = exchange.count - given * ratio;
  return { given, lost, valueDelta: lost === 0 ? 0 : -lost * exchange.removed };
}

const RACE_ID = /^race-[1-9][0-9]{0,8}$/;

/**
 * An exchange as a screen, the journal or the floor hands it over, checked: refuses with the field
 * and a keyed reason (`race.exchange.*`). A late-found exchange names its race; a discretionary one
 * its reason (the note).
 */
export function readChipExchange(input: unknown): ChipExchange {
  if (!isRecord(input)) throw new InputError('exchange', { key: 'race.exchange.notObject', params: { value: valueParam(input) } });
  const reason = input.reason;
  if (!(CHIP_EXCHANGE_REASONS as readonly unknown[]).includes(reason)) {
    throw new InputError('reason', { key: 'race.setup.unknownOption', params: { value: valueParam(reason), options: CHIP_EXCHANGE_REASONS.join(', ') } });
  }
  const removed = readCount(input.removed, 'removed', 1, { key: 'race.setup.what.removed' });
  const next = readCount(input.next, 'next', 1, { key: 'race.setup.what.next' });
  if (next <= removed) throw new InputError('next', { key: 'race.setup.nextNotLarger', params: { next, removed } });
  if (!isMultipleOf(next, removed)) throw new InputError('next', { key: 'race.setup.nextNotMultiple', params: { next, removed } });
  const count = readCount(input.count, 'count', 1, { key: 'race.exchange.what.count', params: { removed } });
  const seat = input.seat === undefined || input.seat === null ? null : readCount(input.seat, 'seat', 1, { key: 'race.setup.what.seat' });
  const note = input.note ?? '';
  if (typeof note !== 'string') throw new InputError('note', { key: 'race.exchange.noteNotText', params: { value: valueParam(note) } });
  const said = note.trim();
  if (said.length > CHIP_EXCHANGE_NOTE_MAX) throw new InputError('note', { key: 'race.exchange.noteTooLong', params: { max: CHIP_EXCHANGE_NOTE_MAX } });
  let raceId: string | null = null;
  if (reason === 'late-found') {
    if (typeof input.raceId !== 'string' || !RACE_ID.test(input.raceId)) throw new InputError('raceId', { key: 'race.exchange.raceNeeded', params: { value: valueParam(input.raceId) } });
    raceId = input.raceId;
  } else if (said === '') {
    throw new InputError('note', { key: 'race.exchange.reasonNeeded' });
  }
  return { reason: reason as ChipExchangeReason, raceId, seat, removed, count, next, note: said };
}

import { exchangeAtEqualValue, readChipExchange, type ChipExchange } from '../engine/race/exchange';
import type { JournalLine } from '../journal/read';
import type { ChipExchangeNote, ChipExchangesView } from '../protocol/contract';
import type { FollowerCheckpoint, JournalFollower } from './follower';

/**
 * The journal's record of chips exchanged outside a race (engine/race/exchange.ts): late-found
 * chips against the race they belong to (TDA 24C), a discretionary colour-up (TDA 25B). Written by
 * the station as the dealer or the floor person recorded it; it changes no race: the station's
 * screens and exports list it, and the floor's fold adds it to the table's chips for the break
 * marked before it (the runner's sheet and the reconciliation). What it gives is never stored: it
 * is read from the numbers with exchangeAtEqualValue, by each reader alike.
 */
export type ChipExchangeRecord = { readonly kind: 'chip-exchange' } & ChipExchange;

export const CHIP_EXCHANGE_KIND = 'chip-exchange';

/** Whether `value` is a chip-exchange record exactly as the station writes it (every field checked by the engine's reader). */
export function isChipExchangeRecord(value: unknown): value is ChipExchangeRecord {
  if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== CHIP_EXCHANGE_KIND) return false;
  try {
    const read = readChipExchange(value);
    const { kind: _kind, ...rest } = value as Record<string, unknown>;
    return JSON.stringify(Object.keys(rest).sort()) === JSON.stringify(Object.keys(read).sort()) && Object.entries(read).every(([key, field]) => rest[key] === field);
  } catch {
    return false;
  }
}

/** The record the station journals for an exchange read by readChipExchange. */
export function chipExchangeRecord(exchange: ChipExchange): ChipExchangeRecord {
  return { kind: CHIP_EXCHANGE_KIND, ...exchange };
}

/** An exchange as the journal holds it: its numbers, its record and when it was written (what it gives is not kept). */
export interface RecordedExchange {
  readonly seq: number;
  readonly at: string;
  readonly exchange: ChipExchange;
}

/** An exchange as the screens and the exports show it: what it gives read from its numbers now. */
export function exchangeNote({ seq, at, exchange }: RecordedExchange): ChipExchangeNote {
  return { ...exchange, ...exchangeAtEqualValue(exchange), seq, at };
}

/** The exchanges as the state carries them: each with what it gives, and the value they took off in all. */
export function chipExchangesView(recorded: readonly RecordedExchange[]): ChipExchangesView {
  const exchanges = recorded.map(exchangeNote);
  return { exchanges, valueDelta: exchanges.reduce((sum, note) => sum + note.valueDelta, 0) };
}

/** A checkpoint's entry read back: refused (the start then replays the whole journal) unless it is one `add` keeps. */
function readRecorded(value: unknown): RecordedExchange {
  const { seq, at, exchange } = (value ?? {}) as Partial<Record<keyof RecordedExchange, unknown>>;
  if (!Number.isSafeInteger(seq) || typeof at !== 'string') throw new Error('chip exchanges: an entry without its record and time');
  return { seq: seq as number, at, exchange: readChipExchange(exchange) };
}

/**
 * The chips the station exchanged outside a race, from its journal (replay/chipExchange.ts):
 * late-found chips against the race they belong to, colour-ups of a player at a break. The state
 * lists them (the break's screens), the record slip and the history exports a race's late-found
 * ones. What each gives is read from its numbers when shown (exchangeAtEqualValue), never kept.
 */
export class ChipExchanges implements JournalFollower {
  readonly kinds: readonly string[] = [CHIP_EXCHANGE_KIND];
  private recorded: RecordedExchange[] = [];
  private shown: ChipExchangesView | null = null;

  readonly checkpoint: FollowerCheckpoint = {
    name: 'chipExchanges',
    snapshot: () => [...this.recorded],
    restore: (state) => {
      if (!Array.isArray(state)) throw new Error('chip exchanges: not a list of exchanges');
      this.recorded = state.map(readRecorded);
      this.shown = null;
    },
  };

  add(line: JournalLine<unknown>): void {
    const record = line.record;
    if (!isChipExchangeRecord(record)) return;
    const { kind: _kind, ...exchange } = record;
    // In place (a batch of the floor's fold may hold thousands): the snapshot is a copy.
    this.recorded.push({ seq: line.seq, at: line.at, exchange });
    this.shown = null;
  }

  /** The late-found chips of a race, oldest first, each with what it gives. */
  forRace(raceId: string): readonly ChipExchangeNote[] {
    return this.recorded.filter(({ exchange }) => exchange.reason === 'late-found' && exchange.raceId === raceId).map(exchangeNote);
  }

  /** What the state carries: the same object until an exchange is journaled. */
  get view(): ChipExchangesView {
    this.shown ??= chipExchangesView(this.recorded);
    return this.shown;
  }
}

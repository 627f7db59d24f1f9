import { readChipExchange, type ChipExchange } from '../engine/race/exchange';

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

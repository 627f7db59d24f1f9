import { readClockEvent, type ClockEvent } from '../engine/clock/clock';

/** A command of the station's own clock, given the service's time. */
export type ClockRecord = { readonly kind: 'clock'; readonly event: ClockEvent };

export function isClockRecord(value: unknown): value is ClockRecord {
  if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== 'clock') return false;
  const record = value as Record<string, unknown>;
  if (Object.keys(record).some((key) => key !== 'kind' && key !== 'event')) return false;
  try {
    readClockEvent(record.event);
    return true;
  } catch {
    return false;
  }
}

import type { ShoeEvent } from '../events';
import { seatOfReader, type ReaderSeats } from '../profile';

/**
 * The JSON line for one event, fields in a fixed order; a field that is not set is left out
 * (`suspect` appears only as `"suspect":true`, `reader` only when the device names one, `seat` only
 * when the profile's `readers` puts that reader under a seat, `noise` only on the two noise-flag
 * status lines).
 */
export function eventLine(event: ShoeEvent, readers?: ReaderSeats): string {
  switch (event.type) {
    case 'card':
      return JSON.stringify({ type: 'card', card: event.card, raw: event.raw, reader: event.reader, seat: seatOfReader(readers, event.reader) ?? undefined, suspect: event.suspect });
    case 'unknown':
      return JSON.stringify({ type: 'unknown', raw: event.raw, reason: event.reason });
    case 'device':
      return JSON.stringify({ type: 'device', message: event.message, raw: event.raw, suspect: event.suspect });
    case 'status':
      return JSON.stringify({ type: 'status', state: event.state, code: event.code, noise: event.noise, message: event.message });
  }
}

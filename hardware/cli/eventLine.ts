import type { ShoeEvent } from '../events';

/**
 * The JSON line for one event, fields in a fixed order; a field that is not set is left out
 * (`suspect` appears only as `"suspect":true`, `reader` only when the device names one, `noise` only
 * on the two noise-flag status lines).
 */
export function eventLine(event: ShoeEvent): string {
  switch (event.type) {
    case 'card':
      return JSON.stringify({ type: 'card', card: event.card, raw: event.raw, reader: event.reader, suspect: event.suspect });
    case 'unknown':
      return JSON.stringify({ type: 'unknown', raw: event.raw, reason: event.reason });
    case 'device':
      return JSON.stringify({ type: 'device', message: event.message, raw: event.raw, suspect: event.suspect });
    case 'status':
      return JSON.stringify({ type: 'status', state: event.state, code: event.code, noise: event.noise, message: event.message });
  }
}

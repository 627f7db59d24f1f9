import type { Card } from '../engine/cards';
import type { DeviceProfile } from './profile';
import { cardText, wrapMessage, type FramingConfig } from './registry';

/** The Code ID a simulated scanner sends (Honeywell's for Code 128) when its profile has `codeId`. */
export const SIMULATED_CODE_ID = 'j';

export { cardText } from './registry';

/** Wraps one message in the profile's framing (each framing's own `wrap`). Silence framing adds nothing: the sender pauses instead. */
export function framed(payload: string, framing: FramingConfig, lineEnding = '\r\n'): Buffer {
  return wrapMessage(Buffer.from(payload, 'utf8'), framing, lineEnding);
}

/** Any text the device sends (a card's, a device message such as EMPTY), with its Code ID when it sends one. */
export function encodeText(text: string, profile: DeviceProfile): Buffer {
  return framed(`${profile.codeId ? SIMULATED_CODE_ID : ''}${text}`, profile.framing);
}

export function encodeCard(card: Card, profile: DeviceProfile): Buffer {
  return encodeText(cardText(card, profile.decoder), profile);
}

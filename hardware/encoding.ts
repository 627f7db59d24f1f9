import { formatCard, type Card } from '../engine/cards';
import { InputError } from '../engine/errors';
import { indexOfCard } from './decoding/indexed';
import { uidText } from './decoding/uid';
import { checksumBytes, ETX, STX } from './framing/stxEtx';
import type { DeviceProfile } from './profile';
import type { DecoderConfig, FramingConfig } from './registry';

/** The Code ID a simulated scanner sends (Honeywell's for Code 128) when its profile has `codeId`. */
export const SIMULATED_CODE_ID = 'j';

/** The text a device of this decoder kind sends for a card: what the simulated shoe writes. */
export function cardText(card: Card, decoder: DecoderConfig): string {
  switch (decoder.kind) {
    case 'text': {
      const code = formatCard(card, 'code');
      return decoder.aceAsOne === true && card[0] === 'A' ? `1${code.slice(1)}` : code;
    }
    case 'suit-number': {
      const rank = card[0] === 'A' ? 1 : '23456789TJQK'.indexOf(card[0] as string) + 2;
      return `${(card[1] as string).toUpperCase()}${String(rank).padStart(2, '0')}`;
    }
    case 'index':
      return String(indexOfCard(card, decoder));
    case 'uid': {
      if (decoder.pattern !== undefined) throw new InputError('decoder.pattern', 'a reader pattern only reads tags; simulate the reader without its pattern');
      const uid = Object.entries(decoder.cards ?? {}).find(([, mapped]) => mapped === card)?.[0];
      if (uid === undefined) throw new InputError('decoder.cards', `no tag is registered for ${card}`);
      return uidText(uid, decoder.uidBytes);
    }
    case 'pattern':
      throw new InputError('decoder', 'a vendor pattern only reads cards; simulate its shoe with another format');
  }
}

/** Wraps one message in the profile's framing. Silence framing adds nothing: the sender pauses instead. */
export function framed(payload: string, framing: FramingConfig, lineEnding = '\r\n'): Buffer {
  const data = Buffer.from(payload, 'utf8');
  if (framing.kind === 'lines') return Buffer.concat([data, Buffer.from(lineEnding)]);
  if (framing.kind === 'silence') return data;
  const checksum = checksumBytes(framing.checksum, data, { includesStx: framing.checksumIncludesStx === true });
  return Buffer.concat([Buffer.from([STX]), data, Buffer.from([ETX]), checksum]);
}

/** Any text the device sends (a card's, a device message such as EMPTY), with its Code ID when it sends one. */
export function encodeText(text: string, profile: DeviceProfile): Buffer {
  return framed(`${profile.codeId ? SIMULATED_CODE_ID : ''}${text}`, profile.framing);
}

export function encodeCard(card: Card, profile: DeviceProfile): Buffer {
  return encodeText(cardText(card, profile.decoder), profile);
}

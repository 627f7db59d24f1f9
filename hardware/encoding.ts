import { formatCard, type Card } from '../engine/cards';
import { InputError } from '../engine/errors';
import { indexOfCard } from './decoding/indexed';
import { checksumOf, ETX, STX } from './framing/stxEtx';
import type { DecoderConfig, DeviceProfile, FramingConfig } from './profile';

/** The text a device of this decoder kind sends for a card: what the simulated shoe writes. */
export function cardText(card: Card, decoder: DecoderConfig): string {
  switch (decoder.kind) {
    case 'text':
      return formatCard(card, 'code');
    case 'suit-number': {
      const rank = card[0] === 'A' ? 1 : '23456789TJQK'.indexOf(card[0] as string) + 2;
      return `${(card[1] as string).toUpperCase()}${String(rank).padStart(2, '0')}`;
    }
    case 'index':
      return String(indexOfCard(card, decoder));
    case 'uid': {
      const uid = Object.entries(decoder.cards ?? {}).find(([, mapped]) => mapped === card)?.[0];
      if (uid === undefined) throw new InputError('decoder.cards', `no tag is registered for ${card}`);
      return uid;
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
  const head = Buffer.concat([Buffer.from([STX]), data, Buffer.from([ETX])]);
  return framing.checksum === 'none' ? head : Buffer.concat([head, Buffer.from([checksumOf(framing.checksum, data)])]);
}

export function encodeCard(card: Card, profile: DeviceProfile): Buffer {
  return framed(cardText(card, profile.decoder), profile.framing);
}

import type { Card } from '../engine/cards';
import { englishText, type Message } from '../engine/messages';

export const STATUS_STATES = ['connecting', 'connected', 'disconnected', 'reconnecting', 'error'] as const;
export type StatusState = (typeof STATUS_STATES)[number];

/** Why a port is in trouble; the screen translates the code, the command line prints `message`. */
export type StatusCode =
  | 'no-such-port'
  | 'permission-denied'
  | 'port-busy'
  | 'wrong-baud'
  | 'unplugged'
  | 'open-failed'
  | 'io-error';

export const DEVICE_MESSAGES = ['shoe-empty', 'new-shoe'] as const;
export type DeviceMessage = (typeof DEVICE_MESSAGES)[number];

/**
 * The one normalised stream every card source produces. A frame that does not decode becomes
 * `unknown` with its raw text: never dropped, never guessed into a card.
 */
export type ShoeEvent =
  | {
      readonly type: 'card';
      readonly card: Card;
      readonly raw: string;
      /** The reader or antenna that read it, when the device names one (a uid decoder's `reader` group). Absent otherwise. */
      readonly reader?: string;
      /** Decoded while the line was flagged as noise: not to be dealt without the dealer's say. Absent otherwise. */
      readonly suspect?: true;
    }
  /** `said`: why it is no card, in keys (the screens say it in the dealer's language); `reason`: its English, for the command line and the journal. */
  | { readonly type: 'unknown'; readonly raw: string; readonly reason: string; readonly said: Message }
  | {
      readonly type: 'device';
      readonly message: DeviceMessage;
      readonly raw: string;
      /** Decoded while the line was flagged as noise (a random "NEW" must not reset a shoe): not to be acted on without the dealer's say. Absent otherwise. */
      readonly suspect?: true;
    }
  | {
      readonly type: 'status';
      readonly state: StatusState;
      readonly code?: StatusCode;
      /** What the port says of itself, in English (the command line prints it); `said` is the same in keys, for the screens. */
      readonly message?: string;
      readonly said?: Message;
      /**
       * Set only on the two status events of the noise flag (see FrameDecoder in pipeline.ts):
       * `flagged` on the wrong-baud warning that raises it (from then on cards and device messages
       * are `suspect`), `cleared` on the `connected` status that lowers it. A `connected` status
       * with `noise: 'cleared'` is the line turning clean again, not a (re)connection.
       */
      readonly noise?: NoiseChange;
    };

/** How the noise flag of a connection changed: see the `noise` field of a status event. */
export type NoiseChange = 'flagged' | 'cleared';

/** Raw bytes as text a person can read in a log: printable ASCII as is, anything else as \xNN. */
export function printableRaw(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) {
    text += byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return text;
}

/** A frame that is no card, and why: its reason in keys and in English. */
export function unknownEvent(raw: string, said: Message): Extract<ShoeEvent, { type: 'unknown' }> {
  return { type: 'unknown', raw, reason: englishText(said), said };
}

/** What a status says, in keys and in English (`message`), as the status event carries both. */
export function statusSaid(said: Message): { readonly message: string; readonly said: Message } {
  return { message: englishText(said), said };
}

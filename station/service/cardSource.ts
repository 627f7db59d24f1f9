import type { Decoder } from '../../hardware/decoding/decoder';
import type { ShoeEvent } from '../../hardware/events';
import type { DeviceProfile } from '../../hardware/profile';
import type { ConsoleSettings } from '../../protocol/contract';

/**
 * Where cards come from besides the keyboard: a serial shoe, the simulated shoe, or anything that
 * emits shoe events. The service only opens and stops one; cards come back through `emit`, and
 * nothing flows the other way (a source that deals on demand asks through a ShoeDemand port).
 */
export interface CardSource {
  stop(): Promise<void>;
}

/** What a card source is opened with: the port, the device profile in force, and (registering a deck) the decoder to use. */
export interface CardSourceRequest {
  readonly kind: ConsoleSettings['source']['kind'];
  readonly path: string;
  readonly profile: DeviceProfile;
  readonly decoder?: Decoder;
}

/** `onRepeat`: told of each read the profile's repeat window dropped (no event comes for it), for reader health. */
export type CardSourceFactory = (request: CardSourceRequest, emit: (event: ShoeEvent) => void, onRepeat?: () => void) => CardSource | null;

/**
 * A race waiting for a card, as a shoe that deals on demand needs to know it. The port hands out
 * the same object while the race stays as it is and a new one after every change (a card taken or
 * refused, a void): such a shoe deals at most one card per demand, never a second one on top of a
 * card still on its way.
 */
export interface ShoeDemand {
  readonly raceId: string;
  /** The seat the next card goes to. */
  readonly seat: number;
}

/**
 * The narrow port a shoe that deals on demand is given (the simulated shoe): what the open race
 * awaits now, or null when no race waits for a card. The shoe asks; the service never tells it.
 */
export type AwaitedCard = () => ShoeDemand | null;

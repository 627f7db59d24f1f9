import type { Decoder } from '../../hardware/decoding/decoder';
import type { Message } from '../../engine/messages';
import type { CommandResult } from '../../protocol/contract';
import { refused } from './failures';

/**
 * What the card reader's reads are for, one mode at a time: dealt to the open race or game
 * (`dealing`), a deck's tags registered into a profile (`registering`, the source opened on the
 * registration's decoder), the antennas mapped to seats (`mapping`), or the port listened to for
 * the reader's settings (`detecting`, the card source closed meanwhile).
 */
export type ReaderMode =
  | { readonly kind: 'dealing' }
  | { readonly kind: 'registering'; readonly decoder: Decoder }
  | { readonly kind: 'mapping' }
  | { readonly kind: 'detecting' };

export type ReaderModeKind = ReaderMode['kind'];

export const DEALING: ReaderMode = { kind: 'dealing' };

/** The one set-up under way, as a refusal says it (and the field the screens mark by default). */
const BUSY: Readonly<Record<Exclude<ReaderModeKind, 'dealing'>, { readonly field: string; readonly said: Message }>> = {
  registering: { field: 'registration', said: { key: 'service.registering' } },
  mapping: { field: 'seatMapping', said: { key: 'service.seatMap.mapping' } },
  detecting: { field: 'detection', said: { key: 'service.detecting' } },
};

/** Why the reader is busy in `mode` (null while dealing): `field` names the field refused, else the mode's own. */
export function busyRefusal(mode: ReaderMode, field?: string): CommandResult<never> | null {
  if (mode.kind === 'dealing') return null;
  const busy = BUSY[mode.kind];
  return refused(field ?? busy.field, busy.said);
}

/** Why `kind` may not be entered from `mode` (null: it may): from dealing, or the same mode again (a registration or a mapping started afresh), it may; another set-up under way refuses it. */
export function refusalToEnter(mode: ReaderMode, kind: ReaderModeKind, field?: string): CommandResult<never> | null {
  return mode.kind === kind ? null : busyRefusal(mode, field);
}

/** The transition to `next`: the mode entered, or the mode as it was and why not. */
export function enterMode(mode: ReaderMode, next: ReaderMode): { readonly mode: ReaderMode; readonly refusal: CommandResult<never> | null } {
  const refusal = refusalToEnter(mode, next.kind);
  return refusal === null ? { mode: next, refusal } : { mode, refusal };
}

/** The set-up `kind` ends: back to dealing, or the mode as it was when another is under way. */
export function leaveMode(mode: ReaderMode, kind: ReaderModeKind): ReaderMode {
  return mode.kind === kind ? DEALING : mode;
}

/**
 * The card reader's one session: its mode, and the one place it changes. The card inputs, the
 * profile commands, the reader's detection and the settings consult it rather than each other.
 */
export class ReaderSession {
  private current: ReaderMode = DEALING;

  get mode(): ReaderMode {
    return this.current;
  }

  is(kind: ReaderModeKind): boolean {
    return this.current.kind === kind;
  }

  /** The decoder the source is opened on while a deck is registered, else null. */
  get registrationDecoder(): Decoder | null {
    return this.current.kind === 'registering' ? this.current.decoder : null;
  }

  /** Why `kind` may not be entered now (the refused field `field`, else the busy mode's own), or null. */
  refusalToEnter(kind: ReaderModeKind, field?: string): CommandResult<never> | null {
    return refusalToEnter(this.current, kind, field);
  }

  /** Enters `next`, or says why not (nothing changes then). */
  enter(next: ReaderMode): CommandResult<never> | null {
    const { mode, refusal } = enterMode(this.current, next);
    this.current = mode;
    return refusal;
  }

  leave(kind: ReaderModeKind): void {
    this.current = leaveMode(this.current, kind);
  }

  /** Why nothing needing the reader's reads may start now (a race, a game, a change of the source), or null while dealing. */
  busy(field?: string): CommandResult<never> | null {
    return busyRefusal(this.current, field);
  }
}

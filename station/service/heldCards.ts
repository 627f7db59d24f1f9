import { englishText, type Message } from '../../engine/messages';
import { seatOfReader } from '../../hardware/profile';
import type { CommandResult, HeldCard, InputSource, ShoeRefusal } from '../../protocol/contract';
import type { Session } from '../../replay/session';
import { ok, refused } from './failures';
import type { Kernel } from './kernel';
import { effectiveProfile, type ProfileStore } from './profiles';
import { refusalFor, refusalTarget, type RefusalRuns } from './refusalRuns';
import type { StationSettings } from './stationSettings';

/** The most cards read from noise held for the dealer's say at once; more are refused (kept on record as one run). */
export const MAX_HELD_CARDS = 10;
/** A held card the dealer discarded, as its refusal record says it (in keys, and its English). */
export const HELD_DISCARD_SAID: Message = { key: 'service.held.discarded' };
export const HELD_DISCARD_REASON = englishText(HELD_DISCARD_SAID);

/** How a held card was taken, as the race's record keeps it: `true`, or read at another seat's antenna (`readAt`). */
export type HeldTaken = boolean | { readonly readAt: number };

/** A card read at one seat's antenna while the deal is at another (the profile's `readers`, issue 26). */
export interface WrongSeat {
  /** The seat whose antenna read it. */
  readonly readAt: number;
  /** The seat the deal is at. */
  readonly seat: number;
}

/** What the held cards need of the rest of the console. */
export interface HeldCardHooks {
  session(): Session;
  /** A card to whatever `target` names (the open race or game). */
  deal(target: string, code: string, source: InputSource, held?: HeldTaken): Promise<CommandResult>;
  /** A held card the race or game refused when dealt: shown with why (the card inputs' shoe refusal). */
  shoeRefused(refusal: ShoeRefusal): void;
  /** A card held for the dealer's say for the reader's fault (noise, another seat's antenna): counted in its health. */
  heldForReader(): void;
}

/**
 * The cards held for the dealer's say: one read while the line is noisy or at another seat's
 * antenna, and the clean ones queued behind it, in the order they came; taken or discarded first
 * one first, and gone on record as refused when their race or game ends.
 */
export class HeldCards {
  private held: readonly HeldCard[] = [];
  private heldCount = 0;

  constructor(
    private readonly kernel: Kernel,
    private readonly refusals: RefusalRuns,
    private readonly settings: StationSettings,
    private readonly profiles: ProfileStore,
    private readonly hooks: HeldCardHooks,
  ) {}

  /** The held cards, as the state carries them. */
  get view(): readonly HeldCard[] {
    return this.held;
  }

  /** How many wait. */
  get length(): number {
    return this.held.length;
  }

  /** How many wait for being read from noise (MAX_HELD_CARDS at most). */
  get fromNoise(): number {
    return this.held.filter((waiting) => waiting.why === 'noise').length;
  }

  /** The first held card, if it is the one the screen names. */
  private firstHeld(target: string, heldId: number): HeldCard | CommandResult<never> {
    const first = this.held[0];
    if (first === undefined) return refused('held', { key: 'service.held.none' });
    if (first.id !== heldId || first.target !== target) return refused('held', { key: 'service.held.notFirst' });
    return first;
  }

  takeHeldCard(target: string, heldId: number): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const first = this.firstHeld(target, heldId);
      if ('ok' in first) return first;
      // Read at another seat's antenna (held for that, or for noise and only now taken): the record says where it was read.
      const readAt = first.why === 'seat' ? first.readAt : this.wrongSeat(first.target, first.reader)?.readAt;
      const result = await this.dealHeld(first, readAt === undefined ? true : { readAt });
      if (!result.ok) this.hooks.shoeRefused({ card: first.card, ...result.error });
      await this.releaseQueued();
      this.kernel.publish();
      return result;
    });
  }

  discardHeldCard(target: string, heldId: number): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const first = this.firstHeld(target, heldId);
      if ('ok' in first) return first;
      // A held card waits only for the race or game open (dropStaleHeld): it names one.
      const waitsFor = refusalTarget(this.hooks.session(), first.target);
      const said = first.why === 'seat' ? this.seatDiscardSaid(first) : HELD_DISCARD_SAID;
      if (waitsFor !== null) await this.refusals.refuse(refusalFor(waitsFor, first.card, englishText(said), 'shoe', said));
      this.held = this.held.slice(1);
      await this.releaseQueued();
      this.kernel.publish();
      return ok(null);
    });
  }

  /** A card held as read at another seat's antenna, discarded: its refusal as the record says it. */
  private seatDiscardSaid(card: HeldCard): Message {
    const seat = this.hooks.session().race?.state.progress.awaiting?.seat ?? card.seat;
    return { key: 'service.seatMap.discarded', params: { readAt: card.readAt ?? 0, seat: seat ?? 0 } };
  }

  /**
   * Where a card becomes held for the dealer's say: the one place (a new hold, or a queued card
   * found read at another seat's antenna when its turn comes). `replacing`: the queued card it was.
   */
  hold(card: Omit<HeldCard, 'id'>, replacing?: HeldCard): HeldCard {
    let made: HeldCard;
    if (replacing === undefined) {
      this.heldCount += 1;
      made = { id: this.heldCount, ...card };
      this.held = [...this.held, made];
    } else {
      made = { ...card, id: replacing.id };
      this.held = this.held.map((waiting) => (waiting === replacing ? made : waiting));
    }
    // Counted in the reader's health: a card only waiting behind another (`queued`) is no fault of the reader.
    if (made.why !== 'queued') this.hooks.heldForReader();
    return made;
  }

  /**
   * A card read at one seat's antenna while the race's deal is at another (the source profile's
   * `readers`): where it was read and where the deal is. Null when it goes to the seat dealt to:
   * read there, no reader named, no seat map, a reader the map does not name, no race dealing.
   */
  wrongSeat(target: string, reader: string | undefined): WrongSeat | null {
    const { source } = this.settings.current;
    if (source.kind !== 'serial' || reader === undefined) return null;
    const readAt = seatOfReader(effectiveProfile(source, this.profiles).readers, reader);
    const race = this.hooks.session().race;
    const seat = race?.id === target ? (race.state.progress.awaiting?.seat ?? null) : null;
    return readAt === null || seat === null || readAt === seat ? null : { readAt, seat };
  }

  /** Clean cards that only waited behind a held one go on, in the order they came; one read at another seat's antenna is held there. */
  private async releaseQueued(): Promise<void> {
    while (this.held[0]?.why === 'queued') {
      const next = this.held[0];
      const wrong = this.wrongSeat(next.target, next.reader);
      if (wrong !== null) {
        this.hold({ ...next, why: 'seat', ...wrong }, next);
        return;
      }
      const result = await this.dealHeld(next, false);
      if (!result.ok) this.hooks.shoeRefused({ card: next.card, ...result.error });
    }
  }

  /**
   * Deals the first held card: it leaves the queue once dealt, or refused by the race (and kept
   * on record as refused). A write the disk refuses leaves it first in the queue, to try again.
   */
  private async dealHeld(card: HeldCard, taken: HeldTaken): Promise<CommandResult> {
    const result = await this.hooks.deal(card.target, card.card, 'shoe', taken);
    this.held = this.held.filter((waiting) => waiting !== card);
    return result;
  }

  /**
   * Cards still waiting when their race or game ends go on record as refused (not decided), so a
   * card the shoe read never vanishes without a trace. Journaled while the race is still open.
   */
  async refuseHeldFor(target: string, kind: 'race' | 'game'): Promise<void> {
    for (const card of this.held.filter((waiting) => waiting.target === target)) {
      const said: Message =
        card.why === 'seat' ? { key: 'service.seatMap.undecided', params: { readAt: card.readAt ?? 0 } } : { key: kind === 'race' ? 'service.held.undecidedRace' : 'service.held.undecidedGame' };
      await this.kernel.save(refusalFor(kind === 'race' ? { raceId: target } : { gameId: target }, card.card, englishText(said), 'shoe', said));
      this.held = this.held.filter((waiting) => waiting !== card);
    }
  }

  /** Held cards wait for the race or game they were read for; once it has ended they go. */
  dropStaleHeld(): void {
    const open = this.hooks.session().race?.id ?? this.hooks.session().game?.id ?? null;
    if (this.held.some((card) => card.target !== open)) this.held = this.held.filter((card) => card.target === open);
  }
}

import { englishText, type Message } from '../../engine/messages';
import type { ShoeEvent } from '../../hardware/events';
import { seatOfReader } from '../../hardware/profile';
import { decodeScan } from '../../hardware/scan';
import { RECENT_INPUTS_MAX, type CommandResult, type HeldCard, type InputSource, type NumberedInput, type ReaderHealthSummary, type ReaderHealthView, type ScanReading, type ShoeRefusal, type SourceStatus } from '../../protocol/contract';
import type { ActiveRace, Session, SessionRecord } from '../../replay/session';
import type { AwaitedCard, CardSource, CardSourceFactory, ShoeDemand } from './cardSource';
import { ok, refused } from './failures';
import type { Kernel } from './kernel';
import type { ProfileCommands } from './profileCommands';
import { effectiveProfile, scannerProfile, type ProfileStore } from './profiles';
import { openRefusalTarget, refusalFor, refusalTarget, type RefusalRuns } from './refusalRuns';
import { simulatedSource } from './simulatedSource';
import type { StationSettings } from './stationSettings';
import { lastOf } from './memo';
import { EMPTY_HEALTH, foldHealth, healthView, recentHealth, tickOf, type HealthState, type HealthTick } from './readerHealth';

/** The most cards read from noise held for the dealer's say at once; more are refused (kept on record as one run). */
export const MAX_HELD_CARDS = 10;
/** A held card the dealer discarded, as its refusal record says it (in keys, and its English). */
export const HELD_DISCARD_SAID: Message = { key: 'service.held.discarded' };
export const HELD_DISCARD_REASON = englishText(HELD_DISCARD_SAID);
/** How often the reader health's verdict is looked at again with no frame coming (a warning is forgotten, and the reader quiet, after an hour with no frame). */
export const HEALTH_REFRESH_MS = 30_000;
/**
 * The reader health's view is made again at most this often, a count in between shown when the time
 * is up: a noisy line reads thousands of frames a second, an RFID reader repeats a tag lying on it
 * many times a second, and the view (4 sources × 24 hours at most) is up to some 9 KB of every patch.
 */
export const HEALTH_VIEW_MS = 1_000;

/** How a held card was taken, as the race's record keeps it: `true`, or read at another seat's antenna (`readAt`). */
export type HeldTaken = boolean | { readonly readAt: number };

/** A card read at one seat's antenna while the deal is at another (the profile's `readers`, issue 26). */
export interface WrongSeat {
  /** The seat whose antenna read it. */
  readonly readAt: number;
  /** The seat the deal is at. */
  readonly seat: number;
}

/** What the card inputs need of the rest of the console. */
export interface CardInputHooks {
  session(): Session;
  /** A card to whatever `target` names (the open race or game). */
  deal(target: string, code: string, source: InputSource, held?: HeldTaken): Promise<CommandResult>;
  /** A reader's settings are being found on the port: the card source is not opened meanwhile. */
  detecting?(): boolean;
}

/**
 * The cards that come in: the card source (the simulated shoe, a serial shoe or reader) and its
 * status, every input numbered for the screens' log, a card read while the line is noisy held for
 * the dealer's say (and the clean ones behind it queued), a keyboard-wedge scan decoded, and a
 * shoe card the race refused shown with why.
 */
export class CardInputs {
  private source: CardSource | null = null;
  private sourceStatus: SourceStatus;
  private lastInput: ShoeEvent | null = null;
  /** The latest inputs, numbered (the screens' input log is built from them by id). */
  private inputs: readonly NumberedInput[] = [];
  private shoeRefusal: ShoeRefusal | null = null;
  private held: readonly HeldCard[] = [];
  private heldCount = 0;
  /** The card sources' health (readerHealth.ts), and its view as the state last carried it. */
  private health: HealthState = EMPTY_HEALTH;
  private healthShown: ReaderHealthView = { current: null, sources: [] };
  private healthTimer: NodeJS.Timeout | undefined;
  /** When the view was last made (this computer's clock), and the timer that makes it once HEALTH_VIEW_MS is up. */
  private healthViewAt = Number.NEGATIVE_INFINITY;
  private healthPending: NodeJS.Timeout | undefined;

  constructor(
    private readonly kernel: Kernel,
    private readonly refusals: RefusalRuns,
    private readonly settings: StationSettings,
    private readonly profiles: ProfileStore,
    private readonly registration: ProfileCommands,
    private readonly options: { readonly clock?: () => Date; readonly cardSources?: CardSourceFactory; readonly simulatedCardMs?: number },
    private readonly hooks: CardInputHooks,
  ) {
    const { source } = settings.current;
    this.sourceStatus = { kind: source.kind, path: source.path, state: 'idle' };
  }

  /** The card sources' frames counted per hour and the verdict on the last frames (protocol/readerHealth.ts). */
  get readerHealth(): ReaderHealthView {
    return this.healthShown;
  }

  /** The card source in use's verdict on its last frames, as the floor is told of it; null for manual entry. */
  get floorHealth(): ReaderHealthSummary | null {
    const source = this.sourceName;
    return source === null ? null : recentHealth(this.health, source, this.nowMs);
  }

  /** The card source in use as reader health names it: `serial /dev/ttyUSB0`, `simulator`; null for manual entry or no port. */
  private get sourceName(): string | null {
    const { kind, path } = this.settings.current.source;
    if (kind === 'simulator') return 'simulator';
    return kind === 'serial' && path !== '' ? `serial ${path}` : null;
  }

  private get nowMs(): number {
    return (this.options.clock?.() ?? new Date()).getTime();
  }

  /**
   * Counts one thing of the card source in use for its health. The view is made again now when
   * HEALTH_VIEW_MS has passed since the last (true: the caller publishes), else once it has (published then).
   */
  countHealth(tick: HealthTick): boolean {
    const source = this.sourceName;
    if (source === null) return false;
    this.health = foldHealth(this.health, source, tick, this.nowMs);
    const wait = this.healthViewAt + HEALTH_VIEW_MS - Date.now();
    if (wait <= 0) {
      this.healthViewAt = Date.now();
      this.healthShown = healthView(this.health, source, this.nowMs);
      return true;
    }
    if (this.healthPending === undefined) {
      this.healthPending = setTimeout(() => {
        this.healthPending = undefined;
        this.healthViewAt = Date.now();
        this.healthShown = healthView(this.health, this.sourceName, this.nowMs);
        this.kernel.publish();
      }, wait);
      this.healthPending.unref();
    }
    return false;
  }

  /** The verdict looked at again with time gone by: published only when the view changed. */
  private refreshHealth(): void {
    const next = healthView(this.health, this.sourceName, this.nowMs);
    if (JSON.stringify(next) === JSON.stringify(this.healthShown)) return;
    this.healthShown = next;
    this.kernel.publish();
  }

  /** A read the repeat window dropped (no event comes for it): counted. */
  private repeated(): void {
    if (this.countHealth('repeat')) this.kernel.publish();
  }

  /** What the state carries of the inputs. */
  get view(): { readonly source: SourceStatus; readonly lastInput: ShoeEvent | null; readonly inputs: readonly NumberedInput[]; readonly shoeRefusal: ShoeRefusal | null; readonly held: readonly HeldCard[] } {
    return { source: this.sourceStatus, lastInput: this.lastInput, inputs: this.inputs, shoeRefusal: this.shoeRefusal, held: this.held };
  }

  /** A command's record was accepted: an earlier refusal of a shoe card no longer stands; a race begins afresh (the last input was before it); held cards of an ended race or game go. */
  committed(record: SessionRecord): void {
    this.shoeRefusal = null;
    if (record.kind === 'race-start') this.lastInput = null;
    this.dropStaleHeld();
  }

  /** What the open race awaits, for the simulated shoe: a new demand after every change of the race (session.race is a new object then). */
  private readonly demandOf = lastOf((race: ActiveRace | null): ShoeDemand | null => {
    const awaiting = race?.state.progress.awaiting ?? null;
    return race === null || awaiting === null ? null : { raceId: race.id, seat: awaiting.seat };
  });
  private readonly awaited: AwaitedCard = () => this.demandOf(this.hooks.session().race);
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
      if (!result.ok) this.shoeRefusal = { card: first.card, ...result.error };
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
  private hold(card: Omit<HeldCard, 'id'>, replacing?: HeldCard): HeldCard {
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
    if (made.why !== 'queued') this.countHealth('held');
    return made;
  }

  /**
   * A card read at one seat's antenna while the race's deal is at another (the source profile's
   * `readers`): where it was read and where the deal is. Null when it goes to the seat dealt to:
   * read there, no reader named, no seat map, a reader the map does not name, no race dealing.
   */
  private wrongSeat(target: string, reader: string | undefined): WrongSeat | null {
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
      if (!result.ok) this.shoeRefusal = { card: next.card, ...result.error };
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

  /**
   * A keyboard-wedge scan: the text decoded by the scanner's own profile (hardware's decodeScan),
   * whatever the shoe's, then dealt like a shoe's card. Text that is no card is refused with the
   * decoder's reason and kept on record; a card the race refuses is refused naming the card it was
   * read as (`card`), so the screens call it what this profile decoded.
   */
  dealScan(target: string, raw: string): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const profile = scannerProfile(this.settings.current.source, this.profiles);
      const read = decodeScan(profile, raw);
      if (read.type === 'card') {
        const result = await this.hooks.deal(target, read.card, 'scanner');
        return result.ok ? result : { ok: false, error: { ...result.error, card: read.card } };
      }
      // The decoder's reason, in keys (hardware/): said inside the refusal and on record.
      const said: Message = read.type === 'unknown' ? read.said : { key: 'service.scan.notACard' };
      const open = refusalTarget(this.hooks.session(), target);
      if (open !== null) await this.refusals.refuse(refusalFor(open, raw, englishText(said), 'scanner', said));
      return refused('scan', { key: 'service.scan.refused', params: { raw: JSON.stringify(raw), reason: { message: said }, decoder: profile.name } });
    });
  }

  /** What a scan reads as by the scanner's profile (as dealScan decodes it), nothing dealt or recorded. */
  readScan(raw: string): Promise<CommandResult<ScanReading>> {
    return this.kernel.serial(async () => {
      const read = decodeScan(scannerProfile(this.settings.current.source, this.profiles), raw);
      return ok({ card: read.type === 'card' ? read.card : null });
    });
  }

  /** Whether the line is flagged as noise (hardware/pipeline.ts): its wrong-baud warning stands until a clean run or a new connection replaces it. */
  private get lineFlagged(): boolean {
    return this.sourceStatus.code === 'wrong-baud';
  }

  /** A shoe event: cards go to the open race like typed ones; everything is shown to the dealer. */
  private handle(event: ShoeEvent): void {
    if (event.type === 'status') {
      // What the port says of itself, in English and in keys (the screens say it in the dealer's language).
      const says = event.message ? { message: event.message, ...(event.said ? { said: event.said } : {}) } : {};
      const { said: _said, ...before } = this.sourceStatus;
      this.sourceStatus = { ...(event.message ? before : this.sourceStatus), state: event.state, ...(event.code ? { code: event.code } : {}), ...says };
      // Connected again: a trouble code no longer stands; what the port says of itself (its line settings) does.
      if (event.state === 'connected') this.sourceStatus = { kind: this.sourceStatus.kind, path: this.sourceStatus.path, state: 'connected', ...says };
      this.kernel.publish();
      return;
    }
    this.lastInput = event;
    const tick = tickOf(event);
    if (tick !== null) this.countHealth(tick);
    const at = (this.options.clock?.() ?? new Date()).toISOString();
    this.inputs = [...this.inputs, { id: (this.inputs.at(-1)?.id ?? 0) + 1, at, event }].slice(-RECENT_INPUTS_MAX);
    if (this.registration.mappingSeats && (event.type === 'card' || event.type === 'unknown')) {
      void this.kernel.serial(async () => {
        await this.registration.mappedSeat(event);
        return ok(null);
      });
      return;
    }
    if (this.registration.registrationDecoder !== null && (event.type === 'card' || event.type === 'unknown')) {
      void this.kernel.serial(async () => {
        await this.registration.registered(event);
        return ok(null);
      });
      return;
    }
    if (event.type === 'card' && (this.hooks.session().race || this.hooks.session().game)) {
      void this.kernel.serial(async () => {
        // The card goes to what is open when its turn comes (commands run one at a time).
        const target = this.hooks.session().race?.id ?? this.hooks.session().game?.id;
        if (target === undefined) {
          this.kernel.publish();
          return ok(null);
        }
        // Read while the line is flagged as noise, or behind such a card: the dealer decides.
        if (event.suspect === true || this.held.length > 0) {
          // Only cards read from noise are ever refused here: a clean card waits its turn, however many wait.
          if (event.suspect === true && this.held.filter((waiting) => waiting.why === 'noise').length >= MAX_HELD_CARDS) {
            // Noise makes cards by the thousand: a run of them is one record with a count.
            const said: Message = { key: 'service.held.tooMany', params: { n: MAX_HELD_CARDS } };
            const reason = englishText(said);
            await this.refusals.refuse(refusalFor(this.hooks.session().race ? { raceId: target } : { gameId: target }, event.card, reason, 'shoe', said), true);
            this.shoeRefusal = { card: event.card, field: 'card', message: reason, said };
          } else {
            this.hold({ target, card: event.card, raw: event.raw, why: event.suspect === true ? 'noise' : 'queued', ...(event.reader === undefined ? {} : { reader: event.reader }) });
          }
          this.kernel.publish();
          return ok(null);
        }
        // Read at another seat's antenna than the one the deal is at: the dealer decides (issue 26).
        const wrong = this.wrongSeat(target, event.reader);
        if (wrong !== null) {
          this.hold({ target, card: event.card, raw: event.raw, why: 'seat', reader: event.reader as string, ...wrong });
          this.kernel.publish();
          return ok(null);
        }
        // A card refused (or not saved) changes nothing else, so it is published with why: nobody
        // typed it, and the dealer must see that a card came and was not taken.
        const result = await this.hooks.deal(target, event.card, 'shoe');
        if (!result.ok) {
          this.shoeRefusal = { card: event.card, ...result.error };
          this.kernel.publish();
        }
        return result;
      });
    } else if (event.type === 'unknown' && (this.hooks.session().race || this.hooks.session().game)) {
      // A read that is no card, while a card is due: said in the headline as a refused card from the
      // shoe is (issue 24: it was only in the input log, below the fold), and kept on record as a
      // scan that is no card is. Line noise makes such reads by the thousand: while the line is
      // flagged as noise, those of one reason are one refusal with a count, whatever their bytes.
      this.shoeRefusal = { card: event.raw, field: 'card', message: event.reason, said: event.said };
      this.kernel.publish();
      const noisy = this.lineFlagged;
      void this.kernel.serial(async () => {
        // Kept for what is open when its turn comes (commands run one at a time), as a card is dealt.
        const open = openRefusalTarget(this.hooks.session());
        if (open !== null) await this.refusals.refuse(refusalFor(open, event.raw, event.reason, 'shoe', event.said), noisy);
        return ok(null);
      });
    } else {
      this.kernel.publish();
    }
  }

  openSource(): void {
    const { source } = this.settings.current;
    this.sourceStatus = { kind: source.kind, path: source.path, state: 'idle' };
    this.healthShown = healthView(this.health, this.sourceName, this.nowMs);
    clearInterval(this.healthTimer);
    this.healthTimer = setInterval(() => this.refreshHealth(), HEALTH_REFRESH_MS);
    this.healthTimer.unref();
    if (this.hooks.detecting?.() === true) return;
    const emit = (event: ShoeEvent) => this.handle(event);
    const onRepeat = () => this.repeated();
    if (source.kind === 'simulator') this.source = simulatedSource({ emit, awaited: this.awaited, decks: this.settings.current.table.decks, intervalMs: this.options.simulatedCardMs });
    else if (source.kind === 'serial') {
      const request = { kind: source.kind, path: source.path, profile: effectiveProfile(source, this.profiles) };
      const decoder = this.registration.registrationDecoder;
      this.source = this.options.cardSources?.(decoder === null ? request : { ...request, decoder }, emit, onRepeat) ?? null;
    }
    else this.source = null;
  }

  async closeSource(): Promise<void> {
    const source = this.source;
    this.source = null;
    clearInterval(this.healthTimer);
    clearTimeout(this.healthPending);
    this.healthTimer = undefined;
    this.healthPending = undefined;
    await source?.stop();
  }
}

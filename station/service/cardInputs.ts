import { englishText, type Message } from '../../engine/messages';
import type { ShoeEvent } from '../../hardware/events';
import { decodeScan } from '../../hardware/scan';
import { RECENT_INPUTS_MAX, type CommandResult, type HeldCard, type InputSource, type NumberedInput, type ReaderHealthSummary, type ReaderHealthView, type ScanReading, type ShoeRefusal, type SourceStatus } from '../../protocol/contract';
import type { ActiveRace, Session, SessionRecord } from '../../replay/session';
import type { AwaitedCard, CardSource, CardSourceFactory, CardSourceRequest, ShoeDemand } from './cardSource';
import { ok, refused } from './failures';
import { HealthWatch } from './healthWatch';
import { HeldCards, MAX_HELD_CARDS, type HeldTaken } from './heldCards';
import type { Kernel } from './kernel';
import type { ReaderSetUpReads } from './profileCommands';
import { effectiveProfile, scannerProfile, type ProfileStore } from './profiles';
import type { ReaderSession } from './readerMode';
import { openRefusalTarget, refusalFor, refusalTarget, type RefusalRuns } from './refusalRuns';
import { simulatedSource } from './simulatedSource';
import type { StationSettings } from './stationSettings';
import { lastOf } from './memo';
import { tickOf, type HealthTick } from './readerHealth';

// The held-card queue (heldCards.ts) and the reader's health (healthWatch.ts), as they were named here.
export { HELD_DISCARD_REASON, HELD_DISCARD_SAID, MAX_HELD_CARDS, type HeldTaken, type WrongSeat } from './heldCards';
export { HEALTH_REFRESH_MS, HEALTH_VIEW_MS } from './healthWatch';

/** What the card inputs need of the rest of the console. */
export interface CardInputHooks {
  session(): Session;
  /** A card to whatever `target` names (the open race or game). */
  deal(target: string, code: string, source: InputSource, held?: HeldTaken): Promise<CommandResult>;
}

/** What the card inputs are wired to: the station's core, and the card reader's one session. */
export interface CardInputPorts {
  readonly kernel: Kernel;
  readonly refusals: RefusalRuns;
  readonly settings: StationSettings;
  readonly profiles: ProfileStore;
  /** The card reader's mode: what a read is for (dealt, a deck's tag, an antenna's seat), and whether the port is left to the detection. */
  readonly reader: ReaderSession;
  /** Where a read goes while a deck is registered or the antennas mapped. */
  readonly setUpReads: ReaderSetUpReads;
}

/**
 * The cards that come in: the card source (the simulated shoe, a serial shoe or reader) and its
 * status, every input numbered for the screens' log, a card read while the line is noisy held for
 * the dealer's say (heldCards.ts), a keyboard-wedge scan decoded, and a shoe card the race refused
 * shown with why.
 */
export class CardInputs {
  private source: CardSource | null = null;
  private sourceStatus: SourceStatus;
  private lastInput: ShoeEvent | null = null;
  /** The latest inputs, numbered (the screens' input log is built from them by id). */
  private inputs: readonly NumberedInput[] = [];
  private shoeRefusal: ShoeRefusal | null = null;
  /** The cards held for the dealer's say. */
  private readonly held: HeldCards;
  /** The card sources' health. */
  private readonly health: HealthWatch;
  private readonly kernel: Kernel;
  private readonly settings: StationSettings;

  constructor(
    private readonly ports: CardInputPorts,
    private readonly options: { readonly clock?: () => Date; readonly cardSources?: CardSourceFactory; readonly simulatedCardMs?: number },
    private readonly hooks: CardInputHooks,
  ) {
    const { kernel, refusals, settings, profiles } = ports;
    this.kernel = kernel;
    this.settings = settings;
    this.health = new HealthWatch(kernel, settings, options.clock);
    this.held = new HeldCards(kernel, refusals, settings, profiles, {
      session: () => hooks.session(),
      deal: (target, code, source, taken) => hooks.deal(target, code, source, taken),
      shoeRefused: (refusal) => {
        this.shoeRefusal = refusal;
      },
      heldForReader: () => this.health.count('held'),
    });
    const { source } = settings.current;
    this.sourceStatus = { kind: source.kind, path: source.path, state: 'idle' };
  }

  /** The card sources' frames counted per hour and the verdict on the last frames (protocol/readerHealth.ts). */
  get readerHealth(): ReaderHealthView {
    return this.health.view;
  }

  /** The card source in use's verdict on its last frames, as the floor is told of it; null for manual entry. */
  get floorHealth(): ReaderHealthSummary | null {
    return this.health.floorHealth;
  }

  /** Counts one thing of the card source in use for its health (healthWatch.ts; true: the caller publishes). */
  countHealth(tick: HealthTick): boolean {
    return this.health.count(tick);
  }

  /** A read the repeat window dropped (no event comes for it): counted. */
  private repeated(): void {
    if (this.countHealth('repeat')) this.kernel.publish();
  }

  /** What the state carries of the inputs. */
  get view(): { readonly source: SourceStatus; readonly lastInput: ShoeEvent | null; readonly inputs: readonly NumberedInput[]; readonly shoeRefusal: ShoeRefusal | null; readonly held: readonly HeldCard[] } {
    return { source: this.sourceStatus, lastInput: this.lastInput, inputs: this.inputs, shoeRefusal: this.shoeRefusal, held: this.held.view };
  }

  /** A command's record was accepted: an earlier refusal of a shoe card no longer stands; a race begins afresh (the last input was before it); held cards of an ended race or game go. */
  committed(record: SessionRecord): void {
    this.shoeRefusal = null;
    if (record.kind === 'race-start') this.lastInput = null;
    this.held.dropStaleHeld();
  }

  /** What the open race awaits, for the simulated shoe: a new demand after every change of the race (session.race is a new object then). */
  private readonly demandOf = lastOf((race: ActiveRace | null): ShoeDemand | null => {
    const awaiting = race?.state.progress.awaiting ?? null;
    return race === null || awaiting === null ? null : { raceId: race.id, seat: awaiting.seat };
  });
  private readonly awaited: AwaitedCard = () => this.demandOf(this.hooks.session().race);

  readonly takeHeldCard = (target: string, heldId: number): Promise<CommandResult> => this.held.takeHeldCard(target, heldId);
  readonly discardHeldCard = (target: string, heldId: number): Promise<CommandResult> => this.held.discardHeldCard(target, heldId);
  /** Cards still held for `target` go on record as refused before it ends (heldCards.ts). */
  readonly refuseHeldFor = (target: string, kind: 'race' | 'game'): Promise<void> => this.held.refuseHeldFor(target, kind);
  dropStaleHeld(): void {
    this.held.dropStaleHeld();
  }

  /**
   * A keyboard-wedge scan: the text decoded by the scanner's own profile (hardware's decodeScan),
   * whatever the shoe's, then dealt like a shoe's card. Text that is no card is refused with the
   * decoder's reason and kept on record; a card the race refuses is refused naming the card it was
   * read as (`card`), so the screens call it what this profile decoded.
   */
  dealScan(target: string, raw: string): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      const profile = scannerProfile(this.settings.current.source, this.ports.profiles);
      const read = decodeScan(profile, raw);
      if (read.type === 'card') {
        const result = await this.hooks.deal(target, read.card, 'scanner');
        return result.ok ? result : { ok: false, error: { ...result.error, card: read.card } };
      }
      // The decoder's reason, in keys (hardware/): said inside the refusal and on record.
      const said: Message = read.type === 'unknown' ? read.said : { key: 'service.scan.notACard' };
      const open = refusalTarget(this.hooks.session(), target);
      if (open !== null) await this.ports.refusals.refuse(refusalFor(open, raw, englishText(said), 'scanner', said));
      return refused('scan', { key: 'service.scan.refused', params: { raw: JSON.stringify(raw), reason: { message: said }, decoder: profile.name } });
    });
  }

  /** What a scan reads as by the scanner's profile (as dealScan decodes it), nothing dealt or recorded. */
  readScan(raw: string): Promise<CommandResult<ScanReading>> {
    return this.kernel.serial(async () => {
      const read = decodeScan(scannerProfile(this.settings.current.source, this.ports.profiles), raw);
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
    // The reader's mode says what a read is for: an antenna's seat, a deck's tag, or a card dealt.
    const { reader, setUpReads } = this.ports;
    if (reader.is('mapping') && (event.type === 'card' || event.type === 'unknown')) {
      void this.kernel.serial(async () => {
        await setUpReads.mappedSeat(event);
        return ok(null);
      });
      return;
    }
    if (reader.is('registering') && (event.type === 'card' || event.type === 'unknown')) {
      void this.kernel.serial(async () => {
        await setUpReads.registered(event);
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
          if (event.suspect === true && this.held.fromNoise >= MAX_HELD_CARDS) {
            // Noise makes cards by the thousand: a run of them is one record with a count.
            const said: Message = { key: 'service.held.tooMany', params: { n: MAX_HELD_CARDS } };
            const reason = englishText(said);
            await this.ports.refusals.refuse(refusalFor(this.hooks.session().race ? { raceId: target } : { gameId: target }, event.card, reason, 'shoe', said), true);
            this.shoeRefusal = { card: event.card, field: 'card', message: reason, said };
          } else {
            this.held.hold({ target, card: event.card, raw: event.raw, why: event.suspect === true ? 'noise' : 'queued', ...(event.reader === undefined ? {} : { reader: event.reader }) });
          }
          this.kernel.publish();
          return ok(null);
        }
        // Read at another seat's antenna than the one the deal is at: the dealer decides (issue 26).
        const wrong = this.held.wrongSeat(target, event.reader);
        if (wrong !== null) {
          this.held.hold({ target, card: event.card, raw: event.raw, why: 'seat', reader: event.reader as string, ...wrong });
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
        if (open !== null) await this.ports.refusals.refuse(refusalFor(open, event.raw, event.reason, 'shoe', event.said), noisy);
        return ok(null);
      });
    } else {
      this.kernel.publish();
    }
  }

  /**
   * The card source as the settings have it, opened the same way whatever it is: the simulated
   * shoe and a serial port each a CardSourceFactory given one request (a registration's decoder
   * while the reader's mode is registering); none while the reader's settings are being found.
   */
  openSource(): void {
    const { source } = this.settings.current;
    this.sourceStatus = { kind: source.kind, path: source.path, state: 'idle' };
    this.health.start();
    const { reader } = this.ports;
    if (reader.is('detecting')) return;
    const emit = (event: ShoeEvent) => this.handle(event);
    const onRepeat = () => this.repeated();
    const factory = source.kind === 'simulator' ? this.simulator : source.kind === 'serial' ? this.options.cardSources : undefined;
    if (factory === undefined) {
      this.source = null;
      return;
    }
    const profile = effectiveProfile(source, this.ports.profiles);
    const decoder = reader.registrationDecoder;
    const request: CardSourceRequest = { kind: source.kind, path: source.path, profile, ...(decoder === null ? {} : { decoder }) };
    this.source = factory(request, emit, onRepeat) ?? null;
  }

  /** The simulated shoe as a card source: it deals what the open race awaits, from the table's decks. */
  private readonly simulator: CardSourceFactory = (_request, emit) =>
    simulatedSource({ emit, awaited: this.awaited, decks: this.settings.current.table.decks, intervalMs: this.options.simulatedCardMs });

  /** The card source closed and opened again as the settings (and the reader's mode) now say. */
  async reopenSource(): Promise<void> {
    await this.closeSource();
    this.openSource();
  }

  async closeSource(): Promise<void> {
    const source = this.source;
    this.source = null;
    this.health.stop();
    await source?.stop();
  }
}

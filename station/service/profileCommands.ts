import { isInputError } from '../../engine/errors';
import { REGISTRATION_ORDER, UidDecoder } from '../../hardware/decoding/uid';
import type { ShoeEvent } from '../../hardware/events';
import { ALL_BUILT_IN_PROFILES, readProfile, type DeviceProfile } from '../../hardware/profile';
import type { Message } from '../../engine/messages';
import type { CommandResult, DeckRegistration, DeviceProfileInfo, SeatMapping } from '../../protocol/contract';
import type { Session } from '../../replay/session';
import { ok, refused, SaveError } from './failures';
import type { Kernel } from './kernel';
import type { ReaderSession } from './readerMode';
import { effectiveProfile, profileInfo, type ProfileStore, storedName } from './profiles';
import type { StationSettings } from './stationSettings';

/** What the device profiles' commands need of the rest of the console. */
export interface ProfileHooks {
  session(): Session;
  /** The card source closed and opened again (on the registration's decoder while a deck is registered). */
  reopenSource(): Promise<void>;
}

/** What the card inputs hand the profile commands: a read while a deck is registered or the antennas mapped (the reader's mode says which). */
export interface ReaderSetUpReads {
  registered(event: ShoeEvent): Promise<void>;
  mappedSeat(event: ShoeEvent): Promise<void>;
}

/**
 * The device profiles: one imported from a file, and "Register deck", which reads a deck's tags
 * into a profile of its own and chooses it.
 */
export class ProfileCommands implements ReaderSetUpReads {
  /** The profiles offered, as the state carries them (made anew only when one is stored). */
  private listed: readonly DeviceProfileInfo[];
  /** The deck being registered; `finishing` once the last tag is read, while its profile is stored and chosen (reads then are ignored). */
  private registering: { readonly decoder: UidDecoder; readonly base: DeviceProfile; view: DeckRegistration; finishing?: boolean } | null = null;
  /**
   * The antennas being mapped to seats (`base`: the stored profile the map goes into), or the map
   * just saved (`base` null); `mappedBy`: the card that mapped each antenna.
   */
  private mapping: { readonly base: DeviceProfile | null; view: SeatMapping; mappedBy: Record<string, string> } | null = null;

  constructor(
    private readonly kernel: Kernel,
    private readonly profiles: ProfileStore,
    private readonly settings: StationSettings,
    /** The card reader's one mode: registering or mapping while this takes its reads. */
    private readonly reader: ReaderSession,
    private readonly hooks: ProfileHooks,
  ) {
    this.listed = profiles.list();
  }

  get list(): readonly DeviceProfileInfo[] {
    return this.listed;
  }

  /** The registration under way, as the screens show it. */
  get registration(): DeckRegistration | null {
    return this.registering?.view ?? null;
  }

  /** The antennas being mapped to seats, or the map just saved, as the screens show it. */
  get seatMapping(): SeatMapping | null {
    return this.mapping?.view ?? null;
  }

  importProfile(value: unknown): Promise<CommandResult<DeviceProfileInfo>> {
    return this.kernel.serial(async () => {
      let profile: DeviceProfile;
      try {
        profile = readProfile(value);
        storedName(profile.name);
      } catch (error) {
        if (isInputError(error)) return refused(error.field.startsWith('profile') ? error.field : `profile.${error.field}`, error.said ?? error.reason);
        throw error;
      }
      await this.storeProfile(profile);
      this.kernel.publish();
      return ok(profileInfo(profile, false));
    });
  }

  private async storeProfile(profile: DeviceProfile): Promise<void> {
    await this.profiles.save(profile).catch((error: unknown) => {
      throw new SaveError('settings', error);
    });
    this.listed = this.profiles.list();
  }

  /**
   * "Register deck": the card source (it must read tag IDs) reopens with a decoder that gives each
   * new tag the next card of the registration order (spades, hearts, diamonds, clubs, each A 2 … K);
   * after the 52nd the table is stored as a profile of that name and chosen. Null stops it.
   */
  registerDeck(name: string | null): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      if (name === null) {
        if (this.registering === null) return ok(null);
        this.registering = null;
        this.reader.leave('registering');
        await this.hooks.reopenSource();
        this.kernel.publish();
        return ok(null);
      }
      const { race, game } = this.hooks.session();
      const busy = this.reader.refusalToEnter('registering');
      if (busy !== null) return busy;
      if (race) return refused('race', { key: 'service.register.raceOpen', params: { race: race.id } });
      if (game) return refused('game', { key: 'service.register.gameOpen', params: { game: game.id } });
      const { source } = this.settings.current;
      if (source.kind !== 'serial' || source.path === '') return refused('source', { key: 'service.register.noReader' });
      const base = effectiveProfile(source, this.profiles);
      if (base.decoder.kind !== 'uid') return refused('source.decoder', { key: 'service.register.notRfid', params: { name: base.name } });
      try {
        storedName(name);
      } catch (error) {
        if (isInputError(error)) return refused('name', error.said ?? error.reason);
        throw error;
      }
      const { cards: _old, ...options } = base.decoder;
      const decoder = new UidDecoder({}, options);
      decoder.startRegistration(REGISTRATION_ORDER);
      this.reader.enter({ kind: 'registering', decoder });
      this.registering = { decoder, base, view: { name, registered: 0, total: REGISTRATION_ORDER.length, next: REGISTRATION_ORDER[0] ?? null, problem: null } };
      await this.hooks.reopenSource();
      this.kernel.publish();
      return ok(null);
    });
  }

  /**
   * "Map the antennas to seats" (a reader per seat, issue 26): the card source's next reads, one
   * card dealt onto each of the table's seats in order, give each antenna the seat it read at;
   * after the last seat the map is stored as the profile's `readers` (the source's own profile,
   * stored, reading tag IDs: a registered deck's). False stops it (nothing saved) or puts away
   * the map just saved.
   */
  mapSeats(start: boolean): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      if (!start) {
        if (this.mapping === null) return ok(null);
        this.mapping = null;
        this.reader.leave('mapping');
        this.kernel.publish();
        return ok(null);
      }
      const { race, game } = this.hooks.session();
      const open = race ?? game;
      if (open) return refused(race ? 'race' : 'game', { key: 'service.seatMap.open', params: { open: open.id } });
      const busy = this.reader.refusalToEnter('mapping');
      if (busy !== null) return busy;
      const { source, table } = this.settings.current;
      if (source.kind !== 'serial' || source.path === '') return refused('source', { key: 'service.noSerialPort' });
      const base = this.profiles.get(source.decoder);
      // The map is saved into the source's own stored profile: one that reads tag IDs (a registered deck's, or one imported).
      if (base === undefined || base.decoder.kind !== 'uid' || Object.hasOwn(ALL_BUILT_IN_PROFILES, source.decoder)) return refused('source.decoder', { key: 'service.seatMap.notDeck', params: { name: source.decoder } });
      // A table set up keeps a seat in play (settingsCommands' requireSeats), and a serial source is set up with it.
      const seats = table.seats.map(({ seat }) => seat).sort((a, b) => a - b);
      this.reader.enter({ kind: 'mapping' });
      this.mapping = { base, view: { name: base.name, seats, readers: {}, next: seats[0] ?? null, problem: null }, mappedBy: {} };
      this.kernel.publish();
      return ok(null);
    });
  }

  /** A read while mapping the antennas: its antenna becomes the next seat, or why not; after the last, the map stored in the profile. */
  async mappedSeat(event: ShoeEvent): Promise<void> {
    const mapping = this.mapping;
    if (mapping === null || mapping.base === null) return;
    const { view } = mapping;
    const seat = view.next;
    if (seat === null) return;
    const problem = (said: Message) => {
      mapping.view = { ...view, problem: said };
      this.kernel.publish();
    };
    if (event.type === 'unknown') return problem(event.said);
    if (event.type !== 'card') return;
    const { reader } = event;
    if (reader === undefined) return problem({ key: 'service.seatMap.noAntenna' });
    const taken = view.readers[reader];
    if (taken !== undefined) {
      // The card that mapped the antenna, still lying on it and read again (a resting tag repeats
      // its frame, and a repeat window may let it through): nothing new. Another card there is
      // the antenna read twice, even right after it was mapped (the next seat's card dealt onto it).
      if (mapping.mappedBy[reader] === event.card) return;
      return problem({ key: 'service.seatMap.antennaTaken', params: { reader, seat: taken } });
    }
    const readers = { ...view.readers, [reader]: seat };
    const next = view.seats[view.seats.indexOf(seat) + 1] ?? null;
    mapping.mappedBy[reader] = event.card;
    mapping.view = { ...view, readers, next, problem: null };
    if (next === null) {
      const profile: DeviceProfile = { ...mapping.base, readers };
      // Done once stored: the screen sees the map saved, never the old profile after "done".
      await this.storeProfile(profile);
      this.mapping = { base: null, view: mapping.view, mappedBy: mapping.mappedBy };
      this.reader.leave('mapping');
    }
    this.kernel.publish();
  }

  /** A read while registering: the next card's tag, or why not; after the last, the profile stored and chosen. */
  async registered(event: ShoeEvent): Promise<void> {
    const registering = this.registering;
    if (registering === null || registering.finishing === true) return;
    if (event.type === 'unknown') {
      registering.view = { ...registering.view, problem: event.reason, problemSaid: event.said };
      this.kernel.publish();
      return;
    }
    const registered = registering.view.registered + 1;
    const { problemSaid: _taken, ...view } = registering.view;
    registering.view = { ...view, registered, next: REGISTRATION_ORDER[registered] ?? null, problem: null };
    if (registering.decoder.registering) {
      this.kernel.publish();
      return;
    }
    const { base } = registering;
    if (base.decoder.kind !== 'uid') return;
    const profile: DeviceProfile = { ...base, name: registering.view.name, decoder: { ...base.decoder, cards: registering.decoder.entries() } };
    // Registration ends only once the profile is stored and chosen: a screen never sees it over
    // with the old profile still in the settings.
    registering.finishing = true;
    try {
      await this.storeProfile(profile);
      await this.settings.store({ ...this.settings.current, source: { ...this.settings.current.source, decoder: profile.name } });
    } finally {
      this.registering = null;
      this.reader.leave('registering');
    }
    await this.hooks.reopenSource();
    this.kernel.publish();
  }
}

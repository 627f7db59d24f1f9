import type { CommandResult, FloorLinkState, FloorTarget, ReaderHealthSummary } from '../../protocol/contract';
import type { FloorMessage } from '../floorLink/inbox';
import type { FloorLink, FloorLinkTiming } from '../floorLink/link';
import type { FloorTakers } from './floorCommands';
import { isInputError } from '../../engine/errors';
import type { Message } from '../../engine/messages';
import { ok } from './failures';
import type { Kernel } from './kernel';
import { readSettings } from './settings';
import type { StationSettings } from './stationSettings';

const FLOOR_OFF: FloorLinkState = { state: 'off' };

export interface FloorFollowingOptions {
  readonly dataDir: string;
  readonly clock?: () => Date;
  /** The floor CHIP_RACE_DATABASE_URL and CHIP_RACE_TABLE set up: over the settings' floor and table name. */
  readonly floor?: { readonly url: string; readonly table: string };
  readonly floorTiming?: Partial<FloorLinkTiming>;
}

/**
 * The station's link to the floor, following the settings (or the environment): started,
 * restarted or stopped as they change, told of every append, its state for the screens, and the
 * floor's clock handed on to the station's.
 */
export class FloorFollowing {
  private link: FloorLink | null = null;
  /** The target the link runs for (JSON), so an unchanged one is not restarted. */
  private key = '';
  private state: FloorLinkState = FLOOR_OFF;
  /** The floor's clock row as the link refused it last (null: taken, or none refused): said on the link's state while it stays so. */
  private clockRefused: Message | null = null;

  constructor(
    private readonly kernel: Kernel,
    private readonly settings: StationSettings,
    private readonly options: FloorFollowingOptions,
    /** What the floor's inbox brings, each taken as a command in its turn (floorCommands.ts). */
    private readonly takers: FloorTakers,
    /** The card reader's health as the floor is told of it (null: no reader in use). */
    private readonly reader: { readonly floorHealth: ReaderHealthSummary | null },
  ) {}

  /** The link's state, as the screens show it. */
  get current(): FloorLinkState {
    const state = this.state;
    if (this.clockRefused === null || (state.state !== 'connected' && state.state !== 'connecting' && state.state !== 'behind')) return state;
    return { ...state, clockRefused: this.clockRefused };
  }

  /** A line appended to the journal: the link sends it on. */
  appended(seq: number): void {
    this.link?.appended(seq);
  }

  async close(): Promise<void> {
    await this.link?.close();
    this.link = null;
  }

  /** Where the journal goes: the environment's floor, else the settings' when on (the table named); null for none. */
  private config(): { url: string; table: string; from: FloorTarget['from'] } | null {
    if (this.options.floor !== undefined) return { ...this.options.floor, from: 'environment' };
    const { floor, table } = this.settings.current;
    return floor?.on === true && floor.url !== '' && table.name !== undefined ? { url: floor.url, table: table.name, from: 'settings' } : null;
  }

  /** The table named as the floor knows it (CHIP_RACE_TABLE), in the settings the station's records are made with. */
  private async nameTable(name: string): Promise<CommandResult> {
    const current = this.settings.current;
    if (current.table.name === name) return ok(null);
    let named;
    try {
      named = readSettings({ ...current, table: { ...current.table, name } });
    } catch (error) {
      // A name the settings refuse was refused with the environment already (floorEnvTable).
      if (isInputError(error)) return ok(null);
      throw error;
    }
    await this.settings.store(named);
    this.kernel.publish();
    return ok(null);
  }

  /**
   * At start, before the link is followed: a station starting with no floor set up while its
   * journal still holds the floor's seating (the link ended with the console) gets its own seats
   * back, awaited, so its first state is already the station's own; and its own clock, when the
   * journal follows the floor's (the floor's tournament kept until a floor says otherwise).
   */
  async startUnlinked(): Promise<void> {
    if (this.config() !== null) return;
    if (this.settings.current.seatsFromFloor !== undefined) await this.takers.take({ kind: 'seating', seats: null });
    await this.takers.ownClockBack();
  }

  /**
   * A message of the floor's inbox. The clock row refused (too deep, too large, malformed): the
   * clock followed stands, and the link's pill says why until a row is taken again. Anything else
   * (the clock, the seating, decisions) is taken as a command in its turn and journaled as the
   * station's record of it (FloorTakers.take).
   */
  private received(message: FloorMessage): void {
    if (message.kind === 'clock-refused') {
      this.clockRefused = message.why;
      this.kernel.publish();
    } else void this.takers.take(message);
  }

  /** Starts, restarts or stops the floor link as the settings (or the environment) now say. */
  async follow(): Promise<void> {
    const config = this.config();
    // The environment's table name is the floor's name for this table: the station's records and
    // history say it too, whatever a screen saved (queued after the change running now, as the
    // clock's hand-over is).
    if (config?.from === 'environment' && this.settings.current.table.name !== config.table) void this.kernel.serial(() => this.nameTable(config.table));
    const key = JSON.stringify(config);
    if (key === this.key) return;
    this.key = key;
    const old = this.link;
    this.link = null;
    await old?.close();
    this.clockRefused = null;
    if (config === null) {
      this.state = FLOOR_OFF;
      // No floor: the station's own clock again (queued after the change that turned the floor off:
      // this runs inside it, and followFloorClock waits its turn like every change).
      if (old !== null) void this.takers.take({ kind: 'clock', clock: null });
      // The station's own seats back (startUnlinked gives them back when it starts unlinked).
      if (old !== null) void this.takers.take({ kind: 'seating', seats: null });
      return;
    }
    // Loaded only now: a console without a floor never loads the database driver.
    const { FloorLink } = await import('../floorLink/link');
    const link = await FloorLink.start({
      ...config,
      dataDir: this.options.dataDir,
      journalSeq: this.kernel.journalSeq,
      ...(this.options.floorTiming ? { timing: this.options.floorTiming } : {}),
      // The service's time: the link measures the floor's against it.
      ...(this.options.clock ? { now: this.options.clock } : {}),
      // A link closed says nothing more: only the one running now reaches here.
      onState: (state) => {
        this.state = state;
        this.kernel.publish();
      },
      // The floor's inbox, its one way in (station/floorLink/inbox.ts).
      onFloorMessage: (message) => this.received(message),
      readerHealth: () => this.reader.floorHealth,
      decisionsAfter: () => this.takers.decisionsAfter(),
    });
    this.link = link;
    this.state = link.current;
  }
}

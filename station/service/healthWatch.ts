import type { ReaderHealthSummary, ReaderHealthView } from '../../protocol/contract';
import type { Kernel } from './kernel';
import { EMPTY_HEALTH, foldHealth, healthView, recentHealth, type HealthState, type HealthTick } from './readerHealth';
import type { StationSettings } from './stationSettings';

/** How often the reader health's verdict is looked at again with no frame coming (a warning is forgotten, and the reader quiet, after an hour with no frame). */
export const HEALTH_REFRESH_MS = 30_000;
/**
 * The reader health's view is made again at most this often, a count in between shown when the time
 * is up: a noisy line reads thousands of frames a second, an RFID reader repeats a tag lying on it
 * many times a second, and the view (4 sources × 24 hours at most) is up to some 9 KB of every patch.
 */
export const HEALTH_VIEW_MS = 1_000;

/**
 * The card sources' health as the station keeps it (the counting is readerHealth.ts's): the frames
 * of the source in use counted, its view made at most every HEALTH_VIEW_MS, and the verdict looked
 * at again every HEALTH_REFRESH_MS while the source is open.
 */
export class HealthWatch {
  private health: HealthState = EMPTY_HEALTH;
  private shown: ReaderHealthView = { current: null, sources: [] };
  private refreshTimer: NodeJS.Timeout | undefined;
  /** When the view was last made (this computer's clock), and the timer that makes it once HEALTH_VIEW_MS is up. */
  private viewAt = Number.NEGATIVE_INFINITY;
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly kernel: Kernel,
    private readonly settings: StationSettings,
    private readonly clock: (() => Date) | undefined,
  ) {}

  /** The card sources' frames counted per hour and the verdict on the last frames (protocol/readerHealth.ts). */
  get view(): ReaderHealthView {
    return this.shown;
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
    return (this.clock?.() ?? new Date()).getTime();
  }

  /**
   * Counts one thing of the card source in use for its health. The view is made again now when
   * HEALTH_VIEW_MS has passed since the last (true: the caller publishes), else once it has (published then).
   */
  count(tick: HealthTick): boolean {
    const source = this.sourceName;
    if (source === null) return false;
    this.health = foldHealth(this.health, source, tick, this.nowMs);
    const wait = this.viewAt + HEALTH_VIEW_MS - Date.now();
    if (wait <= 0) {
      this.viewAt = Date.now();
      this.shown = healthView(this.health, source, this.nowMs);
      return true;
    }
    if (this.pending === undefined) {
      this.pending = setTimeout(() => {
        this.pending = undefined;
        this.viewAt = Date.now();
        this.shown = healthView(this.health, this.sourceName, this.nowMs);
        this.kernel.publish();
      }, wait);
      this.pending.unref();
    }
    return false;
  }

  /** The verdict looked at again with time gone by: published only when the view changed. */
  private refresh(): void {
    const next = healthView(this.health, this.sourceName, this.nowMs);
    if (JSON.stringify(next) === JSON.stringify(this.shown)) return;
    this.shown = next;
    this.kernel.publish();
  }

  /** A source (re)opened as the settings have it: its view now, and looked at again from now on. */
  start(): void {
    this.shown = healthView(this.health, this.sourceName, this.nowMs);
    clearInterval(this.refreshTimer);
    this.refreshTimer = setInterval(() => this.refresh(), HEALTH_REFRESH_MS);
    this.refreshTimer.unref();
  }

  /** The source closed: nothing looked at again until it opens. */
  stop(): void {
    clearInterval(this.refreshTimer);
    clearTimeout(this.pending);
    this.refreshTimer = undefined;
    this.pending = undefined;
  }
}

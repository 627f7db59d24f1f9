import type { StationView } from './ports';
import { detectSettings, type DetectOptions, type DetectResult } from '../../hardware/detect/listen';
import type { Found } from '../../hardware/detect/score';
import type { CommandResult, DetectedProfile, ReaderDetection } from '../../protocol/contract';
import { ok, refused } from './failures';
import type { Kernel } from './kernel';
import type { ReaderSession } from './readerMode';

/** Finds a reader's settings by listening (hardware/detect): the real ports, or a test's stand-in. */
export type ReaderDetector = (options: DetectOptions) => Promise<DetectResult>;

export interface ReaderDetectionHooks {
  /** The station as it stands: the session (nothing open while the port is listened to) and the settings' source. */
  readonly view: Pick<StationView, 'session' | 'settings'>;
  /** The card reader's one mode: detecting while the port is listened to. */
  readonly reader: ReaderSession;
  /** The card source: closed while its port is listened to, and opened again (as the settings have it now) once done. */
  readonly cards: { closeSource(): Promise<void>; openSource(): void };
}

const detectedOf = (found: Found): DetectedProfile => ({
  setting: found.setting,
  summary: found.summary,
  frames: found.reading.clean,
  cards: found.reading.cards,
  tags: found.reading.tags,
  profile: found.profile as unknown as Readonly<Record<string, unknown>>,
});

/**
 * "Find the settings for this reader": the card source is closed (its port is listened to at each
 * trial setting in turn, as `cards --detect` does) and opened again once done; the state's
 * `detection` shows the setting being tried and then what was found, until dismissed. The
 * profile chosen is stored and chosen by the screens through importProfile and saveSettings.
 */
export class ReaderDetections {
  private view: ReaderDetection | null = null;
  private aborter: AbortController | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly kernel: Kernel,
    private readonly hooks: ReaderDetectionHooks,
    private readonly detect: ReaderDetector = detectSettings,
  ) {}

  get current(): ReaderDetection | null {
    return this.view;
  }

  detectReader(start: boolean): Promise<CommandResult> {
    return this.kernel.serial(async () => {
      if (!start) {
        if (this.aborter !== null) this.aborter.abort();
        else if (this.view !== null) {
          this.view = null;
          this.kernel.publish();
        }
        return ok(null);
      }
      // Listening already: it goes on.
      if (this.running !== null) return ok(null);
      const { race, game } = this.hooks.view.session();
      if (race) return refused('race', { key: 'service.detect.open', params: { open: race.id } });
      if (game) return refused('game', { key: 'service.detect.open', params: { open: game.id } });
      const busy = this.hooks.reader.refusalToEnter('detecting', 'source');
      if (busy !== null) return busy;
      const source = this.hooks.view.settings().source;
      if (source.kind !== 'serial' || source.path === '') return refused('source', { key: 'service.noSerialPort' });
      await this.hooks.cards.closeSource();
      const aborter = new AbortController();
      this.aborter = aborter;
      this.view = { state: 'listening', path: source.path, tried: 0, total: 0, setting: null, found: [], problem: null };
      // Listening now: the card source stays closed.
      this.hooks.reader.enter({ kind: 'detecting' });
      this.running = this.listen(source.path, aborter.signal);
      // The card source's status idle meanwhile (it opens nothing while listening goes on).
      this.hooks.cards.openSource();
      this.kernel.publish();
      return ok(null);
    });
  }

  private async listen(path: string, signal: AbortSignal): Promise<void> {
    let result: DetectResult;
    try {
      result = await this.detect({
        path,
        signal,
        onProgress: (progress) => {
          this.view = { ...(this.view as ReaderDetection), tried: progress.index, total: progress.total, setting: progress.name };
          this.kernel.publish();
        },
      });
    } catch (error) {
      result = { ok: false, problem: { code: 'io-error', message: String(error), said: { key: 'hardware.port.ioError', params: { path, why: String(error) } } } };
    }
    const base = this.view as ReaderDetection;
    this.view = result.ok
      ? { ...base, state: 'done', tried: base.total, setting: null, found: result.found.map(detectedOf) }
      : { ...base, state: 'failed', setting: null, problem: result.problem.message, problemSaid: result.problem.said };
    this.aborter = null;
    this.running = null;
    this.hooks.reader.leave('detecting');
    // The card source again, as the settings have it now (saved meanwhile, or not).
    await this.kernel.serial(async () => {
      if (!this.hooks.reader.is('detecting')) this.hooks.cards.openSource();
      this.kernel.publish();
      return ok(null);
    });
  }

  /** The console closes: listening stops, and the port is let go. */
  async close(): Promise<void> {
    this.aborter?.abort();
    await this.running;
  }
}
